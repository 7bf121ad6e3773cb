// Renders a protocol's type shapes (model/shapes.ts) as TypeScript declarations (types.d.ts):
// an interface per titled record, a union type per tagged union, a union of string literals per
// string enum (open unless x-closed-enum: then `| (string & {})` keeps a later version's value
// typeable while editors still offer the known ones), literal types for constants, and a type
// alias per titled scalar (`Sha256Hex = string`). Untitled records and enums are written inline.
// Every member and array is readonly: a parsed, verified or signed message is a value whose bytes
// were checked (and signed), so changing it afterwards is a type error; a mutable object is still
// assignable, so building a message is unchanged. The shapes decide what a schema is; this file
// only decides how TypeScript spells it. Pure.
import { protocolShapes, type AliasInfo, type Declared, type RecordShape, type Shape, type UnnamedShape } from "../../model/shapes.js";
import type { Model, Protocol } from "../../model/types.js";
import { pascal } from "../../emit/case.js";

export interface TsTypeOptions {
  /**
   * The widening the shape model asks for: an open enum takes any string. Off only in the oracle
   * test, which compares the rest with json-schema-to-typescript's types.
   */
  widen: boolean;
}

/** types.d.ts of a protocol: every message's type and every titled type it reaches. */
export function renderProtocolTypes(model: Model, protocol: Protocol, options: TsTypeOptions = { widen: true }): string {
  const shapes = protocolShapes(model, protocol);
  // A union's tag picks a branch, so no language keeps an unknown tag value: a branch's tag
  // member is never widened, and `entry.action === "imported"` still narrows the union.
  const tags = new Map<string, string>();
  for (const d of shapes.declared) if (d.kind === "union") for (const b of d.branches) tags.set(b.record.id, d.tag);
  const printer = new TypePrinter(options, tags);
  for (const message of protocol.messages) printer.declare(shapes.messages.get(message.name)!, message.name);
  return printer.text();
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

class TypePrinter {
  /** Type name → its declaration text, in first-reached order. */
  private readonly declarations = new Map<string, string>();
  /** Type name → the shape id (or alias text) that has it, to refuse two types claiming one name. */
  private readonly owners = new Map<string, string>();
  /** Shapes being written inline, to refuse an untitled shape that contains itself. */
  private readonly inline = new Set<string>();

  constructor(
    private readonly options: TsTypeOptions,
    /** Record id of a union branch → its tag member. */
    private readonly branchTags: ReadonlyMap<string, string>,
  ) {}

  text(): string {
    return [...this.declarations.values()].join("\n").trimEnd() + "\n";
  }

  /** Declares a message's root shape under the message name (its title). */
  declare(shape: Declared, name: string): void {
    this.named(shape, name);
  }

  private typeName(title: string): string {
    return IDENTIFIER.test(title) ? title : pascal(title);
  }

  /** The name of a declared (titled) shape, declaring it on first use. */
  private named(shape: Declared, name: string): string {
    const owner = this.owners.get(name);
    if (owner === shape.id) return name;
    if (owner !== undefined) throw new Error(`${where(shape)}: TypeScript type ${name} is also taken by ${owner}; give one of them another title`);
    this.owners.set(name, shape.id);
    // Reserved before the body is written, so a recursive reference finds the name.
    this.declarations.set(name, "");
    const doc = jsdoc(docOf(shape), "");
    // A record without members is no interface: `interface X {}` would accept any value but null.
    if (shape.kind === "record" && shape.fields.length > 0) this.declarations.set(name, `${doc}export interface ${name} ${this.recordBody(shape)}\n`);
    else if (shape.kind === "record") this.declarations.set(name, `${doc}export type ${name} = ${this.recordBody(shape)};\n`);
    else this.declarations.set(name, `${doc}export type ${name} = ${this.body(shape)};\n`);
    return name;
  }

  /** A titled scalar, array or map: `export type Title = <its type>;`, one declaration per title. */
  private alias(shape: UnnamedShape & AliasInfo & { title: string }): string {
    const name = this.typeName(shape.title);
    const { title: _title, description, aliasOf, ...bare } = shape;
    // A titled schema narrowing another titled one is written as that one's alias (TimestampMillisUtc = Timestamp).
    const body = this.type(aliasOf ?? (bare as Shape));
    const declaration = `${jsdoc(description, "")}export type ${name} = ${body};\n`;
    const owner = this.owners.get(name);
    if (owner === undefined) {
      this.owners.set(name, `alias ${body}`);
      this.declarations.set(name, declaration);
    } else if (owner !== `alias ${body}`) {
      throw new Error(`TypeScript type ${name}: two schemas titled "${shape.title}" differ (${owner.replace(/^alias /, "")} and ${body}); give one of them another title`);
    }
    return name;
  }

  /** The TypeScript type of a shape where it is used; `exact`: an enum is not widened (a union's tag). */
  type(shape: Shape, exact = false): string {
    if (shape.kind === "enum" && exact && shape.closed === undefined) return this.type({ ...shape, title: undefined, closed: "a union's tag" });
    if ((shape.kind === "record" || shape.kind === "union" || shape.kind === "enum") && shape.title !== undefined) {
      const name = this.named(shape, this.typeName(shape.title));
      return shape.kind === "enum" && shape.nullable ? `${name} | null` : name;
    }
    if (shape.kind !== "record" && shape.kind !== "union" && shape.kind !== "enum" && shape.title !== undefined) {
      return this.alias(shape as UnnamedShape & AliasInfo & { title: string });
    }
    if (shape.kind === "record" || shape.kind === "union" || shape.kind === "enum") {
      if (this.inline.has(shape.id)) throw new Error(`${where(shape)}: an untitled type contains itself; give it a title`);
      this.inline.add(shape.id);
      try {
        const body = shape.kind === "record" ? this.recordBody(shape) : this.body(shape);
        return shape.kind === "enum" && shape.nullable ? `${body} | null` : body;
      } finally {
        this.inline.delete(shape.id);
      }
    }
    switch (shape.kind) {
      case "const":
        return JSON.stringify(shape.value);
      case "string":
        return "string";
      case "boolean":
        return "boolean";
      case "number":
      case "integer":
        return "number";
      case "null":
        return "null";
      case "any":
        return "unknown";
      case "nullable":
        return `${this.type(shape.inner)} | null`;
      case "array":
        return `readonly ${shape.items === undefined ? "unknown" : element(this.type(shape.items))}[]`;
      case "map":
        if (shape.empty === true) return "{ readonly [k: string]: never }";
        // `| undefined`: a key read from a map may be absent (the compiler does not know which keys are there).
        return `{ readonly [k: string]: ${shape.values === undefined ? "unknown" : `${this.type(shape.values)} | undefined`} }`;
    }
  }

  /** The right-hand side of a union or enum type. */
  private body(shape: Exclude<Declared, RecordShape>): string {
    if (shape.kind === "union") return shape.branches.map((b) => this.type(b.record)).join(" | ");
    const literals = shape.values.map((v) => JSON.stringify(v));
    // `string & {}` is any string, but does not swallow the literals: editors still offer them.
    if (shape.closed === undefined && this.options.widen) literals.push("(string & {})");
    return literals.join(" | ");
  }

  private recordBody(shape: RecordShape): string {
    if (shape.fields.length === 0) return `{ readonly [k: string]: ${shape.open ? "unknown" : "never"} }`;
    const lines = ["{"];
    const tag = this.branchTags.get(shape.id);
    for (const field of shape.fields) {
      const type = this.type(field.shape, field.wireName === tag);
      lines.push(`${jsdoc(field.description, "  ")}  readonly ${IDENTIFIER.test(field.wireName) ? field.wireName : JSON.stringify(field.wireName)}${field.required ? "" : "?"}: ${type};`);
    }
    // An open record (additionalProperties not false) carries members this version does not declare.
    if (shape.open) lines.push("  readonly [k: string]: unknown;");
    lines.push("}");
    return lines.join("\n");
  }
}

/** An array's element type: a union or intersection needs parentheses before `[]`. */
function element(type: string): string {
  let depth = 0;
  for (const char of type) {
    if (char === "{" || char === "(") depth++;
    else if (char === "}" || char === ")") depth--;
    else if (depth === 0 && (char === "|" || char === "&")) return `(${type})`;
  }
  return type;
}

function docOf(shape: Declared): string | undefined {
  return shape.kind === "enum" && shape.closed !== undefined ? [shape.description ?? "", `Closed: ${shape.closed}`].filter((t) => t !== "").join(" ") : shape.description;
}

/** A JSDoc block as json-schema-to-typescript writes it (` * ` lines, the prose unwrapped). */
function jsdoc(text: string | undefined, indent: string): string {
  if (text === undefined || text.trim() === "") return "";
  const lines = text.replace(/\*\//g, "*\\/").trim().split("\n");
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === "" ? "" : ` ${l}`}\n`).join("")}${indent} */\n`;
}

function where(shape: Declared): string {
  return `${shape.source.file} ${shape.source.pointer === "" ? "/" : shape.source.pointer}`;
}
