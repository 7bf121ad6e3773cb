// Turns a message's JSON Schema into the tables a reader needs: one table of fields per object
// type (the message itself, then every $defs entry and titled inline object), with the type, the
// required flag, the default, the constraints and the description of each field.
import type { JsonSchema, JsonValue } from "../../model/types.js";
import { escapeHtml, inline, json, link } from "./html.js";
import { anchors } from "./paths.js";

/** A schema document the site can link to: a message page or the common types page. */
export interface SchemaDoc {
  id: string;
  schema: JsonSchema;
  /** Site-relative page path. */
  page: string;
  /** The label of a reference to the whole document. */
  name: string;
}

export interface SchemaContext {
  /** Every schema document by $id (no fragment). */
  docs: Map<string, SchemaDoc>;
  /** The page being rendered, to make links relative. */
  page: string;
  /** `../` chain from the page to the site root. */
  root: string;
}

export interface Constraint {
  label: string;
  value?: string;
  /** Set when the constraint comes from a referenced scalar type. */
  via?: string;
}

export interface FieldRow {
  name: string;
  anchor: string;
  typeHtml: string;
  required: boolean;
  defaultJson?: string;
  constraints: Constraint[];
  descriptionHtml: string;
}

export interface Variant {
  /** The discriminator value(s) selecting the branch, when there is a discriminator. */
  tag?: string;
  typeHtml: string;
  descriptionHtml: string;
}

export interface TypeTable {
  title: string;
  anchor: string;
  /** What the type is: "object", "union" (oneOf/anyOf), or a scalar/array type name. */
  kind: string;
  descriptionHtml: string;
  rows: FieldRow[];
  discriminator?: string;
  variants: Variant[];
  /** Object-level rules: dependentRequired, if/then, open objects, property-count bounds. */
  notes: string[];
  /** Constraints of a scalar or array type (enum values, pattern, ...). */
  constraints: Constraint[];
}

type Schema = { [key: string]: JsonValue };

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves a $ref against the document it appears in. */
export function resolveRef(ref: string, baseId: string, ctx: SchemaContext): { doc: SchemaDoc; pointer: string; schema: Schema | undefined } | undefined {
  let url: URL;
  try {
    url = new URL(ref, baseId);
  } catch {
    return undefined;
  }
  const pointer = decodeURIComponent(url.hash.replace(/^#/, ""));
  url.hash = "";
  const doc = ctx.docs.get(url.href);
  if (!doc) return undefined;
  let node: JsonValue | undefined = doc.schema;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isSchema(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return { doc, pointer, schema: isSchema(node) ? node : undefined };
}

function refLink(ref: string, baseId: string, ctx: SchemaContext): string {
  const target = resolveRef(ref, baseId, ctx);
  if (!target) return `<code>${escapeHtml(ref)}</code>`;
  const defMatch = /^\/\$defs\/([^/]+)$/.exec(target.pointer);
  const label = target.pointer === "" ? target.doc.name : String(target.schema?.title ?? defMatch?.[1] ?? target.pointer);
  const anchor = target.pointer === "" ? "" : `#${anchors.def(label)}`;
  const href = target.doc.page === ctx.page ? anchor || "#top" : `${ctx.root}${target.doc.page}${anchor}`;
  return link(href, escapeHtml(label), "type-ref");
}

/** The type of a schema as HTML: names link to the table that defines them. */
export function typeHtml(schema: JsonValue | undefined, baseId: string, ctx: SchemaContext): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "never";
  if (!isSchema(schema)) return "any";
  if (typeof schema.$ref === "string") return refLink(schema.$ref, baseId, ctx);
  if (schema.const !== undefined) return `<code>${escapeHtml(json(schema.const))}</code>`;
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && !Array.isArray(schema.type) && !schema.properties) {
      return branches.map((b) => typeHtml(b, baseId, ctx)).join(" | ");
    }
  }
  if (Array.isArray(schema.allOf) && !schema.type) return schema.allOf.map((b) => typeHtml(b, baseId, ctx)).join(" &amp; ");
  if (typeof schema.title === "string" && (schema.properties || schema.oneOf || schema.anyOf)) {
    return link(`#${anchors.def(schema.title)}`, escapeHtml(schema.title), "type-ref");
  }
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === "string" ? [schema.type] : [];
  const parts = types.map((t) => {
    if (t === "array") {
      const items = schema.items;
      const inner = typeHtml(items === undefined ? true : items, baseId, ctx);
      return inner.includes(" | ") ? `(${inner})[]` : `${inner}[]`;
    }
    if (t === "object" && isSchema(schema.additionalProperties)) return `map&lt;string, ${typeHtml(schema.additionalProperties, baseId, ctx)}&gt;`;
    return escapeHtml(t);
  });
  if (parts.length > 0) return parts.join(" | ");
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `<code>${escapeHtml(json(v))}</code>`).join(" | ");
  return "any";
}

