// The spec vectors are reproducible from the oracles alone: Python's stdlib for the signing,
// token, content-id and audit files, canonicalize@2.1.0 for jcs.json.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

describe("vector provenance", () => {
  it("make_vectors.py (Python stdlib only) reproduces the spec vectors exactly", () => {
    expect(execFileSync("python3", [`${ROOT}property-tests/signing/make_vectors.py`, "--check"], { encoding: "utf8" }).trim()).toBe("ok");
  });
  it("the oracle's ES6 number layout is exact: all 100,000 upstream ES6 number lines", () => {
    const file = `${ROOT}property-tests/vectors/jcs/es6numbers/es6testfile_100000.txt.gz`;
    expect(execFileSync("python3", [`${ROOT}property-tests/signing/make_vectors.py`, "--es6-check", file], { encoding: "utf8" }).trim()).toBe("ok 100000");
  });
  it("the oracle writes what Python's repr writes differently from ES6 the ES6 way, and refuses non-JSON numbers", () => {
    const script = [
      "import sys, json",
      `sys.path.insert(0, ${JSON.stringify(`${ROOT}property-tests/signing`)})`,
      "import make_vectors as m",
      "out = [m.jcs(v) for v in [1e-05, 1e-07, 1e16, 1e20, 1e21, 12.0, -0.0, 0.1, [1e-06, {'b': 2.5, 'a': 1e-05}]]]",
      "bad = []",
      "for v in [float('nan'), float('inf'), 2 ** 53 + 1]:",
      "    try: m.jcs(v); bad.append('accepted')",
      "    except ValueError: bad.append('refused')",
      "print(json.dumps([out, bad]))",
    ].join("\n");
    const [out, bad] = JSON.parse(execFileSync("python3", ["-c", script], { encoding: "utf8" })) as [string[], string[]];
    // Hand-written ES6 answers (ECMA-262 Number::toString), and what JSON.stringify says.
    expect(out).toEqual(["0.00001", "1e-7", "10000000000000000", "100000000000000000000", "1e+21", "12", "0", "0.1", '[0.000001,{"a":0.00001,"b":2.5}]']);
    expect(out.slice(0, 8)).toEqual([1e-5, 1e-7, 1e16, 1e20, 1e21, 12, -0, 0.1].map((v) => JSON.stringify(v)));
    expect(bad).toEqual(["refused", "refused", "refused"]);
  });
  it("make_jcs_vectors.mjs (canonicalize@2.1.0) reproduces spec/common/vectors/jcs.json exactly", () => {
    expect(execFileSync(process.execPath, [`${ROOT}property-tests/signing/make_jcs_vectors.mjs`, "--check"], { encoding: "utf8" }).trim()).toBe("ok");
  });
});
