// From the shape model (model/shapes.ts) to Swift declarations: which shapes become named types
// (titled records, tagged unions, string enums), what every property's Swift type is, and which
// members are fixed constants. The shapes decide what a schema is; this file only decides how Swift
// spells it. Validation never depends on this: the schema validator in the runtime checks every
// keyword; these types are the typed view of a valid message.
import { protocolShapes, type EnumShape, type ProtocolShapes, type Shape } from "../../model/shapes.js";
import type { JsonValue, Model, Protocol } from "../../model/types.js";
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
  owner?: SwiftStruct;
  /** JSON name of the property being typed, for names of anonymous enums and unions. */
  property?: string;
  /** Type name to prefix anonymous unions with. */
  ownerName: string;
}

const RESERVED_NESTED = new Set(["String", "Int", "Double", "Bool", "Data", "Date", "URL", "Error", "Type", "Result", "Set", "Array", "Dictionary", "Optional", "Character", "Decoder", "Encoder", "CodingKeys", "JSONValue", "JSONObject", "Self"]);

/** The named declarations of one protocol, in first-use order, rendered from its shapes (model/shapes.ts). */
export class ProtocolTypes {
  readonly decls = new Map<string, SwiftDecl>();
  private readonly shapes: ProtocolShapes;
  /** Type names the spec's titles take: an inline enum does not get one of them. */
  private readonly titles: Set<string>;

  constructor(model: Model, readonly protocol: Protocol) {
    this.shapes = protocolShapes(model, protocol);
    this.titles = new Set(this.shapes.titles.map(typeName));
  }

  /** Declares the message's root type and everything it reaches; returns its name. */
  declareMessage(name: string): string {
    const declared = this.named(this.shapes.messages.get(name)!, { ownerName: name });
    if (declared === undefined) throw new Error(`${this.protocol.id}/${name}: the root schema is not an object, union or string enum`);
    return declared;
  }

  /** Declares a named type for the shape when it is one (titled record, union, titled enum). */
  private named(shape: Shape, ctx: Context): string | undefined {
    const title = "title" in shape && shape.title !== undefined ? typeName(shape.title) : undefined;
    if (shape.kind === "union" && shape.branches.every((b) => b.record.title !== undefined)) {
      const name = title ?? `${ctx.ownerName}${upperCamel(ctx.property ?? "Value")}`;
      if (this.decls.has(name)) return name;
      const decl: SwiftUnion = { kind: "union", name, description: shape.description, tagKey: shape.tag, cases: [], title: name };
      this.decls.set(name, decl);
      const caseNames = uniqueNames(shape.branches.map((b) => {
        const only = b.tags.length === 1 ? b.tags[0] : undefined;
        return lowerCamel(typeof only === "string" ? only : b.record.title!);
      }));
      shape.branches.forEach((branch, i) => {
        const type = this.named(branch.record, { ownerName: name });
        decl.cases.push({ name: identifier(caseNames[i]!), tags: branch.tags, type: type! });
      });
      return name;
    }
    if (shape.kind === "enum" && title !== undefined) {
      if (!this.decls.has(title)) this.decls.set(title, enumDecl(title, shape));
      return title;
    }
    if (shape.kind === "record" && title !== undefined) {
      if (this.decls.has(title)) return title;
      const decl: SwiftStruct = { kind: "struct", name: title, description: shape.description, properties: [], closed: !shape.open, nested: [], title };
      this.decls.set(title, decl);
      const swiftNames = uniqueNames(shape.fields.map((f) => lowerCamel(f.wireName)));
      shape.fields.forEach((field, i) => {
        const description = field.description ?? field.targetDescription;
        const constant = field.shape.kind === "const" ? field.shape.value : undefined;
        if (field.required && constant !== undefined && constant !== null) {
          decl.properties.push({ json: field.wireName, swift: identifier(swiftNames[i]!), type: scalarType(constant), optional: false, required: true, nullableRequired: false, description, constant });
          return;
        }
        const t = this.typeOf(field.shape, { owner: decl, property: field.wireName, ownerName: title });
        decl.properties.push({
          json: field.wireName,
          swift: identifier(swiftNames[i]!),
          type: t.code,
          optional: !field.required || t.nullable,
          required: field.required,
          nullableRequired: field.required && t.nullable,
          description,
        });
      });
      return title;
    }
    return undefined;
  }

  /** The Swift type of a member's shape. */
  private typeOf(shape: Shape, ctx: Context): { code: string; nullable: boolean } {
    if (shape.kind === "nullable") return { code: this.typeOf(shape.inner, ctx).code, nullable: true };
    const named = this.named(shape, ctx);
    if (named !== undefined) return { code: named, nullable: shape.kind === "enum" && shape.nullable };
    switch (shape.kind) {
      case "enum": {
        // An inline enum is nested in the struct that uses it, named by its member.
        const owner = ctx.owner;
        let name = upperCamel(singular(ctx.property ?? "Value"));
        if (this.titles.has(name) || RESERVED_NESTED.has(name) || name === owner?.name) name = `${name}Value`;
        if (owner === undefined) return { code: "String", nullable: shape.nullable };
        if (!owner.nested.some((e) => e.name === name)) owner.nested.push(enumDecl(name, shape));
        return { code: name, nullable: shape.nullable };
      }
      case "const":
        return { code: scalarType(shape.value), nullable: shape.value === null };
      case "string":
        return { code: "String", nullable: false };
      case "integer":
        return { code: "Int", nullable: false };
      case "number":
        return { code: "Double", nullable: false };
      case "boolean":
        return { code: "Bool", nullable: false };
      case "array": {
        if (shape.items === undefined) return { code: "[JSONValue]", nullable: false };
        const item = this.typeOf(shape.items, { ...ctx, property: singular(ctx.property ?? "item") });
        return { code: `[${item.code}${item.nullable ? "?" : ""}]`, nullable: false };
      }
      case "map": {
        if (shape.values === undefined) return { code: "[String: JSONValue]", nullable: false };
        const value = this.typeOf(shape.values, ctx);
        return { code: `[String: ${value.code}${value.nullable ? "?" : ""}]`, nullable: false };
      }
      case "record": // an untitled object: no type name to give it, so kept as JSON
        return { code: "[String: JSONValue]", nullable: false };
      default: // null, any, a union whose branches have no title
        return { code: "JSONValue", nullable: false };
    }
  }
}

function enumDecl(name: string, shape: EnumShape): SwiftEnum {
  const names = uniqueNames(shape.values.map((v) => lowerCamel(v)));
  return { kind: "enum", name, description: shape.description, cases: shape.values.map((raw, i) => ({ name: identifier(names[i]!), raw })), closed: shape.closed };
}

function scalarType(value: JsonValue): string {
  if (typeof value === "string") return "String";
  if (typeof value === "boolean") return "Bool";
  if (typeof value === "number") return Number.isInteger(value) ? "Int" : "Double";
  return "JSONValue";
}
