// The two SHA-256/HMAC backends of the TS runtime (generators/targets/ts/runtime/src/sha256-node.ts,
// node:crypto; sha256-portable.ts, @noble/hashes) against known answers that come from elsewhere:
// FIPS 180-4's "abc", RFC 4231's HMAC cases, and the real SDKs' signing vectors
// (property-tests/vectors/agent-provider: body SHA-256 and hmac-sha256-v1 signature). Which backend
// a build gets is decided by package.json `imports` conditions: Node resolves "#sha256-backend" to
// node:crypto, a browser bundle to @noble/hashes (the browser consumer runs that path in Chromium).
// Prepared keys are recognised by a brand, so a key made by another copy of the runtime is used,
// not refused.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as nodeBackend from "../../generators/targets/ts/runtime/src/sha256-node.js";
import * as portableBackend from "../../generators/targets/ts/runtime/src/sha256-portable.js";
import * as sourceCrypto from "../../generators/targets/ts/runtime/src/crypto.js";
import { signHmacV1, verifyHmacV1, type HmacSha256V1Declaration } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import * as generatedCrypto from "../../generated/ts/runtime/crypto.js";
import { bundle } from "../consumers/browser/bundle.js";

const ROOT = resolve(import.meta.dirname, "../..");
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64").replace(/=+$/, "");

interface SigningVector {
  name: string;
  secret_utf8: string;
  canonical_body_json: string;
  body_sha256_b64_nopad: string;
  signing_input: string;
  expected_signature: string;
}
const vectors = (JSON.parse(readFileSync(resolve(ROOT, "property-tests/vectors/agent-provider/computed_signature_vectors.json"), "utf8")) as { vectors: SigningVector[] }).vectors;

