// Type shapes: what a message's JSON Schema means as a type, decided once for every typed target.
// A record (an object with properties), a tagged union (oneOf + discriminator, or an anyOf whose
// branches fix one member by const), a string enum (open unless the spec marks it x-closed-enum),
// a constant, a scalar, an array, a map, nullable X, or any JSON value. Constraints that do not
// change a type (patterns, lengths, bounds, if/then, x-rules) stay with the validator.
//
// Named shapes (records, unions, enums) have an identity: the absolute URI of their schema, and
// the spec file and JSON pointer they come from. One URI gives one object, so a shape reached by
// two $refs is the same shape, and a recursive schema gives a cycle, never an endless walk.
// Pure: reads the model only.
import type { JsonSchema, JsonValue, Model, Protocol } from "./types.js";

/** Where a named shape is written in the spec. */
export interface ShapeSource {
  /** `$id` of the schema document. */
  document: string;
  /** JSON pointer inside that document ("" for its root). */
  pointer: string;
  /** The spec file, relative to the repository root. */
  file: string;
  /** Name of the message (or shared schema) whose document holds the shape. */
  owner: string;
}

interface NamedShape {
  /** Absolute URI of the schema: `<document>#<pointer>`. */
  id: string;
  /** The schema's title: the type name every language starts from; undefined for an inline shape. */
  title?: string;
  description?: string;
  source: ShapeSource;
}

export interface Field {
  /** The member name on the wire, exactly as in the schema. */
  wireName: string;
  shape: Shape;
  required: boolean;
  /** The description written on the property itself (a $ref's target has its own, on the shape). */
  description?: string;
  /**
   * The description of the schema a pure $ref (nothing beside it but annotations) leads to, when
   * the property has none of its own. A $ref with constraints beside it is a schema of its own,
   * whose target's text may not hold for it (a SafeText of at most 120 characters).
   */
  targetDescription?: string;
}

export interface RecordShape extends NamedShape {
  kind: "record";
  fields: Field[];
  /** additionalProperties is not false: readers keep or ignore members they do not know. */
  open: boolean;
}

export interface UnionBranch {
  /** The tag values that pick this branch (a const gives one, a string enum several). */
  tags: (string | boolean)[];
  record: RecordShape;
}

export interface UnionShape extends NamedShape {
  kind: "union";
  /** The member whose value picks the branch. */
  tag: string;
  tagType: "string" | "boolean";
  branches: UnionBranch[];
}

export interface EnumShape extends NamedShape {
  kind: "enum";
  values: string[];
  /** The schema's enum lists null too: the member may be null. */
  nullable: boolean;
  /**
   * The one openness rule: an enum is open (a value this version does not know is kept, not
   * refused) unless the spec gives x-closed-enum, whose text says why no other value may appear.
   */
  closed?: string;
}

/**
 * A titled schema that is no record, union or enum (`Sha256Hex`: a string): the title names it and
 * its description documents it, for a language that declares such aliases (TypeScript); its type
 * is the shape's own. Reached twice, it is two equal objects: the title, not an identity, names it.
 */
export interface AliasInfo {
  title?: string;
  description?: string;
  /** A titled schema that narrows another titled one (`allOf: [{$ref: Timestamp}, ...]`): that one's shape. */
  aliasOf?: Shape;
}

export type Shape = RecordShape | UnionShape | EnumShape | (UnnamedShape & AliasInfo);

export type UnnamedShape =
  | { kind: "const"; value: string | number | boolean | null }
  | { kind: "string" }
  | { kind: "boolean" }
  | { kind: "number" }
  | { kind: "integer"; minimum?: number; maximum?: number }
  | { kind: "null" }
  /** A list; items undefined: any JSON values. */
  | { kind: "array"; items: Shape | undefined }
  /**
   * An object without declared properties; values undefined: any JSON values. `typed`: the schema
   * says type: object. `empty`: additionalProperties is false, so only `{}` is accepted.
   */
  | { kind: "map"; values: Shape | undefined; typed: boolean; empty?: true }
  | { kind: "nullable"; inner: Shape }
  | { kind: "any" };

