// The signature doctor: when an hmac-sha256-v1 signature does not verify under RFC 8785, find
// which recorded platform dialect (canonical-dialects.ts) the sender hashed with, and where its
// bytes part from RFC 8785's. A diagnosis explains a refusal; it never turns it into acceptance.

import { canonicalize } from "./canonical-json.js";
import { type CanonicalizationDialect, type LexValue, parseLexical, renderDialect } from "./canonical-dialects.js";
import { base64StdNoPadDecode, hmacSha256Matches, sha256Base64StdNoPad } from "./crypto.js";
import { isJsonObject, type JsonValue } from "./json-value.js";
import { type HmacSha256V1Declaration, hmacV1SigningInput, verifyHmacV1 } from "./signing-hmac-v1.js";
import { parseStrictJson } from "./strict-json.js";

/** One dialect under which the received signature does verify. */
export interface SignatureDiagnosis {
  /** The divergence id of the dialect. */
  divergence: string;
  dialect: string;
  /** The hashed field whose bytes differ, or null when the bytes agree with RFC 8785's and only the parse differs. */
  field: string | null;
  /** UTF-8 byte offset of the first difference in that field's canonical text. */
  offset: number | null;
  /** RFC 8785's canonical text of the field, or null when RFC 8785 refuses the message. */
  rfc8785: string | null;
  /** The dialect's text of the field. */
  text: string | null;
}

export type SignatureExplanation =
  | { verified: true }
  | {
      verified: false;
      /** Why RFC 8785 verification refused the message (an HmacV1 or strict-JSON error code). */
      reason: { code: string; message: string };
      diagnoses: SignatureDiagnosis[];
      /** The signing input computed under RFC 8785, when the message could be read. */
      signingInput: string | null;
    };

function member(object: LexValue, key: string): LexValue | undefined {
  if (object.t !== "obj") return undefined;
  let found: LexValue | undefined;
  for (const [name, value] of object.members) if (name === key) found = value;
  return found;
}

function hasDuplicateMember(object: LexValue): boolean {
  if (object.t !== "obj") return false;
  const names = new Set<string>();
  for (const [name] of object.members) {
    if (names.has(name)) return true;
    names.add(name);
  }
  return false;
}

function fromJson(value: JsonValue): LexValue {
  return parseLexical(JSON.stringify(value)) as LexValue;
}

// The signing input a dialect would build from the received tokens, and the hashed fields' texts.
function dialectInput(declaration: HmacSha256V1Declaration, message: LexValue, dialect: CanonicalizationDialect, integers: "exact" | "double"): { input: string; hashed: Map<string, string> } | null {
  // A parser that refuses duplicate keys refuses the whole message, not only its hashed values.
  if (dialect.duplicateKeys === "reject" && hasDuplicateMember(message)) return null;
  const lines: string[] = [];
  const hashed = new Map<string, string>();
  for (const line of declaration.lines) {
    const absent: LexValue | undefined = line.value !== "string" && dialect.absentHashedField === "null" ? { t: "lit", value: "null" } : undefined;
    const raw = member(message, line.field) ?? (line.default === undefined ? absent : fromJson(line.default));
    if (raw === undefined) return null;
    if (line.value === "string") {
      if (raw.t !== "str") return null;
      lines.push(`${line.name}=${raw.value}`);
    } else {
      const text = renderDialect(raw, dialect, integers);
      if (text === null) return null;
      hashed.set(line.field, text);
      lines.push(`${line.name}=${sha256Base64StdNoPad(text)}`);
    }
  }
  return { input: lines.join(declaration.lineSeparator), hashed };
}

