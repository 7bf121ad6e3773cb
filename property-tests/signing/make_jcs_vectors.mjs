// Writes spec/common/vectors/jcs.json with expected bytes from the independent `canonicalize`
// package (not this project's canonicalizer) and SHA-256 from node:crypto. The test
// jcs-vectors.test.ts checks both implementations against the file. Run: node make_jcs_vectors.mjs [--check]
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const canonicalize = require("canonicalize");

const inputs = [
  ["empty object", "{}"],
  ["empty array", "[]"],
  ["scalars", '[null,true,false,0,-0,"",""]'],
  ["keys sorted by UTF-16 code units, not code points", '{"\\ufb33":1,"\\ud83d\\ude02":2,"\\u00e9":3,"z":4,"Z":5,"":6}'],
  ["integer-like keys sort as strings", '{"10":1,"9":2,"1":3,"01":4}'],
  ["nested objects sorted at every level", '{"b":{"y":[{"d":1,"c":2}],"x":null},"a":{"k":"v"}}'],
  ["escapes: only quote, backslash and C0 controls", '"\\u0000\\u0001\\u001f\\b\\t\\n\\f\\r\\"\\\\\\/\\u007f\\u0080\\u2028\\u2029"'],
  ["non-ASCII stays raw", '"Zoë ✓ 😂 \\u00e9"'],
  ["unnormalized unicode is not normalized", '"A\\u030a"'],
  ["whitespace removed", ' { "a" : [ 1 , 2 ] , "b" : { } } '],
  ["ES6 numbers: integers and exponent boundaries", "[1,10,100,1e20,1e21,1e22,1.2345678901234568e20,-1e21]"],
  ["ES6 numbers: small values", "[0.1,0.000001,0.0000001,1e-7,5e-324,-5e-324]"],
  ["ES6 numbers: shortest round trip", "[0.30000000000000004,1.7976931348623157e308,9007199254740991,-9007199254740991,4.5,2e-3,333333333.33333329]"],
  ["ES6 numbers: integral doubles lose their fraction", "[12.0,1.0e2,56.0,-0.0]"],
  ["deep nesting", "[[[[[[[[[[{\"a\":[[[[[]]]]]}]]]]]]]]]]"],
];

const cases = inputs.map(([name, input]) => {
  const canonical = canonicalize(JSON.parse(input));
  return { name, input, canonical, sha256_hex: createHash("sha256").update(canonical, "utf8").digest("hex") };
});

const out = {
  description:
    "RFC 8785 canonicalization: parse `input` strictly, canonicalize, compare the UTF-8 bytes with `canonical`; sha256_hex is SHA-256 of those bytes. Expected values from the independent canonicalize@2.1.0 package (property-tests/signing/make_jcs_vectors.mjs). The RFC's own pairs and ES6 number lines are in property-tests/vectors/jcs/.",
  cases,
};
const target = new URL("../../spec/common/vectors/jcs.json", import.meta.url);
const text = JSON.stringify(out, null, 2) + "\n";
if (process.argv.includes("--check")) {
  if (readFileSync(target, "utf8") !== text) {
    console.log("stale: spec/common/vectors/jcs.json");
    process.exit(1);
  }
  console.log("ok");
} else {
  writeFileSync(target, text);
  console.log(`wrote ${cases.length} cases`);
}
