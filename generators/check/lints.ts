// Lints: rules about the spec files that JSON Schema's own meta-schema cannot state.
// Each returns SpecErrors located at the offending pointer.
import type { SpecFile } from "../load/spec-file.js";
import { joinPointer } from "../load/spec-file.js";
import type { JsonSchema, JsonValue, SpecError } from "../model/types.js";

const NESTED_X_KEYS = new Set(["x-open", "x-closed-enum", "x-inferred-from-clients", "x-divergences"]);
const TIMESTAMP_NAME = /^(timestamp|.*_at|.*[a-z]At|expires.*)$/;
const COMMON_TIMESTAMP_REF = /(^|\/)common\/types\.json#\/\$defs\/Timestamp(MillisUtc)?$/;

type Report = (pointer: string, message: string) => void;

export function reporter(file: SpecFile, lint: string, errors: SpecError[]): Report {
  return (pointer, message) => {
    const { line, column } = file.locate(pointer);
    errors.push({ file: file.file, line, column, pointer, message, lint });
  };
}

/** `$id` (under the project's schemaBase) and `title` agree with `spec/<protocol>/messages/<Name>.yaml`. */
export function lintIdMatchesFile(file: SpecFile, protocol: string, schemaBase: string, errors: SpecError[]): void {
  const report = reporter(file, "id-matches-file", errors);
  const name = file.file.replace(/^.*\//, "").replace(/\.(ya?ml|json)$/, "");
  const schema = file.value as JsonSchema;
  const expectedId = `${schemaBase}${protocol}/${name}.json`;
  if (schema["$id"] !== expectedId) report("/$id", `$id must be ${expectedId} for this file`);
  if (schema["title"] !== name) report("/title", `title must be ${name}, the file's name`);
}

/** Walks every subschema with its pointer, calling visit(schema, pointer, parentKeyword). */
export function walkSchemas(node: JsonValue, pointer: string, visit: (schema: JsonSchema, pointer: string, via: string) => void, via = ""): void {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return;
  const schema = node as JsonSchema;
  visit(schema, pointer, via);
  for (const key of ["properties", "$defs", "patternProperties", "dependentSchemas"]) {
    const map = schema[key];
    if (map && typeof map === "object" && !Array.isArray(map)) {
      for (const [name, child] of Object.entries(map)) walkSchemas(child, joinPointer(pointer, key, name), visit, key);
    }
  }
  for (const key of ["items", "contains", "not", "if", "then", "else", "additionalProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems"]) {
    if (schema[key] !== undefined) walkSchemas(schema[key]!, joinPointer(pointer, key), visit, key);
  }
  for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, i) => walkSchemas(child, joinPointer(pointer, key, i), visit, key));
  }
}

export function lintSchemaShapes(file: SpecFile, errors: SpecError[]): void {
  const title = reporter(file, "title-required", errors);
  const closed = reporter(file, "closed-objects", errors);
  const disc = reporter(file, "discriminator-required", errors);
  const time = reporter(file, "shared-timestamp", errors);
  const xkeys = reporter(file, "annotations", errors);
  walkSchemas(file.value, "", (schema, pointer, via) => {
    if (pointer !== "") {
      for (const key of Object.keys(schema)) {
        if (key.startsWith("x-") && !NESTED_X_KEYS.has(key)) xkeys(joinPointer(pointer, key), `${key} is not allowed inside a subschema (allowed: ${[...NESTED_X_KEYS].join(", ")})`);
      }
    }
    if (via === "$defs" && typeof schema["title"] !== "string") title(pointer, "every $defs entry needs a title: it names the type in every language");
    const props = schema["properties"];
    if (props !== undefined && schema["type"] === "object") {
      if (typeof schema["title"] !== "string") title(pointer, "an object schema with properties needs a title: it names the type in every language");
      if (schema["additionalProperties"] !== false && schema["x-open"] === undefined) {
        closed(pointer, "object schema must say additionalProperties: false, or carry x-open with the reason the protocol keeps it open");
      }
    }
    if (schema["oneOf"] !== undefined) lintDiscriminator(schema, pointer, disc, file.value);
    if (schema["format"] === "date-time") time(joinPointer(pointer, "format"), "use $ref to common/types.json#/$defs/Timestamp instead of format: date-time");
    if (via === "properties") {
      const name = pointer.slice(pointer.lastIndexOf("/") + 1);
      const ref = schema["$ref"];
      const isInteger = schema["type"] === "integer" || schema["type"] === "number";
      if (TIMESTAMP_NAME.test(name) && !isInteger && !(typeof ref === "string" && COMMON_TIMESTAMP_REF.test(ref))) {
        time(pointer, `property ${name} looks like a timestamp: $ref ../common/types.json#/$defs/Timestamp (or declare it an integer of epoch seconds)`);
      }
    }
  });
}

