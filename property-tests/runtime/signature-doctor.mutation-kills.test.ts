// signature-doctor.ts of the source runtime on the real Rust-host and Android-SDK signed messages
// (spec/agent-provider/vectors/signature-doctor.json; expectations hand-written from the real
// implementations' README table), with the spec's declarations and dialects as the generated
// package binds them; and formatSignatureExplanation against hand-written report lines.
import { describe, expect, it } from "vitest";
import { explainHmacV1, formatSignatureExplanation, type SignatureExplanation } from "../../generators/targets/ts/runtime/src/signature-doctor.js";
import type { CanonicalizationDialect } from "../../generators/targets/ts/runtime/src/canonical-dialects.js";
import type { HmacSha256V1Declaration } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import { createHmac } from "node:crypto";
import { hmacV1SigningInput, signHmacV1 } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import type { JsonObject } from "../../generators/targets/ts/runtime/src/json-value.js";
import { readJson } from "../signing/helpers.js";

const REPO = new URL("../..", import.meta.url).pathname;
const bound = (await import(`${REPO}generated/ts/agent-provider/signing.js`)) as {
  CANONICALIZATION_DIALECTS: CanonicalizationDialect[];
  ACTION_PROPOSAL_SIGNATURE: HmacSha256V1Declaration;
  AGENT_TRIGGER_REQUEST_SIGNATURE: HmacSha256V1Declaration;
};
const DECLARATION: Record<string, HmacSha256V1Declaration> = { ActionProposal: bound.ACTION_PROPOSAL_SIGNATURE, AgentTriggerRequest: bound.AGENT_TRIGGER_REQUEST_SIGNATURE };
const DIALECTS = bound.CANONICALIZATION_DIALECTS;
type Expect = "verified" | { reason: string; diagnoses: string[] };
const { cases } = readJson("spec/agent-provider/vectors/signature-doctor.json") as { cases: { name: string; message_type: string; key_utf8: string; text: string; expect: Expect }[] };
const byName = (part: string) => cases.find((c) => c.name.includes(part))!;
const explain = (c: (typeof cases)[number], key: string | Uint8Array = c.key_utf8, text = c.text) => explainHmacV1(DECLARATION[c.message_type]!, DIALECTS, text, key);

describe("explainHmacV1 on the real implementations' messages", () => {
  for (const c of cases) {
    it(c.name, () => {
      const r = explain(c);
      expect(r.verified ? "verified" : { reason: r.reason.code, diagnoses: r.diagnoses.map((d) => d.divergence) }).toEqual(c.expect);
    });
  }
  it("a Rust-host 1e16 trigger: the payload's texts and their first differing byte", () => {
    const r = explain(byName("rust-host-signed-edge-cases #10:"));
    if (r.verified) throw new Error("verified");
    // {"x":1 is common (6 bytes); RFC 8785 writes 0, serde_json e.
    expect(r.diagnoses[0]).toEqual({
      divergence: "canonical-json-dialect-serde-json",
      dialect: "Rust host, serde_json 1.0.154",
      field: "payload",
      offset: 6,
      rfc8785: '{"x":10000000000000000}',
      text: '{"x":1e+16}',
    });
    expect(r.signingInput!.split("\n").slice(0, 2)).toEqual(["request_id=edge-trigger-10", "provider_id=provider.app"]);
  });
  it("a key that matches no dialect: no diagnosis, and the RFC 8785 signing input", () => {
    const c = byName("rust-host-signed-edge-cases #10:");
    const r = explain(c, "wrong-key");
    expect(r.verified === false && [r.reason.code, r.diagnoses]).toEqual(["signature-mismatch", []]);
    // An empty key is never tried against the dialects.
    const empty = explain(c, "");
    expect(empty.verified === false && empty.diagnoses).toEqual([]);
    // The key as UTF-8 bytes is the same key.
    const bytes = explain(c, new TextEncoder().encode(c.key_utf8));
    expect(bytes.verified === false && bytes.diagnoses.map((d) => d.divergence)).toEqual((c.expect as { diagnoses: string[] }).diagnoses);
  });
  it("a verified message is only { verified: true }", () => {
    expect(explain(byName("rust-host-signed-edge-cases #22:"))).toEqual({ verified: true });
  });
  it("text that is not JSON: the strict parser's code, no signing input, no diagnosis", () => {
    const r = explain(byName("rust-host-signed-edge-cases #10:"), "k", '{"a":');
    expect(r).toMatchObject({ verified: false, reason: { code: "unexpected-end" }, diagnoses: [], signingInput: null });
  });
  it("a JSON array is refused as not an object, with no signing input", () => {
    const r = explain(byName("rust-host-signed-edge-cases #10:"), "k", "[1]");
    expect(r).toMatchObject({ verified: false, reason: { code: "not-an-object" }, diagnoses: [], signingInput: null });
  });
  it("a signature that is not 32 bytes, not a string or under another algorithm is never diagnosed", () => {
    const c = byName("rust-host-signed-edge-cases #10:");
    const sigField = DECLARATION[c.message_type]!.signatureField;
    const algField = DECLARATION[c.message_type]!.algorithmField;
    const original = JSON.parse(c.text) as Record<string, unknown>;
    // The vector's own text, with the signature or algorithm member edited in place.
    const edit = (from: string, to: string) => c.text.replace(from, to);
    const sig = (original[sigField] as string) ?? "";
    expect(sig.length).toBeGreaterThan(0);
    for (const text of [edit(`"${sig}"`, `"${sig.slice(0, 40)}"`), edit(`"${sig}"`, "12"), edit(`"${algField}":"hmac-sha256-v1"`, `"${algField}":"hmac-sha256-v2"`), edit(`"${algField}":"hmac-sha256-v1"`, `"${algField}":1`)]) {
      expect(text).not.toBe(c.text);
      const r = explain(c, c.key_utf8, text);
      expect(r.verified === false && r.diagnoses).toEqual([]);
    }
  });
});

