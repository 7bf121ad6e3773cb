// Renders a protocol's type shapes (model/shapes.ts) as Kotlin declarations: data classes for
// records, string enums (an enum class when closed, a sealed class keeping unknown values when
// open), sealed interfaces for tagged unions, plain Kotlin types
// for scalars and arrays. The shapes decide what a schema is; this file only decides how Kotlin
// spells it. Pure: reads only the model.
import { protocolShapes, type Declared, type EnumShape, type ProtocolShapes, type RecordShape, type Shape, type UnionShape } from "../../model/shapes.js";
import type { Message, Model, Protocol } from "../../model/types.js";
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
  | {
      kind: "enum";
      name: string;
      description?: string;
      values: { constant: string; wire: string }[];
      /** Why the spec forbids values this version does not know (x-closed-enum); undefined: open. */
      closed?: string;
      file: string;
    }
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

type KotlinType = { type: string; nullable: boolean; constLiteral?: string };

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** Builds every declaration the given messages need; throws on a shape Kotlin cannot type. */
export function kotlinDeclarations(model: Model, protocol: Protocol, messages: readonly Message[]): KotlinDeclaration[] {
  return new TypeRenderer(protocolShapes(model, protocol)).declareMessages(messages);
}

/** Renders the protocol's shapes (model/shapes.ts) as Kotlin declarations, named by kotlin-names.ts. */
class TypeRenderer {
  /** Shape id → its declaration, in first-reached order (the order of each message file). */
  private readonly declarations = new Map<string, KotlinDeclaration>();
  /** Kotlin name → the shape that has it, to refuse two shapes claiming one name. */
  private readonly names = new Map<string, Declared>();

  constructor(private readonly shapes: ProtocolShapes) {}

  declareMessages(messages: readonly Message[]): KotlinDeclaration[] {
    // A message's shape is a titled record, union or enum (model/shapes.ts), so it is declared
    // under its title, which is the message name.
    for (const message of messages) {
      const shape = this.shapes.messages.get(message.name)!;
      this.mapType(shape, message.name, "", where(shape));
    }
    return [...this.declarations.values()];
  }

  /**
   * The Kotlin type of a shape. [owner] and [property] name inline shapes that have no title;
   * [at] is where the shape is written (file and pointer), for errors.
   */
  private mapType(shape: Shape, owner: string, property: string, at: string): KotlinType {
    switch (shape.kind) {
      case "nullable":
        return { ...this.mapType(shape.inner, owner, property, at), nullable: true };
      case "union":
        return { type: this.declareUnion(shape, declaredName(shape, owner, property)), nullable: false };
      case "enum":
        if (shape.nullable) fail(shape, "an enum listing null has no Kotlin enum class");
        return { type: this.declareEnum(shape, declaredName(shape, owner, property)), nullable: false };
      case "record":
        return { type: this.declareObject(shape, declaredName(shape, owner, property)), nullable: false };
      case "const":
        return constType(shape.value, at);
      case "string":
        return { type: "String", nullable: false };
      case "boolean":
        return { type: "Boolean", nullable: false };
      case "number":
        return { type: "Double", nullable: false };
      case "integer":
        return { type: fitsInt(shape.minimum, shape.maximum) ? "Int" : "Long", nullable: false };
      case "array": {
        if (shape.items === undefined) return { type: "List<JsonElement>", nullable: false };
        const items = this.mapType(shape.items, owner, `${property}Item`, `${at}/items`);
        return { type: `List<${items.type}${items.nullable ? "?" : ""}>`, nullable: false };
      }
      case "map":
        return { type: "JsonObject", nullable: false }; // free-form: kept as JSON
      case "any":
        return { type: "JsonElement", nullable: false }; // no type constraint at all
      case "null":
        throw new Error(`${at}: type null has no Kotlin type`);
    }
  }

  private claim(shape: Declared, name: string): boolean {
    if (this.declarations.has(shape.id)) return false;
    // A shape already holding this name was declared, and returned above: another one has it.
    const owner = this.names.get(name);
    if (owner !== undefined) fail(shape, `Kotlin name ${name} is also taken by ${where(owner)}; give one of them another title`);
    this.names.set(name, shape);
    return true;
  }

