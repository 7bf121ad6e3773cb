// Each protocol's JSON Schemas as TypeScript code (`<protocol>/validators.ts`): one function per
// reachable subschema, named after its location (the schema graph Kotlin's emitter uses), with the
// keywords as straight-line checks in ajv's order: the type first unless a type group owns it, the
// untyped group, then the number, string, array and object groups, stopping at the first error
// (ajv without allErrors). Errors are ajv's (keyword, message, params: runtime/schema-checks.ts), so
// the first error is the one ajv's standalone code reported before; ajv stays as the oracle in
// schema-code.differential.test.ts. A subschema reached from two messages (the manifest inside
// ConnectorPackage) is one function, which a bundler keeps once. unevaluatedProperties and
// unevaluatedItems need ajv's annotation tracking, which these checks do not do: a message whose
// schema reaches either (at any depth, through any $ref) is not generated. Its check<Message> keeps
// the same shape but calls ajv's standalone validator for that message (ajv without allErrors,
// <protocol>/validators-ajv.js, which emit.ts writes beside the all-errors ones), so its first
// error is ajv's; which messages those are is decided from the schemas alone (ungeneratedMessages),
// as Kotlin leaves such a message to its interpreter. Pure.
import formatsModule from "ajv-formats/dist/formats.js";
import type { JsonValue } from "../../model/types.js";
import { escapeToken, isObject, SchemaGraph, SchemaGraphError, type SchemaNode, type SchemaObject } from "../../emit/schema-graph.js";
import type { TsFile } from "./ts-file.js";

const CHECKS = "runtime/schema-checks.js";
const FORMATS = ajvFormats();

