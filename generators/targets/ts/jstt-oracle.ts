// The independent oracle for ts-types.ts (used by ts-types.oracle.test.ts only, never to generate):
// TypeScript declarations per protocol from json-schema-to-typescript over one bundle so shared
// types are declared once, made deeply readonly as the emitted types are. Until issue 29 this was
// how generated/ts's types.d.ts was made. jstt sees a "type view" of the schemas: validation-only
// keywords (if/then, not, contains, constraint-only allOf branches, siblings of $ref) are dropped
// because they either add nothing to a type or make jstt invent intersections and duplicate names.
import { compile } from "json-schema-to-typescript";
import type { JsonSchema, JsonValue, Model, Protocol } from "../../model/types.js";

const VALIDATION_ONLY = new Set(["if", "then", "else", "not", "contains", "discriminator", "examples", "dependentSchemas", "propertyNames"]);

export async function emitProtocolTypes(model: Model, protocol: Protocol): Promise<string> {
  const byId = new Map<string, JsonValue>();
  for (const shared of model.shared) byId.set(shared.id, typeView(shared.schema, shared.id));
  for (const p of model.protocols) for (const m of p.messages) byId.set(m.id, typeView(m.schema, m.id));
  const bundle = {
    title: "Bundle",
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(protocol.messages.map((m) => [m.name, { $ref: m.id }])),
  };
  const source = await compile(bundle as never, "Bundle", {
    bannerComment: "",
    additionalProperties: false,
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: false,
    strictIndexSignatures: true,
    format: true,
    cwd: "/",
    $refOptions: {
      resolve: {
        http: false,
        file: false,
        spec: {
          order: 1,
          // Every $id of the loaded spec, whatever the project's schemaBase; nothing else is fetched.
          canRead: (file: { url: string }) => byId.has(file.url.replace(/#.*$/, "")),
          read: (file: { url: string }) => {
            const schema = byId.get(file.url.replace(/#.*$/, ""));
            if (schema === undefined) throw new Error(`unknown schema ${file.url}`);
            return JSON.stringify(schema);
          },
        },
      },
    } as never,
  });
  return deeplyReadonly(source.replace(/\nexport interface Bundle \{[^}]*\}\n/, "\n")).trimEnd() + "\n";
}

/**
 * Every member and array of the declarations made readonly: a parsed, verified or signed message
 * is a value whose bytes were checked (and signed), so changing it afterwards is a type error.
 * A mutable object is still assignable to these types, so building a message is unchanged.
 * json-schema-to-typescript prints one member per line (`name?: T;`, `"a-b": T;`, `[k: string]: T;`)
 * and arrays as `T[]` or `(A | B)[]`; doc comments start with `*` and are left alone.
 */
export function deeplyReadonly(declarations: string): string {
  return declarations
    .replace(/^(\s+)((?:"[^"\n]*"|[A-Za-z_$][\w$]*)\??|\[k: string\]): /gm, "$1readonly $2: ")
    .replace(/(^|[^\w$.`])([A-Za-z_$][\w$]*|\([^()\n]*\))\[\]/gm, (whole, before: string, element: string, offset: number, text: string) => {
      const lineStart = text.lastIndexOf("\n", offset) + 1;
      return /^\s*(\/\*|\*)/.test(text.slice(lineStart, offset + before.length)) ? whole : `${before}readonly ${element}[]`;
    });
}

/** A copy of the schema for type generation: absolute $refs, no validation-only keywords. */
export function typeView(node: JsonValue, base: string): JsonValue {
  if (Array.isArray(node)) return node.map((n) => typeView(n, base));
  if (node === null || typeof node !== "object") return node;
  const schema = node as JsonSchema;
  if (typeof schema["$ref"] === "string") {
    const ref = schema["$ref"];
    // Siblings of $ref only narrow the referenced type; jstt would clone it under a new name.
    return { $ref: ref.startsWith("#") ? ref : new URL(ref, base).href };
  }
  const out: JsonSchema = {};
  // An object the protocol keeps open carries unknown members; say so in the type.
  if (schema["x-open"] !== undefined && schema["additionalProperties"] === undefined) out["additionalProperties"] = true;
  // An object schema that names no members would become `{}`, which TypeScript reads as "any
  // value but null" (42 and "x" included). Closed, it admits only the empty object; left open,
  // any members: say exactly that.
  if (namesNoMembers(schema)) {
    if (schema["additionalProperties"] === false) out["tsType"] = "{ [k: string]: never }";
    else if (schema["additionalProperties"] === undefined) out["additionalProperties"] = true;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || VALIDATION_ONLY.has(key)) continue;
    if (key === "allOf" && Array.isArray(value)) {
      const typed = value.filter((b) => b !== null && typeof b === "object" && !Array.isArray(b) && (b["$ref"] !== undefined || b["type"] !== undefined));
      if (typed.length > 0) out[key] = typeView(typed, base);
      continue;
    }
    out[key] = key === "properties" || key === "$defs" ? mapValues(value as JsonSchema, (v) => typeView(v, base)) : typeView(value, base);
  }
  return out;
}

const MEMBER_KEYWORDS = ["properties", "patternProperties", "oneOf", "anyOf", "allOf", "$ref", "enum", "const"];

function namesNoMembers(schema: JsonSchema): boolean {
  if (schema["type"] !== "object") return false;
  for (const keyword of MEMBER_KEYWORDS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (keyword === "properties" && value !== null && typeof value === "object" && Object.keys(value).length === 0) continue;
    return false;
  }
  return true;
}

function mapValues(obj: JsonSchema, f: (v: JsonValue) => JsonValue): JsonSchema {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}