const SIMPLE: [string, string][] = [
  ["pattern", "pattern"],
  ["format", "format"],
  ["minLength", "min length"],
  ["maxLength", "max length"],
  ["minimum", "≥"],
  ["maximum", "≤"],
  ["exclusiveMinimum", ">"],
  ["exclusiveMaximum", "<"],
  ["multipleOf", "multiple of"],
  ["minItems", "min items"],
  ["maxItems", "max items"],
  ["minProperties", "min properties"],
  ["maxProperties", "max properties"],
  ["contentEncoding", "encoding"],
  ["contentMediaType", "media type"],
];

/** The constraints a schema states about its own value (not about nested fields). */
export function constraintsOf(schema: JsonValue | undefined, baseId: string, ctx: SchemaContext, depth = 0): Constraint[] {
  if (!isSchema(schema)) return [];
  const out: Constraint[] = [];
  if (Array.isArray(schema.enum)) out.push({ label: "one of", value: schema.enum.map((v) => json(v)).join(", ") });
  if (schema.const !== undefined) out.push({ label: "exactly", value: json(schema.const) });
  for (const [key, label] of SIMPLE) if (schema[key] !== undefined) out.push({ label, value: typeof schema[key] === "string" ? String(schema[key]) : json(schema[key]) });
  if (schema.uniqueItems === true) out.push({ label: "unique items" });
  if (isSchema(schema.contains)) out.push({ label: "contains", value: json(schema.contains) });
  if (isSchema(schema.propertyNames)) out.push({ label: "property names", value: json(schema.propertyNames) });
  if (isSchema(schema.not)) out.push({ label: "not", value: json(schema.not) });
  if (schema.type === "array" && isSchema(schema.items) && depth < 2) {
    for (const c of constraintsOf(schema.items, baseId, ctx, depth + 1)) out.push({ ...c, label: `each item: ${c.label}` });
  }
  // A reference to a scalar type: show what it constrains, so the reader need not follow the link.
  if (typeof schema.$ref === "string" && depth < 3) {
    const target = resolveRef(schema.$ref, baseId, ctx);
    if (target?.schema && !target.schema.properties && !target.schema.oneOf && !target.schema.anyOf) {
      const name = String(target.schema.title ?? target.pointer.split("/").pop() ?? "");
      for (const c of constraintsOf(target.schema, target.doc.id, ctx, depth + 1)) out.push({ ...c, via: c.via ?? name });
    }
  }
  return out;
}

function descriptionOf(schema: JsonValue | undefined, baseId: string, ctx: SchemaContext): string {
  if (!isSchema(schema)) return "";
  let text = typeof schema.description === "string" ? schema.description : "";
  if (!text && typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, baseId, ctx);
    if (typeof target?.schema?.description === "string") text = target.schema.description;
  }
  let html = inline(text);
  if (typeof schema["x-open"] === "string") html += ` <span class="note">Open: ${inline(schema["x-open"])}</span>`;
  if (isSchema(schema) && Array.isArray(schema["x-divergences"])) {
    const ids = schema["x-divergences"].map((d) => (isSchema(d) ? String(d.id) : "")).filter(Boolean);
    if (ids.length > 0) html += ` <span class="note">Divergences: ${ids.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}</span>`;
  }
  return html;
}