function lintDiscriminator(schema: JsonSchema, pointer: string, report: Report, root: JsonValue): void {
  const disc = schema["discriminator"];
  const prop = disc && typeof disc === "object" && !Array.isArray(disc) ? disc["propertyName"] : undefined;
  if (typeof prop !== "string") {
    report(joinPointer(pointer, "oneOf"), "a oneOf must carry discriminator: {propertyName}: unions are discriminated so every language can decode them and report one precise error");
    return;
  }
  const seen = new Map<string, number>();
  (schema["oneOf"] as JsonValue[]).forEach((branch, i) => {
    const resolved = resolveLocal(branch, root);
    const tag = resolved && typeof resolved === "object" && !Array.isArray(resolved) ? (resolved["properties"] as JsonSchema | undefined)?.[prop] : undefined;
    const values: JsonValue[] =
      tag && typeof tag === "object" && !Array.isArray(tag)
        ? tag["const"] !== undefined ? [tag["const"]] : Array.isArray(tag["enum"]) ? tag["enum"] : []
        : [];
    if (values.length === 0) {
      report(joinPointer(pointer, "oneOf", i), `branch must fix the discriminator property "${prop}" with const or enum`);
      return;
    }
    for (const v of values) {
      const key = JSON.stringify(v);
      if (seen.has(key)) report(joinPointer(pointer, "oneOf", i), `discriminator value ${key} is already used by branch ${seen.get(key)}`);
      seen.set(key, i);
    }
  });
}

/** Follows a same-file `#/...` $ref; other refs are left to the ref-resolves lint. */
export function resolveLocal(node: JsonValue, root: JsonValue): JsonValue | undefined {
  let current = node;
  for (let hops = 0; hops < 16; hops++) {
    if (!current || typeof current !== "object" || Array.isArray(current)) return current;
    const ref = current["$ref"];
    if (typeof ref !== "string" || !ref.startsWith("#")) return current;
    current = pointerGet(root, ref.slice(1)) as JsonValue;
  }
  return undefined;
}

export function pointerGet(root: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === "") return root;
  let current: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[Number(token)] : current[token];
    if (current === undefined) return undefined;
  }
  return current;
}

