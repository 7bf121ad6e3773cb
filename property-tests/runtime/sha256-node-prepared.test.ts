// The node:crypto backend's prepared HMAC key (generators/targets/ts/runtime/src/sha256-node.ts):
// pads made once, the message written behind the inner pad in a per-key buffer and hashed with
// one-shot crypto.hash, long messages streamed through createHash. Each path is checked against
// node:crypto's own createHmac (OpenSSL's HMAC, code this backend no longer calls for a prepared
// key) and Python's hmac, at the lengths where the paths change: key lengths around the 64-byte
// block, messages around the 2048-byte buffer, strings whose UTF-8 is up to 3x their length.
// The secret-handling promises are checked on the buffers themselves: the key's copy is wiped
// once the pads are made, the pads on destroy().
import { spawnSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  HMAC_BLOCK_BYTES,
  HMAC_SCRATCH_BYTES,
  prepareHmacSha256,
  sha256Base64StdNoPadDigest,
  sha256Digest,
  sha256Text,
  sha256TextViaCreateHash,
} from "../../generators/targets/ts/runtime/src/sha256-node.js";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const reference = (key: string | Uint8Array, message: string | Uint8Array): string => createHmac("sha256", key).update(message).digest("hex");

describe("node:crypto prepared HMAC-SHA256 key: every path equals createHmac", () => {
  it("the constants are SHA-256's block and the documented buffer size", () => {
    expect(HMAC_BLOCK_BYTES).toBe(64);
    expect(HMAC_SCRATCH_BYTES).toBe(2048);
  });

  const keyLengths = [0, 1, 63, 64, 65, 127, 128, 129, 300];
  it.each(keyLengths)("a %i-byte key (below, at and above the block; longer keys are hashed first)", (length) => {
    const key = Uint8Array.from({ length }, (_, i) => (i * 37 + 11) & 255);
    const prepared = prepareHmacSha256(key);
    for (const message of ["", "m", "x".repeat(500)]) expect(hex(prepared.mac(message))).toBe(reference(key, message));
  });

  const byteLengths = [0, 1, HMAC_SCRATCH_BYTES - 1, HMAC_SCRATCH_BYTES, HMAC_SCRATCH_BYTES + 1, 3 * HMAC_SCRATCH_BYTES, 70_000];
  it.each(byteLengths)("a %i-byte Uint8Array message (in the buffer up to 2048 bytes, streamed above)", (length) => {
    const prepared = prepareHmacSha256("secret");
    const message = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 255);
    expect(hex(prepared.mac(message))).toBe(reference("secret", message));
  });

  // Lengths in UTF-16 units with 1, 2 and 3 UTF-8 bytes per unit (and 4 per surrogate pair), at
  // the quick bound (length * 3 <= 2048), past it but still fitting, and not fitting.
  const strings: [string, string][] = [
    ["682 ASCII (quick bound)", "a".repeat(682)],
    ["683 ASCII (measured, fits)", "a".repeat(683)],
    ["2048 ASCII (fits exactly)", "a".repeat(2048)],
    ["2049 ASCII (streamed)", "a".repeat(2049)],
    ["1024 two-byte (fits exactly)", "é".repeat(1024)],
    ["1025 two-byte (streamed)", "é".repeat(1025)],
    ["682 three-byte (quick bound)", "✓".repeat(682)],
    ["683 three-byte (streamed)", "✓".repeat(683)],
    ["512 surrogate pairs (fits exactly)", "😀".repeat(512)],
    ["513 surrogate pairs (streamed)", "😀".repeat(513)],
    ["lone surrogates (U+FFFD)", "a\ud800b\udc00c".repeat(50)],
  ];
  it.each(strings)("a string of %s", (_label, message) => {
    const prepared = prepareHmacSha256("sécret ✓");
    expect(hex(prepared.mac(message))).toBe(reference("sécret ✓", message));
  });

  it("a long message then a short one: nothing of the first is hashed with the second", () => {
    const prepared = prepareHmacSha256("k");
    for (const message of ["z".repeat(2000), "short", new Uint8Array(1500).fill(9), new Uint8Array(3), "", "z".repeat(5000), "end"]) {
      expect(hex(prepared.mac(message))).toBe(reference("k", message));
    }
  });

  it("random keys and messages of any length class, one key reused, agree with createHmac", () => {
    // Any UTF-16 unit, lone surrogates included (fast-check's "binary" unit costs seconds to set up).
    const unit = fc.nat(0xffff).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit, maxLength: 40 }), fc.uint8Array({ maxLength: 200 })),
        fc.array(fc.oneof(fc.string({ unit, maxLength: 700 }), fc.uint8Array({ maxLength: 2100 }), fc.integer({ min: 2040, max: 2060 }).map((n) => "k".repeat(n))), { minLength: 1, maxLength: 3 }),
        (key, messages) => {
          const prepared = prepareHmacSha256(key);
          for (const message of messages) expect(hex(prepared.mac(message))).toBe(reference(key, message));
        },
      ),
      { numRuns: 20 },
    );
  });

  it("equals Python's hmac on a long multi-byte message (an implementation outside node:crypto)", () => {
    const message = "ü✓😀".repeat(400);
    const python = spawnSync("python3", ["-c", "import sys,hashlib,hmac\nd=sys.stdin.buffer.read()\nprint(hmac.new(b'py-key',d,hashlib.sha256).hexdigest())"], { input: Buffer.from(message, "utf8"), encoding: "utf8" });
    expect(python.status, python.stderr).toBe(0);
    expect(hex(prepareHmacSha256("py-key").mac(message))).toBe(python.stdout.trim());
  });
});