/** The table of one object, union or scalar type. */
export function typeTable(title: string, schema: Schema, baseId: string, ctx: SchemaContext, owner: string): TypeTable {
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const dependent = isSchema(schema.dependentRequired) ? schema.dependentRequired : {};
  const rows: FieldRow[] = [];
  const properties = isSchema(schema.properties) ? schema.properties : {};
  for (const [name, prop] of Object.entries(properties)) {
    const constraints = constraintsOf(prop, baseId, ctx);
    const needs = dependent[name];
    if (Array.isArray(needs) && needs.length > 0) constraints.push({ label: "when present, requires", value: needs.map(String).join(", ") });
    rows.push({
      name,
      anchor: anchors.field(owner, name),
      typeHtml: typeHtml(prop, baseId, ctx),
      required: required.has(name),
      defaultJson: isSchema(prop) && prop.default !== undefined ? json(prop.default) : undefined,
      constraints,
      descriptionHtml: descriptionOf(prop, baseId, ctx),
    });
  }
  const notes: string[] = [];
  if (schema.additionalProperties === false) notes.push("Closed: members not listed here are rejected.");
  else if (typeof schema["x-open"] === "string") notes.push(`Open: ${inline(schema["x-open"])}`);
  else if (isSchema(schema.additionalProperties)) notes.push(`Other members: ${typeHtml(schema.additionalProperties, baseId, ctx)}.`);
  if (isSchema(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) notes.push(`Members matching <code>${escapeHtml(pattern)}</code>: ${typeHtml(sub, baseId, ctx)}.`);
  }
  for (const key of ["if", "allOf"] as const) {
    if (key === "if" && schema.if !== undefined) {
      notes.push(`Conditional: if <code>${escapeHtml(json(schema.if))}</code> then <code>${escapeHtml(json(schema.then ?? true))}</code>${schema.else !== undefined ? ` else <code>${escapeHtml(json(schema.else))}</code>` : ""}.`);
    }
    if (key === "allOf" && Array.isArray(schema.allOf) && schema.properties) {
      for (const part of schema.allOf) {
        if (isSchema(part) && part.if !== undefined) notes.push(`Conditional: if <code>${escapeHtml(json(part.if))}</code> then <code>${escapeHtml(json(part.then ?? true))}</code>${part.else !== undefined ? ` else <code>${escapeHtml(json(part.else))}</code>` : ""}.`);
        else if (isSchema(part) && typeof part.$ref === "string") notes.push(`Also satisfies ${refLink(part.$ref, baseId, ctx)}.`);
      }
    }
  }
  const variants: Variant[] = [];
  const discriminator = isSchema(schema.discriminator) && typeof schema.discriminator.propertyName === "string" ? schema.discriminator.propertyName : undefined;
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      variants.push({ tag: discriminator ? tagOf(branch, discriminator, baseId, ctx) : undefined, typeHtml: typeHtml(branch, baseId, ctx), descriptionHtml: descriptionOf(branch, baseId, ctx) });
    }
  }
  let kind = "object";
  if (variants.length > 0 && rows.length === 0) kind = Array.isArray(schema.oneOf) ? "union (one of)" : "union (any of)";
  else if (!schema.properties && schema.type !== "object") kind = typeHtml({ ...schema, title: undefined } as unknown as Schema, baseId, ctx);
  const isScalar = rows.length === 0 && variants.length === 0;
  return {
    title,
    anchor: anchors.def(title),
    kind,
    descriptionHtml: inline(typeof schema.description === "string" ? schema.description : ""),
    rows,
    discriminator,
    variants,
    notes,
    constraints: isScalar ? constraintsOf(schema, baseId, ctx) : [],
  };
}

function tagOf(branch: JsonValue, property: string, baseId: string, ctx: SchemaContext): string | undefined {
  let target: JsonValue | undefined = branch;
  if (isSchema(branch) && typeof branch.$ref === "string") target = resolveRef(branch.$ref, baseId, ctx)?.schema;
  if (!isSchema(target) || !isSchema(target.properties)) return undefined;
  const prop = target.properties[property];
  if (!isSchema(prop)) return undefined;
  if (prop.const !== undefined) return json(prop.const);
  if (Array.isArray(prop.enum)) return prop.enum.map((v) => json(v)).join(", ");
  return undefined;
}

/**
 * Every table of a message page: the message itself, then the titled inline objects and the
 * $defs entries, each once, in the order a reader meets them.
 */
export function messageTables(name: string, schema: JsonSchema, baseId: string, ctx: SchemaContext): TypeTable[] {
  const tables: TypeTable[] = [typeTable(name, schema as Schema, baseId, ctx, "")];
  const seen = new Set<string>([name]);
  const visit = (node: JsonValue | undefined, isRoot: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, false));
    if (!isSchema(node)) return;
    if (!isRoot && typeof node.title === "string" && (node.properties || node.oneOf || node.anyOf) && !seen.has(node.title)) {
      seen.add(node.title);
      tables.push(typeTable(node.title, node, baseId, ctx, node.title));
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$defs" || key === "examples" || key === "x-invalid-examples" || key === "default" || key === "const" || key === "enum") continue;
      visit(value, false);
    }
  };
  visit(schema, true);
  const defs = isSchema(schema.$defs) ? schema.$defs : {};
  for (const [defName, def] of Object.entries(defs)) {
    if (!isSchema(def)) continue;
    const title = typeof def.title === "string" ? def.title : defName;
    if (!seen.has(title)) {
      seen.add(title);
      tables.push(typeTable(title, def, baseId, ctx, title));
    }
    visit(def, true);
  }
  return tables;
}
