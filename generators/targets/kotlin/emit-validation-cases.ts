// Differential validation cases for the Kotlin validator: deterministic mutations of each
// message's first example (members removed or added, values replaced by other JSON types, strings
// with a trailing line break, numbers moved, arrays emptied or given a duplicate), each with the
// first error the TypeScript side reports (ajv as the check stage builds it, then the x-rules).
// The Kotlin test must report the same first error, or the same verdict "valid", on every case.
// Pure: ajv runs in memory on the model's schemas.
import { createSchemaCompiler } from "../../model/schema-compiler.js";
import type { JsonValue, Message, Model, OutputFile, Protocol } from "../../model/types.js";
import { checkRules } from "../ts/runtime/src/rules.js";
import { runValidator, type CompiledValidator } from "../ts/runtime/src/validation.js";

/** [pointer, replacement or null for "remove the member", expected: [instancePath, keyword, rule?] or null for valid]. */
type Case = [string, JsonValue | null, [string, string, string?] | null];
type Mutation = { pointer: string; remove: boolean; value: JsonValue };

const REPLACEMENTS: JsonValue[] = [null, true, 0, 1.5, "x", [], {}];

export function emitValidationCases(model: Model, protocol: Protocol): OutputFile {
  const ajv = createSchemaCompiler([...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)]);
  const messages = protocol.messages.map((message) => {
    const validate = ajv.getSchema(message.id) as CompiledValidator | undefined;
    if (validate === undefined) throw new Error(`${message.location.file}: no compiled schema`);
    const base = message.examples[0]!;
    const cases: Case[] = [];
    const seen = new Set<string>();
    for (const m of mutations(base, "")) {
      const key = JSON.stringify(m);
      if (seen.has(key)) continue;
      seen.add(key);
      const result = runValidator(validate, (v) => checkRules(v, message.rules), apply(base, m));
      const first = result.ok ? null : result.errors[0]!;
      const expected: Case[2] = first === null ? null : first.params["rule"] === undefined ? [first.instancePath, first.keyword] : [first.instancePath, first.keyword, String(first.params["rule"])];
      cases.push([m.pointer, m.remove ? null : wrap(m.value), expected]);
    }
    return { name: message.name, base, cases };
  });
  return {
    path: `src/test/resources/validation-cases/${protocol.id}.json`,
    contents: `${JSON.stringify({ protocol: protocol.id, messages })}\n`,
    sources: protocol.messages.map((m: Message) => m.location.file),
  };
}

/** A replacement is wrapped in a one-element array so that `null` can mean "remove". */
function wrap(value: JsonValue): JsonValue {
  return [value];
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
