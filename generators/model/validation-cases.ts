// Differential validation cases, part of the model: deterministic mutations of each message's
// first example (members removed or added, values replaced by other JSON types, strings with a
// trailing line break, numbers moved, arrays emptied or given a duplicate), each with the first
// error the reference validator reports: ajv as the check stage builds it, then the x-rules, with
// the same evaluator the check stage runs on the spec's own examples. The Kotlin and Swift
// validators must report the same first error, or the same verdict "valid", on every case.
import { referenceValidator } from "../check/reference-validator.js";
import type { JsonValue, Model, ValidationCase } from "./types.js";

type Mutation = { pointer: string; remove: boolean; value: JsonValue };

const REPLACEMENTS: JsonValue[] = [null, true, 0, 1.5, "x", [], {}];

/** Fills `message.validationCases` for every message of the model (in place: the model is being built). */
export function addValidationCases(model: Model): void {
  // Every protocol's schemas in one compile (their $ids are distinct), the one the check stage made.
  const validate = referenceValidator([...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))]);
  for (const protocol of model.protocols) {
    for (const message of protocol.messages) {
      const base = message.examples[0];
      if (base === undefined) continue;
      const seen = new Set<string>();
      for (const m of mutations(base, "")) {
        const key = JSON.stringify(m);
        if (seen.has(key)) continue;
        seen.add(key);
        const result = validate(message.id, message.rules, apply(base, m));
        const first = result.ok ? null : result.errors[0]!;
        const expected: ValidationCase["expected"] =
          first === null ? null : first.params["rule"] === undefined ? { instancePath: first.instancePath, keyword: first.keyword } : { instancePath: first.instancePath, keyword: first.keyword, rule: String(first.params["rule"]) };
        message.validationCases.push({ pointer: m.pointer, remove: m.remove, value: m.remove ? null : m.value, expected });
      }
    }
  }
}

function* mutations(node: JsonValue, pointer: string): Generator<Mutation> {
  if (pointer !== "") {
    for (const value of REPLACEMENTS) if (JSON.stringify(value) !== JSON.stringify(node)) yield { pointer, remove: false, value };
  }
  if (typeof node === "string") {
    yield { pointer, remove: false, value: `${node}\n` };
    yield { pointer, remove: false, value: "" };
  } else if (typeof node === "number") {
    yield { pointer, remove: false, value: node + 1 };
    yield { pointer, remove: false, value: -1 };
  } else if (Array.isArray(node)) {
    if (node.length > 0) yield { pointer, remove: false, value: [...node, node[0]!] };
    for (const [i, item] of node.entries()) yield* mutations(item, `${pointer}/${i}`);
  } else if (node !== null && typeof node === "object") {
    yield { pointer: `${pointer}/zz_extra`, remove: false, value: 1 };
    for (const [key, child] of Object.entries(node)) {
      const at = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      yield { pointer: at, remove: true, value: null };
      yield* mutations(child, at);
    }
  }
}

function apply(base: JsonValue, m: Mutation): JsonValue {
  const copy = structuredClone(base);
  if (m.pointer === "") return m.value;
  const tokens = m.pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  let parent: JsonValue = copy;
  for (const token of tokens.slice(0, -1)) parent = (parent as Record<string, JsonValue>)[token]!;
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) {
    if (m.remove) parent.splice(Number(last), 1);
    else parent[Number(last)] = m.value;
  } else if (m.remove) delete (parent as Record<string, JsonValue>)[last];
  else (parent as Record<string, JsonValue>)[last] = m.value;
  return copy;
}