export type Declared = RecordShape | UnionShape | EnumShape;

export class ShapeError extends Error {
  /** [pointer]: the offending keyword's, when one keyword is at fault (`/properties/value/enum`). */
  constructor(readonly file: string, readonly pointer: string, readonly reason: string) {
    super(`${file} ${pointer === "" ? "/" : pointer}: ${reason}`);
  }
}

interface At {
  schema: JsonSchema;
  document: string;
  pointer: string;
}

/** The shapes of one protocol: each message's root shape, and every named shape reached. */
export interface ProtocolShapes {
  protocol: Protocol;
  /** Message name → its root shape (a record, a union, or a string enum). */
  messages: Map<string, Declared>;
  /** Every named shape, in first-reached order (messages in model order, depth first). */
  declared: Declared[];
  /**
   * Every title written in the protocol's message documents, reached or not: a language that
   * names an inline type must not take one of these.
   */
  titles: string[];
}

const cache = new WeakMap<Protocol, ProtocolShapes>();

/** The shapes of a protocol's messages (computed once per protocol object). */
export function protocolShapes(model: Model, protocol: Protocol): ProtocolShapes {
  let shapes = cache.get(protocol);
  if (shapes === undefined) {
    shapes = new ShapeBuilder(model, protocol).build();
    cache.set(protocol, shapes);
  }
  return shapes;
}

/**
 * Why a protocol's messages have no shape: the first stop of each message, each message shaped on
 * its own against every document of the protocol (empty when protocolShapes would succeed).
 */
export function protocolShapeErrors(model: Model, protocol: Protocol): ShapeError[] {
  const errors: ShapeError[] = [];
  for (const m of protocol.messages) {
    try {
      new ShapeBuilder(model, protocol).build([m]);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      errors.push(error);
    }
  }
  return errors;
}

class ShapeBuilder {
  private readonly documents = new Map<string, { schema: JsonSchema; file: string; owner: string }>();
  private readonly named = new Map<string, Declared>();

  constructor(model: Model, private readonly protocol: Protocol) {
    for (const shared of model.shared) this.documents.set(shared.id, { schema: shared.schema, file: shared.location.file, owner: shared.name });
    for (const m of protocol.messages) this.documents.set(m.id, { schema: m.schema, file: m.location.file, owner: m.name });
  }

  build(only: readonly Protocol["messages"][number][] = this.protocol.messages): ProtocolShapes {
    const messages = new Map<string, Declared>();
    for (const m of only) {
      const shape = this.shapeOf({ schema: m.schema, document: m.id, pointer: "" });
      if (shape.kind !== "record" && shape.kind !== "union" && shape.kind !== "enum") this.fail({ schema: m.schema, document: m.id, pointer: "" }, `a message must be an object with properties, a tagged union or a string enum (got ${shape.kind})`);
      messages.set(m.name, shape);
    }
    return { protocol: this.protocol, messages, declared: [...this.named.values()], titles: this.titles() };
  }

