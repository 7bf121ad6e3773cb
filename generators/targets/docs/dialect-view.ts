// The interoperability page's canonicalization rows: for each recorded JSON divergence, the bytes
// RFC 8785 and each recorded platform dialect (divergences with a `canonicalization` entry) write
// for one sample body, and what `agent-contracts verify --explain` prints for a real signed
// message that hits it. Everything is computed from the spec and its vectors at build time, with
// the generated TypeScript package (what users import), not the runtime's sources.
import { canonicalize } from "../../../generated/ts/runtime/canonical-json.js";
import { type CanonicalizationDialect, parseLexical, renderDialect } from "../../../generated/ts/runtime/canonical-dialects.js";
import type { HmacSha256V1Declaration } from "../../../generated/ts/runtime/signing-hmac-v1.js";
import { explainHmacV1, formatSignatureExplanation } from "../../../generated/ts/runtime/signature-doctor.js";
import { parseStrictJson } from "../../../generated/ts/runtime/strict-json.js";
import { canonicalizationDialects } from "../../model/dialects.js";
import type { JsonValue, Protocol } from "../../model/types.js";
import { escapeHtml } from "./html.js";

// Which body shows each divergence, and which vector case (by name prefix) the doctor is run on.
const SAMPLES: Record<string, { body?: string; vector?: string }> = {
  "canonical-json-numbers": { body: '{"amount":12.0}', vector: "rust-host-signed-edge-cases #0:" },
  "canonical-json-exponent-format": { body: '{"x":1e21}', vector: "android-sdk-signed-triggers.org-json-20240303 #8:" },
  "canonical-json-negative-zero": { body: '{"x":-0}', vector: "rust-host-signed-edge-cases #2:" },
  "canonical-json-small-exponent": { body: '{"x":0.000001}', vector: "android-sdk-signed-triggers.aosp-org-json #6:" },
  "canonical-json-large-floats": { body: '{"x":1e16}', vector: "rust-host-signed-edge-cases #10:" },
  "canonical-json-large-integers": { body: '{"x":9007199254740993}', vector: "rust-host-signed-edge-cases #12:" },
  "canonical-json-key-order": { body: '{"！":1,"😀":2}', vector: "rust-host-signed-edge-cases #18:" },
  "canonical-json-slash-escaping": { body: '{"u":"https://example.com/a"}', vector: "divergence_slash_escaped" },
  "canonical-json-org-json-escapes": { body: '{"s":"</script>\\u0085 a\\u200db"}' },
  "canonical-json-duplicate-keys": { body: '{"a":1,"a":2}', vector: "rust-host-signed-edge-cases #20:" },
  "trigger-payload-null": { vector: "rust-host-signed-edge-cases #46:" },
};

interface Case {
  name: string;
  message_type: string;
  key_utf8: string;
  text?: string;
  message?: JsonValue;
}

function findCase(vectors: Record<string, JsonValue>, prefix: string): Case | undefined {
  for (const doc of Object.values(vectors)) {
    const list = (doc as { cases?: Case[] } | null)?.cases;
    const found = Array.isArray(list) ? list.find((c) => typeof c.name === "string" && c.name.startsWith(prefix)) : undefined;
    if (found) return found;
  }
  return undefined;
}

function rfc8785(body: string): string {
  const parsed = parseStrictJson(body);
  return parsed.ok ? canonicalize(parsed.value) : `refused: ${parsed.error.code}`;
}

function bytesTable(body: string, dialects: CanonicalizationDialect[]): string {
  const lex = parseLexical(body);
  const rows = [`<tr><th scope="row">RFC 8785 (this project)</th><td><code>${escapeHtml(rfc8785(body))}</code></td></tr>`];
  for (const d of dialects) {
    const texts = [...new Set(d.integerTokens.map((alt) => (lex === null ? null : renderDialect(lex, d, alt)) ?? "refused"))];
    rows.push(`<tr><th scope="row">${escapeHtml(d.name)}</th><td>${texts.map((t) => `<code>${escapeHtml(t)}</code>`).join(" or ")}</td></tr>`);
  }
  return `<div class="table-wrap"><table><caption>Bytes hashed for <code>${escapeHtml(body)}</code></caption><thead><tr><th scope="col">Writer</th><th scope="col">Bytes</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

const computed = new WeakMap<Protocol, Map<string, string>>();

/** Per divergence id, the extra HTML of its interoperability entry (bytes per platform, the doctor's report). */
export function dialectViews(protocol: Protocol, vectors: Record<string, JsonValue>): Map<string, string> {
  const cached = computed.get(protocol);
  if (cached) return cached;
  const views = buildViews(protocol, vectors);
  computed.set(protocol, views);
  return views;
}

function buildViews(protocol: Protocol, vectors: Record<string, JsonValue>): Map<string, string> {
  const dialects = canonicalizationDialects(protocol) as unknown as CanonicalizationDialect[];
  const out = new Map<string, string>();
  if (dialects.length === 0) return out;
  for (const [id, sample] of Object.entries(SAMPLES)) {
    let html = sample.body === undefined ? "" : bytesTable(sample.body, dialects);
    const c = sample.vector === undefined ? undefined : findCase(vectors, sample.vector);
    const declaration = c && (protocol.messages.find((m) => m.name === c.message_type)?.signature as unknown as HmacSha256V1Declaration | undefined);
    if (c && declaration) {
      const text = c.text ?? JSON.stringify(c.message);
      const report = formatSignatureExplanation(explainHmacV1(declaration, dialects, text, c.key_utf8));
      html += `<p><code>agent-contracts verify ${escapeHtml(protocol.id)} ${escapeHtml(c.message_type)} --explain</code> on vector <code>${escapeHtml(c.name)}</code> (exit code 1: a diagnosis is never acceptance):</p><pre><code>${escapeHtml(report.join("\n"))}</code></pre>`;
    }
    if (html !== "") out.set(id, html);
  }
  return out;
}