/** ajv's groups and keyword order (as runtime/JsonSchemaValidator.kt and emit-schema-code.ts of Kotlin follow it). */
const GROUPS: { type: string | null; keywords: string[] }[] = [
  { type: null, keywords: ["$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else"] },
  { type: "number", keywords: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"] },
  { type: "string", keywords: ["maxLength", "minLength", "pattern", "format"] },
  { type: "array", keywords: ["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems"] },
  { type: "object", keywords: ["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "properties", "patternProperties", "dependentRequired", "dependentSchemas", "discriminator"] },
];

/** Keywords whose annotation tracking the generated checks do not do: a message reaching one is checked by ajv's code. */
const UNGENERATED = ["unevaluatedProperties", "unevaluatedItems"];

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval undefined NaN Infinity".split(" "),
);
/** The local names the generated functions use: no function may be named like one. */
const LOCALS = new Set(["e", "v", "i", "x", "name", "tag", "data", "composite", "item", "value", "error"]);

/** A statement list; `terminal` once one always returns (nothing may follow it). */
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

const indent = (lines: readonly string[], by = "  "): string[] => lines.map((l) => (l === "" ? l : by + l));
const str = (value: string): string => JSON.stringify(value);
/** A subschema that is nothing but a `$ref` gets no function: its callers call the target. */
const isAlias = (schema: SchemaObject): boolean => Object.keys(schema).length === 1 && typeof schema["$ref"] === "string";

/** A schema the TypeScript checks cannot mean as ajv does. */
export class SchemaCodeError extends Error {
  constructor(
    readonly location: string,
    message: string,
  ) {
    super(`${location}: ${message}`);
  }
}

function graphOf(documents: readonly JsonValue[]): SchemaGraph {
  try {
    return new SchemaGraph(documents);
  } catch (error) {
    if (error instanceof SchemaGraphError) throw new SchemaCodeError(error.location, error.message);
    throw error;
  }
}

function rootsOf<M extends { name: string; id: string }>(documents: readonly JsonValue[], messages: readonly M[]): (M & { root: SchemaObject })[] {
  const byId = new Map(documents.filter(isObject).map((d) => [d["$id"] as string, d]));
  return messages.map((m) => {
    const root = byId.get(m.id);
    if (root === undefined) throw new SchemaCodeError(m.id, "no schema document has this $id");
    return { ...m, root };
  });
}

/**
 * The messages among `messages` whose schema reaches unevaluatedProperties or unevaluatedItems, in
 * their order, each with why (the first such location): their checks are ajv's standalone code.
 */
export function ungeneratedMessages(documents: readonly JsonValue[], messages: readonly { name: string; id: string }[]): { name: string; id: string; reason: string }[] {
  const graph = graphOf(documents);
  return rootsOf(documents, messages).flatMap((m) => {
    const tracking = graph.reachable([m.root]).find((n) => UNGENERATED.some((k) => k in n.schema));
    if (tracking === undefined) return [];
    return [{ name: m.name, id: m.id, reason: `${tracking.location} uses ${UNGENERATED.filter((k) => k in tracking.schema).join(", ")}, whose annotation tracking the generated checks do not do` }];
  });
}

/**
 * Prints the checks of `messages` (name and schema `$id`) into `file`: an exported
 * `check<Message>(value)` per message returning undefined or ajv's first error (instancePath
 * absolute) with propertyNames' naming error after it. `documents` are the validator views of every
 * schema document the messages reach. A message ungeneratedMessages lists is checked by the
 * `validate<Message>` of `ajvModule` (ajv's standalone code, package-root relative), whose errors
 * are ajv's own.
 */
export function printSchemaCode(file: TsFile, documents: readonly JsonValue[], messages: readonly { name: string; id: string }[], ajvModule?: string): void {
  const graph = graphOf(documents);
  const ungenerated = new Map(ungeneratedMessages(documents, messages).map((m) => [m.id, m.reason]));
  if (ungenerated.size > 0 && ajvModule === undefined) {
    const [id, reason] = [...ungenerated][0]!;
    throw new SchemaCodeError(id, `${reason}, and no module of ajv's standalone code was given for it`);
  }
  const all = rootsOf(documents, messages);
  const roots = all.filter((r) => !ungenerated.has(r.id));
  const nodes = graph.reachable(roots.map((r) => r.root));
  // A property's, the items' or an allOf entry's own schema that only tests the value itself (a
  // leaf) is written inline where it is checked, unless a $ref names it (then it is a function its
  // callers share).
  const refTargets = new Set<JsonValue>(nodes.filter((n) => typeof n.schema["$ref"] === "string").map((n) => graph.target(n)));
  const inlined = new Set<SchemaObject>();
  for (const node of nodes) {
    const items = node.schema["items"];
    const allOf = Array.isArray(node.schema["allOf"]) ? node.schema["allOf"] : [];
    for (const sub of [...Object.values(isObject(node.schema["properties"]) ? node.schema["properties"] : {}), ...(isObject(items) ? [items] : []), ...allOf]) {
      if (isObject(sub) && isLeaf(sub) && !refTargets.has(sub) && !roots.some((r) => r.root === sub)) inlined.add(sub);
    }
  }
  const exported = all.flatMap((r) => [`check${r.name}`, ...(ungenerated.has(r.id) ? [`validate${r.name}Ajv`] : [])]);
  const writer = new FunctionWriter(graph, file, new Set(exported), inlined);
  const own = nodes.filter((node) => roots.some((r) => r.root === node.schema) || (!isAlias(node.schema) && !inlined.has(node.schema)));
  const merged = mergeIdentical(own.map((node) => ({ name: writer.name(node), lines: writer.function(node) })));
  const functions = merged.functions.flatMap((f) => ["", ...f]);
  const called = (name: string): string => (merged.renamed.has(name) ? called(merged.renamed.get(name)!) : name);
  const validationError = file.importType("ValidationError", "runtime/validation.js");
  file.print(...writer.constants(), ...functions);
  for (const r of all) {
    const reason = ungenerated.get(r.id);
    if (reason !== undefined) {
      const validate = file.import(`validate${r.name}`, ajvModule!, `validate${r.name}Ajv`);
      file.print(
        "",
        `/** ${r.name}'s schema check: undefined when the value is valid, else ajv's errors (its first error, as fromAjvError maps it, then propertyNames' naming error if any), from ajv's standalone code: ${reason.replace(/\*\//g, "*\\/")}. No cross-field rules. */`,
        `export function check${r.name}(value: unknown): ${validationError}[] | undefined {`,
        `  return ${validate}(value) ? undefined : (${validate}.errors ?? []).map(${file.import("fromAjvError", "runtime/validation.js")});`,
        "}",
      );
      continue;
    }
    file.print(
      "",
      `/** ${r.name}'s schema check: undefined when the value is valid, else ajv's first error (as fromAjvError maps it), with propertyNames' naming error after it. No cross-field rules. */`,
      `export function check${r.name}(value: unknown): ${validationError}[] | undefined {`,
      `  const error: ${file.importType("SchemaError", CHECKS)} | undefined = ${called(writer.name(graph.node(r.root)))}(value${writer.needsComposite(r.root) ? ", false" : ""});`,
      `  return error === undefined ? undefined : ${file.import("errorList", CHECKS)}(error);`,
      "}",
    );
  }
}

class FunctionWriter {
  private readonly patterns = new Map<string, string>();
  private readonly sets = new Map<string, string>();
  private readonly values = new Map<string, string>();
  private readonly constants_: string[] = [];
  private readonly names = new Map<SchemaNode, string>();
  private readonly composite = new Map<SchemaObject, boolean>();
  private readonly taken: Set<string>;

  constructor(
    private readonly graph: SchemaGraph,
    private readonly file: TsFile,
    exported: Set<string>,
    private readonly inlined: ReadonlySet<SchemaObject>,
  ) {
    this.taken = new Set(exported);
  }

  constants(): string[] {
    return this.constants_;
  }

  /** The function checking `node`: the graph's name, unless JavaScript reserves it or an export has it. */
  name(node: SchemaNode): string {
    const known = this.names.get(node);
    if (known !== undefined) return known;
    let name = node.functionName;
    if (RESERVED.has(name) || LOCALS.has(name) || this.taken.has(name)) name = `${name}Schema`;
    for (let i = 2; this.taken.has(name); i++) name = `${node.functionName}Schema${i}`;
    this.taken.add(name);
    this.names.set(node, name);
    return name;
  }

  private constant(name: string, value: string): string {
    let unique = name;
    for (let i = 2; this.taken.has(unique); i++) unique = `${name}${i}`;
    this.taken.add(unique);
    this.constants_.push(`const ${unique} = ${value};`);
    return unique;
  }

  private helper(name: string): string {
    return this.file.import(name, CHECKS);
  }

  /**
   * A module-level pattern, one per source text, named after its first location, beside its source
   * text (`<name>Source`), which its error names: the text is written once.
   */
  private pattern(source: string, owner: SchemaNode, suffix: string): { regexp: string; source: string } {
    const known = this.patterns.get(source);
    if (known !== undefined) return { regexp: known, source: `${known}Source` };
    let name = `${this.name(owner)}${suffix}`;
    for (let i = 2; this.taken.has(name) || this.taken.has(`${name}Source`); i++) name = `${this.name(owner)}${suffix}${i}`;
    this.constant(`${name}Source`, str(source));
    this.constant(name, `/* @__PURE__ */ new RegExp(${name}Source, "u")`);
    this.patterns.set(source, name);
    return { regexp: name, source: `${name}Source` };
  }

  /** A module-level JSON value (allowed values in error params, const and enum of objects), frozen. */
  private value(value: JsonValue, owner: SchemaNode, suffix: string): string {
    const text = JSON.stringify(value);
    const known = this.values.get(text);
    if (known !== undefined) return known;
    const name = this.constant(`${this.name(owner)}${suffix}`, text);
    this.values.set(text, name);
    return name;
  }

  /** The declared member names as a Set. */
  private declaredSet(declared: readonly string[], owner: SchemaNode): string {
    const text = JSON.stringify(declared);
    const known = this.sets.get(text);
    if (known !== undefined) return known;
    // The names written out, not spread from the required list: a spread is a call a bundler must keep.
    const name = this.constant(`${this.name(owner)}Declared`, `/* @__PURE__ */ new Set<string>(${text})`);
    this.sets.set(text, name);
    return name;
  }

  /** A call checking `sub` at `data`; null for the `true` schema (nothing to check). */
  private call(sub: JsonValue, data: string, composite: string): string | null {
    if (sub === true) return null;
    if (sub === false) return `${this.helper("falseSchema")}()`;
    if (!isObject(sub)) throw new SchemaCodeError("(schema)", "a subschema must be an object or a boolean");
    if (isAlias(sub)) return this.call(this.graph.target(this.graph.node(sub)), data, composite);
    return `${this.name(this.graph.node(sub))}(${data}${this.needsComposite(sub) ? `, ${composite}` : ""})`;
  }

  /**
   * Whether the check of `schema` reads `composite` (whether it runs inside a composite keyword):
   * only `contains` does, directly or through a subschema checked at the caller's composite level.
   * The other functions take no such parameter.
   */
  needsComposite(schema: SchemaObject): boolean {
    const known = this.composite.get(schema);
    if (known !== undefined) return known;
    this.composite.set(schema, false);
    const passes = new Set(["$ref", "allOf", "then", "else", "properties", "prefixItems", "items", "additionalProperties", "patternProperties", "dependentSchemas", ...("discriminator" in schema ? ["oneOf"] : [])]);
    const needs =
      ("contains" in schema && schema["contains"] !== true) ||
      this.graph.children(this.graph.node(schema)).some((child) => passes.has(child.keyword) && typeof child.schema !== "boolean" && this.needsComposite(child.schema));
    this.composite.set(schema, needs);
    return needs;
  }

  /** Adds "return `sub`'s error, if any, with `step` in front of its path" to `body`. */
  private check(body: Body, sub: JsonValue, data: string, composite: string, step?: string): void {
    const call = this.call(sub, data, composite);
    if (call === null) return;
    const wrap = (e: string): string => (step === undefined ? e : `${this.helper("at")}(${e}, ${str(step)})`);
    if (sub === false) body.end(`return ${wrap(call)};`);
    else body.add(`if ((e = ${call})) return ${wrap("e")};`);
  }

  function(node: SchemaNode): string[] {
    const body = this.body(node);
    const usesError = body.lines.some((l) => /(?<![\w$])e(?![\w$])/.test(l));
    const usesData = body.lines.some((l) => /(?<![\w$.])data(?![\w$])/.test(l));
    const errorType = this.file.importType("SchemaError", CHECKS);
    return [
      `/** ${node.location.replace(/\*\//g, "*\\/")} */`,
      `function ${this.name(node)}(${usesData ? "" : "_"}data: unknown${this.needsComposite(node.schema) ? ", composite: boolean" : ""}): ${errorType} | undefined {`,
      ...indent([...(usesError ? [`let e: ${errorType} | undefined;`] : []), ...body.lines]),
      "}",
    ];
  }

  /**
   * A leaf's checks written in place for the member `name` of `data` (`step` its pointer step):
   * its body with the value as `v` and each error with the step in front.
   */
  private inline(node: SchemaNode, name: string, step: string, present: string): string[] {
    const at = this.helper("at");
    const condition = present.replace(/ && $/, "");
    return [condition === "" ? "{" : `if (${condition}) {`, ...indent([`const v = data[${str(name)}];`, ...this.inlineBody(node, (error) => `${at}(${error}, ${str(step)})`)]), "}"];
  }

  /** A leaf's lines with the value as `v`, each error passed through `wrap`. */
  private inlineBody(node: SchemaNode, wrap: (error: string) => string): string[] {
    return this.body(node)
      .lines.filter((l) => l !== "return undefined;")
      .map((line) => outsideStrings(line, (code) => code.replace(/(?<![\w$.])data(?![\w$])/g, "v")).replace(/return (.*);$/, (_m, error: string) => `return ${wrap(error)};`));
  }

  private body(node: SchemaNode): Body {
    const schema = node.schema;
    const body = new Body();
    const type = schema["type"];
    const types = type === undefined ? [] : Array.isArray(type) ? (type as string[]) : [type as string];
    const applies = (g: (typeof GROUPS)[number]): boolean => g.keywords.some((k) => k in schema);
    const owner = types.length === 1 ? GROUPS.find((g) => g.type === types[0] && applies(g)) : undefined;
    const typeError = (): string => `return ${this.helper("typeError")}(${types.length === 1 ? str(types[0]!) : this.value(types, node, "Types")});`;
    if (types.length > 0 && owner === undefined) {
      body.add(`if (!(${types.map((t) => this.typeTest(t, "data")).join(" || ")})) ${typeError()}`);
    }
    for (const group of GROUPS) {
      if (!applies(group)) continue;
      if (group.type === null) this.untyped(node, body);
      else if (group === owner) {
        body.add(`if (!(${this.typeTest(group.type, "data")})) ${typeError()}`);
        this.typed(group.type, node, body);
      } else if (owner === undefined) {
        const inner = new Body();
        this.typed(group.type, node, inner);
        if (inner.lines.length > 0) body.add(`if (${this.typeTest(group.type, "data")}) {`, ...indent(inner.lines), "}");
      }
    }
    if (!body.terminal) body.add("return undefined;");
    return body;
  }

  /** `data` has JSON type `type` (a type guard TypeScript narrows on). */
  private typeTest(type: string, data: string): string {
    switch (type) {
      case "null":
        return `${data} === null`;
      case "object":
        return `${this.helper("isObject")}(${data})`;
      case "array":
        return `Array.isArray(${data})`;
      case "string":
        return `typeof ${data} === "string"`;
      case "boolean":
        return `typeof ${data} === "boolean"`;
      case "number":
        return `${this.helper("isNumber")}(${data})`;
      case "integer":
        return `${this.helper("isInteger")}(${data})`;
    }
    throw new SchemaCodeError("(schema)", `unknown JSON type ${type}`);
  }

  private untyped(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    if ("$ref" in schema) this.check(body, this.graph.target(node), "data", "composite");
    if ("const" in schema) {
      const value = schema["const"]!;
      const literal = value !== null && typeof value === "object" ? this.value(value, node, "Const") : JSON.stringify(value);
      const test = value !== null && typeof value === "object" ? `!${this.helper("equal")}(data, ${literal})` : `data !== ${literal}`;
      body.add(`if (${test}) return ${this.helper("constError")}(${literal});`);
    }
    if ("enum" in schema) {
      const values = schema["enum"] as JsonValue[];
      if (values.length === 0) body.end(`return ${this.helper("falseSchema")}();`);
      else {
        const allowed = this.value(values, node, "Enum");
        const scalar = values.every((v) => v === null || typeof v !== "object");
        const test =
          values.length > 1 && values.every((v) => typeof v === "string")
            ? `!(typeof data === "string" && ${allowed}.includes(data))`
            : scalar
              ? values.map((v) => `data !== ${JSON.stringify(v)}`).join(" && ")
              : `!${allowed}.some((x) => ${this.helper("equal")}(data, x))`;
        body.add(`if (${test}) return ${this.helper("enumError")}(${allowed});`);
      }
    }
    if ("not" in schema) {
      const call = this.call(schema["not"]!, "data", "true");
      const error = `${this.helper("fail")}("not", "must NOT be valid", {})`;
      if (call === null) body.end(`return ${error};`);
      else if (schema["not"] !== false) body.add(`if (!${call}) return ${error};`);
    }
    if ("anyOf" in schema) this.anyOf(schema["anyOf"] as JsonValue[], body);
    if ("oneOf" in schema && !("discriminator" in schema)) {
      // Each branch as a function of the value: ajv stops at the second branch that passes.
      const branches = (schema["oneOf"] as JsonValue[]).map((b) => {
        const call = this.call(b, "x", "true");
        return call === null ? "() => undefined" : `(x) => ${call}`;
      });
      body.add(`if ((e = ${this.helper("oneOfError")}(data, [${branches.join(", ")}]))) return e;`);
    }
    if ("allOf" in schema) {
      for (const sub of schema["allOf"] as JsonValue[]) {
        // An inlined leaf checks the same value: its lines as they are.
        if (isObject(sub) && this.inlined.has(sub)) body.add(...this.body(this.graph.node(sub)).lines.filter((l) => l !== "return undefined;"));
        else this.check(body, sub, "data", "composite");
      }
    }
    if ("if" in schema && ("then" in schema || "else" in schema)) this.ifThenElse(schema, body);
  }

  /** ajv reports the first branch's first error when no branch passes. */
  private anyOf(branches: readonly JsonValue[], body: Body): void {
    if (branches.some((b) => b === true)) return;
    const calls = branches.map((b) => this.call(b, "data", "true")!);
    if (branches.every((b) => b === false)) return body.end(`return ${calls[0]};`);
    if (calls.length === 1) body.add(`if ((e = ${calls[0]})) return e;`);
    else body.add(`if ((e = ${calls[0]}) && ${calls.slice(1).join(" && ")}) return e;`);
  }

  /** The clause's first error, then ajv's `if` error (which the first error hides). */
  private ifThenElse(schema: SchemaObject, body: Body): void {
    const condition = this.call(schema["if"]!, "data", "true");
    const clause = (keyword: "then" | "else"): string[] => {
      const sub = schema[keyword];
      if (sub === undefined) return [];
      // then and else run at the caller's composite level (ajv's subschema keeps compositeRule).
      const call = this.call(sub, "data", "composite");
      return call === null ? [] : [`if ((e = ${call})) return e;`];
    };
    const [then, otherwise] = [clause("then"), clause("else")];
    if (condition === null || schema["if"] === false) {
      const only = condition === null ? then : otherwise;
      if (only.length > 0 && (condition === null ? schema["then"] : schema["else"]) === false) body.end(only[0]!.replace(/^if \(\(e = (.*)\)\) return e;$/, "return $1;"));
      else body.add(...only);
    } else if (otherwise.length === 0) {
      if (then.length > 0) body.add(`if (!${condition}) {`, ...indent(then), "}");
    } else if (then.length === 0) body.add(`if (${condition}) {`, ...indent(otherwise), "}");
    else body.add(`if (!${condition}) {`, ...indent(then), "} else {", ...indent(otherwise), "}");
  }

  private typed(type: string, node: SchemaNode, body: Body): void {
    if (type === "number") this.number(node, body);
    else if (type === "string") this.string(node, body);
    else if (type === "array") this.array(node, body);
    else this.object(node, body);
  }

  private number(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    const bounds: [string, string, string][] = [
      ["maximum", "<=", ">"],
      ["minimum", ">=", "<"],
      ["exclusiveMaximum", "<", ">="],
      ["exclusiveMinimum", ">", "<="],
    ];
    for (const [keyword, comparison, failing] of bounds) {
      if (!(keyword in schema)) continue;
      const limit = JSON.stringify(schema[keyword]);
      body.add(`if (data ${failing} ${limit} || isNaN(data)) return ${this.helper("boundError")}(${str(keyword)}, ${str(comparison)}, ${limit});`);
    }
    if ("multipleOf" in schema) body.add(`if ((e = ${this.helper("multipleOfError")}(data, ${JSON.stringify(schema["multipleOf"])}))) return e;`);
  }

  private string(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    const max = schema["maxLength"] as number | undefined;
    const min = schema["minLength"] as number | undefined;
    if (max !== undefined) body.add(`if ((e = ${this.helper("maxLengthError")}(data, ${max}))) return e;`);
    if (min !== undefined) body.add(`if ((e = ${this.helper("minLengthError")}(data, ${min}))) return e;`);
    if ("pattern" in schema) {
      const source = schema["pattern"] as string;
      const pattern = this.pattern(source, node, "Pattern");
      body.add(`if (!${pattern.regexp}.test(data)) return ${this.helper("patternError")}(${pattern.source});`);
    }
    if ("format" in schema) {
      const format = schema["format"] as string;
      const check = FORMATS.get(format);
      if (check === undefined) throw new SchemaCodeError(node.location, `format ${format} has no check in ajv-formats' full formats`);
      const fn = this.file.import(`formats_fullFormats_${format}`, "ajv-runtime/formats.js");
      body.add(`if (!${check === "function" ? `${fn}(data)` : `${fn}.test(data)`}) return ${this.helper("formatError")}(${str(format)});`);
    }
  }

  private array(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    if ("maxItems" in schema) body.add(`if (data.length > ${schema["maxItems"]}) return ${this.helper("limitError")}("maxItems", ${schema["maxItems"]}, "items");`);
    if ("minItems" in schema) body.add(`if (data.length < ${schema["minItems"]}) return ${this.helper("limitError")}("minItems", ${schema["minItems"]}, "items");`);
    const prefix = (schema["prefixItems"] as JsonValue[] | undefined) ?? [];
    prefix.forEach((sub, i) => {
      const inner = new Body();
      this.check(inner, sub, `data[${i}]`, "composite", `/${i}`);
      if (inner.lines.length > 0) body.add(`if (data.length > ${i}) {`, ...indent(inner.lines), "}");
    });
    if ("items" in schema) {
      const items = schema["items"]!;
      if (items === false && prefix.length > 0) {
        body.add(`if (data.length > ${prefix.length}) return ${this.helper("fail")}("items", ${str(`must NOT have more than ${prefix.length} items`)}, { limit: ${prefix.length} });`);
      } else if (isObject(items) && this.inlined.has(items)) {
        const lines = this.inlineBody(this.graph.node(items), (error) => `${this.helper("atIndex")}(${error}, i)`);
        if (lines.length > 0) body.add(`for (let i = ${prefix.length}; i < data.length; i++) {`, ...indent(["const v = data[i];", ...lines]), "}");
      } else {
        const call = this.call(items, "data[i]", "composite");
        if (call !== null) body.add(`for (let i = ${prefix.length}; i < data.length; i++) if ((e = ${call})) return ${this.helper("atIndex")}(e, i);`);
      }
    }
    if ("contains" in schema) {
      const min = (schema["minContains"] as number | undefined) ?? 1;
      const max = schema["maxContains"] as number | undefined;
      const call = this.call(schema["contains"]!, "item", "true");
      if (call === null) {
        const tooFew = `data.length < ${min}`;
        const tooMany = max === undefined ? "" : ` || data.length > ${max}`;
        if (!(max === undefined && min === 0)) {
          const error = max === undefined ? `${this.helper("fail")}("contains", ${str(`must contain at least ${min} valid item(s)`)}, { minContains: ${min} })` : `${this.helper("fail")}("contains", ${str(`must contain at least ${min} and no more than ${max} valid item(s)`)}, { minContains: ${min}, maxContains: ${max} })`;
          body.add(`if (${tooFew}${tooMany}) return ${error};`);
        }
      } else body.add(`if ((e = ${this.helper("containsError")}(data, composite, ${min}, ${max === undefined ? "undefined" : max}, (item) => ${call})) !== undefined) return e;`);
    }
    if (schema["uniqueItems"] === true) {
      const items = schema["items"];
      const itemTypes = isObject(items) && items["type"] !== undefined ? (Array.isArray(items["type"]) ? (items["type"] as string[]) : [items["type"] as string]) : [];
      const optimized = itemTypes.length > 0 && !itemTypes.some((t) => t === "object" || t === "array");
      const filter = optimized && prefix.length > 0 ? `, (item) => ${itemTypes.map((t) => this.typeTest(t, "item")).join(" || ")}` : "";
      const check = optimized ? `${this.helper("duplicateValuesError")}(data, ${itemTypes.length > 1}${filter})` : `${this.helper("duplicateItemsError")}(data)`;
      body.add(`if ((e = ${check})) return e;`);
    }
  }

  private object(node: SchemaNode, body: Body): void {
    const schema = node.schema;
    const hasOwn = (name: string): string => `${this.helper("present")}(data, ${str(name)})`;
    const count = (): string => "Object.keys(data).length";
    if ("maxProperties" in schema) body.add(`if (${count()} > ${schema["maxProperties"]}) return ${this.helper("limitError")}("maxProperties", ${schema["maxProperties"]}, "properties");`);
    if ("minProperties" in schema) body.add(`if (${count()} < ${schema["minProperties"]}) return ${this.helper("limitError")}("minProperties", ${schema["minProperties"]}, "properties");`);
    // A required member is known to be present after its check: the properties below do not test it again.
    const required = new Set((schema["required"] as string[] | undefined) ?? []);
    if (required.size > 1) {
      // A list and one loop (runtime/schema-checks.js missingRequired), not a line per member: the bytes a bundle carries.
      body.add(`if ((e = ${this.helper("missingRequired")}(data, ${this.value([...required], node, "Required")}))) return e;`);
    } else for (const name of required) body.add(`if (!(${hasOwn(name)})) return ${this.helper("requiredError")}(${str(name)});`);
    const present = (name: string): string => (required.has(name) ? "" : `${hasOwn(name)} && `);
    if ("propertyNames" in schema) {
      const call = this.call(schema["propertyNames"]!, "name", "true");
      if (call !== null) body.add(`for (const name of Object.keys(data)) if ((e = ${call})) return ${this.helper("propertyNameError")}(e, name);`);
    }
    const properties = (schema["properties"] as SchemaObject | undefined) ?? {};
    const patternEntries = Object.entries((schema["patternProperties"] as SchemaObject | undefined) ?? {});
    const patterns = patternEntries.map(([p]) => this.pattern(p, node, "Pattern").regexp);
    const additional = schema["additionalProperties"];
    if (additional !== undefined && additional !== true) {
      const declared = Object.keys(properties);
      const known =
        declared.length > 8 ? [`${this.declaredSet(declared, node)}.has(name)`] : declared.map((d) => `name === ${str(d)}`);
      const skip = [...known, ...patterns.map((p) => `${p}.test(name)`)];
      const check =
        additional === false
          ? `return ${this.helper("additionalError")}(name);`
          : `if ((e = ${this.call(additional, "data[name]", "composite")})) return ${this.helper("atKey")}(e, name);`;
      if (additional === false || this.call(additional, "x", "c") !== null) {
        body.add("for (const name of Object.keys(data)) {", ...indent([...(skip.length > 0 ? [`if (${skip.join(" || ")}) continue;`] : []), check]), "}");
      }
    }
    for (const [name, sub] of Object.entries(properties)) {
      const step = `/${escapeToken(name)}`;
      if (sub === false) {
        const error = `return ${this.helper("at")}(${this.helper("falseSchema")}(), ${str(step)});`;
        if (required.has(name)) body.end(error);
        else body.add(`if (${hasOwn(name)}) ${error}`);
      } else {
        if (isObject(sub) && this.inlined.has(sub)) {
          const lines = this.inline(this.graph.node(sub), name, step, present(name));
          if (lines.length > 3) body.add(...lines);
        } else {
          const call = this.call(sub, `data[${str(name)}]`, "composite");
          if (call !== null) body.add(`if (${present(name)}(e = ${call})) return ${this.helper("at")}(e, ${str(step)});`);
        }
      }
    }
    patternEntries.forEach(([, sub], i) => {
      const call = this.call(sub, "data[name]", "composite");
      if (call !== null) body.add(`for (const name of Object.keys(data)) if (${patterns[i]}.test(name) && (e = ${call})) return ${this.helper("atKey")}(e, name);`);
    });
    for (const [name, dependencies] of Object.entries((schema["dependentRequired"] as SchemaObject | undefined) ?? {})) {
      const list = dependencies as string[];
      if (list.length === 0) continue;
      const deps = this.value(list, node, "Deps");
      body.add(`if (${hasOwn(name)}) {`, ...indent(list.map((m) => `if (!(${hasOwn(m)})) return ${this.helper("dependentRequiredError")}(${str(name)}, ${str(m)}, ${deps});`)), "}");
    }
    for (const [name, sub] of Object.entries((schema["dependentSchemas"] as SchemaObject | undefined) ?? {})) {
      const call = this.call(sub, "data", "composite");
      if (call !== null) body.add(`if (${present(name)}(e = ${call})) return e;`);
    }
    if ("discriminator" in schema) this.discriminator(node, body);
  }

  /** The tag picks the branch (the first listing its value); a missing or unknown tag is ajv's discriminator error. */
  private discriminator(node: SchemaNode, body: Body): void {
    const tag = (node.schema["discriminator"] as SchemaObject)["propertyName"] as string;
    const branches = node.schema["oneOf"] as JsonValue[];
    const taken = new Set<string>();
    const cases: string[] = [];
    for (const branch of branches) {
      const values = this.graph.tagValues(branch, tag, false).filter((v) => !taken.has(v));
      values.forEach((v) => taken.add(v));
      if (values.length === 0) continue;
      const call = this.call(branch, "data", "composite");
      cases.push(`${values.map((v) => `case ${str(v)}:`).join(" ")} return ${call === null ? "undefined" : call};`);
    }
    body.end(
      `const tag = data[${str(tag)}];`,
      `if (typeof tag !== "string") return ${this.helper("discriminatorTagError")}(${str(tag)}, tag);`,
      "switch (tag) {",
      ...indent([...cases, `default: return ${this.helper("discriminatorMappingError")}(${str(tag)}, tag);`]),
      "}",
    );
  }

}

/**
 * Two locations with the same checks (the same schema written twice, or calling functions merged
 * already) become one function: the first, its comment naming the others; calls to the others call
 * it. Repeated until nothing changes.
 */
function mergeIdentical(functions: { name: string; lines: string[] }[]): { functions: string[][]; renamed: Map<string, string> } {
  let current = functions.map((f) => ({ ...f, also: [] as string[] }));
  const all = new Map<string, string>();
  for (;;) {
    const byBody = new Map<string, (typeof current)[number]>();
    const renamed = new Map<string, string>();
    for (const f of current) {
      const key = [f.lines[1]!.replace(`function ${f.name}(`, "function (")!, ...f.lines.slice(2)].join("\n");
      const first = byBody.get(key);
      if (first === undefined) byBody.set(key, f);
      else {
        renamed.set(f.name, first.name);
        first.also.push(f.lines[0]!, ...f.also);
      }
    }
    if (renamed.size === 0) break;
    for (const [from, to] of renamed) all.set(from, to);
    const pattern = new RegExp(`(?<![\\w$])(${[...renamed.keys()].join("|")})(?![\\w$])`, "g");
    current = [...byBody.values()].map((f) => ({ ...f, lines: f.lines.map((line, i) => (i === 0 ? line : outsideStrings(line, (code) => code.replace(pattern, (name) => renamed.get(name)!)))) }));
  }
  return { functions: current.map((f) => [f.lines[0]!, ...f.also.map((comment) => comment.replace(/^\/\*\* /, "/** also ")), ...f.lines.slice(1)]), renamed: all };
}

/** Keywords a leaf may have: checks of the value itself, no subschema, no early end. */
const LEAF = new Set(["type", "const", "enum", "maxLength", "minLength", "pattern", "format", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]);

function isLeaf(schema: SchemaObject): boolean {
  return Object.keys(schema).every((k) => LEAF.has(k)) && !(Array.isArray(schema["enum"]) && schema["enum"].length === 0);
}

/** `line` with `edit` applied to its code outside JSON string literals (the only literals a body line holds). */
function outsideStrings(line: string, edit: (code: string) => string): string {
  return line
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : edit(part)))
    .join("");
}

