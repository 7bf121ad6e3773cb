// src/<protocol>/messages.rs: the serde types of one protocol, rendered from the shape model
// (model/shapes.ts). Records become structs (`deny_unknown_fields` when closed), tagged unions
// enums whose Deserialize reads the tag member and decodes the whole object as that branch
// (string or boolean tags, several tags per branch), string enums become enums (open ones with an
// `Unknown(String)` variant), const members are checked when decoding. Validation of patterns,
// lengths and bounds is not this file's: the types are the typed view of a message.
import { protocolShapes, type Declared, type EnumShape, type RecordShape, type Shape, type UnionShape } from "../../model/shapes.js";
import type { Model, Protocol } from "../../model/types.js";
import { rustSigningFunctions } from "./emit-signing.js";
import { docComment, identifier, rawStringLiteral, rustNaming, snakeCase, stringLiteral, uniqueNames, upperCamel } from "./naming.js";

interface Named {
  name: string;
  shape: Declared;
  /** For an untitled shape: the type and member it was named after. */
  owner?: string;
}

export class ProtocolTypes {
  /** Shape id -> its Rust type. */
  private readonly names = new Map<string, Named>();
  private readonly taken = new Map<string, string>();
  private readonly order: Named[] = [];
  readonly messageTypes = new Map<string, string>();

  constructor(model: Model, readonly protocol: Protocol) {
    const shapes = protocolShapes(model, protocol);
    for (const [message, shape] of shapes.messages) this.messageTypes.set(message, this.declare(shape, message, "value"));
  }

  /** The Rust name of a named shape, declaring it (and what it reaches) on first use. */
  private declare(shape: Declared, owner: string, property: string): string {
    const known = this.names.get(shape.id);
    if (known !== undefined) return known.name;
    const name = shape.title !== undefined ? rustNaming.type(shape.title) : `${owner}${upperCamel(property)}`;
    const holder = this.taken.get(name);
    if (holder !== undefined) throw new Error(`${this.protocol.id}: two schemas would both be the Rust type ${name} (${holder} and ${shape.id}); give one a different title`);
    this.taken.set(name, shape.id);
    const named: Named = { name, shape };
    this.names.set(shape.id, named);
    this.order.push(named);
    if (shape.kind === "record") for (const field of shape.fields) this.typeOf(field.shape, name, field.wireName);
    if (shape.kind === "union") for (const branch of shape.branches) this.declare(branch.record, name, branch.record.title ?? String(branch.tags[0]));
    return name;
  }

  /** The Rust type of a shape (without the Option of an optional member). */
  typeOf(shape: Shape, owner: string, property: string): string {
    switch (shape.kind) {
      case "record":
      case "union":
      case "enum": {
        const name = this.declare(shape, owner, property);
        return shape.kind === "enum" && shape.nullable ? `Option<${name}>` : name;
      }
      case "const":
        return shape.value === null ? "()" : scalarType(shape.value);
      case "string":
        return "String";
      case "boolean":
        return "bool";
      case "number":
        return "f64";
      case "integer":
        return "i64";
      case "null":
        return "()";
      case "array":
        return `Vec<${shape.items === undefined ? "serde_json::Value" : this.typeOf(shape.items, owner, `${property}Item`)}>`;
      case "map":
        return `BTreeMap<String, ${shape.values === undefined ? "serde_json::Value" : this.typeOf(shape.values, owner, `${property}Value`)}>`;
      case "nullable": {
        const inner = this.typeOf(shape.inner, owner, property);
        return inner.startsWith("Option<") ? inner : `Option<${inner}>`;
      }
      case "any":
        return "serde_json::Value";
    }
  }

  /** Names of the declared types that reach `target` by direct members (no Vec, map or Option between). */
  private reachesDirectly(from: Declared, target: string, seen = new Set<string>()): boolean {
    if (from.id === target) return true;
    if (seen.has(from.id)) return false;
    seen.add(from.id);
    const next: Declared[] = from.kind === "record" ? from.fields.map((f) => f.shape).filter((s): s is Declared => s.kind === "record" || s.kind === "union") : from.kind === "union" ? from.branches.map((b) => b.record) : [];
    return next.some((shape) => this.reachesDirectly(shape, target, seen));
  }

  render(): string {
    const out: string[] = [];
    for (const named of this.order) {
      if (named.shape.kind === "record") out.push(this.renderRecord(named.name, named.shape));
      else if (named.shape.kind === "union") out.push(this.renderUnion(named.name, named.shape));
      else out.push(renderEnum(named.name, named.shape));
    }
    return out.join("\n");
  }