  private declareEnum(shape: EnumShape, name: string): string {
    if (!this.claim(shape, name)) return this.declarations.get(shape.id)!.name;
    checkDistinct(`enum ${name} (${shape.source.owner})`, shape.values, screamingSnake);
    const values = shape.values.map((wire) => ({ constant: screamingSnake(wire), wire }));
    this.declarations.set(shape.id, { kind: "enum", name, description: shape.description, values, ...(shape.closed === undefined ? {} : { closed: shape.closed }), file: shape.source.owner });
    return name;
  }

  private declareObject(shape: RecordShape, name: string): string {
    if (!this.claim(shape, name)) return this.declarations.get(shape.id)!.name;
    const base = { name, description: shape.description, open: shape.open, parents: [], file: shape.source.owner };
    // Registered before the fields are mapped, so a recursive reference finds the name.
    const declaration: KotlinDeclaration = shape.fields.length === 0 ? { kind: "object", ...base } : { kind: "class", ...base, properties: [] };
    this.declarations.set(shape.id, declaration);
    if (declaration.kind === "class") {
      checkDistinct(`class ${name} (${shape.source.owner})`, shape.fields.map((f) => f.wireName), camelCase);
      for (const field of shape.fields) {
        const mapped = this.mapType(field.shape, name, camelCase(field.wireName), `${shape.source.file} ${shape.source.pointer}/properties/${field.wireName.replaceAll("~", "~0").replaceAll("/", "~1")}`);
        const optional = !field.required;
        declaration.properties.push({
          wireName: field.wireName,
          name: identifier(camelCase(field.wireName)),
          type: `${mapped.type}${mapped.nullable || optional ? "?" : ""}`,
          optional,
          description: field.description,
          // An optional const stays a nullable parameter: writing it when absent would change
          // the canonical bytes of the message, and so its hash and signature.
          ...(mapped.constLiteral !== undefined && !optional ? { constLiteral: mapped.constLiteral } : {}),
        });
      }
    }
    return name;
  }

  private declareUnion(shape: UnionShape, name: string): string {
    if (!this.claim(shape, name)) return this.declarations.get(shape.id)!.name;
    const union: KotlinDeclaration = { kind: "union", name, description: shape.description, tag: shape.tag, tagType: shape.tagType, branches: [], file: shape.source.owner };
    this.declarations.set(shape.id, union);
    for (const branch of shape.branches) {
      // An inline branch without a title is named by its first tag value.
      const className = this.mapType(branch.record, name, String(branch.tags[0]!), where(branch.record)).type;
      // A branch record has at least its tag member (model/shapes.ts), so it is a class.
      (this.declarations.get(branch.record.id) as { parents: string[] }).parents.push(name);
      union.branches.push({ tagValues: branch.tags, className });
    }
    return name;
  }
}

/** A titled shape is named by its title; an inline one by its owner and the member it is in. */
function declaredName(shape: Declared, owner: string, property: string): string {
  return shape.title ?? `${owner}${pascalCase(property)}`;
}

function where(shape: Declared): string {
  return `${shape.source.file} ${shape.source.pointer === "" ? "/" : shape.source.pointer}`;
}

function fail(shape: Declared, message: string): never {
  throw new Error(`${where(shape)}: ${message}`);
}

function constType(value: string | number | boolean | null, at: string): KotlinType {
  if (typeof value === "string") return { type: "String", nullable: false, constLiteral: stringLiteral(value) };
  if (typeof value === "boolean") return { type: "Boolean", nullable: false, constLiteral: String(value) };
  if (typeof value === "number" && Number.isInteger(value)) {
    return fitsInt(value, value) ? { type: "Int", nullable: false, constLiteral: String(value) } : { type: "Long", nullable: false, constLiteral: `${value}L` };
  }
  throw new Error(`${at}: const ${JSON.stringify(value)} has no Kotlin constant form`);
}

/** Both bounds given and inside 32 bits (a missing bound is unbounded). */
function fitsInt(minimum: number | undefined, maximum: number | undefined): boolean {
  return (minimum ?? -Infinity) >= INT_MIN && (maximum ?? Infinity) <= INT_MAX;
}
