// From JSON Schema to Swift declarations: which schemas become named types (titled objects,
// discriminated unions, string enums), what every property's Swift type is, and which members
// are fixed constants. Validation never depends on this: the schema validator in the runtime
// checks every keyword; these types are the typed view of a valid message.
import type { JsonSchema, JsonValue, Model, Protocol } from "../../model/types.js";
import { identifier, lowerCamel, singular, typeName, uniqueNames, upperCamel } from "./naming.js";

export interface SwiftProperty {
  json: string;
  /** Escaped identifier. */
  swift: string;
  /** Swift type without the optional mark. */
  type: string;
  /** `T?`: absent (not required) or null allowed. */
  optional: boolean;
  required: boolean;
  /** Required and may be null: encoded as `null`, never omitted. */
  nullableRequired: boolean;
  description?: string;
  /** A required member the schema fixes with `const`: a computed property, checked when decoding. */
  constant?: JsonValue;
}

export interface SwiftEnum {
  kind: "enum";
  name: string;
  description?: string;
  cases: { name: string; raw: string }[];
  title?: string;
  /** Why the spec forbids values this version does not know (x-closed-enum); undefined: open. */
  closed?: string;
}

export interface SwiftStruct {
  kind: "struct";
  name: string;
  description?: string;
  properties: SwiftProperty[];
  /** additionalProperties: false: unknown members are refused when decoding. */
  closed: boolean;
  nested: SwiftEnum[];
  title: string;
}

export interface SwiftUnion {
  kind: "union";
  name: string;
  description?: string;
  tagKey: string;
  cases: { name: string; tags: JsonValue[]; type: string }[];
  title: string;
}

export type SwiftDecl = SwiftStruct | SwiftUnion | SwiftEnum;

interface Context {
  /** $id of the document the schema is in (for relative $ref). */
  base: string;
  owner?: SwiftStruct;
  /** JSON name of the property being typed, for names of anonymous enums and unions. */
  property?: string;
  /** Type name to prefix anonymous unions with. */
  ownerName: string;
}

const RESERVED_NESTED = new Set(["String", "Int", "Double", "Bool", "Data", "Date", "URL", "Error", "Type", "Result", "Set", "Array", "Dictionary", "Optional", "Character", "Decoder", "Encoder", "CodingKeys", "JSONValue", "JSONObject", "Self"]);

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}


/** The named declarations of one protocol, in first-use order, and the Swift type of any schema. */
export class ProtocolTypes {
  readonly decls = new Map<string, SwiftDecl>();
  private readonly docs = new Map<string, JsonSchema>();
  private readonly titles = new Set<string>();