/**
 * The declarations of ajv-runtime/formats.js (ajv-esm.ts writes the module): each of `formats` as
 * what ajv-formats' full formats hold, a function or a regular expression.
 */
export function formatDeclarations(formats: readonly string[]): string {
  const lines = formats.map((format) => {
    const kind = FORMATS.get(format);
    if (kind === undefined) throw new SchemaCodeError("runtime-keywords.json", `format ${format} has no check in ajv-formats' full formats`);
    return `export declare const formats_fullFormats_${format}: ${kind === "function" ? "(text: string) => boolean" : "RegExp"};`;
  });
  return ["// ajv-formats' format checks the generated schema checks call (ajv-runtime/formats.js).", ...lines, ""].join("\n");
}

/** Which of ajv-formats' full formats are functions and which regular expressions (the code calls each its own way). */
function ajvFormats(): Map<string, "function" | "regexp"> {
  const module = formatsModule as unknown as { fullFormats?: Record<string, unknown>; default?: { fullFormats?: Record<string, unknown> } };
  const full = module.fullFormats ?? module.default?.fullFormats ?? {};
  const out = new Map<string, "function" | "regexp">();
  for (const [name, format] of Object.entries(full)) {
    if (typeof format === "function") out.set(name, "function");
    else if (format instanceof RegExp) out.set(name, "regexp");
  }
  return out;
}
