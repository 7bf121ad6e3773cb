// The spec vectors are reproducible from the oracles alone: Python's stdlib for the signing,
// token, content-id and audit files, canonicalize@2.1.0 for jcs.json.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

describe("vector provenance", () => {
  it("make_vectors.py (Python stdlib only) reproduces the spec vectors exactly", () => {
    expect(execFileSync("python3", [`${ROOT}property-tests/signing/make_vectors.py`, "--check"], { encoding: "utf8" }).trim()).toBe("ok");
  });
  it("make_jcs_vectors.mjs (canonicalize@2.1.0) reproduces spec/common/vectors/jcs.json exactly", () => {
    expect(execFileSync(process.execPath, [`${ROOT}property-tests/signing/make_jcs_vectors.mjs`, "--check"], { encoding: "utf8" }).trim()).toBe("ok");
  });
});