  constructor(model: Model, readonly protocol: Protocol) {
    for (const shared of model.shared) this.docs.set(shared.id, shared.schema);
    for (const message of protocol.messages) this.docs.set(message.id, message.schema);
    const collect = (node: JsonValue): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (isObject(node)) {
        if (typeof node["title"] === "string") this.titles.add(typeName(node["title"]));
        for (const [key, child] of Object.entries(node)) if (!key.startsWith("x-") && key !== "examples" && key !== "const" && key !== "enum") collect(child);
      }
    };
    for (const message of protocol.messages) collect(message.schema);
  }

  /** Declares the message's root type and everything it reaches; returns its name. */
  declareMessage(name: string, schema: JsonSchema, base: string): string {
    const declared = this.named(schema, { base, ownerName: name });
    if (declared === undefined) throw new Error(`${this.protocol.id}/${name}: the root schema is not an object, union or string enum`);
    return declared;
  }

  resolve(ref: string, base: string): { schema: JsonValue; base: string } {
    const [path = "", fragment = ""] = ref.split("#");
    const id = path === "" ? base : new URL(path, base).href;
    const doc = this.docs.get(id);
    if (doc === undefined) throw new Error(`cannot resolve ${ref} from ${base}`);
    let node: JsonValue = doc;
    for (const raw of fragment.split("/").slice(1)) {
      const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      if (!isObject(node) || !(token in node)) throw new Error(`cannot resolve ${ref} from ${base}`);
      node = node[token]!;
    }
    return { schema: node, base: id };
  }

  /** A $ref-only schema (annotations aside) leads to its target. */
  private deref(schema: JsonValue, base: string): { schema: JsonValue; base: string } {
    let current = { schema, base };
    for (let guard = 0; guard < 32; guard++) {
      const s = current.schema;
      if (!isObject(s) || typeof s["$ref"] !== "string") return current;
      const structural = Object.keys(s).filter((k) => !["$ref", "description", "title", "default", "examples", "$comment"].includes(k) && !k.startsWith("x-"));
      if (structural.length > 0) return current;
      current = this.resolve(s["$ref"], current.base);
    }
    return current;
  }

  /** The branches of a tagged union and the tag member, or undefined. */
  private unionOf(schema: JsonSchema, base: string): { tagKey: string; branches: { schema: JsonValue; base: string; tags: JsonValue[] }[] } | undefined {
    const discriminator = schema["discriminator"];
    const list = (Array.isArray(schema["oneOf"]) ? schema["oneOf"] : Array.isArray(schema["anyOf"]) ? schema["anyOf"] : undefined) as JsonValue[] | undefined;
    if (list === undefined || list.length < 2) return undefined;
    const resolved = list.map((branch) => this.deref(branch, base));
    if (!resolved.every((r) => isObject(r.schema) && isObject(r.schema["properties"]) && typeof r.schema["title"] === "string")) return undefined;
    const propsOf = (r: { schema: JsonValue }): { [key: string]: JsonValue } => (r.schema as JsonSchema)["properties"] as { [key: string]: JsonValue };
    const tagsOf = (r: { schema: JsonValue }, key: string): JsonValue[] | undefined => {
      const p = propsOf(r)[key];
      if (!isObject(p)) return undefined;
      if ("const" in p) return [p["const"]!];
      return Array.isArray(p["enum"]) ? p["enum"] : undefined;
    };
    let tagKey: string | undefined;
    if (isObject(discriminator) && typeof discriminator["propertyName"] === "string") tagKey = discriminator["propertyName"];
    else tagKey = Object.keys(propsOf(resolved[0]!)).find((key) => resolved.every((r) => tagsOf(r, key)?.length === 1));
    if (tagKey === undefined) return undefined;
    const branches = resolved.map((r) => ({ ...r, tags: tagsOf(r, tagKey!) ?? [] }));
    if (branches.some((b) => b.tags.length === 0)) return undefined;
    return { tagKey, branches };
  }

  /** Declares a named type for the schema when it is one (titled object, union, string enum). */
  private named(schema: JsonValue, ctx: Context): string | undefined {
    const { schema: s, base } = this.deref(schema, ctx.base);
    if (!isObject(s)) return undefined;
    const title = typeof s["title"] === "string" ? typeName(s["title"]) : undefined;
    const union = this.unionOf(s, base);
    if (union !== undefined) {
      const name = title ?? `${ctx.ownerName}${upperCamel(ctx.property ?? "Value")}`;
      if (this.decls.has(name)) return name;
      const decl: SwiftUnion = { kind: "union", name, description: s["description"] as string | undefined, tagKey: union.tagKey, cases: [], title: name };
      this.decls.set(name, decl);
      const caseNames = uniqueNames(union.branches.map((b) => {
        const only = b.tags.length === 1 ? b.tags[0] : undefined;
        if (typeof only === "string") return lowerCamel(only);
        if (typeof only === "boolean") return lowerCamel(String((b.schema as JsonSchema)["title"]));
        return lowerCamel(String((b.schema as JsonSchema)["title"]));
      }));
      union.branches.forEach((branch, i) => {
        const type = this.named(branch.schema, { base: branch.base, ownerName: name });
        decl.cases.push({ name: identifier(caseNames[i]!), tags: branch.tags, type: type! });
      });
      return name;
    }
    const enumValues = this.stringEnum(s);
    if (enumValues !== undefined && title !== undefined) {
      if (!this.decls.has(title)) this.decls.set(title, this.enumDecl(title, enumValues.values, s));
      return title;
    }
    if (isObject(s["properties"]) && title !== undefined) {
      if (this.decls.has(title)) return title;
      const decl: SwiftStruct = { kind: "struct", name: title, description: s["description"] as string | undefined, properties: [], closed: s["additionalProperties"] === false, nested: [], title };
      this.decls.set(title, decl);
      const required = new Set(Array.isArray(s["required"]) ? (s["required"] as string[]) : []);
      const props = s["properties"] as { [key: string]: JsonValue };
      const swiftNames = uniqueNames(Object.keys(props).map((json) => lowerCamel(json)));
      Object.entries(props).forEach(([json, propSchema], i) => {
        const target = this.deref(propSchema, base).schema;
        const isRequired = required.has(json);
        const constant = isObject(target) && "const" in target ? target["const"] : undefined;
        if (isRequired && constant !== undefined && constant !== null && typeof constant !== "object") {
          decl.properties.push({ json, swift: identifier(swiftNames[i]!), type: typeof constant === "string" ? "String" : typeof constant === "boolean" ? "Bool" : Number.isInteger(constant) ? "Int" : "Double", optional: false, required: true, nullableRequired: false, description: describe(propSchema, target), constant });
          return;
        }
        const t = this.typeOf(propSchema, { base, owner: decl, property: json, ownerName: title });
        decl.properties.push({
          json,
          swift: identifier(swiftNames[i]!),
          type: t.code,
          optional: !isRequired || t.nullable,
          required: isRequired,
          nullableRequired: isRequired && t.nullable,
          description: describe(propSchema, target),
        });
      });
      return title;
    }
    return undefined;
  }

  private stringEnum(s: JsonSchema): { values: string[]; nullable: boolean } | undefined {
    if (!Array.isArray(s["enum"])) return undefined;
    const values = s["enum"] as JsonValue[];
    const strings = values.filter((v): v is string => typeof v === "string");
    const nulls = values.filter((v) => v === null).length;
    if (strings.length === 0 || strings.length + nulls !== values.length) return undefined;
    return { values: strings, nullable: nulls > 0 };
  }

  private enumDecl(name: string, values: string[], schema: JsonSchema): SwiftEnum {
    const names = uniqueNames(values.map((v) => lowerCamel(v)));
    const closed = typeof schema["x-closed-enum"] === "string" ? schema["x-closed-enum"] : undefined;
    return { kind: "enum", name, description: schema["description"] as string | undefined, cases: values.map((raw, i) => ({ name: identifier(names[i]!), raw })), closed };
  }

  /** The Swift type of a property schema. */
  typeOf(schema: JsonValue, ctx: Context): { code: string; nullable: boolean } {
    const { schema: s, base } = this.deref(schema, ctx.base);
    if (!isObject(s)) return { code: "JSONValue", nullable: false };
    const nested = { ...ctx, base };
    // X | null, written as anyOf/oneOf with a {type: null} branch or as a type list.
    for (const key of ["anyOf", "oneOf"]) {
      const list = s[key];
      if (Array.isArray(list) && list.length === 2) {
        const isNull = (b: JsonValue): boolean => isObject(b) && b["type"] === "null" && Object.keys(b).filter((k) => k !== "description").length === 1;
        const other = list.find((b) => !isNull(b));
        if (other !== undefined && list.some(isNull)) return { code: this.typeOf(other, nested).code, nullable: true };
      }
    }
    if (Array.isArray(s["type"]) && (s["type"] as JsonValue[]).includes("null")) {
      const rest = (s["type"] as JsonValue[]).filter((t) => t !== "null");
      const t = rest.length === 1 ? this.typeOf({ ...s, type: rest[0]! }, nested) : { code: "JSONValue", nullable: false };
      return { code: t.code, nullable: true };
    }
    const named = this.named(s, nested);
    if (named !== undefined) return { code: named, nullable: false };
    const enumValues = this.stringEnum(s);
    if (enumValues !== undefined) {
      const owner = ctx.owner;
      let name = upperCamel(singular(ctx.property ?? "Value"));
      if (this.titles.has(name) || RESERVED_NESTED.has(name) || name === owner?.name) name = `${name}Value`;
      if (owner !== undefined) {
        const existing = owner.nested.find((e) => e.name === name);
        if (existing === undefined) owner.nested.push(this.enumDecl(name, enumValues.values, s));
        return { code: name, nullable: enumValues.nullable };
      }
      return { code: "String", nullable: enumValues.nullable };
    }
    if ("const" in s) return { code: scalarType(s["const"]!), nullable: s["const"] === null };
    if (Array.isArray(s["enum"])) {
      const kinds = new Set((s["enum"] as JsonValue[]).map(scalarType));
      return kinds.size === 1 ? { code: [...kinds][0]!, nullable: false } : { code: "JSONValue", nullable: false };
    }
    switch (s["type"]) {
      case "string":
        return { code: "String", nullable: false };
      case "integer":
        return { code: "Int", nullable: false };
      case "number":
        return { code: "Double", nullable: false };
      case "boolean":
        return { code: "Bool", nullable: false };
      case "null":
        return { code: "JSONValue", nullable: false };
      case "array": {
        if (s["items"] === undefined) return { code: "[JSONValue]", nullable: false };
        const item = this.typeOf(s["items"], { ...nested, property: singular(ctx.property ?? "item") });
        return { code: `[${item.code}${item.nullable ? "?" : ""}]`, nullable: false };
      }
      case "object": {
        const additional = s["additionalProperties"];
        if (isObject(additional)) {
          const value = this.typeOf(additional, nested);
          return { code: `[String: ${value.code}${value.nullable ? "?" : ""}]`, nullable: false };
        }
        return { code: "[String: JSONValue]", nullable: false };
      }
      default:
        break;
    }
    // A $ref with sibling constraints (e.g. a shared text type with its own maxLength), or an
    // allOf of refinements: the type is the first part that has one.
    const parts: JsonValue[] = [];
    if (typeof s["$ref"] === "string") parts.push({ $ref: s["$ref"] });
    if (Array.isArray(s["allOf"])) parts.push(...(s["allOf"] as JsonValue[]));
    for (const part of parts) {
      const t = this.typeOf(part, nested);
      if (t.code !== "JSONValue") return t;
    }
    return { code: "JSONValue", nullable: false };
  }
}

function scalarType(value: JsonValue): string {
  if (typeof value === "string") return "String";
  if (typeof value === "boolean") return "Bool";
  if (typeof value === "number") return Number.isInteger(value) ? "Int" : "Double";
  return "JSONValue";
}

function describe(schema: JsonValue, target: JsonValue): string | undefined {
  if (isObject(schema) && typeof schema["description"] === "string") return schema["description"];
  if (isObject(target) && typeof target["description"] === "string") return target["description"];
  return undefined;
}
