// A number past the double range (1e400) in a signed message: the doctor refuses the message with
// a typed reason and never throws, and names only the one recorded writer that can hold such a
// number (org.json 20240303 keeps a BigDecimal and writes 1E+400; serde_json refuses the token,
// AOSP org.json and JSONSerialization hold an infinite double they cannot write). The messages are
// written here and signed with node:crypto over the signing input of AgentTriggerRequest's
// x-signature declaration (request_id … host_instance_id, payload as payload_sha256).
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatNumberToken, renderDialect, parseLexical, type CanonicalizationDialect } from "../../generators/targets/ts/runtime/src/canonical-dialects.js";
import { explainHmacV1 } from "../../generators/targets/ts/runtime/src/signature-doctor.js";
import type { HmacSha256V1Declaration } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import { ROOT } from "../signing/helpers.js";

const bound = (await import(`${ROOT}generated/ts/agent-provider/signing.js`)) as { CANONICALIZATION_DIALECTS: CanonicalizationDialect[]; AGENT_TRIGGER_REQUEST_SIGNATURE: HmacSha256V1Declaration };
const DIALECTS = bound.CANONICALIZATION_DIALECTS;
const byId = (id: string) => DIALECTS.find((d) => d.divergence === id)!;
const [SERDE, AOSP, ORG_JSON, IOS] = ["serde-json", "aosp-org-json", "org-json-20240303", "ios-jsonserialization"].map((s) => byId(`canonical-json-dialect-${s}`)) as CanonicalizationDialect[];
const KEY = "secret-1";
// 10^400, a 401-character token past the largest double (about 1.8e308).
const HUGE = "1" + "0".repeat(400);

const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
const signingInput = (hashed: string) =>
  [
    "request_id=r-1", "provider_id=provider.app", "agent_id=agent.a", "message=m", "source=s", "event_type=e",
    `payload_sha256=${b64(createHash("sha256").update(hashed, "utf8").digest())}`,
    "created_at=2026-05-27T00:00:00Z", "expires_at=2030-01-01T00:00:00Z", "nonce=n-1", "idempotency_key=i-1", "host_instance_id=h-1",
  ].join("\n");
/** A trigger whose payload text is `payload`, signed over the bytes a writer hashed (`hashed`). */
const trigger = (payload: string, hashed: string) =>
  `{"protocol_version":2,"request_id":"r-1","provider_id":"provider.app","agent_id":"agent.a","message":"m","source":"s","event_type":"e","payload":${payload},` +
  `"created_at":"2026-05-27T00:00:00Z","expires_at":"2030-01-01T00:00:00Z","nonce":"n-1","idempotency_key":"i-1","host_instance_id":"h-1",` +
  `"signature_algorithm":"hmac-sha256-v1","signature":"${b64(createHmac("sha256", KEY).update(signingInput(hashed), "utf8").digest())}"}`;
const explain = (text: string) => explainHmacV1(bound.AGENT_TRIGGER_REQUEST_SIGNATURE, DIALECTS, text, KEY);
const divergences = (text: string) => {
  const r = explain(text);
  if (r.verified) throw new Error("verified");
  return r.diagnoses.map((d) => d.divergence);
};

describe("a number past the double range", () => {
  it("has no form in a dialect that holds it as a double", () => {
    // [token, serde_json, AOSP exact, AOSP double, org.json exact, org.json double, JSONSerialization]
    const table: (string | null)[][] = [
      ["1e400", null, null, null, "1E+400", "1E+400", null],
      ["-1e400", null, null, null, "-1E+400", "-1E+400", null],
      [HUGE, null, null, null, HUGE, null, null],
      [`-${HUGE}`, null, null, null, `-${HUGE}`, null, null],
    ];
    for (const row of table) {
      const token = row[0]!;
      const f = (d: CanonicalizationDialect, i: "exact" | "double") => formatNumberToken(token, d, i);
      expect([token, f(SERDE!, "exact"), f(AOSP!, "exact"), f(AOSP!, "double"), f(ORG_JSON!, "exact"), f(ORG_JSON!, "double"), f(IOS!, "exact")], token.slice(0, 8)).toEqual(row);
    }
    expect(renderDialect(parseLexical("[1,1e400]")!, SERDE!, "exact")).toBeNull();
    expect(renderDialect(parseLexical('{"a":1e400}')!, IOS!, "exact")).toBeNull();
    // The lexical reader takes a number token of any length, as RFC 8259 does (and no malformed one).
    const long = `-${"9".repeat(5000)}.${"0".repeat(5000)}e+${"1".repeat(50)}`;
    expect(parseLexical(`[${long}]`)).toEqual({ t: "arr", items: [{ t: "num", lexeme: long }] });
    for (const good of ["1e5", "1E2", "-0.5e-3", "0", "-0", "10.25E+07"]) expect(parseLexical(`[${good}]`), good).toEqual({ t: "arr", items: [{ t: "num", lexeme: good }] });
    for (const bad of ["[01]", "[-]", "[1.]", "[1e]", "[1e+]", "[.5]", "[+1]", "[1.e5]", `[${"1".repeat(500)}x]`]) expect(parseLexical(bad), bad).toBeNull();
  });

  it("is a typed refusal from the doctor, and only org.json 20240303 is named for a message it signed", () => {
    const unsigned = explain(trigger('{"x":1e400}', '{"x":1e400}'));
    expect(unsigned.verified === false && [unsigned.reason.code, unsigned.diagnoses]).toEqual(["number-out-of-range", []]);
    expect(divergences(trigger('{"x":1e400}', '{"x":1E+400}'))).toEqual(["canonical-json-dialect-org-json-20240303"]);
    // A 401-digit integer is exact for org.json, but infinite as the double any other signer held.
    expect(divergences(trigger(`{"x":${HUGE}}`, `{"x":${HUGE}}`))).toEqual(["canonical-json-dialect-org-json-20240303"]);
    expect(divergences(trigger(`{"x":${HUGE}}`, '{"x":1.0E400}'))).toEqual([]);
  });
});