function utf8Difference(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/** Verifies under RFC 8785 and, when that fails, tries each recorded dialect on the received text. */
export function explainHmacV1(declaration: HmacSha256V1Declaration, dialects: readonly CanonicalizationDialect[], text: string, key: string | Uint8Array): SignatureExplanation {
  const strict = parseStrictJson(text);
  let reason: { code: string; message: string };
  let signingInput: string | null = null;
  const jcsTexts = new Map<string, string>();
  if (strict.ok) {
    const verdict = verifyHmacV1(declaration, strict.value as never, key);
    if (verdict.ok) return { verified: true };
    reason = verdict.error;
    if (isJsonObject(strict.value)) {
      const input = hmacV1SigningInput(declaration, strict.value);
      if (input.ok) signingInput = input.input;
      for (const line of declaration.lines) {
        const raw = Object.prototype.hasOwnProperty.call(strict.value, line.field) ? strict.value[line.field] : line.default;
        if (line.value !== "string" && raw !== undefined) {
          try {
            jcsTexts.set(line.field, canonicalize(raw));
          } catch {
            // A value RFC 8785 cannot write has no canonical text to compare with.
          }
        }
      }
    }
  } else {
    reason = { code: strict.error.code, message: strict.error.message };
  }
  const diagnoses: SignatureDiagnosis[] = [];
  const message = parseLexical(text);
  const signature = message === null ? undefined : member(message, declaration.signatureField);
  const algorithm = message === null ? undefined : member(message, declaration.algorithmField);
  const received = signature?.t === "str" ? base64StdNoPadDecode(signature.value) : null;
  if (message !== null && received !== null && received.length === 32 && algorithm?.t === "str" && algorithm.value === declaration.algorithmId && key.length > 0) {
    for (const dialect of dialects) {
      for (const integers of dialect.integerTokens) {
        const built = dialectInput(declaration, message, dialect, integers);
        if (built === null || !hmacSha256Matches(key, built.input, received)) continue;
        let diagnosis: SignatureDiagnosis = { divergence: dialect.divergence, dialect: dialect.name, field: null, offset: null, rfc8785: null, text: null };
        for (const [field, dialectText] of built.hashed) {
          const jcs = jcsTexts.get(field) ?? null;
          if (jcs === dialectText) continue;
          diagnosis = { ...diagnosis, field, offset: jcs === null ? null : utf8Difference(jcs, dialectText), rfc8785: jcs, text: dialectText };
          break;
        }
        diagnoses.push(diagnosis);
        break;
      }
    }
  }
  return { verified: false, reason, diagnoses, signingInput };
}

// A window of the text around a byte offset, on a UTF-8 boundary, with the offset's column.
function around(text: string, offset: number): { window: string; column: number } {
  const bytes = new TextEncoder().encode(text);
  let start = Math.max(0, offset - 24);
  while (start > 0 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
  let end = Math.min(bytes.length, offset + 24);
  while (end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end++;
  const decode = (from: number, to: number): string => new TextDecoder().decode(bytes.subarray(from, to));
  return { window: (start > 0 ? "…" : "") + decode(start, end) + (end < bytes.length ? "…" : ""), column: (start > 0 ? 1 : 0) + Array.from(decode(start, offset)).length };
}

/** The doctor's report as text lines (what `agent-contracts verify --explain` prints). */
export function formatSignatureExplanation(explanation: SignatureExplanation): string[] {
  if (explanation.verified) return ["verified"];
  const out = [`not verified under RFC 8785: ${explanation.reason.code}: ${explanation.reason.message}`];
  for (const d of explanation.diagnoses) {
    out.push(`diagnosis: ${d.divergence}`, `  the signature verifies under ${d.dialect} (a diagnosis, not acceptance)`);
    if (d.field === null) out.push("  its bytes equal RFC 8785's; RFC 8785 refuses the text itself");
    else if (d.rfc8785 === null || d.offset === null) out.push(`  ${d.field}: RFC 8785 refuses the value; the dialect hashed ${d.text}`);
    else {
      const ours = around(d.rfc8785, d.offset);
      const theirs = around(d.text as string, d.offset);
      out.push(
        `  ${d.field} first differs at byte ${d.offset}:`,
        `    RFC 8785: ${ours.window}`,
        `    dialect:  ${theirs.window}`,
        `              ${" ".repeat(Math.max(ours.column, theirs.column))}^`,
      );
    }
  }
  if (explanation.diagnoses.length === 0) {
    out.push("no recorded canonicalization dialect explains it");
    if (explanation.signingInput !== null) out.push("signing input under RFC 8785 (compare it line by line with the signer's):", ...explanation.signingInput.split("\n").map((l) => `  ${l}`));
  }
  return out;
}
