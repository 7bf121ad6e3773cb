// The shared doc sentences, against hand-written expectations.
import { describe, expect, it } from "vitest";
import { unsignedSummary, withArticle } from "./prose.js";

describe("prose", () => {
  it("puts an before a vowel letter and a before any other", () => {
    expect(["ActionProposal", "Ring", "InboxEntry", "Unsigned", "envelope", "Zebra", "OTP"].map(withArticle)).toEqual([
      "an ActionProposal", "a Ring", "an InboxEntry", "an Unsigned", "an envelope", "a Zebra", "an OTP",
    ]);
  });

  it("words the unsigned message's summary once, capitalised", () => {
    expect(unsignedSummary("ActionProposal", ["signature_algorithm", "signature"])).toBe(
      "An ActionProposal before signing: every member except signature_algorithm and signature, which signActionProposal fills in.",
    );
    expect(unsignedSummary("Ring", ["sig"])).toBe("A Ring before signing: every member except sig, which signRing fills in.");
  });
});
