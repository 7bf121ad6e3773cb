// RFC 8785 agreement with outside data: the RFC's six input/output pairs, the ES6 number lines
// (10k plain, 100k gzipped), the AdCP plan hashes, agent-service canonical JSON, and this
// project's spec/common/vectors/jcs.json (whose expected values come from canonicalize@2.1.0).
import { readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { approvalPayloadDigest } from "../../generators/targets/ts/runtime/src/approval-token.js";
import { canonicalize } from "../../generators/targets/ts/runtime/src/canonical-json.js";
import { sha256Hex } from "../../generators/targets/ts/runtime/src/crypto.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { OUTSIDE, oracleCanonicalize, readJson } from "./helpers.js";

function strict(text: string | Uint8Array): unknown {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function numberFromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

function checkNumberLines(text: string): number {
  let count = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const comma = line.indexOf(",");
    const value = numberFromBits(line.slice(0, comma));
    const expected = line.slice(comma + 1);
    const actual = canonicalize(value);
    if (actual !== expected) throw new Error(`${line}: got ${actual}`);
    count++;
  }
  return count;
}

describe("RFC 8785 reference data (cyberphone/json-canonicalization)", () => {
  const names = readdirSync(`${OUTSIDE}jcs/testdata/input`).filter((n) => n.endsWith(".json"));
  it("has all six pairs", () => expect(names.sort()).toEqual(["arrays.json", "french.json", "structures.json", "unicode.json", "values.json", "weird.json"]));
  for (const name of names) {
    it(`${name}: canonical bytes match output/ and outhex/`, () => {
      const input = readFileSync(`${OUTSIDE}jcs/testdata/input/${name}`);
      const expected = readFileSync(`${OUTSIDE}jcs/testdata/output/${name}`);
      const hex = readFileSync(`${OUTSIDE}jcs/testdata/outhex/${name.replace(".json", ".txt")}`, "utf8").trim().split(/\s+/).join("");
      const actual = Buffer.from(canonicalize(strict(new Uint8Array(input))), "utf8");
      expect(actual.equals(expected)).toBe(true);
      expect(actual.toString("hex")).toBe(hex.toLowerCase());
    });
  }
  it("ES6 number serialization: 10,000 lines", () => {
    expect(checkNumberLines(readFileSync(`${OUTSIDE}jcs/es6numbers/es6testfile_10000.txt`, "utf8"))).toBe(10_000);
  });
  it("ES6 number serialization: 100,000 lines (gzipped)", () => {
    const text = gunzipSync(readFileSync(`${OUTSIDE}jcs/es6numbers/es6testfile_100000.txt.gz`)).toString("utf8");
    expect(checkNumberLines(text)).toBe(100_000);
  });
});

describe("AdCP plan hashes (JCS + SHA-256)", () => {
  const folder = `${OUTSIDE}adcp-vectors/plan-hash/`;
  for (const name of readdirSync(folder).filter((n) => n.endsWith(".json")).sort()) {
    it(name, () => {
      const vector = JSON.parse(readFileSync(folder + name, "utf8"));
      const preimage = strict(JSON.stringify(vector.expected.preimage));
      expect(canonicalize(preimage)).toBe(vector.expected.jcs_bytes);
      expect(sha256Hex(vector.expected.jcs_bytes)).toBe(vector.expected.sha256_hex);
    });
  }
});

describe("agent-service canonical JSON (transcribed from the reference tests)", () => {
  const file = readJson("property-tests/vectors/agent-service/canonical_json_vectors.json");
  it("canonical_json pairs", () => {
    for (const c of file.canonical_json) expect(canonicalize(c.input)).toBe(c.output);
  });
  it("payload digests", () => {
    for (const c of file.payload_sha256) expect(approvalPayloadDigest(c.payload)).toBe(c.sha256);
  });
  it("key order does not change the digest", () => {
    for (const [a, b] of file.key_order_insensitive_pairs) expect(approvalPayloadDigest(a)).toBe(approvalPayloadDigest(b));
  });
});

describe("spec/common/vectors/jcs.json", () => {
  const file = readJson("spec/common/vectors/jcs.json");
  for (const c of file.cases) {
    it(c.name, () => {
      const value = strict(c.input);
      expect(canonicalize(value)).toBe(c.canonical);
      expect(oracleCanonicalize(value)).toBe(c.canonical);
      expect(sha256Hex(c.canonical)).toBe(c.sha256_hex);
    });
  }
});
