// Each protocol's JSON Schemas as Kotlin code (`<Protocol>Schemas`): one function per reachable
// subschema, named after its location, with the keywords as straight-line checks in the order
// runtime/JsonSchemaValidator.kt evaluates them (ajv's: the type first unless a type group owns it,
// the untyped group, then the number, string, array and object groups). The documents are the
// ones the interpreter loads (emit-validation.ts's schema resource), so the interpreter is the
// oracle: GeneratedSchemasDifferentialTest compares every first error, message and params
// included. A schema reaching unevaluatedProperties/unevaluatedItems is not generated (the
// annotation tracking they need is the interpreter's); its message stays interpreted, and says so.
// Pure.
import type { JsonValue } from "../../model/types.js";
import { escapeToken, isObject, SchemaGraph, SchemaGraphError, type SchemaNode, type SchemaObject } from "../../emit/schema-graph.js";
import { stringLiteral } from "./kotlin-names.js";

const s = stringLiteral;

/** ajv's groups and keyword order (runtime/JsonSchemaValidator.kt GROUPS). */
const GROUPS: { type: string | null; keywords: string[] }[] = [
  { type: null, keywords: ["$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else"] },
  { type: "number", keywords: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"] },
  { type: "string", keywords: ["maxLength", "minLength", "pattern", "format"] },
  { type: "array", keywords: ["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems", "unevaluatedItems"] },
  {
    type: "object",
    keywords: ["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "properties", "patternProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "discriminator"],
  },
];

const UNGENERATED = ["unevaluatedProperties", "unevaluatedItems"];

/** A statement list; `terminal` once one always returns (nothing may follow it: Kotlin warns on unreachable code). */
class Body {
  readonly lines: string[] = [];
  terminal = false;

  add(...lines: string[]): void {
    if (!this.terminal) this.lines.push(...lines);
  }

  end(...lines: string[]): void {
    this.add(...lines);
    this.terminal = true;
  }
}

const indent = (lines: readonly string[], by = "    "): string[] => lines.map((l) => (l === "" ? l : by + l));

/** `data` has JSON type [type], without smart-casting it (runtime helpers). */
function hasType(type: string, data = "data"): string {
  switch (type) {
    case "null":
      return `${data} is JsonNull`;
    case "object":
      return `${data} is JsonObject`;
    case "array":
      return `${data} is JsonArray`;
    case "string":
      return `isJsonString(${data})`;
    case "boolean":
      return `isJsonBoolean(${data})`;
    case "number":
      return `isJsonNumber(${data})`;
    case "integer":
      return `isJsonInteger(${data})`;
  }
  throw new Error(`unknown JSON type ${type}`);
}

/** A double literal of a schema number (exact: the spec's numbers are checked to be doubles). */
function doubleLiteral(value: number): string {
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/** A subschema that is nothing but a `$ref` (the validator view drops the annotations beside one). */
const isAlias = (schema: SchemaObject): boolean => Object.keys(schema).length === 1 && typeof schema["$ref"] === "string";

/** A size bound as the literal to compare an Int with (the interpreter compares with the bound as a double). */
function sizeLiteral(value: number): string {
  return Number.isInteger(value) && value <= 2 ** 31 - 1 ? String(value) : doubleLiteral(value);
}

/** The code of one protocol's `<Protocol>Schemas` object body, and which messages it checks. */
export interface SchemaCode {
  /** Message schema `$id` → the function checking it; messages left to the interpreter are absent. */
  readonly entries: ReadonlyMap<string, string>;
  /** Message schema `$id` → why it is left to the interpreter. */
  readonly interpreted: ReadonlyMap<string, string>;
  readonly declarations: string[];
}

export function schemaCode(documents: readonly JsonValue[], messageIds: readonly string[]): SchemaCode {
  const graph = new SchemaGraph(documents);
  const byId = new Map(documents.filter(isObject).map((d) => [d["$id"] as string, d]));
  const entries = new Map<string, string>();
  const interpreted = new Map<string, string>();
  const roots: SchemaObject[] = [];
  for (const id of messageIds) {
    const root = byId.get(id);
    if (root === undefined) throw new SchemaGraphError(id, "no schema document has this $id");
    const nodes = graph.reachable([root]);
    const tracking = nodes.find((n) => UNGENERATED.some((k) => k in n.schema));
    if (tracking !== undefined) {
      interpreted.set(id, `${tracking.location} uses ${UNGENERATED.filter((k) => k in tracking.schema).join(", ")}, whose annotation tracking only the interpreter does`);
      continue;
    }
    roots.push(root);
    entries.set(id, graph.node(root).functionName);
  }
  const writer = new FunctionWriter(graph);
  // A subschema that is only a `$ref` gets no function of its own: its callers call the target.
  const own = graph.reachable(roots).filter((node) => roots.includes(node.schema) || !isAlias(node.schema));
  const declarations = own.flatMap((node) => ["", ...writer.function(node)]);
  return { entries, interpreted, declarations: [...writer.constants(), ...declarations] };
}

class FunctionWriter {
  private readonly patterns = new Map<string, string>();
  private readonly bigDecimals = new Map<string, string>();
  private readonly constants_: string[] = [];

  constructor(private readonly graph: SchemaGraph) {}

  constants(): string[] {
    return this.constants_;
  }

  /**
   * An object-level compiled pattern, one per source text, named after its first location; a
   * second pattern of the same schema (two patternProperties, or one beside `pattern`) gets a
   * number after the name.
   */
  private pattern(source: string, owner: SchemaNode, suffix: string): string {
    const known = this.patterns.get(source);
    if (known !== undefined) return known;
    const base = `${owner.functionName}${suffix}`;
    const taken = new Set(this.patterns.values());
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    this.patterns.set(source, name);
    this.constants_.push(`private val ${name}: Pattern = EcmaRegex.compile(${s(source)})`);
    return name;
  }

  private decimal(text: string, owner: SchemaNode): string {
    const known = this.bigDecimals.get(text);
    if (known !== undefined) return known;
    const name = `${owner.functionName}MultipleOf`;
    this.bigDecimals.set(text, name);
    this.constants_.push(`private val ${name}: BigDecimal = BigDecimal(${s(text)})`);
    return name;
  }

  /** A constant JSON value (the strict parser's reading of the schema's own text, as the interpreter compares it). */
  private literal(value: JsonValue, owner: SchemaNode, suffix: string, type = "JsonElement"): string {
    const name = `${owner.functionName}${suffix}`;
    const cast = type === "JsonElement" ? "" : ` as ${type}`;
    this.constants_.push(`private val ${name}: ${type} = jsonLiteral(${s(JSON.stringify(value))})${cast}`);
    return name;
  }

  /** A call checking [sub] at [data]/[path]; null for the `true` schema (nothing to check). */
  private call(sub: JsonValue, data: string, path: string, composite: string): string | null {
    if (sub === true) return null;
    if (sub === false) return `falseSchema(${path})`;
    if (!isObject(sub)) throw new Error("a subschema must be an object or a boolean");
    if (isAlias(sub)) return this.call(this.graph.target(this.graph.node(sub)), data, path, composite);
    return `${this.graph.node(sub).functionName}(${data}, ${path}, ${composite})`;
  }

  /** Adds "return [sub]'s error, if any" to [body]. */
  private check(body: Body, sub: JsonValue, data: string, path: string, composite: string): void {
    const call = this.call(sub, data, path, composite);
    if (call === null) return;
    if (sub === false) body.end(`return ${call}`);
    else body.add(`${call}?.let { return it }`);
  }

  function(node: SchemaNode): string[] {
    const schema = node.schema;
    const body = new Body();
    const type = schema["type"];
    const types = type === undefined ? [] : Array.isArray(type) ? (type as string[]) : [type as string];
    const applies = (g: (typeof GROUPS)[number]): boolean => g.keywords.some((k) => k in schema);
    const owner = types.length === 1 ? GROUPS.find((g) => g.type === types[0] && applies(g)) : undefined;
    const typeError = `typeError(path, ${s(types.join(","))})`;
    if (types.length > 0 && owner === undefined) {
      const test = types.length === 1 ? hasType(types[0]!) : types.map((t) => hasType(t)).join(" || ");
      body.add(`if (!${types.length === 1 && !test.includes(" ") ? test : `(${test})`}) return ${typeError}`);
    }
    for (const group of GROUPS) {
      if (!applies(group)) continue;
      if (group.type === null) {
        this.untyped(node, body);
      } else if (group === owner) {
        body.add(`if (${castCheck(group.type, true)}) return ${typeError}`);
        this.typed(group.type, node, body);
      } else if (owner === undefined) {
        const inner = new Body();
        this.typed(group.type, node, inner);
        if (inner.lines.length > 0) body.add(`if (${castCheck(group.type, false)}) {`, ...indent(inner.lines), "}");
      }
    }
    if (!body.terminal) body.add("return null");
    return [
      `/** ${node.location.replace(/\*\//g, "*\\/")} */`,
      `fun ${node.functionName}(data: JsonElement, path: String, composite: Boolean): ValidationError? {`,
      ...indent(body.lines),
      "}",
    ];
  }

  private untyped(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    if ("$ref" in schema) this.check(body, this.graph.target(node), "data", "path", "composite");
    if ("const" in schema) {
      const value = schema["const"]!;
      const test = typeof value === "string" ? `isJsonString(data, ${s(value)})` : `jsonEquals(data, ${this.literal(value, node, "Const")})`;
      body.add(`if (!${test}) return schemaError(path, "const", "must be equal to constant")`);
    }
    if ("enum" in schema) {
      const values = schema["enum"] as JsonValue[];
      const test = values.every((v) => typeof v === "string")
        ? `isJsonString(data) && (data as JsonPrimitive).content in ${this.stringSet(values as string[], node, "EnumValues")}`
        : `${this.literal(values, node, "EnumValues", "JsonArray")}.any { jsonEquals(data, it) }`;
      body.add(`if (!(${test})) return schemaError(path, "enum", "must be equal to one of the allowed values")`);
    }
    if ("not" in schema) {
      const call = this.call(schema["not"]!, "data", "path", "true");
      if (call === null) body.end(`return schemaError(path, "not", "must NOT be valid")`);
      else if (schema["not"] !== false) body.add(`if (${call} == null) return schemaError(path, "not", "must NOT be valid")`);
    }
    if ("anyOf" in schema) this.anyOf(schema["anyOf"] as JsonValue[], body);
    if ("oneOf" in schema && !("discriminator" in schema)) this.oneOf(schema["oneOf"] as JsonValue[], body);
    if ("allOf" in schema) for (const sub of schema["allOf"] as JsonValue[]) this.check(body, sub, "data", "path", "composite");
    if ("if" in schema && ("then" in schema || "else" in schema)) {
      const condition = this.call(schema["if"]!, "data", "path", "true");
      const branch = (sub: JsonValue | undefined): Body => {
        const inner = new Body();
        if (sub !== undefined) this.check(inner, sub, "data", "path", "composite");
        return inner;
      };
      const thenBody = branch(schema["then"]);
      const elseBody = branch(schema["else"]);
      const [then, otherwise] = [thenBody.lines, elseBody.lines];
      if (condition === null || schema["if"] === false) {
        // The condition is fixed: only one clause can run.
        const only = condition === null ? thenBody : elseBody;
        if (only.terminal) body.end(...only.lines);
        else body.add(...only.lines);
      } else if (otherwise.length === 0) body.add(`if (${condition} == null) {`, ...indent(then), "}");
      else if (then.length === 0) body.add(`if (${condition} != null) {`, ...indent(otherwise), "}");
      else body.add(`if (${condition} == null) {`, ...indent(then), "} else {", ...indent(otherwise), "}");
    }
  }

  private stringSet(values: readonly string[], owner: SchemaNode, suffix: string): string {
    const name = `${owner.functionName}${suffix}`;
    this.constants_.push(`private val ${name}: Set<String> = hashSetOf(${values.map(s).join(", ")})`);
    return name;
  }

  /** ajv reports the first branch's first error when no branch passes. */
  private anyOf(branches: readonly JsonValue[], body: Body): void {
    if (branches.some((b) => b === true)) return;
    const calls = branches.map((b) => this.call(b, "data", "path", "true")!);
    if (branches.every((b) => b === false)) return body.end(`return ${calls[0]}`);
    if (calls.length === 1) body.add(`${calls[0]}?.let { return it }`);
    else body.add(`${calls[0]}?.let { first -> if (${calls.slice(1).map((c) => `${c} != null`).join(" && ")}) return first }`);
  }

  /** Every branch's result, then the interpreter's rule (stop counting at the second pass). */
  private oneOf(branches: readonly JsonValue[], body: Body): void {
    const calls = branches.map((b) => this.call(b, "data", "path", "true") ?? "null");
    body.add(`oneOfError(path, ${calls.join(", ")})?.let { return it }`);
  }

  private typed(type: string, node: SchemaNode, body: Body): void {
    if (type === "number") this.number(node, body);
    else if (type === "string") this.string(node, body);
    else if (type === "array") this.array(node, body);
    else this.object(node, body);
  }

  private number(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    const bounds: [string, string][] = [
      ["maximum", "<="],
      ["minimum", ">="],
      ["exclusiveMaximum", "<"],
      ["exclusiveMinimum", ">"],
    ];
    const used = bounds.filter(([k]) => k in schema);
    if (used.length > 0 || "multipleOf" in schema) body.add("val number = (data as JsonPrimitive).content.toDouble()");
    for (const [keyword, operator] of used) {
      const value = schema[keyword] as number;
      body.add(`if (!(number ${operator} ${doubleLiteral(value)})) return schemaError(path, ${s(keyword)}, ${s(`must be ${operator} ${JSON.stringify(value)}`)})`);
    }
    if ("multipleOf" in schema) {
      const text = JSON.stringify(schema["multipleOf"]);
      body.add(`if (!isMultipleOf(data, ${this.decimal(text, node)})) return schemaError(path, "multipleOf", ${s(`must be multiple of ${text}`)}, mapOf("multipleOf" to ${s(text)}))`);
    }
  }

  private limit(body: Body, keyword: string, size: string, value: JsonValue, unit: string): void {
    const max = keyword.startsWith("max");
    const text = JSON.stringify(value);
    body.add(`if (${size} ${max ? ">" : "<"} ${sizeLiteral(value as number)}) return limitError(path, ${s(keyword)}, ${s(`must NOT have ${max ? "more" : "fewer"} than ${text} ${unit}`)}, ${s(text)})`);
  }

  private string(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    body.add("val text = data.content");
    for (const keyword of ["maxLength", "minLength"]) if (keyword in schema) this.limit(body, keyword, "codePoints(text)", schema[keyword]!, "characters");
    if ("pattern" in schema) {
      const source = schema["pattern"] as string;
      body.add(`if (!${this.pattern(source, node, "Pattern")}.matcher(text).find()) return schemaError(path, "pattern", "must match pattern", mapOf("pattern" to ${s(source)}))`);
    }
    if ("format" in schema) {
      const format = schema["format"] as string;
      body.add(`if (!Formats.matches(${s(format)}, text)) return schemaError(path, "format", ${s(`must match format "${format}"`)})`);
    }
  }

  private array(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    for (const keyword of ["maxItems", "minItems"]) if (keyword in schema) this.limit(body, keyword, "data.size", schema[keyword]!, "items");
    const prefix = (schema["prefixItems"] as JsonValue[] | undefined) ?? [];
    prefix.forEach((sub, i) => {
      const call = this.call(sub, `data[${i}]`, s(`/${i}`).replace(/^"/, '"$path'), "composite");
      if (call !== null) body.add(`if (data.size > ${i}) ${call}?.let { return it }`);
    });
    if ("items" in schema) {
      const call = this.call(schema["items"]!, "data[i]", '"$path/$i"', "composite");
      if (call !== null) body.add(`for (i in ${prefix.length} until data.size) ${call}?.let { return it }`);
    }
    if ("contains" in schema) {
      const min = schema["minContains"] as number | undefined;
      const max = schema["maxContains"] as number | undefined;
      const call = this.call(schema["contains"]!, "item", "at", "true");
      const lambda = call === null ? "{ _, _ -> null }" : schema["contains"] === false ? "{ _, at -> falseSchema(at) }" : `{ item, at -> ${call} }`;
      body.add(
        `containsError(data, path, composite, ${min === undefined ? "1.0" : doubleLiteral(min)}, ${s(min === undefined ? "1" : JSON.stringify(min))}, ${max === undefined ? "null" : doubleLiteral(max)}, ${max === undefined ? "null" : s(JSON.stringify(max))}) ${lambda}?.let { return it }`,
      );
    }
    if (schema["uniqueItems"] === true) body.add("duplicateItemsError(data, path)?.let { return it }");
  }

  private object(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    for (const keyword of ["maxProperties", "minProperties"]) if (keyword in schema) this.limit(body, keyword, "data.size", schema[keyword]!, "properties");
    for (const name of (schema["required"] as string[] | undefined) ?? []) body.add(`if (${s(name)} !in data) return requiredError(path, ${s(name)})`);
    if ("propertyNames" in schema) {
      const call = this.call(schema["propertyNames"]!, "JsonPrimitive(name)", "path", "true");
      if (call !== null) body.add(`for (name in data.keys) ${call}?.let { return it }`);
    }
    const properties = (schema["properties"] as SchemaObject | undefined) ?? {};
    const patterns = Object.keys((schema["patternProperties"] as SchemaObject | undefined) ?? {}).map((p) => this.pattern(p, node, "Pattern"));
    const additional = schema["additionalProperties"];
    if (additional !== undefined && additional !== true) {
      const declared = Object.keys(properties);
      const skip = [
        ...(declared.length > 0 ? [`name in ${this.stringSet(declared, node, "Declared")}`] : []),
        ...patterns.map((p) => `${p}.matcher(name).find()`),
      ];
      const check =
        additional === false
          ? `return schemaError(path, "additionalProperties", "must NOT have additional properties", mapOf("additionalProperty" to name))`
          : `${this.call(additional, "value", "child(path, name)", "composite")}?.let { return it }`;
      const loop = additional === false ? "for (name in data.keys) {" : "for ((name, value) in data) {";
      body.add(loop, ...indent([...(skip.length > 0 ? [`if (${skip.join(" || ")}) continue`] : []), check]), "}");
    }
    for (const [name, sub] of Object.entries(properties)) {
      const path = `path + ${s(`/${escapeToken(name)}`)}`;
      if (sub === false) body.add(`if (${s(name)} in data) return falseSchema(${path})`);
      else {
        const call = this.call(sub, "it", path, "composite");
        if (call !== null) body.add(`data[${s(name)}]?.let { ${call}?.let { error -> return error } }`);
      }
    }
    for (const [source, sub] of Object.entries((schema["patternProperties"] as SchemaObject | undefined) ?? {})) {
      const call = this.call(sub, "value", "child(path, name)", "composite");
      if (call !== null) body.add(`for ((name, value) in data) if (${this.pattern(source, node, "Pattern")}.matcher(name).find()) ${call}?.let { return it }`);
    }
    for (const [name, required] of Object.entries((schema["dependentRequired"] as SchemaObject | undefined) ?? {})) {
      const list = required as string[];
      if (list.length === 0) continue;
      body.add(`if (${s(name)} in data) {`, ...indent(list.map((m) => `if (${s(m)} !in data) return dependentRequiredError(path, ${s(name)}, ${s(m)})`)), "}");
    }
    for (const [name, sub] of Object.entries((schema["dependentSchemas"] as SchemaObject | undefined) ?? {})) {
      const call = this.call(sub, "data", "path", "composite");
      if (call !== null) body.add(`if (${s(name)} in data) ${call}?.let { return it }`);
    }
    if ("discriminator" in schema) this.discriminator(node, body);
  }

  /** The tag picks the branch (the first listing its value); a missing or unknown tag is reported at the tag. */
  private discriminator(node: SchemaNode, body: Body): void {
    const tag = ((node.schema["discriminator"] as SchemaObject)["propertyName"] as string) ?? "";
    const branches = node.schema["oneOf"] as JsonValue[];
    const taken = new Set<string>();
    const cases: string[] = [];
    for (const branch of branches) {
      const values = this.graph.tagValues(branch, tag, true).filter((v) => !taken.has(v));
      values.forEach((v) => taken.add(v));
      if (values.length === 0) continue;
      const call = this.call(branch, "data", "path", "composite");
      cases.push(`${values.map(s).join(", ")} -> ${call === null ? "null" : call}`);
    }
    body.add(
      `val tag = (data[${s(tag)}] as? JsonPrimitive)?.takeIf { it.isString }?.content ?: return discriminatorTagError(path, ${s(tag)})`,
      "val branchError = when (tag) {",
      ...indent([...cases, `else -> return discriminatorMappingError(path, ${s(tag)})`]),
      "}",
      "if (branchError != null) return branchError",
    );
  }

}

/** The test that ends a type group's keywords: `data` is (or, [negate], is not) of [type], smart-cast for the group's code. */
function castCheck(type: string, negate: boolean): string {
  const is = negate ? "!is" : "is";
  switch (type) {
    case "object":
      return `data ${is} JsonObject`;
    case "array":
      return `data ${is} JsonArray`;
    case "string":
      return negate ? "!(data is JsonPrimitive && data.isString)" : "data is JsonPrimitive && data.isString";
    default:
      return negate ? "!isJsonNumber(data)" : "isJsonNumber(data)";
  }
}