  private renderRecord(name: string, shape: RecordShape): string {
    const out: string[] = [];
    const fixers: string[] = [];
    out.push(docComment(shape.description, "") + `#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]`);
    if (!shape.open) out.push("#[serde(deny_unknown_fields)]");
    out.push(`pub struct ${name} {`);
    const members = uniqueNames(shape.fields.map((f) => snakeCase(f.wireName)));
    shape.fields.forEach((field, index) => {
      const member = identifier(members[index]!);
      let type = this.typeOf(field.shape, name, field.wireName);
      const recursive = (field.shape.kind === "record" || field.shape.kind === "union") && this.reachesDirectly(field.shape, shape.id);
      if (recursive) type = `Box<${type}>`;
      const attributes: string[] = [];
      if (member.replace(/^r#/, "") !== field.wireName) attributes.push(`rename = ${stringLiteral(field.wireName)}`);
      const constant = field.shape.kind === "const" ? field.shape.value : undefined;
      if (field.required && constant !== undefined && constant !== null) {
        const fixer = `fixed_${snakeCase(name)}_${members[index]!}`;
        attributes.push(`deserialize_with = ${stringLiteral(fixer)}`);
        const kind = typeof constant === "string" ? "string" : typeof constant === "boolean" ? "boolean" : "integer";
        const literal = typeof constant === "string" ? stringLiteral(constant) : String(constant);
        fixers.push(`fn ${fixer}<'de, D: Deserializer<'de>>(deserializer: D) -> Result<${type}, D::Error> {\n    fixed::${kind}(deserializer, ${literal})\n}\n`);
      } else if (!field.required && !type.startsWith("Option<")) {
        type = `Option<${type}>`;
        attributes.push("default", `skip_serializing_if = "Option::is_none"`);
      } else if (!field.required) {
        // Absent (None) and null (Some(None)) stay apart.
        type = `Option<${type}>`;
        attributes.push("default", `deserialize_with = "crate::runtime::nullable::present"`, `skip_serializing_if = "Option::is_none"`);
      }
      const doc = field.description ?? field.targetDescription;
      out.push(docComment(doc, "    ") + (attributes.length > 0 ? `    #[serde(${attributes.join(", ")})]\n` : "") + `    pub ${member}: ${type},`);
    });
    if (shape.open) {
      // additionalProperties is not false: members this version does not declare are kept, so a
      // message decoded and encoded again (to forward, or to hash) loses nothing.
      const extra = uniqueNames([...members, "additional_members"]).at(-1)!;
      out.push("    /// Members the schema does not declare, kept as they arrived.", "    #[serde(flatten)]", `    pub ${extra}: serde_json::Map<String, serde_json::Value>,`);
    }
    out.push("}", "");
    return out.join("\n") + (fixers.length > 0 ? `\n${fixers.join("\n")}` : "");
  }

  private renderUnion(name: string, shape: UnionShape): string {
    const variants = uniqueNames(shape.branches.map((b) => upperCamel(b.record.title ?? String(b.tags[0]))), "");
    const out: string[] = [];
    out.push(
      docComment(shape.description, "") +
        docComment(`Tagged by \`${shape.tag}\`: decoding reads it and decodes the whole object as that branch; encoding writes the branch as it is (its tag member included).`, "") +
        "#[derive(Debug, Clone, PartialEq, Serialize)]\n#[serde(untagged)]\n// A branch is held inline, as serde decodes it; boxing the larger ones would change the API for no gain here.\n#[allow(clippy::large_enum_variant)]",
    );
    out.push(`pub enum ${name} {`);
    shape.branches.forEach((branch, index) => {
      const type = this.names.get(branch.record.id)!.name;
      out.push(docComment(`${shape.tag} = ${branch.tags.map((t) => JSON.stringify(t)).join(" | ")}`, "    ") + `    ${variants[index]}(${type}),`);
    });
    out.push("}", "");
    const read = shape.tagType === "boolean" ? "as_bool()" : "as_str()";
    const arms = shape.branches.map((branch, index) => {
      const type = this.names.get(branch.record.id)!.name;
      const patterns = branch.tags.map((t) => (typeof t === "string" ? `Some(${stringLiteral(t)})` : `Some(${String(t)})`)).join(" | ");
      return `            ${patterns} => ${type}::deserialize(value).map(Self::${variants[index]}).map_err(D::Error::custom),`;
    });
    const expected = shape.branches.flatMap((b) => b.tags).map((t) => JSON.stringify(t)).join(", ");
    out.push(
      `impl<'de> Deserialize<'de> for ${name} {`,
      "    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {",
      "        let value = serde_json::Value::deserialize(deserializer)?;",
      `        let tag = value.get(${stringLiteral(shape.tag)}).and_then(|tag| tag.${read});`,
      "        match tag {",
      ...arms,
      `            _ => Err(D::Error::custom(${stringLiteral(`${name}: member ${shape.tag} must be one of ${expected}`)})),`,
      "        }",
      "    }",
      "}",
      "",
    );
    return out.join("\n");
  }
}

function scalarType(value: string | number | boolean): string {
  return typeof value === "string" ? "String" : typeof value === "boolean" ? "bool" : Number.isInteger(value) ? "i64" : "f64";
}

function renderEnum(name: string, shape: EnumShape): string {
  const variants = uniqueNames(shape.values.map((v) => rustNaming.enumCase(v)), "");
  const out: string[] = [];
  const doc = docComment(shape.description, "") + docComment(shape.closed !== undefined ? `Closed: ${shape.closed}` : "Open: a value this version does not list is kept as `Unknown`, never refused.", "");
  const listed = shape.values.map((v, i) => `            Self::${variants[i]} => ${stringLiteral(v)},`);
  if (shape.closed !== undefined) {
    out.push(doc + "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]", `pub enum ${name} {`);
    shape.values.forEach((v, i) => out.push(`    #[serde(rename = ${stringLiteral(v)})]`, `    ${variants[i]},`));
    out.push("}", "", `impl ${name} {`, "    /// The value on the wire.", "    pub fn as_str(&self) -> &'static str {", "        match self {", ...listed, "        }", "    }", "}", "");
    return out.join("\n");
  }
  out.push(doc + "#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]", `#[serde(from = "String", into = "String")]`, `pub enum ${name} {`);
  shape.values.forEach((v, i) => out.push(`    ${variants[i]},`));
  out.push("    /// A value this version of the spec does not list.", "    Unknown(String),", "}", "");
  out.push(
    `impl ${name} {`,
    "    /// The value on the wire.",
    "    pub fn as_str(&self) -> &str {",
    "        match self {",
    ...listed,
    "            Self::Unknown(value) => value,",
    "        }",
    "    }",
    "}",
    "",
    `impl From<String> for ${name} {`,
    "    fn from(value: String) -> Self {",
    "        match value.as_str() {",
    ...shape.values.map((v, i) => `            ${stringLiteral(v)} => Self::${variants[i]},`),
    "            _ => Self::Unknown(value),",
    "        }",
    "    }",
    "}",
    "",
    `impl From<${name}> for String {`,
    `    fn from(value: ${name}) -> Self {`,
    "        value.as_str().to_string()",
    "    }",
    "}",
    "",
  );
  return out.join("\n");
}

/** Each message's schema id (ContractMessage) and declarations (x-signature, x-replay, x-content-address) as associated functions. */
export function renderDeclarations(protocol: Protocol, types: ProtocolTypes): string {
  const out: string[] = [];
  for (const m of protocol.messages) {
    const parts: string[] = [];
    const json = (value: unknown): string => rawStringLiteral(JSON.stringify(value));
    if (m.signature !== undefined) {
      parts.push(
        `    /// How ${m.name} is signed (x-signature).`,
        "    pub fn signature_declaration() -> HmacV1Declaration {",
        `        serde_json::from_str(${json(m.signature)}).expect("the generator wrote a valid x-signature")`,
        "    }",
      );
      parts.push(...rustSigningFunctions(m.name, m.signature).filter((line) => line !== ""));
    }
    if (m.replay !== undefined) {
      parts.push(
        `    /// How a receiver admits ${m.name} once (x-replay).`,
        "    pub fn replay_declaration() -> ReplayDeclaration {",
        `        serde_json::from_str(${json(m.replay)}).expect("the generator wrote a valid x-replay")`,
        "    }",
      );
    }
    if (m.contentAddress !== undefined) {
      parts.push(
        `    /// How the id of ${m.name} is computed from its content (x-content-address).`,
        "    pub fn content_address_declaration() -> ContentAddressDeclaration {",
        `        serde_json::from_str(${json(m.contentAddress)}).expect("the generator wrote a valid x-content-address")`,
        "    }",
      );
    }
    out.push(`impl ContractMessage for ${types.messageTypes.get(m.name)!} {`, `    const SCHEMA_ID: &'static str = ${stringLiteral(m.id)};`, "}", "");
    if (parts.length > 0) out.push(`impl ${types.messageTypes.get(m.name)!} {`, ...parts.flatMap((p, i) => (i > 0 && p.startsWith("    ///") && !parts[i - 1]!.startsWith("    ///") ? ["", p] : [p])), "}", "");
  }
  return out.join("\n");
}