describe("formatSignatureExplanation (hand-written report lines)", () => {
  const refused = (diagnoses: Extract<SignatureExplanation, { verified: false }>["diagnoses"], signingInput: string | null = null): SignatureExplanation => ({
    verified: false,
    reason: { code: "signature-mismatch", message: "the signature does not match" },
    diagnoses,
    signingInput,
  });
  const head = "not verified under RFC 8785: signature-mismatch: the signature does not match";
  const d = { divergence: "div-x", dialect: "Dialect X" };
  it("verified", () => expect(formatSignatureExplanation({ verified: true })).toEqual(["verified"]));
  it("no dialect, with and without a signing input", () => {
    expect(formatSignatureExplanation(refused([], "a=1\nb=2"))).toEqual([
      head,
      "no recorded canonicalization dialect explains it",
      "signing input under RFC 8785 (compare it line by line with the signer's):",
      "  a=1",
      "  b=2",
    ]);
    expect(formatSignatureExplanation(refused([]))).toEqual([head, "no recorded canonicalization dialect explains it"]);
  });
  it("a dialect whose bytes equal RFC 8785's", () => {
    expect(formatSignatureExplanation(refused([{ ...d, field: null, offset: null, rfc8785: null, text: null }], "a=1"))).toEqual([
      head,
      "diagnosis: div-x",
      "  the signature verifies under Dialect X (a diagnosis, not acceptance)",
      "  its bytes equal RFC 8785's; RFC 8785 refuses the text itself",
    ]);
  });
  it("a value RFC 8785 refuses", () => {
    const lines = ["  payload: RFC 8785 refuses the value; the dialect hashed {\"x\":NaN}"];
    expect(formatSignatureExplanation(refused([{ ...d, field: "payload", offset: null, rfc8785: null, text: '{"x":NaN}' }])).slice(3)).toEqual(lines);
    expect(formatSignatureExplanation(refused([{ ...d, field: "payload", offset: null, rfc8785: '{"x":1}', text: '{"x":NaN}' }])).slice(3)).toEqual(lines);
  });
  it("short texts: whole, with the caret under the first differing character", () => {
    expect(formatSignatureExplanation(refused([{ ...d, field: "payload", offset: 6, rfc8785: '{"x":10000000000000000}', text: '{"x":1e+16}' }])).slice(3)).toEqual([
      "  payload first differs at byte 6:",
      '    RFC 8785: {"x":10000000000000000}',
      '    dialect:  {"x":1e+16}',
      "                    ^",
    ]);
  });
  it("long texts: a window of 24 bytes each side, marked with … where cut", () => {
    // 100 ASCII bytes, first difference at byte 50: bytes 26..74 are shown, the caret 1 + 24 columns in.
    const ours = "a".repeat(50) + "b".repeat(50);
    const theirs = "a".repeat(50) + "c".repeat(50);
    expect(formatSignatureExplanation(refused([{ ...d, field: "f", offset: 50, rfc8785: ours, text: theirs }])).slice(3)).toEqual([
      "  f first differs at byte 50:",
      `    RFC 8785: …${"a".repeat(24)}${"b".repeat(24)}…`,
      `    dialect:  …${"a".repeat(24)}${"c".repeat(24)}…`,
      `              ${" ".repeat(25)}^`,
    ]);
    // At the start no … before; a shorter dialect text ends without one; the caret follows the wider column.
    expect(formatSignatureExplanation(refused([{ ...d, field: "f", offset: 2, rfc8785: "ab" + "x".repeat(40), text: "abyy" }])).slice(4)).toEqual([
      `    RFC 8785: ab${"x".repeat(24)}…`,
      "    dialect:  abyy",
      `              ${" ".repeat(2)}^`,
    ]);
  });
  it("windows never cut a UTF-8 sequence", () => {
    // "é" is two bytes: byte 0 is "a", each "é" starts at an odd byte. The difference (é vs è) is at
    // byte 32, the second byte of the 16th é; 32 - 24 = 8 and 32 + 24 = 56 are second bytes too, so
    // the window widens to bytes 7..57: 25 whole characters, the caret under the 16th é.
    const ours = "a" + "é".repeat(30);
    const theirs = "a" + "é".repeat(15) + "è" + "é".repeat(14);
    const lines = formatSignatureExplanation(refused([{ ...d, field: "f", offset: 32, rfc8785: ours, text: theirs }])).slice(3);
    expect(lines).toEqual([
      "  f first differs at byte 32:",
      `    RFC 8785: …${"é".repeat(25)}…`,
      `    dialect:  …${"é".repeat(12)}è${"é".repeat(12)}…`,
      `              ${" ".repeat(14)}^`,
    ]);
  });
  it("every diagnosis is reported, and a diagnosis drops the no-dialect lines", () => {
    const two = formatSignatureExplanation(refused([{ ...d, field: null, offset: null, rfc8785: null, text: null }, { divergence: "div-y", dialect: "Y", field: null, offset: null, rfc8785: null, text: null }], "a=1"));
    expect(two.filter((l) => l.startsWith("diagnosis: "))).toEqual(["diagnosis: div-x", "diagnosis: div-y"]);
    expect(two.some((l) => l.includes("no recorded"))).toBe(false);
  });
});