  private titles(): string[] {
    const out = new Set<string>();
    const collect = (node: JsonValue): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (isObject(node)) {
        if (typeof node["title"] === "string") out.add(node["title"]);
        for (const [key, child] of Object.entries(node)) if (!key.startsWith("x-") && key !== "examples" && key !== "const" && key !== "enum") collect(child);
      }
    };
    for (const m of this.protocol.messages) collect(m.schema);
    return [...out];
  }

  /** Stops at [at] (at its [keyword], when one is at fault). */
  private fail(at: At, message: string, keyword?: string): never {
    const pointer = keyword === undefined ? at.pointer : `${at.pointer}/${escapePointer(keyword)}`;
    throw new ShapeError(this.documents.get(at.document)?.file ?? at.document, pointer, message);
  }

  private child(at: At, schema: JsonValue | undefined, ...path: string[]): At {
    const pointer = `${at.pointer}/${path.map(escapePointer).join("/")}`;
    const bool = booleanSchema(schema);
    if (bool !== undefined) return { schema: bool, document: at.document, pointer };
    if (!isObject(schema)) this.fail(at, `expected a schema at ${path.join("/")}`);
    return { schema, document: at.document, pointer };
  }

  private resolve(at: At, ref: string): At {
    const url = new URL(ref, at.document);
    const document = url.href.replace(/#.*$/, "");
    const found = this.documents.get(document) ?? this.fail(at, `$ref ${ref} names no known schema document`);
    const pointer = decodeURIComponent(url.hash.replace(/^#/, ""));
    let node: JsonValue = found.schema;
    for (const token of pointer.split("/").slice(1)) {
      const next: JsonValue | undefined = isObject(node) ? node[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
      if (next === undefined) this.fail(at, `$ref ${ref} points at nothing`);
      node = next;
    }
    const bool = booleanSchema(node);
    if (bool !== undefined) return { schema: bool, document, pointer };
    if (!isObject(node)) this.fail(at, `$ref ${ref} is not a schema`);
    return { schema: node, document, pointer };
  }

  /** Follows $refs (siblings of a $ref narrow its values, never its type). */
  private target(at: At): At {
    let current = at;
    for (let hops = 0; typeof current.schema["$ref"] === "string"; hops++) {
      if (hops > 32) this.fail(at, "$ref chain longer than 32");
      current = this.resolve(current, current.schema["$ref"]);
    }
    return current;
  }

  /** Follows $refs that have nothing but annotations beside them. */
  private pureTarget(at: At): At {
    let current = at;
    for (let hops = 0; hops <= 32 && typeof current.schema["$ref"] === "string"; hops++) {
      if (Object.keys(current.schema).some((k) => !ANNOTATIONS.has(k) && !k.startsWith("x-"))) break;
      current = this.resolve(current, current.schema["$ref"]);
    }
    return current;
  }

  private source(at: At): ShapeSource {
    const doc = this.documents.get(at.document)!;
    return { document: at.document, pointer: at.pointer, file: doc.file, owner: doc.owner };
  }

  private base(at: At): NamedShape {
    const s = at.schema;
    return {
      id: `${at.document}#${at.pointer}`,
      ...(typeof s["title"] === "string" ? { title: s["title"] } : {}),
      ...(typeof s["description"] === "string" ? { description: s["description"] } : {}),
      source: this.source(at),
    };
  }

  shapeOf(start: At): Shape {
    const at = this.target(start);
    const shape = this.untitledShapeOf(at);
    if (shape.kind === "record" || shape.kind === "union" || shape.kind === "enum") return shape;
    const { title, description } = at.schema;
    // `type: [X, "null"]` gave its title to X already (a record named by it keeps its name).
    if (typeof title !== "string" || (shape.kind === "nullable" && (shape.inner as AliasInfo).title === title)) return shape;
    const { title: inner, description: _innerDescription, aliasOf: _innerAlias, ...bare } = shape;
    return { ...bare, title, ...(typeof description === "string" ? { description } : {}), ...(inner !== undefined ? { aliasOf: shape } : {}) } as Shape;
  }

  /** The shape of a schema whose $refs are followed; a scalar's own title is added by shapeOf. */
  private untitledShapeOf(at: At): Shape {
    const s = at.schema;
    const known = this.named.get(`${at.document}#${at.pointer}`);
    if (known !== undefined) return known;
    const nullable = this.nullBranch(at);
    if (nullable !== undefined) return { kind: "nullable", inner: this.shapeOf(nullable) };
    if (Array.isArray(s["type"])) {
      const others = s["type"].filter((t) => t !== "null");
      if (s["type"].length !== 2 || others.length !== 1) this.fail(at, `type ${JSON.stringify(s["type"])} is no single type: every language needs one type here; give one type (or [X, "null"]), or a oneOf of typed branches with a discriminator`, "type");
      return { kind: "nullable", inner: this.shapeOf({ ...at, schema: { ...s, type: others[0]! } }) };
    }
    const union = this.union(at);
    if (union !== undefined) return union;
    if (s["const"] !== undefined) {
      const value = s["const"];
      if (value !== null && typeof value === "object") this.fail(at, "an object or array const has no type shape: describe the value with type and properties (or items) and fix its members by const", "const");
      return { kind: "const", value };
    }
    if (Array.isArray(s["enum"])) {
      const values = s["enum"].filter((v): v is string => typeof v === "string");
      const nulls = s["enum"].filter((v) => v === null).length;
      if (values.length === 0 || values.length + nulls !== s["enum"].length) this.fail(at, "only an enum of strings (and null) has a type shape: list strings only, or give a const of the one value, or a type with bounds", "enum");
      const closed = s["x-closed-enum"];
      const shape: EnumShape = { kind: "enum", ...this.base(at), values, nullable: nulls > 0, ...(typeof closed === "string" ? { closed } : {}) };
      this.named.set(shape.id, shape);
      return shape;
    }
    switch (s["type"]) {
      case "string":
        return { kind: "string" };
      case "boolean":
        return { kind: "boolean" };
      case "number":
        return { kind: "number" };
      case "null":
        return { kind: "null" };
      case "integer":
        return { kind: "integer", ...(typeof s["minimum"] === "number" ? { minimum: s["minimum"] } : {}), ...(typeof s["maximum"] === "number" ? { maximum: s["maximum"] } : {}) };
      case "array":
        return { kind: "array", items: s["items"] === undefined ? undefined : this.shapeOf(this.child(at, s["items"], "items")) };
      case "object":
      case undefined:
        if (isObject(s["properties"])) return this.record(at);
        if (s["type"] === undefined && Array.isArray(s["allOf"])) {
          // `allOf: [{$ref: Timestamp}, {pattern: ...}]` narrows a type: the first typed part gives it.
          for (const [index, part] of s["allOf"].entries()) {
            const shape = this.shapeOf(this.child(at, part, "allOf", String(index)));
            if (shape.kind !== "any") return shape;
          }
        }
        if (s["type"] === "object") {
          const additional = s["additionalProperties"];
          if (additional === false) return { kind: "map", values: undefined, typed: true, empty: true };
          return { kind: "map", values: isObject(additional) ? this.shapeOf(this.child(at, additional, "additionalProperties")) : undefined, typed: true };
        }
        return { kind: "any" };
      default:
        this.fail(at, `type ${typeof s["type"] === "string" ? s["type"] : JSON.stringify(s["type"])} has no type shape`, "type");
    }
  }

  /** The non-null branch of `anyOf`/`oneOf: [X, {type: null}]`. */
  private nullBranch(at: At): At | undefined {
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = at.schema[keyword];
      if (!Array.isArray(branches) || branches.length !== 2) continue;
      const isNull = (b: JsonValue): boolean => isObject(b) && b["type"] === "null" && Object.keys(b).every((k) => k === "type" || k === "description");
      const other = branches.findIndex((b) => !isNull(b));
      if (other >= 0 && branches.filter(isNull).length === 1) return this.child(at, branches[other], keyword, String(other));
    }
    return undefined;
  }

  private record(at: At): RecordShape {
    const s = at.schema;
    const shape: RecordShape = { kind: "record", ...this.base(at), fields: [], open: s["additionalProperties"] !== false };
    // Registered before the fields are shaped, so a recursive reference finds it.
    this.named.set(shape.id, shape);
    const required = new Set(Array.isArray(s["required"]) ? s["required"].filter((r): r is string => typeof r === "string") : []);
    for (const [wireName, propertySchema] of Object.entries(s["properties"] as { [key: string]: JsonValue })) {
      const property = this.child(at, propertySchema, "properties", wireName);
      const own = property.schema["description"];
      const targetDescription = this.pureTarget(property).schema["description"];
      shape.fields.push({
        wireName,
        shape: this.shapeOf(property),
        required: required.has(wireName),
        ...(typeof own === "string" ? { description: own } : {}),
        ...(typeof targetDescription === "string" && typeof own !== "string" ? { targetDescription } : {}),
      });
    }
    return shape;
  }

  /** A tagged union: oneOf with a discriminator, or an anyOf whose branches fix one member by const. */
  private union(at: At): UnionShape | undefined {
    const s = at.schema;
    const keyword = Array.isArray(s["oneOf"]) && isObject(s["discriminator"]) ? "oneOf" : Array.isArray(s["anyOf"]) ? "anyOf" : undefined;
    if (keyword === undefined) return undefined;
    const branches = (s[keyword] as JsonValue[]).map((b, i) => this.target(this.child(at, b, keyword, String(i))));
    let tag: string | undefined;
    if (keyword === "oneOf") {
      const name = (s["discriminator"] as { [key: string]: JsonValue })["propertyName"];
      if (typeof name !== "string") this.fail(at, "discriminator needs a propertyName");
      tag = name;
    } else {
      tag = constKey(branches.map((b) => b.schema));
      if (tag === undefined) return undefined;
    }
    const shape: UnionShape = { kind: "union", ...this.base(at), tag, tagType: "string", branches: [] };
    this.named.set(shape.id, shape);
    for (const branch of branches) {
      const tags = this.tagValues(branch, tag);
      if (typeof tags[0] === "boolean") shape.tagType = "boolean";
      const record = this.shapeOf(branch);
      if (record.kind !== "record") this.fail(branch, `${keyword} branch must be an object with properties`);
      shape.branches.push({ tags, record });
    }
    const all = shape.branches.flatMap((b) => b.tags);
    if (new Set(all).size !== all.length) this.fail(at, `two branches share a ${tag} value`);
    if (new Set(all.map((v) => typeof v)).size !== 1) this.fail(at, `the ${tag} values of the branches differ in type`);
    return shape;
  }

  /** The values of the tag member a branch accepts: its const, or its string enum. */
  private tagValues(branch: At, tag: string): (string | boolean)[] {
    const properties = branch.schema["properties"];
    const property = isObject(properties) ? properties[tag] : undefined;
    if (!isObject(property)) this.fail(branch, `branch has no ${tag} property`);
    const s = this.target(this.child(branch, property, "properties", tag)).schema;
    if (typeof s["const"] === "string" || typeof s["const"] === "boolean") return [s["const"]];
    if (Array.isArray(s["enum"]) && s["enum"].every((v) => typeof v === "string")) return s["enum"] as string[];
    this.fail(branch, `the ${tag} property must be a string or boolean const, or a string enum`);
  }
}

/** The member every branch fixes by a distinct string or boolean const, if there is one. */
function constKey(branches: JsonSchema[]): string | undefined {
  const first = branches[0]?.["properties"];
  if (branches.length < 2 || !isObject(first)) return undefined;
  return Object.keys(first).find((key) => {
    const values = branches.map((b) => {
      const property = isObject(b["properties"]) ? b["properties"][key] : undefined;
      return isObject(property) ? property["const"] : undefined;
    });
    return values.every((v) => typeof v === "string" || typeof v === "boolean") && new Set(values).size === values.length;
  });
}

/**
 * A boolean subschema as the schema it means: `true` accepts any value, `false` none. Both have
 * the shape of any JSON value (`false` has no value to type; its validator refuses every one).
 */
function booleanSchema(schema: JsonValue | undefined): JsonSchema | undefined {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  return undefined;
}

const ANNOTATIONS = new Set(["$ref", "description", "title", "default", "examples", "$comment"]);

function escapePointer(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
