// The hostile-input corpus every language replays (property-tests/fuzz/corpus/*.json). Inputs are
// raw bytes (base64), so a BOM, invalid UTF-8 or a lone surrogate escape reaches each parser
// unchanged; `expect` is the TypeScript verdict, which every shared-case driver (property-tests/drivers) must give.
// Verdicts: kind "parse" -> "ok" or the strict parser's error code; kind "validate" -> "valid",
// "json <code>" or "<instancePath> <keyword>[ <rule>]" of the first error; kind "rfc3339" ->
// epoch milliseconds or "null".
import fc from "fast-check";
import { parseMessage, listMessages } from "../../generated/ts/index.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { parseRfc3339 } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import { loadModel } from "../../generators/pipeline.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";

export type CorpusCase =
  | { kind: "parse"; name: string; b64: string; expect: string }
  | { kind: "validate"; name: string; protocol: string; message: string; b64: string; expect: string }
  | { kind: "rfc3339"; name: string; text: string; expect: string };

export interface CorpusFile { description: string; cases: CorpusCase[] }

const enc = new TextEncoder();
const b64 = (bytes: Uint8Array | string) => Buffer.from(typeof bytes === "string" ? enc.encode(bytes) : bytes).toString("base64");
export const bytesOf = (c: { b64: string }) => new Uint8Array(Buffer.from(c.b64, "base64"));

export function verdict(c: CorpusCase): string {
  switch (c.kind) {
    case "parse": {
      const r = parseStrictJson(bytesOf(c));
      return r.ok ? "ok" : r.error.code;
    }
    case "validate": {
      const r = parseMessage(c.protocol, c.message, bytesOf(c));
      if (r.ok) return "valid";
      const e = r.errors[0]!;
      if (e.keyword === "json") return `json ${String(e.params["code"])}`;
      return `${e.instancePath} ${e.keyword}${e.params["rule"] ? ` ${String(e.params["rule"])}` : ""}`;
    }
    case "rfc3339":
      return String(parseRfc3339(c.text));
  }
}

/** Hostile JSON texts for the strict parser, each class of the security review at least once. */
function parseCases(): Omit<CorpusCase & { kind: "parse" }, "expect">[] {
  const raw: [string, Uint8Array | string][] = [
    ["empty", ""],
    ["BOM then object", new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])],
    ["invalid UTF-8 byte 0xff in a string", new Uint8Array([0x22, 0xff, 0x22])],
    ["overlong UTF-8 for /", new Uint8Array([0x22, 0xc0, 0xaf, 0x22])],
    ["truncated 3-byte sequence", new Uint8Array([0x22, 0xe2, 0x82, 0x22])],
    ["UTF-8 encoded surrogate D800", new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ["lone high surrogate escape", '"\\ud800"'],
    ["lone low surrogate escape", '"\\udc00"'],
    ["reversed surrogate pair", '"\\udc00\\ud800"'],
    ["valid surrogate pair", '"\\ud83d\\ude00"'],
    ["duplicate keys", '{"a":1,"a":2}'],
    ["duplicate keys after escapes", '{"a":1,"\\u0061":2}'],
    ["NaN", "NaN"],
    ["Infinity", "[Infinity]"],
    ["1e400 overflows a double", "1e400"],
    ["-1e400", "-1e400"],
    ["1e19 (exact double, beyond Long)", "1e19"],
    ["2^53 + 1 is not exact", "9007199254740993"],
    ["2^53", "9007199254740992"],
    ["21-digit integer", "123456789012345678901"],
    ["canonical form of 2^60", "1152921504606847000"],
    ["leading zero", "01"],
    ["trailing comma", "[1,]"],
    ["unterminated string", '"abc'],
    ["control character in string", '"a\u0001b"'],
    ["deep nesting 10000 arrays", "[".repeat(10_000) + "]".repeat(10_000)],
    ["deep nesting 10000 objects", '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000)],
    ["nesting at 64", "[".repeat(64) + "]".repeat(64)],
    ["nesting at 65", "[".repeat(65) + "]".repeat(65)],
    ["long string 100000 characters", `"${"x".repeat(100_000)}"`],
    ["many keys", `{${Array.from({ length: 5000 }, (_, i) => `"k${i}":${i}`).join(",")}}`],
    ["whitespace only", " \n\t "],
    ["two values", "1 2"],
    ["NUL after value", new Uint8Array([0x31, 0x00])],
  ];
  const cases = raw.map(([name, input]) => ({ kind: "parse" as const, name, b64: b64(input) }));
  // Structure-aware random documents with hostile leaves, from a fixed seed.
  const leaf = fc.oneof(
    fc.constantFrom("1e19", "-0", "1e-400", "9007199254740993", "1.5", "true", "null", '"\\ud800"', '"\\u0000"', '"\\"', '"é"'),
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  );
  const doc = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 4 }).map((xs) => `[${xs.join(",")}]`),
      fc.array(fc.tuple(fc.constantFrom("a", "b", "a", "\\u0061"), tie("node")), { maxLength: 4 }).map((kv) => `{${kv.map(([k, v]) => `"${k}":${v}`).join(",")}}`)),
  })).node as fc.Arbitrary<string>;
  fc.sample(doc, { numRuns: 120, seed: 15 }).forEach((text, i) => cases.push({ kind: "parse", name: `generated ${i}`, b64: b64(text) }));
  return cases;
}