// Messages signed here over RFC 8785's signing input (checked against the real SDKs' vectors in
// hmac-sha256-v1.mutation-kills), then given a duplicate unsigned member: RFC 8785 refuses the
// text (duplicate-key) while the last-wins dialects read the same fields.
describe("explainHmacV1 on constructed refusals", () => {
  const TRIGGER = DECLARATION.AgentTriggerRequest!;
  const base: JsonObject = {
    protocol_version: 2, request_id: "r-1", provider_id: "provider.app", agent_id: "agent.a", message: "m", source: "s", event_type: "e",
    payload: { x: 1 }, created_at: "2026-05-27T00:00:00Z", expires_at: "2030-01-01T00:00:00Z", nonce: "n-1", idempotency_key: "i-1", host_instance_id: "h-1",
  };
  const signed = (message: JsonObject, key = "secret-1"): JsonObject => {
    const r = signHmacV1(TRIGGER, message, key);
    if (!r.ok) throw new Error(r.error.message);
    return r.message;
  };
  /** The JSON text of `message` without `drop`, with a duplicated unsigned member so that strict parsing refuses it. */
  const withDuplicate = (message: JsonObject, drop: string[] = []): string => {
    const kept = Object.fromEntries(Object.entries(message).filter(([k]) => !drop.includes(k)));
    return JSON.stringify(kept).replace(/^\{/, '{"protocol_version":2,');
  };
  const divergences = (text: string, key = "secret-1") => {
    const r = explainHmacV1(TRIGGER, DIALECTS, text, key);
    if (r.verified) throw new Error("verified");
    return r;
  };
  it("an absent field with a default (source) is read as its default, as RFC 8785's input does", () => {
    const { source: _s, ...rest } = base;
    const r = divergences(withDuplicate(signed({ ...rest, source: "" }), ["source"]));
    expect(r.reason.code).toBe("duplicate-key");
    expect(r.diagnoses.map((d) => d.divergence)).toContain("canonical-json-dialect-serde-json");
  });
  it("a duplicated top-level member: only the dialects whose parsers take the last value match; org.json 20240303 and JSONSerialization refuse the text", () => {
    // protocol.yaml's dialect table: serde_json and AOSP org.json read duplicate keys last-wins,
    // org.json 20240303 (JSONException "Duplicate key") and iOS JSONSerialization refuse them.
    const r = divergences(withDuplicate(signed(base)));
    expect(r.reason.code).toBe("duplicate-key");
    expect(r.diagnoses.map((d) => d.divergence).sort()).toEqual([
      "canonical-json-dialect-aosp-org-json",
      "canonical-json-dialect-serde-json",
      "canonical-json-dialect-serde-json-1-0-140",
    ]);
  });
  it("an absent hashed field: the dialects that write null for it (serde_json) match, the others refuse", () => {
    const r = divergences(withDuplicate(signed({ ...base, payload: null }), ["payload"]));
    expect(r.diagnoses).toEqual([
      { divergence: "canonical-json-dialect-serde-json", dialect: "Rust host, serde_json 1.0.154", field: "payload", offset: null, rfc8785: null, text: "null" },
      { divergence: "canonical-json-dialect-serde-json-1-0-140", dialect: "Rust host, serde_json 1.0.140", field: "payload", offset: null, rfc8785: null, text: "null" },
    ]);
  });
  it("a covered string field sent as a number is no dialect's string", () => {
    const text = withDuplicate(signed({ ...base, request_id: "5" })).replace('"request_id":"5"', '"request_id":5');
    expect(text).toContain('"request_id":5');
    expect(divergences(text).diagnoses).toEqual([]);
    // A literal token too: true is not the string "true" the signer hashed.
    const literal = withDuplicate(signed({ ...base, request_id: "true" })).replace('"request_id":"true"', '"request_id":true');
    expect(literal).toContain('"request_id":true');
    expect(divergences(literal).diagnoses).toEqual([]);
  });
  it("a message without its algorithm member is never diagnosed (and does not throw)", () => {
    const text = withDuplicate(signed(base), ["signature_algorithm"]);
    expect(divergences(text).diagnoses).toEqual([]);
  });
  it("an empty key is never tried, even on a message an empty key signed", () => {
    const { signature: _s, signature_algorithm: _a, ...unsigned } = signed(base);
    const input = hmacV1SigningInput(TRIGGER, unsigned as JsonObject);
    if (!input.ok) throw new Error(input.error.message);
    const mac = createHmac("sha256", Buffer.alloc(0)).update(input.input).digest("base64").replace(/=+$/, "");
    const text = JSON.stringify({ ...unsigned, signature: mac, signature_algorithm: "hmac-sha256-v1" });
    const r = divergences(text, "");
    expect([r.reason.code, r.diagnoses]).toEqual(["key-missing", []]);
  });
  it("a message missing a covered field has no RFC 8785 signing input", () => {
    const c = cases.find((x) => typeof x.expect === "object" && x.expect.reason === "covered-field-missing")!;
    const r = explain(c);
    expect(r.verified === false && r.signingInput).toBeNull();
  });
});

describe("formatSignatureExplanation of a hand-built diagnosis", () => {
  it("without RFC 8785's text, an offset alone does not make a window", () => {
    const lines = formatSignatureExplanation({ verified: false, reason: { code: "c", message: "m" }, signingInput: null, diagnoses: [{ divergence: "d", dialect: "D", field: "f", offset: 3, rfc8785: null, text: "1e+16" }] });
    expect(lines.at(-1)).toBe("  f: RFC 8785 refuses the value; the dialect hashed 1e+16");
  });
});
