// Maps a protocol's JSON Schemas to Kotlin declarations: data classes for closed objects, enum
// classes for string enums, sealed interfaces for `oneOf` + `discriminator`, plain Kotlin types
// for scalars and arrays. Constraints (patterns, lengths, if/then, x-rules) do not change a type;
// the validator enforces them. Pure: reads only the model.
import type { JsonSchema, JsonValue, Message, Model, Protocol } from "../../model/types.js";
import { camelCase, checkDistinct, identifier, pascalCase, screamingSnake, stringLiteral } from "./kotlin-names.js";

export interface KotlinProperty {
  /** Name on the wire, exactly as in the schema. */
  wireName: string;
  /** Kotlin name, camelCase, backticked if it is a keyword. */
  name: string;
  /** Kotlin type, with `?` when null is allowed or the property is optional. */
  type: string;
  optional: boolean;
  description?: string;
  /** Kotlin literal of a required `const` property; such a property is fixed and written in the class body. */
  constLiteral?: string;
}

export type KotlinDeclaration =
  | { kind: "class"; name: string; description?: string; properties: KotlinProperty[]; open: boolean; parents: string[]; file: string }
  | { kind: "object"; name: string; description?: string; open: boolean; parents: string[]; file: string }
  | { kind: "enum"; name: string; description?: string; values: { constant: string; wire: string }[]; file: string }
  | {
      kind: "union";
      name: string;
      description?: string;
      tag: string;
      /** `string` for a discriminator (oneOf), `boolean` for an anyOf keyed by a boolean const. */
      tagType: "string" | "boolean";
      branches: { tagValues: (string | boolean)[]; className: string }[];
      file: string;
    };

interface Located {
  schema: JsonSchema;
  /** Absolute URI of the document plus JSON pointer: the identity of a schema. */
  uri: string;
  doc: string;
  /** Message whose file the declarations found here go into. */
  file: string;
}

type KotlinType = { type: string; nullable: boolean; constLiteral?: string };

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** Builds every declaration the given messages need; throws on a schema shape it cannot type. */
export function kotlinDeclarations(model: Model, protocol: Protocol, messages: readonly Message[]): KotlinDeclaration[] {
  return new TypeMapper(model, protocol).declareMessages(messages);
}

class TypeMapper {
  private readonly documents = new Map<string, { schema: JsonSchema; file: string }>();
  private readonly declarations = new Map<string, KotlinDeclaration>();
  /** Kotlin name → schema URI, to refuse two schemas claiming one name. */
  private readonly names = new Map<string, string>();

  constructor(model: Model, protocol: Protocol) {
    for (const shared of model.shared) this.documents.set(shared.id, { schema: shared.schema, file: shared.name });
    for (const message of protocol.messages) this.documents.set(message.id, { schema: message.schema, file: message.name });
  }

  declareMessages(messages: readonly Message[]): KotlinDeclaration[] {
    for (const message of messages) {
      const root: Located = { schema: message.schema, uri: `${message.id}#`, doc: message.id, file: message.name };
      const mapped = this.mapType(root, message.name, "");
      if (mapped.type !== message.name) {
        throw new Error(`${message.location.file}: a message must be an object or a discriminated union to become a Kotlin class (got ${mapped.type})`);
      }
    }
    return [...this.declarations.values()];
  }

  private child(at: Located, schema: JsonValue | undefined, ...path: string[]): Located {
    if (schema === undefined || schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      fail(at, `expected a schema at ${path.join("/")}`);
    }
    const pointer = path.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
    return { ...at, schema: schema as JsonSchema, uri: `${at.uri}/${pointer}` };
  }

