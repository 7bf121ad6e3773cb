// Hostile-input validate cases for any project's messages: the byte patterns of the fuzz corpus
// (property-tests/fuzz/corpus.ts, validateCases) applied to each message's first example. The
// corpus itself holds only this repository's messages; a user project's drivers get the same
// patterns on its own messages here. The expected verdict never comes from a runtime under test:
// a pattern that the strict parser must refuse has its error code written down in HOSTILE (the
// codes of spec/common/vectors/strict-json.json and the corpus's oracle, property-tests/fuzz/
// oracle.test.ts), and a pattern that parses is judged by the reference validator (ajv + x-rules,
// as the model's validation cases are). cases.test.ts checks that on this repository the
// derivation gives exactly the corpus's (oracle-checked) verdicts.
import { referenceValidator } from "../../generators/check/reference-validator.js";
import type { JsonValue, Message, Model } from "../../generators/model/types.js";

/** What a hostile member's text parses to: a value, or the strict parser's error code for the whole text. */
type Outcome = { value: JsonValue } | { json: string };

/** The corpus's hostile member texts (corpus.ts), by label, with what each parses to. */
export const HOSTILE: readonly { label: string; text: string; outcome: Outcome }[] = [
  { label: "1e19", text: "1e19", outcome: { value: 1e19 } },
  { label: "-1", text: "-1", outcome: { value: -1 } },
  { label: "1.5", text: "1.5", outcome: { value: 1.5 } },
  { label: "number 5", text: "5", outcome: { value: 5 } },
  { label: "2^53", text: "9007199254740992", outcome: { value: 9007199254740992 } },
  // A \uD800 escape without its low half (I-JSON, RFC 7493 §2.1).
  { label: "lone surrogate", text: '"\\ud800x"', outcome: { json: "lone-surrogate" } },
  { label: "300 characters", text: JSON.stringify("A".repeat(300)), outcome: { value: "A".repeat(300) } },
  // 70 nested arrays inside the message object: past the default depth limit of 64.
  { label: "deep array", text: "[".repeat(70) + "]".repeat(70), outcome: { json: "too-deep" } },
];

/** Members of the first example that get each pattern (the corpus takes the first six). */
const MEMBERS_PER_MESSAGE = 6;

export interface HostileCase {
  name: string;
  protocol: string;
  message: string;
  b64: string;
  expect: string;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * The hostile cases of every message whose first example is an object, named as the corpus names
 * them (`<Message> <member> = <label>`, `<Message> with a BOM`, `<Message> duplicated first key`).
 * `skip` leaves out messages (`<protocol>/<message>`) the corpus already covers.
 */
export function hostileCases(model: Model, skip: ReadonlySet<string> = new Set()): HostileCase[] {
  const cases: HostileCase[] = [];
  for (const protocol of model.protocols) {
    const validate = referenceValidator([...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)]);
    const verdict = (message: Message, value: JsonValue): string => {
      const result = validate(message.id, message.rules, value);
      if (result.ok) return "valid";
      const first = result.errors[0]!;
      return `${first.instancePath} ${first.keyword}${first.params["rule"] === undefined ? "" : ` ${String(first.params["rule"])}`}`;
    };
    for (const message of protocol.messages) {
      if (skip.has(`${protocol.id}/${message.name}`)) continue;
      const base = message.examples[0];
      if (base === undefined || base === null || typeof base !== "object" || Array.isArray(base)) continue;
      const add = (name: string, bytes: Uint8Array, expect: string) => cases.push({ name: `${message.name} ${name}`, protocol: protocol.id, message: message.name, b64: b64(bytes), expect });
      const entries = Object.entries(base);
      for (const [key] of entries.slice(0, MEMBERS_PER_MESSAGE)) {
        for (const { label, text, outcome } of HOSTILE) {
          const body = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${k === key ? text : JSON.stringify(v)}`).join(",")}}`;
          add(`${key} = ${label}`, utf8(body), "json" in outcome ? `json ${outcome.json}` : verdict(message, { ...base, [key]: outcome.value }));
        }
      }
      const plain = JSON.stringify(base);
      // A byte order mark before the text: RFC 8259 §8.1 forbids sending one.
      add("with a BOM", new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(plain)]), "json bom");
      // The first member written twice (I-JSON §2.3); an empty example gets `{"a":1,}`, a trailing comma.
      const first = entries[0]?.[0];
      add("duplicated first key", utf8(`{${JSON.stringify(first ?? "a")}:1,${plain.slice(1)}`), first === undefined ? "json unexpected-character" : "json duplicate-key");
    }
  }
  return cases;
}
