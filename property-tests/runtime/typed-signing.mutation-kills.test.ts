// typed-signing.ts of the source runtime with the spec's ActionProposal declaration and validator
// (as the generated package binds them), on ActionProposals the real Android provider SDK signed
// (spec/agent-provider/vectors/signature-doctor.json, "verified" cases): re-signing the unsigned
// part must give the SDK's own signature back, verification must return the message, and each
// refusal must carry its code.
import { describe, expect, it } from "vitest";
import { SigningError, signTyped, verifyTyped } from "../../generators/targets/ts/runtime/src/typed-signing.js";
import { signHmacV1, type HmacSha256V1Declaration } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import type { ValidationResult } from "../../generators/targets/ts/runtime/src/validation.js";
import { readJson } from "../signing/helpers.js";

const REPO = new URL("../..", import.meta.url).pathname;
const { ACTION_PROPOSAL_SIGNATURE: DECLARATION } = (await import(`${REPO}generated/ts/agent-provider/signing.js`)) as { ACTION_PROPOSAL_SIGNATURE: HmacSha256V1Declaration };
const { validateActionProposal: validate } = (await import(`${REPO}generated/ts/agent-provider/messages.js`)) as { validateActionProposal: (v: unknown) => ValidationResult<unknown> };
const { cases } = readJson("spec/agent-provider/vectors/signature-doctor.json") as { cases: { name: string; message_type: string; key_utf8: string; text: string; expect: unknown }[] };
const signed = cases.filter((c) => c.message_type === "ActionProposal" && c.expect === "verified");
const unsignedOf = (message: Record<string, unknown>) => {
  const { [DECLARATION.signatureField]: _s, [DECLARATION.algorithmField]: _a, ...rest } = message;
  return rest;
};
const thrown = (f: () => unknown): SigningError => {
  try {
    f();
  } catch (error) {
    if (error instanceof SigningError) return error;
    throw error;
  }
  throw new Error("did not throw");
};

describe("on the real SDK's signed ActionProposals", () => {
  it("has them", () => expect(signed.length).toBe(12));
  for (const c of signed) {
    it(c.name, () => {
      const message = JSON.parse(c.text) as Record<string, unknown>;
      // Some of the SDK's edge cases are not valid ActionProposals (e.g. non-object arguments):
      // their signature verifies, and the schema refuses them after it.
      const schema = validate(message);
      const want = schema.ok
        ? { ok: true, message }
        : { ok: false, error: { code: "schema-invalid", message: `the message is not a valid message: ${schema.errors.map((x) => x.message).join("; ")}`, errors: schema.errors } };
      // Text, bytes and the parsed value all verify and come back as the message.
      expect(verifyTyped(DECLARATION, validate, c.text, c.key_utf8)).toEqual(want);
      expect(verifyTyped(DECLARATION, validate, new TextEncoder().encode(c.text), c.key_utf8)).toEqual(want);
      expect(verifyTyped(DECLARATION, validate, message, new TextEncoder().encode(c.key_utf8))).toEqual(want);
      // Signing the unsigned part gives the SDK's signature (or the schema's refusal).
      if (schema.ok) expect(signTyped(DECLARATION, validate, unsignedOf(message), c.key_utf8)).toEqual(message);
      else expect(thrown(() => signTyped(DECLARATION, validate, unsignedOf(message), c.key_utf8)).code).toBe("schema-invalid");
    });
  }
});

describe("refusals", () => {
  const c = signed.find((x) => validate(JSON.parse(x.text)).ok)!;
  const message = JSON.parse(c.text) as Record<string, unknown>;
  it("another key: the scheme's code", () => {
    const r = verifyTyped(DECLARATION, validate, c.text, "another key");
    expect(r.ok ? "ok" : r.error.code).toBe("signature-mismatch");
  });
  it("JSON text the strict parser refuses: json-invalid", () => {
    const r = verifyTyped(DECLARATION, validate, '{"a":1,"a":2}', c.key_utf8);
    expect(r.ok ? "ok" : [r.error.code, r.error.message.startsWith("invalid JSON: ")]).toEqual(["json-invalid", true]);
    const bytes = verifyTyped(DECLARATION, validate, new Uint8Array([0x7b]), c.key_utf8);
    expect(bytes.ok ? "ok" : bytes.error.code).toBe("json-invalid");
  });
  it("not an object, as text or value", () => {
    const error = { code: "not-an-object", message: "a signed message must be a JSON object" };
    expect(verifyTyped(DECLARATION, validate, "[1]", c.key_utf8)).toEqual({ ok: false, error });
    expect(verifyTyped(DECLARATION, validate, null, c.key_utf8)).toEqual({ ok: false, error });
    expect(verifyTyped(DECLARATION, validate, 42, c.key_utf8)).toEqual({ ok: false, error });
    const e = thrown(() => signTyped(DECLARATION, validate, [1, 2], c.key_utf8));
    expect([e.name, e.code, e.message, e.errors]).toEqual(["SigningError", "not-an-object", "a signed message must be a JSON object", []]);
  });
  it("a correctly signed message its schema refuses: schema-invalid with every error", () => {
    const bad = { ...unsignedOf(message), extra_member: true };
    const resigned = signHmacV1(DECLARATION, bad as never, c.key_utf8);
    if (!resigned.ok) throw new Error(resigned.error.message);
    const expected = validate(resigned.message);
    if (expected.ok) throw new Error("the schema accepted it");
    const r = verifyTyped(DECLARATION, validate, resigned.message, c.key_utf8);
    expect(r).toEqual({ ok: false, error: { code: "schema-invalid", message: `the message is not a valid message: ${expected.errors.map((x) => x.message).join("; ")}`, errors: expected.errors } });
    const e = thrown(() => signTyped(DECLARATION, validate, bad, c.key_utf8));
    expect([e.code, e.message, e.errors]).toEqual(["schema-invalid", `the signed message is not a valid message: ${expected.errors.map((x) => x.message).join("; ")}`, expected.errors]);
  });
  it("an empty key is the scheme's refusal, thrown without the key", () => {
    const e = thrown(() => signTyped(DECLARATION, validate, unsignedOf(message), ""));
    expect(e.code).toBe("key-missing");
    expect(e.errors).toEqual([]);
  });
  it("several schema errors are joined with '; ' in the message", () => {
    const errors = [{ message: "/a must be string" }, { message: "/b must be integer" }] as never[];
    const twoErrors = () => ({ ok: false as const, errors });
    const e = thrown(() => signTyped(DECLARATION, twoErrors, unsignedOf(message), c.key_utf8));
    expect([e.message, e.errors]).toEqual(["the signed message is not a valid message: /a must be string; /b must be integer", errors]);
    const r = verifyTyped(DECLARATION, twoErrors, message, c.key_utf8);
    expect(r.ok ? "ok" : r.error.message).toBe("the message is not a valid message: /a must be string; /b must be integer");
  });
  it("a non-object is refused as such before the key is looked at, also with an empty key", () => {
    for (const value of [null, [], "text"]) expect(thrown(() => signTyped(DECLARATION, validate, value as never, "")).code).toBe("not-an-object");
  });
  it("a given signing-input function is what sign and verify use (the generated functions pass theirs)", () => {
    const refusal = { ok: false as const, error: { code: "covered-field-not-string" as const, message: "from the function" } };
    expect(thrown(() => signTyped(DECLARATION, validate, unsignedOf(message), c.key_utf8, () => refusal)).code).toBe("covered-field-not-string");
    expect(verifyTyped(DECLARATION, validate, message, c.key_utf8, () => refusal)).toBe(refusal);
  });
});
