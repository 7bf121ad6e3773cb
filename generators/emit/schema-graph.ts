// The schema documents of one protocol as a graph for code generation (the Kotlin and TypeScript
// emit-schema-code.ts, which name their functions after its locations): every
// subschema a message can reach, with its absolute location (`<base URI>#<JSON pointer>`), the
// schema each `$ref` names (resolved here, once, as runtime/JsonSchemaValidator.kt resolves it when
// it loads the same documents: RFC 3986 against the `$id` in force, JSON pointer or `$anchor`
// fragments) and a function name made from the location. Pure.
import { camel, words } from "./case.js";
import type { JsonValue } from "../model/types.js";

export type SchemaObject = { readonly [key: string]: JsonValue };

/** One subschema that gets a generated function. */
export interface SchemaNode {
  readonly schema: SchemaObject;
  /** `https://…/ActionProposal.json#/properties/callback`: the document's `$id` and the RFC 6901 pointer. */
  readonly location: string;
  /** The `$id` in force here (the base `$ref` resolves against). */
  readonly base: string;
  /** The Kotlin function that checks it, named after the location. */
  readonly functionName: string;
}

/** A schema problem found while building the graph: the generated code could not mean what the schema does. */
export class SchemaGraphError extends Error {
  constructor(
    readonly location: string,
    message: string,
  ) {
    super(`${location}: ${message}`);
  }
}