describe("node:crypto SHA-256: one-shot and createHash forms", () => {
  it("crypto.hash and createHash give the same text, latin1 and base64 (FIPS 180-4 \"abc\")", () => {
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const abcBase64 = Buffer.from(abc, "hex").toString("base64");
    for (const hash of [sha256Text, sha256TextViaCreateHash]) {
      expect(Buffer.from(hash("abc", "binary"), "latin1").toString("hex")).toBe(abc);
      expect(Buffer.from(hash(new Uint8Array([0x61, 0x62, 0x63]), "binary"), "latin1").toString("hex")).toBe(abc);
      expect(hash("abc", "base64")).toBe(abcBase64);
    }
    expect(sha256Base64StdNoPadDigest("abc")).toBe(abcBase64.replace(/=$/, ""));
  });
  it("digests with high bytes survive the latin1 round trip", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        expect(hex(sha256Digest(data))).toBe(createHash("sha256").update(data).digest("hex"));
      }),
      { numRuns: 200 },
    );
  });
});

describe("node:crypto prepared key: what it keeps of the secret", () => {
  afterEach(() => vi.restoreAllMocks());

  // Every buffer prepareHmacSha256 allocates, to read what they hold after it returns.
  function allocations(run: () => void): Buffer[] {
    const made: Buffer[] = [];
    const original = Buffer.alloc.bind(Buffer);
    vi.spyOn(Buffer, "alloc").mockImplementation(((size: number, ...rest: never[]) => {
      const buffer = original(size, ...rest);
      made.push(buffer);
      return buffer;
    }) as typeof Buffer.alloc);
    run();
    vi.restoreAllMocks();
    return made;
  }
  const isZero = (buffer: Buffer): boolean => buffer.every((byte) => byte === 0);

  it("the key's bytes are overwritten once the pads are made; only the two pad buffers hold anything", () => {
    for (const secret of ["short secret", "k".repeat(100), new Uint8Array(80).fill(0xaa)]) {
      let prepared: ReturnType<typeof prepareHmacSha256> | undefined;
      const made = allocations(() => {
        prepared = prepareHmacSha256(secret);
      });
      expect(made.length).toBe(4);
      const [keyCopy, block, inner, outer] = made as [Buffer, Buffer, Buffer, Buffer];
      expect(isZero(keyCopy), "key copy").toBe(true);
      expect(isZero(block), "key block").toBe(true);
      expect(inner.length).toBe(HMAC_BLOCK_BYTES + HMAC_SCRATCH_BYTES);
      expect(outer.length).toBe(HMAC_BLOCK_BYTES + 32);
      expect(isZero(inner.subarray(0, 64))).toBe(false);
      expect(isZero(outer.subarray(0, 64))).toBe(false);
      expect(hex(prepared!.mac("m"))).toBe(reference(secret, "m"));
    }
  });

  it("the pads are allocated unpooled (no other Buffer shares their memory)", () => {
    const made = allocations(() => prepareHmacSha256("secret"));
    for (const buffer of made) expect(buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length).toBe(true);
  });

  it("destroy() overwrites both pad buffers with zeros, message bytes included, and later MACs throw", () => {
    let prepared: ReturnType<typeof prepareHmacSha256> | undefined;
    const made = allocations(() => {
      prepared = prepareHmacSha256("secret");
    });
    prepared!.mac("a message that stays in the buffer");
    const [, , inner, outer] = made as [Buffer, Buffer, Buffer, Buffer];
    expect(isZero(inner)).toBe(false);
    prepared!.destroy();
    expect(isZero(inner)).toBe(true);
    expect(isZero(outer)).toBe(true);
    expect(() => prepared!.mac("m")).toThrow("this HmacSha256Key was destroyed");
  });
});
