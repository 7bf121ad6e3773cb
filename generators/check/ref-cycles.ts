// ref-cycle: a `$ref` that leads back to the schema it sits in without reaching into the instance
// (only through allOf, anyOf, oneOf, not, if/then/else, dependentSchemas and further `$ref`s) makes
// validation of any value that gets there recurse forever: ajv, the generated validators and the
// breaking detector's witness search all overflow the stack on it. A cycle that passes through
// properties, items or another keyword that descends into the instance is ordinary recursion.
import type { SpecFile } from "../load/spec-file.js";
import { joinPointer } from "../load/spec-file.js";
import type { JsonSchema, JsonValue, SpecError } from "../model/types.js";
import { pointerGet, reporter, walkSchemas } from "./lints.js";

interface Node {
  file: SpecFile;
  pointer: string;
  schema: JsonSchema;
}

/** Keywords whose subschemas apply to the same instance as the schema they sit in. */
const SAME_INSTANCE_LISTS = ["allOf", "anyOf", "oneOf"] as const;
const SAME_INSTANCE_SINGLE = ["not", "if", "then", "else"] as const;

/** Reports each `$ref` that closes a cycle of same-instance steps. Assumes every `$ref` resolves (ref-resolves ran first). */
export function lintRefCycles(files: SpecFile[], schemasById: Map<string, JsonValue>, errors: SpecError[]): void {
  const nodes = new Map<object, Node>();
  for (const file of files) walkSchemas(file.value, "", (schema, pointer) => void nodes.set(schema, { file, pointer, schema }));
  const state = new Map<object, "open" | "done">();
  for (const node of nodes.values()) visit(node);

  function visit(node: Node): void {
    if (state.has(node.schema)) return;
    state.set(node.schema, "open");
    for (const next of sameInstanceSteps(node)) {
      const target = next.schema !== null && typeof next.schema === "object" ? nodes.get(next.schema) : undefined;
      if (target === undefined) continue;
      if (state.get(target.schema) === "open") {
        if (next.viaRef !== undefined) report(node, next.viaRef, target);
        continue;
      }
      visit(target);
    }
    state.set(node.schema, "done");
  }

  function report(node: Node, ref: string, target: Node): void {
    reporter(node.file, "ref-cycle", errors)(
      joinPointer(node.pointer, "$ref"),
      `$ref ${ref} leads back to ${target.file.file}#${target.pointer} without reaching into the instance (only through allOf, anyOf, oneOf, not, if/then/else, dependentSchemas or $ref): validating a value that gets here never ends; put the recursion under properties, items or another keyword that descends into the value`,
    );
  }

  function sameInstanceSteps(node: Node): { schema: JsonValue; viaRef?: string }[] {
    const s = node.schema;
    const out: { schema: JsonValue; viaRef?: string }[] = [];
    for (const key of SAME_INSTANCE_LISTS) if (Array.isArray(s[key])) for (const b of s[key] as JsonValue[]) out.push({ schema: b });
    for (const key of SAME_INSTANCE_SINGLE) if (s[key] !== undefined) out.push({ schema: s[key]! });
    const deps = s["dependentSchemas"];
    if (deps && typeof deps === "object" && !Array.isArray(deps)) for (const d of Object.values(deps)) out.push({ schema: d });
    const ref = s["$ref"];
    if (typeof ref === "string") {
      const target = resolve(node, ref);
      if (target !== undefined) out.push({ schema: target, viaRef: ref });
    }
    return out;
  }

  function resolve(node: Node, ref: string): JsonValue | undefined {
    const base = (node.file.value as JsonSchema)["$id"];
    let url: URL;
    try {
      url = new URL(ref, typeof base === "string" ? base : "https://invalid.invalid/");
    } catch {
      return undefined;
    }
    const doc = schemasById.get(url.origin + url.pathname);
    return doc === undefined ? undefined : pointerGet(doc, url.hash.replace(/^#/, ""));
  }
}