/** Each message's first example with hostile values in place of its top-level members. */
function validateCases(): Omit<CorpusCase & { kind: "validate" }, "expect">[] {
  const result = loadModel(REPO_ROOT);
  if (!result.ok) throw new Error("spec has errors");
  const known = new Set(listMessages().map((m) => `${m.protocol}/${m.name}`));
  const hostile: [string, string][] = [
    ["1e19", "1e19"], ["-1", "-1"], ["1.5", "1.5"], ["number 5", "5"], ["2^53", "9007199254740992"],
    ["lone surrogate", '"\\ud800x"'], ["300 characters", JSON.stringify("A".repeat(300))], ["deep array", "[".repeat(70) + "]".repeat(70)],
  ];
  const cases: Omit<CorpusCase & { kind: "validate" }, "expect">[] = [];
  for (const protocol of result.model.protocols) {
    for (const message of protocol.messages) {
      if (!known.has(`${protocol.id}/${message.name}`) || message.examples.length === 0) continue;
      const base = message.examples[0] as Record<string, unknown>;
      if (base === null || typeof base !== "object" || Array.isArray(base)) continue;
      const keys = Object.keys(base).slice(0, 6);
      for (const key of keys) {
        for (const [label, text] of hostile) {
          const body = `{${Object.entries(base).map(([k, v]) => `${JSON.stringify(k)}:${k === key ? text : JSON.stringify(v)}`).join(",")}}`;
          cases.push({ kind: "validate", name: `${message.name} ${key} = ${label}`, protocol: protocol.id, message: message.name, b64: b64(body) });
        }
      }
      const plain = JSON.stringify(base);
      cases.push({ kind: "validate", name: `${message.name} with a BOM`, protocol: protocol.id, message: message.name, b64: b64(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(plain)])) });
      cases.push({ kind: "validate", name: `${message.name} duplicated first key`, protocol: protocol.id, message: message.name, b64: b64(`{${JSON.stringify(Object.keys(base)[0] ?? "a")}:1,${plain.slice(1)}`) });
    }
  }
  return cases;
}

/** The security review's reproducers, one per defect that a language-neutral input shows. */
function reproducerCases(): Omit<CorpusCase, "expect">[] {
  const result = loadModel(REPO_ROOT);
  if (!result.ok) throw new Error("spec has errors");
  const example = (protocol: string, name: string) => result.model.protocols.find((p) => p.id === protocol)!.messages.find((m) => m.name === name)!.examples[0] as Record<string, unknown>;
  const manifest = example("agent-connector", "ConnectorManifest");
  const trigger = example("agent-provider", "AgentTriggerRequest");
  const install = example("agent-provider", "AgentInstallRequest");
  const v = (name: string, protocol: string, message: string, body: string) => ({ kind: "validate" as const, name, protocol, message, b64: b64(body) });
  const withMember = (base: Record<string, unknown>, key: string, text: string) =>
    `{${Object.entries({ ...base, [key]: null }).map(([k, val]) => `${JSON.stringify(k)}:${k === key ? text : JSON.stringify(val)}`).join(",")}}`;
  return [
    v("defect 1: 40k scheme characters in SafeText label", "agent-connector", "ConnectorManifest", JSON.stringify({ ...manifest, label: "a+b-".repeat(10_000) })),
    v("defect 1: 40k letters in SafeText description", "agent-connector", "ConnectorManifest", JSON.stringify({ ...manifest, description: "A".repeat(40_000) })),
    v("defect 1: URL credentials in a label", "agent-connector", "ConnectorManifest", JSON.stringify({ ...manifest, label: "see x1abc://u:p@h" })),
    v("defect 3: protocol_version 1e19", "agent-provider", "AgentTriggerRequest", withMember(trigger, "protocol_version", "1e19")),
    v("defect 3: protocol_version 2^53 - 1", "agent-provider", "AgentTriggerRequest", withMember(trigger, "protocol_version", "9007199254740991")),
    v("defect 6: a number in a string+pattern field", "agent-connector", "ConnectorManifest", withMember(manifest, "connectorVersion", "5")),
    v("defect 6: a number in a string+format field (format uri)", "agent-provider", "AgentInstallRequest", withMember(install, "callback_url", "5")),
  ];
}

function rfc3339Cases(): Omit<CorpusCase & { kind: "rfc3339" }, "expect">[] {
  return [
    "0000-02-29T00:00:00Z", "0000-03-01T00:00:00Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "0099-02-29T00:00:00Z",
    "0100-02-29T00:00:00Z", "0400-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
    "2023-02-29T00:00:00Z", "9999-12-31T23:59:59Z", "1970-01-01T00:00:00.999999999Z", "2026-05-27T00:00:00+23:59",
    "2026-05-27T00:00:00-00:00", "2026-05-27T24:00:00Z", "2026-05-27T00:00:60Z", "2026-05-27 00:00:00Z", "2026-5-27T00:00:00Z",
  ].map((text) => ({ kind: "rfc3339" as const, name: text, text }));
}

export function buildCorpus(): Record<string, CorpusFile> {
  const withVerdicts = (cases: Omit<CorpusCase, "expect">[]) => cases.map((c) => ({ ...c, expect: verdict(c as CorpusCase) }) as CorpusCase);
  return {
    "strict-json.json": { description: "Hostile JSON texts (base64 bytes) into the strict parser; expect: ok or the error code (TypeScript's verdict).", cases: withVerdicts(parseCases()) },
    "validators.json": { description: "Each message's first example with hostile members, parsed and validated; expect: valid, json <code> or '<instancePath> <keyword>[ <rule>]' of the first error (TypeScript's verdict).", cases: withVerdicts(validateCases()) },
    "reproducers.json": { description: "The security review's reproducers (issue 15), parsed and validated; expect as in validators.json.", cases: withVerdicts(reproducerCases()) },
    "rfc3339.json": { description: "RFC 3339 timestamps: epoch milliseconds or null. Proleptic Gregorian calendar (RFC 3339 appendix C): year 0000 is a leap year.", cases: withVerdicts(rfc3339Cases()) },
  };
}