// RFC 4231 section 4: cases 1-4, 6 and 7 (case 5 truncates the tag), key and data as hex.
const RFC4231 = [
  { key: "0b".repeat(20), data: Buffer.from("Hi There").toString("hex"), tag: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
  { key: Buffer.from("Jefe").toString("hex"), data: Buffer.from("what do ya want for nothing?").toString("hex"), tag: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
  { key: "aa".repeat(20), data: "dd".repeat(50), tag: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
  { key: "0102030405060708090a0b0c0d0e0f10111213141516171819", data: "cd".repeat(50), tag: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
  { key: "aa".repeat(131), data: Buffer.from("Test Using Larger Than Block-Size Key - Hash Key First").toString("hex"), tag: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
  {
    key: "aa".repeat(131),
    data: Buffer.from("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.").toString("hex"),
    tag: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
  },
];

describe.each([
  ["node:crypto", nodeBackend],
  ["@noble/hashes", portableBackend],
] as const)("SHA-256 backend %s", (name, backend) => {
  it("names itself", () => expect(backend.SHA256_BACKEND).toBe(name));
  it("FIPS 180-4: SHA-256 of \"abc\" and of nothing, from a string and from bytes", () => {
    expect(hex(backend.sha256Digest("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(backend.sha256Digest(new TextEncoder().encode("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(backend.sha256Digest(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
  it("a string is hashed as UTF-8 with a lone surrogate as U+FFFD (EF BF BD)", () => {
    expect(hex(backend.sha256Digest("a\ud800b"))).toBe(hex(backend.sha256Digest(Uint8Array.of(0x61, 0xef, 0xbf, 0xbd, 0x62))));
    expect(hex(backend.sha256Digest("é"))).toBe(hex(backend.sha256Digest(Uint8Array.of(0xc3, 0xa9))));
  });
  it("returns plain 32-byte Uint8Arrays", () => {
    for (const digest of [backend.sha256Digest("x"), backend.hmacSha256Digest("k", "m"), backend.prepareHmacSha256("k").mac("m")]) {
      expect(Object.getPrototypeOf(digest)).toBe(Uint8Array.prototype);
      expect(digest.length).toBe(32);
    }
  });
  it.each(RFC4231.map((c, i) => [i, c] as const))("RFC 4231 case %#: one-shot and prepared, again and again", (_i, c) => {
    const key = Buffer.from(c.key, "hex");
    const data = new Uint8Array(Buffer.from(c.data, "hex"));
    expect(hex(backend.hmacSha256Digest(new Uint8Array(key), data))).toBe(c.tag);
    const prepared = backend.prepareHmacSha256(new Uint8Array(key));
    expect(hex(prepared.mac(data))).toBe(c.tag);
    expect(hex(prepared.mac(data))).toBe(c.tag);
  });
  it.each(vectors.map((v) => [v.name, v] as const))("the real SDKs' vector %s: body digest and signature", (_name, v) => {
    expect(b64(backend.sha256Digest(v.canonical_body_json))).toBe(v.body_sha256_b64_nopad);
    expect(backend.sha256Base64StdNoPadDigest(v.canonical_body_json)).toBe(v.body_sha256_b64_nopad);
    expect(b64(backend.hmacSha256Digest(v.secret_utf8, v.signing_input))).toBe(v.expected_signature);
    expect(b64(backend.prepareHmacSha256(v.secret_utf8).mac(v.signing_input))).toBe(v.expected_signature);
  });
  it("an empty key is a key (RFC 2104 pads zero bytes): both forms agree with each other and across backends", () => {
    const tag = hex(backend.hmacSha256Digest("", "a"));
    expect(tag).toBe("9615a95d4a336118c435b9cd54c5e8644ab956b573aa2926274a1280b6674713");
    expect(hex(backend.prepareHmacSha256(new Uint8Array(0)).mac("a"))).toBe(tag);
  });
  it("a destroyed prepared key refuses to MAC", () => {
    const prepared = backend.prepareHmacSha256("k");
    prepared.destroy();
    expect(() => prepared.mac("m")).toThrow(name === "node:crypto" ? /this HmacSha256Key was destroyed/ : /destroyed/);
  });
});

describe("which backend a build gets (package.json imports conditions)", () => {
  it("under Node the runtime hashes with node:crypto", async () => {
    const chosen = (await import("#sha256-backend")) as { SHA256_BACKEND: string };
    expect(chosen.SHA256_BACKEND).toBe("node:crypto");
  });
  it("the generated package: a browser bundle gets @noble/hashes and never node:crypto, a Node bundle gets node:crypto", async () => {
    const source = `import { hmacSha256 } from "@agent-contracts/bindings/runtime/crypto";\nexport const run = (k, m) => hmacSha256(k, m);\n`;
    const browser = await bundle({ source }, { platform: "browser" });
    expect(browser.inputs).toContain("generated/ts/runtime/sha256-portable.js");
    expect(browser.inputs).not.toContain("generated/ts/runtime/sha256-node.js");
    const node = await bundle({ source }, { platform: "node" });
    expect(node.inputs).toContain("generated/ts/runtime/sha256-node.js");
    expect(node.inputs).not.toContain("generated/ts/runtime/sha256-portable.js");
  }, 60_000);
});

const DECLARATION: HmacSha256V1Declaration = {
  scheme: "hmac-sha256-v1",
  algorithmId: "hmac-sha256-v1",
  algorithmField: "alg",
  signatureField: "sig",
  lineSeparator: "\n",
  lines: [{ name: "id", field: "id", value: "string" }],
  key: { source: "caller", field: "secret", encoding: "utf8" },
  signatureEncoding: "base64-std-nopad",
};

describe("prepared keys are recognised by their brand, not by instanceof", () => {
  const vector = vectors[0]!;
  it("a key made by another copy of the runtime (generated/ts beside the source) signs and verifies here", () => {
    const foreign = new generatedCrypto.HmacSha256Key(vector.secret_utf8);
    expect(foreign instanceof sourceCrypto.HmacSha256Key).toBe(false);
    expect(sourceCrypto.isHmacSha256Key(foreign)).toBe(true);
    expect(sourceCrypto.hmacSha256Base64StdNoPad(foreign as never, vector.signing_input)).toBe(vector.expected_signature);
    const signed = signHmacV1(DECLARATION, { id: "x" }, foreign as never);
    expect(signed.ok).toBe(true);
    if (!signed.ok) return;
    expect(verifyHmacV1(DECLARATION, signed.message, foreign as never)).toEqual({ ok: true });
    expect(verifyHmacV1(DECLARATION, signed.message, new sourceCrypto.HmacSha256Key(vector.secret_utf8))).toEqual({ ok: true });
  });
  it("an empty key from another copy is still refused as empty", () => {
    const emptyForeign = new generatedCrypto.HmacSha256Key("");
    const result = signHmacV1(DECLARATION, { id: "x" }, emptyForeign as never);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("key-missing");
  });
  it("anything else is not a prepared key, and asking never runs the value's code", () => {
    const brand = Symbol.for("agent-contracts.HmacSha256Key.v1");
    let ran = false;
    const getter = Object.defineProperty({}, brand, { get: () => ((ran = true), true) });
    const inherited = Object.create({ [brand]: true }) as object;
    for (const value of [null, undefined, "k", 1, new Uint8Array(1), {}, { mac: () => new Uint8Array(32), empty: false }, getter, inherited, { [brand]: "yes" }]) {
      expect(sourceCrypto.isHmacSha256Key(value), String(value)).toBe(false);
    }
    expect(ran).toBe(false);
    expect(sourceCrypto.isHmacSha256Key(new sourceCrypto.HmacSha256Key("k"))).toBe(true);
  });
  it("a value that is neither a key nor a string nor bytes gets a TypeError, not a crash inside the hash", () => {
    expect(() => sourceCrypto.hmacSha256({} as never, "m")).toThrow(TypeError);
    expect(() => sourceCrypto.hmacSha256([1, 2] as never, "m")).toThrow(/a string, a Uint8Array or an HmacSha256Key/);
    expect(() => new sourceCrypto.HmacSha256Key(42 as never)).toThrow(/an HMAC-SHA256 secret is a string or a Uint8Array/);
    expect(() => new sourceCrypto.HmacSha256Key({ length: 0 } as never)).toThrow(/an HMAC-SHA256 secret is a string or a Uint8Array/);
  });
});