const SINGLE = ["not", "if", "then", "else", "items", "contains", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAPS = ["$defs", "properties", "patternProperties", "dependentSchemas"];
/** Subschemas checked at the same instance location as their parent: a `$ref` cycle through only these consumes nothing. */
const SAME_LOCATION = new Set(["$ref", "not", "if", "then", "else", "allOf", "anyOf", "oneOf", "dependentSchemas"]);

export const escapeToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");

/** Each direct subschema of [schema] with its pointer step and its keyword. */
export function subschemas(schema: SchemaObject): { value: JsonValue; step: string; keyword: string }[] {
  const out: { value: JsonValue; step: string; keyword: string }[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (SINGLE.includes(keyword)) out.push({ value, step: escapeToken(keyword), keyword });
    else if (LISTS.includes(keyword) && Array.isArray(value)) value.forEach((v, i) => out.push({ value: v, step: `${keyword}/${i}`, keyword }));
    else if (MAPS.includes(keyword) && isObject(value)) {
      for (const [name, v] of Object.entries(value)) out.push({ value: v, step: `${escapeToken(keyword)}/${escapeToken(name)}`, keyword });
    }
  }
  return out;
}

export function isObject(value: JsonValue | undefined): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// --- RFC 3986 section 5.2, as runtime/SchemaUri.kt -------------------------------------------------

const PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

function split(uri: string): { scheme?: string; authority?: string; path: string; query?: string; fragment?: string } {
  const m = PARTS.exec(uri)!;
  return { scheme: m[1], authority: m[2], path: m[3] ?? "", query: m[4], fragment: m[5] };
}

function removeDots(path: string): string {
  if (!path.includes(".")) return path;
  const input = path.split("/");
  const out: string[] = [];
  input.forEach((segment, i) => {
    const last = i === input.length - 1;
    if (segment === ".") {
      if (last) out.push("");
    } else if (segment === "..") {
      if (out.length > 1 || (out.length === 1 && out[0] !== "")) out.pop();
      if (last) out.push("");
    } else out.push(segment);
  });
  return out.join("/");
}

export function resolveUri(base: string, ref: string): string {
  const r = split(ref);
  const b = split(base);
  let scheme = b.scheme;
  let authority = b.authority;
  let path: string;
  let query = r.query;
  if (r.scheme !== undefined) [scheme, authority, path] = [r.scheme, r.authority, removeDots(r.path)];
  else if (r.authority !== undefined) [authority, path] = [r.authority, removeDots(r.path)];
  else if (r.path === "") [path, query] = [b.path, r.query ?? b.query];
  else if (r.path.startsWith("/")) path = removeDots(r.path);
  else {
    const merged = b.authority !== undefined && b.path === "" ? `/${r.path}` : b.path.slice(0, Math.max(0, b.path.lastIndexOf("/"))) + (b.path.includes("/") ? "/" : "") + r.path;
    path = removeDots(merged);
  }
  return `${scheme !== undefined ? `${scheme}:` : ""}${authority !== undefined ? `//${authority}` : ""}${path}${query !== undefined ? `?${query}` : ""}${r.fragment !== undefined ? `#${r.fragment}` : ""}`;
}

const withoutFragment = (uri: string): string => uri.split("#")[0]!;

// --- the graph --------------------------------------------------------------------------------------

/** The reachable subschemas of [roots] (each a document with an absolute `$id`) and where each `$ref` leads. */
export class SchemaGraph {
  private readonly resources = new Map<string, JsonValue>();
  private readonly anchors = new Map<string, SchemaObject>();
  private readonly places = new Map<SchemaObject, { location: string; base: string }>();
  private readonly nodes = new Map<SchemaObject, SchemaNode>();
  private readonly usedNames = new Set<string>();

  constructor(documents: readonly JsonValue[]) {
    for (const document of documents) {
      if (!isObject(document) || typeof document["$id"] !== "string") throw new SchemaGraphError("(documents)", "every schema document needs an absolute $id");
      this.index(document, document["$id"], `${document["$id"]}#`);
    }
  }

  private index(schema: JsonValue, outer: string, location: string): void {
    if (!isObject(schema)) return;
    let base = outer;
    if (typeof schema["$id"] === "string") {
      base = withoutFragment(resolveUri(outer, schema["$id"]));
      if (!this.resources.has(base)) this.resources.set(base, schema);
    }
    if (typeof schema["$anchor"] === "string") {
      const key = `${base}#${schema["$anchor"]}`;
      if (!this.anchors.has(key)) this.anchors.set(key, schema);
    }
    if (!this.places.has(schema)) this.places.set(schema, { location, base });
    for (const { value, step } of subschemas(schema)) this.index(value, base, `${location}/${step}`);
  }

  /** The node of a subschema object (named the first time it is asked for). */
  node(schema: SchemaObject): SchemaNode {
    const known = this.nodes.get(schema);
    if (known !== undefined) return known;
    const place = this.places.get(schema);
    if (place === undefined) throw new SchemaGraphError("(schema)", "a subschema outside the loaded documents");
    const node = { schema, location: place.location, base: place.base, functionName: this.nameFor(place.location) };
    this.nodes.set(schema, node);
    return node;
  }

  /** What the `$ref` of [holder] names: a schema object or a boolean schema. */
  target(holder: SchemaNode): SchemaObject | boolean {
    const ref = holder.schema["$ref"];
    if (typeof ref !== "string") throw new SchemaGraphError(holder.location, "$ref must be a string");
    const uri = resolveUri(holder.base, ref);
    const id = withoutFragment(uri);
    const document = this.resources.get(id);
    if (document === undefined) throw new SchemaGraphError(`${holder.location}/$ref`, `$ref ${ref} names no loaded schema`);
    const hash = uri.indexOf("#");
    const fragment = hash < 0 ? "" : decodeURIComponent(uri.slice(hash + 1));
    let target: JsonValue | undefined = document;
    if (fragment.startsWith("/")) {
      for (const raw of fragment.split("/").slice(1)) {
        const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
        if (Array.isArray(target)) target = /^(0|[1-9][0-9]*)$/.test(token) ? target[Number(token)] : undefined;
        else if (isObject(target)) target = Object.prototype.hasOwnProperty.call(target, token) ? target[token] : undefined;
        else target = undefined;
      }
    } else if (fragment !== "") target = this.anchors.get(`${id}#${fragment}`);
    if (typeof target === "boolean" || isObject(target)) return target;
    throw new SchemaGraphError(`${holder.location}/$ref`, `$ref ${ref} points at nothing`);
  }

  /**
   * Every node reachable from [roots], in a stable order (roots first, then depth first). Fails on
   * a `$ref` cycle that never moves into the instance: the interpreter reports one when an instance
   * reaches it; a generated function would recurse without end.
   */
  reachable(roots: readonly SchemaObject[]): SchemaNode[] {
    const order: SchemaNode[] = [];
    const seen = new Set<SchemaObject>();
    const visit = (schema: SchemaObject): void => {
      if (seen.has(schema)) return;
      seen.add(schema);
      const node = this.node(schema);
      order.push(node);
      for (const next of this.children(node)) if (typeof next.schema !== "boolean") visit(next.schema);
    };
    roots.forEach(visit);
    for (const node of order) this.refuseEmptyCycle(node);
    return order;
  }

  /** The subschemas [node]'s keywords check (not `$defs`: a definition is reached through a `$ref`). */
  children(node: SchemaNode): { schema: SchemaObject | boolean; keyword: string }[] {
    const out: { schema: SchemaObject | boolean; keyword: string }[] = [];
    if (node.schema["$ref"] !== undefined) out.push({ schema: this.target(node), keyword: "$ref" });
    for (const { value, keyword } of subschemas(node.schema)) {
      if (keyword === "$defs") continue;
      if (typeof value === "boolean" || isObject(value)) out.push({ schema: value, keyword });
    }
    return out;
  }

  private refuseEmptyCycle(start: SchemaNode): void {
    const stack = new Set<SchemaObject>();
    const walk = (node: SchemaNode): void => {
      if (stack.has(node.schema)) {
        if (node === start) throw new SchemaGraphError(start.location, "a $ref cycle that never moves into the instance (every instance reaching it would recurse without end)");
        return;
      }
      stack.add(node.schema);
      for (const next of this.children(node)) {
        if (SAME_LOCATION.has(next.keyword) && typeof next.schema !== "boolean") walk(this.node(next.schema));
      }
      stack.delete(node.schema);
    };
    walk(start);
  }

  /** [schema] after its `$ref`-only hops (a cycle stops where it closes). */
  followRefs(schema: JsonValue): JsonValue {
    let target = schema;
    const visited = new Set<JsonValue>();
    while (isObject(target) && "$ref" in target && !visited.has(target)) {
      visited.add(target);
      target = this.target(this.node(target));
    }
    return target;
  }

  /**
   * The string values a discriminator branch fixes its [tag] to (`const` or `enum`), the branch
   * read through `$ref` hops. ajv reads the tag's property schema as written; the Kotlin
   * interpreter follows a `$ref` there too ([followProperty]), and each emitter matches its oracle.
   */
  tagValues(branch: JsonValue, tag: string, followProperty: boolean): string[] {
    const target = this.followRefs(branch);
    const properties = isObject(target) ? target["properties"] : undefined;
    const written = isObject(properties) && tag in properties ? properties[tag]! : undefined;
    const property = written !== undefined && followProperty ? this.followRefs(written) : written;
    if (!isObject(property)) return [];
    if ("const" in property) return typeof property["const"] === "string" ? [property["const"]] : [];
    return Array.isArray(property["enum"]) ? property["enum"].filter((v): v is string => typeof v === "string") : [];
  }

  /** `…/ActionProposal.json#/properties/callback` → `actionProposalPropertiesCallback`; numbered when two locations spell alike. */
  private nameFor(location: string): string {
    const [uri = "", pointer = ""] = location.split("#");
    const file = uri.replace(/\/+$/, "").split("/").pop()!.replace(/\.json$/, "");
    const parts = [file, ...pointer.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~").replace(/^\$/, ""))];
    const joined = parts.flatMap((p) => words(p)).join(" ");
    let name = joined === "" ? "schema" : camel(joined);
    if (/^[0-9]/.test(name)) name = `s${name}`;
    let unique = name;
    for (let i = 2; this.usedNames.has(unique); i++) unique = `${name}${i}`;
    this.usedNames.add(unique);
    return unique;
  }
}