/** Every `$ref` resolves to a loaded schema and, if it has a fragment, to a node inside it. */
export function lintRefs(file: SpecFile, schemasById: Map<string, JsonValue>, errors: SpecError[]): void {
  const report = reporter(file, "ref-resolves", errors);
  const base = (file.value as JsonSchema)["$id"];
  walkSchemas(file.value, "", (schema, pointer) => {
    const ref = schema["$ref"];
    if (typeof ref !== "string") return;
    let target: URL;
    try {
      target = new URL(ref, typeof base === "string" ? base : "https://invalid.invalid/");
    } catch {
      report(joinPointer(pointer, "$ref"), `$ref ${ref} is not a valid URI reference`);
      return;
    }
    const doc = schemasById.get(target.origin + target.pathname);
    if (doc === undefined) {
      report(joinPointer(pointer, "$ref"), `$ref ${ref} names no loaded schema (${target.origin}${target.pathname})`);
      return;
    }
    const fragment = target.hash.replace(/^#/, "");
    if (fragment !== "" && pointerGet(doc, fragment) === undefined) report(joinPointer(pointer, "$ref"), `$ref ${ref}: ${fragment} does not exist in the target schema`);
  });
}

/** Every pointer an x-rules entry names exists in the schema's properties (following local refs and cross-file refs). */
export function lintRulePointers(file: SpecFile, schemasById: Map<string, JsonValue>, errors: SpecError[]): void {
  const report = reporter(file, "rule-pointers", errors);
  const schema = file.value as JsonSchema;
  const rules = schema["x-rules"];
  if (!Array.isArray(rules)) return;
  rules.forEach((rule, i) => {
    if (!rule || typeof rule !== "object" || Array.isArray(rule)) return;
    for (const field of ["left", "right", "url", "list", "lower", "upper", "min", "max", "array", "text"]) {
      const pointer = rule[field];
      if (typeof pointer !== "string") continue;
      if (!/^(\/([^~/]|~[01])*)*$/.test(pointer)) report(joinPointer("/x-rules", i, field), `${pointer} is not a JSON pointer (RFC 6901: it starts with "/", and "~" is written "~0", "/" inside a name "~1")`);
      else if (!schemaHasPath(schema, pointer, schemasById)) report(joinPointer("/x-rules", i, field), `${pointer} is not a property path of this message`);
    }
  });
}

/** The reference tokens of a JSON pointer (RFC 6901 section 4: "~1" is "/", then "~0" is "~"). */
function pointerTokens(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function schemaHasPath(root: JsonSchema, pointer: string, schemasById: Map<string, JsonValue>): boolean {
  return schemaHasTokens(root, pointerTokens(pointer), schemasById);
}

function schemaHasTokens(root: JsonSchema, tokens: readonly string[], schemasById: Map<string, JsonValue>): boolean {
  let current: { schema: JsonValue; doc: JsonSchema } = { schema: root, doc: root };
  for (const [index, token] of tokens.entries()) {
    current = follow(current, schemasById);
    const s = current.schema;
    if (!s || typeof s !== "object" || Array.isArray(s)) return false;
    if (/^[0-9]+$/.test(token) && s["items"] !== undefined) {
      current = { schema: s["items"]!, doc: current.doc };
      continue;
    }
    const props = s["properties"] as JsonSchema | undefined;
    if (props !== undefined && Object.prototype.hasOwnProperty.call(props, token)) {
      current = { schema: props[token]!, doc: current.doc };
      continue;
    }
    // A union: the path exists if one branch has the rest of it.
    const branches = [...((s["oneOf"] as JsonValue[]) ?? []), ...((s["anyOf"] as JsonValue[]) ?? [])];
    const rest = tokens.slice(index);
    return branches.some((b) => {
      const f = follow({ schema: b, doc: current.doc }, schemasById);
      return f.schema !== null && typeof f.schema === "object" && !Array.isArray(f.schema) && schemaHasTokens({ ...(f.schema as JsonSchema), $defs: f.doc["$defs"] ?? null, $id: f.doc["$id"] ?? null } as JsonSchema, rest, schemasById);
    });
  }
  return true;
}

function follow(at: { schema: JsonValue; doc: JsonSchema }, schemasById: Map<string, JsonValue>): { schema: JsonValue; doc: JsonSchema } {
  let current = at;
  for (let hops = 0; hops < 16; hops++) {
    const s = current.schema;
    if (!s || typeof s !== "object" || Array.isArray(s) || typeof s["$ref"] !== "string") return current;
    const target = new URL(s["$ref"], String(current.doc["$id"] ?? "https://invalid.invalid/"));
    const doc = (target.href.startsWith("#") ? current.doc : (schemasById.get(target.origin + target.pathname) as JsonSchema | undefined)) ?? current.doc;
    const fragment = target.hash.replace(/^#/, "");
    current = { schema: pointerGet(doc, fragment) ?? null, doc };
  }
  return current;
}