  private resolve(at: Located, ref: string): Located {
    const url = new URL(ref, at.doc);
    const doc = url.href.replace(/#.*$/, "");
    const found = this.documents.get(doc) ?? fail(at, `$ref ${ref} names no known schema document`);
    let schema: JsonValue = found.schema;
    const pointer = decodeURIComponent(url.hash.replace(/^#/, ""));
    for (const token of pointer.split("/").slice(1)) {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      const next: JsonValue | undefined = schema !== null && typeof schema === "object" && !Array.isArray(schema) ? schema[key] : undefined;
      if (next === undefined) fail(at, `$ref ${ref} points at nothing`);
      schema = next;
    }
    return { schema: schema as JsonSchema, uri: `${doc}#${pointer}`, doc, file: found.file };
  }

  /** The Kotlin type of a schema. [owner] and [property] name inline types that have no title. */
  private mapType(at: Located, owner: string, property: string): KotlinType {
    const s = at.schema;
    if (typeof s["$ref"] === "string") {
      const target = this.resolve(at, s["$ref"]);
      return this.mapType(target, owner, property);
    }
    const nullable = this.nullableBranch(at);
    if (nullable !== undefined) return { ...this.mapType(nullable, owner, property), nullable: true };
    const name = typeof s["title"] === "string" ? s["title"] : `${owner}${pascalCase(property)}`;
    if (Array.isArray(s["oneOf"]) && isObject(s["discriminator"])) {
      const tag = (s["discriminator"] as { propertyName?: unknown }).propertyName;
      if (typeof tag !== "string") fail(at, "discriminator needs a propertyName");
      return { type: this.declareUnion(at, name, "oneOf", tag), nullable: false };
    }
    if (Array.isArray(s["anyOf"])) {
      // anyOf branches told apart by a const member (ExecuteApprovalResult's boolean `ok`).
      const tag = this.constKey(at);
      if (tag !== undefined) return { type: this.declareUnion(at, name, "anyOf", tag), nullable: false };
    }
    if (s["const"] !== undefined) return constType(at, s["const"]);
    if (Array.isArray(s["enum"])) {
      if (s["enum"].every((v) => typeof v === "string")) return { type: this.declareEnum(at, name, s["enum"] as string[]), nullable: false };
      fail(at, "only string enums map to Kotlin enums");
    }
    const type = s["type"];
    if (Array.isArray(type)) {
      const others = type.filter((t) => t !== "null");
      if (others.length === 1 && type.length === 2) {
        return { ...this.mapType({ ...at, schema: { ...s, type: others[0]! } }, owner, property), nullable: true };
      }
      fail(at, `type ${JSON.stringify(type)} has no single Kotlin type`);
    }
    switch (type) {
      case "string":
        return { type: "String", nullable: false };
      case "boolean":
        return { type: "Boolean", nullable: false };
      case "number":
        return { type: "Double", nullable: false };
      case "integer":
        return { type: fitsInt(s["minimum"], s["maximum"]) ? "Int" : "Long", nullable: false };
      case "array": {
        const items = this.mapType(this.child(at, s["items"] ?? {}, "items"), owner, `${property}Item`);
        return { type: `List<${items.type}${items.nullable ? "?" : ""}>`, nullable: false };
      }
      case "object":
      case undefined:
        if (isObject(s["properties"])) return { type: this.declareObject(at, name), nullable: false };
        if (type === undefined && Array.isArray(s["allOf"])) {
          // `allOf: [{$ref: Timestamp}, {pattern: ...}]` narrows a type; the first typed part names it.
          for (const [index, part] of s["allOf"].entries()) {
            const mapped = this.mapType(this.child(at, part, "allOf", String(index)), owner, property);
            if (mapped.type !== "JsonElement") return mapped;
          }
        }
        if (type === "object") return { type: "JsonObject", nullable: false }; // free-form: kept as JSON
        return { type: "JsonElement", nullable: false }; // no type constraint at all
      default:
        fail(at, `type ${String(type)} has no Kotlin type`);
    }
  }

  /** The non-null branch of `anyOf`/`oneOf: [X, {type: null}]`, if that is the shape. */
  private nullableBranch(at: Located): Located | undefined {
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = at.schema[keyword];
      if (!Array.isArray(branches) || branches.length !== 2) continue;
      const isNull = (b: JsonValue): boolean => isObject(b) && b["type"] === "null" && Object.keys(b).length === 1;
      const other = branches.findIndex((b) => !isNull(b));
      if (other >= 0 && branches.filter(isNull).length === 1) return this.child(at, branches[other], keyword, String(other));
    }
    return undefined;
  }

  private claim(at: Located, name: string): boolean {
    if (this.declarations.has(at.uri)) return false;
    const owner = this.names.get(name);
    if (owner !== undefined && owner !== at.uri) fail(at, `Kotlin name ${name} is also taken by ${owner}; give one of them another title`);
    this.names.set(name, at.uri);
    return true;
  }

  private declareEnum(at: Located, name: string, values: string[]): string {
    if (!this.claim(at, name)) return this.declarations.get(at.uri)!.name;
    const constants = values.map((wire) => ({ constant: screamingSnake(wire), wire }));
    checkDistinct(`enum ${name} (${at.file})`, values, screamingSnake);
    this.declarations.set(at.uri, { kind: "enum", name, description: description(at.schema), values: constants, file: at.file });
    return name;
  }

  private declareObject(at: Located, name: string): string {
    if (!this.claim(at, name)) return this.declarations.get(at.uri)!.name;
    const s = at.schema;
    const open = s["additionalProperties"] !== false;
    const required = new Set(Array.isArray(s["required"]) ? (s["required"] as string[]) : []);
    const propertySchemas = s["properties"] as { [key: string]: JsonValue };
    // Registered before the properties are mapped, so a recursive reference finds the name.
    const declaration: KotlinDeclaration = Object.keys(propertySchemas).length === 0
      ? { kind: "object", name, description: description(s), open, parents: [], file: at.file }
      : { kind: "class", name, description: description(s), properties: [], open, parents: [], file: at.file };
    this.declarations.set(at.uri, declaration);
    if (declaration.kind === "class") {
      checkDistinct(`class ${name} (${at.file})`, Object.keys(propertySchemas), camelCase);
      for (const [wireName, propertySchema] of Object.entries(propertySchemas)) {
        const located = this.child(at, propertySchema, "properties", wireName);
        const mapped = this.mapType(located, name, camelCase(wireName));
        const optional = !required.has(wireName);
        declaration.properties.push({
          wireName,
          name: identifier(camelCase(wireName)),
          type: `${mapped.type}${mapped.nullable || optional ? "?" : ""}`,
          optional,
          description: description(located.schema),
          // An optional const stays a nullable parameter: writing it when absent would change
          // the canonical bytes of the message, and so its hash and signature.
          ...(mapped.constLiteral !== undefined && !optional ? { constLiteral: mapped.constLiteral } : {}),
        });
      }
      const names = declaration.properties.map((p) => p.name);
      const duplicate = names.find((n, i) => names.indexOf(n) !== i);
      if (duplicate !== undefined) fail(at, `two properties become Kotlin property ${duplicate}`);
    }
    return name;
  }

  private refTarget(at: Located): Located | undefined {
    return typeof at.schema["$ref"] === "string" ? this.resolve(at, at.schema["$ref"]) : undefined;
  }

  private declareUnion(at: Located, name: string, keyword: "oneOf" | "anyOf", tag: string): string {
    if (!this.claim(at, name)) return this.declarations.get(at.uri)!.name;
    const union: KotlinDeclaration = { kind: "union", name, description: description(at.schema), tag, tagType: "string", branches: [], file: at.file };
    this.declarations.set(at.uri, union);
    (at.schema[keyword] as JsonValue[]).forEach((branchSchema, index) => {
      const branch = this.child(at, branchSchema, keyword, String(index));
      // A branch is a $ref or written inline; an inline one without a title is named by its tag.
      const target = this.refTarget(branch) ?? branch;
      const tagValues = this.tagValues(target, tag);
      if (typeof tagValues[0] === "boolean") union.tagType = "boolean";
      const className = this.mapType(target, name, String(tagValues[0]!)).type;
      const declaration = this.declarations.get(target.uri);
      if (declaration?.kind !== "class") fail(branch, `${keyword} branch ${className} must be an object with properties`);
      declaration.parents.push(name);
      union.branches.push({ tagValues, className });
    });
    const all = union.branches.flatMap((b) => b.tagValues);
    if (new Set(all).size !== all.length) fail(at, `two branches share a ${tag} value`);
    if (new Set(all.map((v) => typeof v)).size !== 1) fail(at, `the ${tag} values of the branches differ in type`);
    return name;
  }

  /** The member every anyOf branch fixes by a string or boolean `const`, if there is one. */
  private constKey(at: Located): string | undefined {
    const branches = (at.schema["anyOf"] as JsonValue[]).map((b, i) => {
      const branch = this.child(at, b, "anyOf", String(i));
      return this.refTarget(branch) ?? branch;
    });
    const first = branches[0]?.schema["properties"];
    if (branches.length < 2 || !isObject(first)) return undefined;
    return Object.keys(first).find((key) => {
      const values = branches.map((b) => {
        const property = isObject(b.schema["properties"]) ? b.schema["properties"][key] : undefined;
        return isObject(property) ? property["const"] : undefined;
      });
      return values.every((v) => typeof v === "string" || typeof v === "boolean") && new Set(values).size === values.length;
    });
  }

  /** The values of the tag property a branch accepts: its `const`, or its string `enum`. */
  private tagValues(branch: Located, tag: string): (string | boolean)[] {
    const properties = branch.schema["properties"];
    let property = isObject(properties) ? properties[tag] : undefined;
    if (!isObject(property)) fail(branch, `branch has no ${tag} property`);
    let located = this.child(branch, property, "properties", tag);
    while (typeof located.schema["$ref"] === "string") located = this.resolve(located, located.schema["$ref"]);
    property = located.schema;
    if (typeof property["const"] === "string" || typeof property["const"] === "boolean") return [property["const"]];
    if (Array.isArray(property["enum"]) && property["enum"].every((v) => typeof v === "string")) return property["enum"] as string[];
    fail(branch, `the ${tag} property must be a string or boolean const, or a string enum`);
  }
}

function fail(at: Located, message: string): never {
  throw new Error(`${at.uri}: ${message}`);
}

function constType(at: Located, value: JsonValue): KotlinType {
  if (typeof value === "string") return { type: "String", nullable: false, constLiteral: stringLiteral(value) };
  if (typeof value === "boolean") return { type: "Boolean", nullable: false, constLiteral: String(value) };
  if (typeof value === "number" && Number.isInteger(value)) {
    return fitsInt(value, value) ? { type: "Int", nullable: false, constLiteral: String(value) } : { type: "Long", nullable: false, constLiteral: `${value}L` };
  }
  fail(at, `const ${JSON.stringify(value)} has no Kotlin constant form`);
}

function fitsInt(minimum: JsonValue | undefined, maximum: JsonValue | undefined): boolean {
  return typeof minimum === "number" && typeof maximum === "number" && minimum >= INT_MIN && maximum <= INT_MAX;
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function description(schema: JsonSchema | undefined): string | undefined {
  return typeof schema?.["description"] === "string" ? schema["description"] : undefined;
}
