// Swift schema validators as code (issue 36): one file per schema document, one function per
// schema object (named after its JSON pointer), each a straight line of the checks its keywords
// make, so no schema document is read at run time. The code does what the package's schema
// interpreter (runtime/SchemaValidator.swift, which stays as the test oracle) does for that schema,
// in its order, with its messages: the same verdict and the same first error on every value
// (Tests/.../CompiledValidatorTests.swift compares the two on every shared case). Errors are
// built relative to the function's value and prefixed with the member or index on the way out,
// so a valid message builds no JSON pointer at all.
import type { JsonValue } from "../../model/types.js";
import { lowerCamel, stringLiteral, upperCamel } from "./naming.js";
import { compilePattern, patternLiteral } from "./schema-pattern.js";
import { resolveUri, splitUri, withoutFragment } from "./schema-uri.js";

type SchemaObject = { [key: string]: JsonValue };

interface Document {
  uri: string;
  root: JsonValue;
  enumName: string;
}

interface Located {
  node: JsonValue;
  /** The base URI the node is in (its own `$id` not yet applied). */
  base: string;
  document: Document;
  pointer: string;
}

interface SchemaFunction extends Located {
  node: SchemaObject;
  name: string;
}

export interface GeneratedValidator {
  /** The `$id` of the document. */
  uri: string;
  enumName: string;
  text: string;
}

/** A schema the generator cannot turn into code (the runtime would refuse it at load too). */
export class SwiftValidatorError extends Error {
  constructor(document: string, pointer: string, message: string) {
    super(`${document}#${pointer}: ${message}`);
    this.name = "SwiftValidatorError";
  }
}

const SINGLE = ["additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["$defs", "dependentSchemas", "patternProperties", "properties"];
const GROUPS: Record<"number" | "string" | "array" | "object", readonly string[]> = {
  number: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"],
  string: ["maxLength", "minLength", "pattern", "format"],
  array: ["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems"],
  object: ["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "properties", "patternProperties", "dependentRequired", "dependentSchemas", "discriminator"],
};
const META_SCHEMA_PREFIX = "https://json-schema.org/draft/2020-12/";

const isObject = (v: JsonValue | undefined): v is SchemaObject => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (s: SchemaObject, key: string): boolean => Object.prototype.hasOwnProperty.call(s, key);
const escapeToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");
const num = (v: JsonValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);
/** A number as JavaScript prints it: what the interpreter's messages print (SchemaRegistry.jsNumber). */
const jsNumber = (n: number): string => String(n);
/** A Swift Double literal of `n` (Swift spells `1e+21` as `1e21`). */
const double = (n: number): string => String(n).replace("e+", "e");

function documentName(uri: string): string {
  const path = splitUri(uri).path.replace(/\.json$/, "");
  const parts = path.split("/").filter((p) => p !== "" && p !== "schemas");
  return `${parts.slice(-2).map((p) => upperCamel(p)).join("")}Schema`;
}

/**
 * The function name of the schema at `pointer`: its tokens as one lowerCamel name (the package's
 * naming rules: `/$defs/ImportedDetails` is `defsImportedDetails`), `root` for the document, and
 * `at` before a name Swift reserves (`/if` is `atIf`).
 */
function pointerName(pointer: string): string {
  if (pointer === "") return "root";
  const tokens = pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const name = lowerCamel(tokens.join(" "));
  return SWIFT_KEYWORDS.has(name) || name === "root" ? lowerCamel(`at ${name}`) : name;
}

/** Words Swift refuses as a function name (a schema at `/if`, `/else`, ... would be named so). */
const SWIFT_KEYWORDS = new Set(
  "as associatedtype break case catch class continue default defer deinit do else enum extension fallthrough false fileprivate for func guard if import in init inout internal is let nil open operator private protocol public repeat rethrows return self Self static struct subscript super switch throw throws true try Type typealias var where while Any".split(" "),
);

class ValidatorCompiler {
  private readonly resources = new Map<string, Located>();
  private readonly anchors = new Map<string, Located>();
  private readonly functions = new Map<SchemaObject, SchemaFunction>();
  private readonly queue: SchemaFunction[] = [];
  private readonly names = new Map<Document, Set<string>>();
  /** Every pattern of every document, once: its name in SchemaPatterns. */
  private readonly patterns = new Map<string, string>();
  /** Whether any schema uses unevaluatedProperties/Items: only then are annotations collected. */
  readonly tracking: boolean;
  readonly documents: Document[];

  constructor(schemas: readonly JsonValue[]) {
    const used = new Set<string>();
    this.documents = schemas.map((root) => {
      const uri = isObject(root) && typeof root["$id"] === "string" ? root["$id"] : "";
      if (uri === "") throw new SwiftValidatorError("(document)", "", "a schema document needs an absolute $id");
      let enumName = documentName(uri);
      for (let n = 2; used.has(enumName); n++) enumName = `${documentName(uri)}${n}`;
      used.add(enumName);
      return { uri, root, enumName };
    });
    let tracking = false;
    for (const document of this.documents) {
      this.resources.set(document.uri, { node: document.root, base: document.uri, document, pointer: "" });
      this.walk(document.root, document.uri, "", document, (s, here, enclosing, pointer) => {
        if (typeof s["$id"] === "string") this.resources.set(here, { node: s, base: enclosing, document, pointer });
        if (typeof s["$anchor"] === "string") this.anchors.set(`${here}#${s["$anchor"]}`, { node: s, base: enclosing, document, pointer });
        if (has(s, "unevaluatedProperties") || has(s, "unevaluatedItems")) tracking = true;
      });
    }
    this.tracking = tracking;
  }

  private walk(node: JsonValue, base: string, pointer: string, document: Document, visit: (s: SchemaObject, here: string, enclosing: string, pointer: string) => void): void {
    if (!isObject(node)) return;
    const here = typeof node["$id"] === "string" ? withoutFragment(resolveUri(node["$id"], base)) : base;
    visit(node, here, base, pointer);
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapeToken(key)}`;
      if (SINGLE.includes(key)) this.walk(value, here, at, document, visit);
      else if (LIST.includes(key) && Array.isArray(value)) value.forEach((v, i) => this.walk(v, here, `${at}/${i}`, document, visit));
      else if (MAP.includes(key) && isObject(value)) for (const [name, v] of Object.entries(value)) this.walk(v, here, `${at}/${escapeToken(name)}`, document, visit);
    }
  }

  /** Where `reference` leads from `base`, as SchemaRegistry.resolve finds it. */
  private resolve(reference: string, base: string): Located | undefined {
    const absolute = resolveUri(reference, base);
    const resource = withoutFragment(absolute);
    const fragment = splitUri(absolute).fragment ?? "";
    const root = this.resources.get(resource);
    if (root === undefined) return undefined;
    if (fragment === "") return root;
    if (!fragment.startsWith("/")) return this.anchors.get(`${resource}#${fragment}`);
    let node = root.node;
    let here = root.base;
    let pointer = root.pointer;
    for (const raw of fragment.slice(1).split("/")) {
      if (isObject(node) && typeof node["$id"] === "string") here = withoutFragment(resolveUri(node["$id"], here));
      let decoded = raw;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        decoded = raw;
      }
      const name = decoded.replace(/~1/g, "/").replace(/~0/g, "~");
      if (isObject(node) && has(node, name)) node = node[name]!;
      else if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(name) && Number(name) < node.length) node = node[Number(name)]!;
      else return undefined;
      pointer += `/${escapeToken(name)}`;
    }
    return { node, base: here, document: root.document, pointer };
  }

  private functionFor(at: Located & { node: SchemaObject }): SchemaFunction {
    const known = this.functions.get(at.node);
    if (known !== undefined) return known;
    let names = this.names.get(at.document);
    if (names === undefined) this.names.set(at.document, (names = new Set()));
    let name = pointerName(at.pointer);
    for (let n = 2; names.has(name); n++) name = `${pointerName(at.pointer)}${n}`;
    names.add(name);
    const fn: SchemaFunction = { ...at, node: at.node, name };
    this.functions.set(at.node, fn);
    this.queue.push(fn);
    return fn;
  }

  /** An expression of type SchemaRegistry.Outcome: `target` applied to `value` from `from`'s code. */
  private apply(target: Located, value: string, composite: string, from: Document): string {
    if (target.node === true) return "CompiledSchema.valid";
    if (target.node === false) return "CompiledSchema.falseSchema";
    if (!isObject(target.node)) return "CompiledSchema.valid";
    const fn = this.functionFor({ ...target, node: target.node });
    const qualifier = fn.document === from ? "" : `${fn.document.enumName}.`;
    return `${qualifier}${fn.name}(${value}, ${composite}, depth + 1)`;
  }

  private matches(_document: Document, pattern: string, text: string): string {
    let name = this.patterns.get(pattern);
    if (name === undefined) {
      name = `pattern${this.patterns.size}`;
      this.patterns.set(pattern, name);
    }
    return `CompiledSchema.matches(SchemaPatterns.${name}, ${text})`;
  }

  /** SchemaPatterns.swift: each pattern as matcher data, or on NSRegularExpression when the matcher lacks what it uses. */
  patternsFile(): string {
    const lines = [
      "import Foundation",
      "",
      "/// Every `pattern` of the schemas, once, for the generated validators: as data for SchemaPattern's",
      "/// matcher (generators/targets/swift/schema-pattern.ts), or compiled for NSRegularExpression when",
      "/// it uses what that matcher does not implement.",
      "enum SchemaPatterns {",
    ];
    const compiled: string[] = [];
    for (const [pattern, name] of this.patterns) {
      const nodes = compilePattern(pattern);
      lines.push(`    /// ${JSON.stringify(pattern).replace(/\n/g, "\\n")}`);
      if (nodes === undefined) lines.push(`    static let ${name} = CompiledSchema.pattern(${stringLiteral(pattern)})`);
      else {
        lines.push(`    static let ${name} = SchemaPattern(source: ${stringLiteral(pattern)}, alternatives: ${patternLiteral(nodes)})`);
        compiled.push(name);
      }
    }
    lines.push("", "    /// The patterns the matcher runs (the test compares it with NSRegularExpression on each).", `    static let matched: [SchemaPattern] = [${compiled.join(", ")}]`, "}", "");
    return lines.join("\n");
  }

  /** Runs every document's root and whatever it reaches; the Swift text of each document. */
  emit(header: (document: Document) => string[]): GeneratedValidator[] {
    for (const document of this.documents) {
      if (isObject(document.root)) this.functionFor({ node: document.root, base: document.uri, document, pointer: "" });
      this.walk(document.root, document.uri, "", document, (s, _here, enclosing, pointer) => {
        this.functionFor({ node: s, base: enclosing, document, pointer });
      });
    }
    const bodies = new Map<Document, string[]>();
    for (let i = 0; i < this.queue.length; i++) {
      const fn = this.queue[i]!;
      const lines = bodies.get(fn.document) ?? [];
      bodies.set(fn.document, lines);
      lines.push(...this.functionText(fn), "");
    }
    return this.documents.map((document) => {
      const rootCall = isObject(document.root) ? "root(value, false, 0).errors" : document.root === false ? "CompiledSchema.falseSchema.errors" : "[]";
      const text = [
        ...header(document),
        "import Foundation",
        "",
        `/// The validator of ${document.uri}, generated from the schema: one function per schema object,`,
        "/// named after its JSON pointer; the same verdicts and first error as SchemaRegistry.validate.",
        `public enum ${document.enumName} {`,
        "    /// The errors of `value` against the document, first error first (empty: valid).",
        "    public static func validate(_ value: JSONValue) -> [ValidationError] {",
        `        ${rootCall}`,
        "    }",
        "",
        ...(bodies.get(document) ?? []).map((l) => (l === "" ? "" : `    ${l}`)),
      ];
      while (text[text.length - 1] === "") text.pop();
      text.push("}", "");
      return { uri: document.uri, enumName: document.enumName, text: text.join("\n") };
    });
  }

  private functionText(fn: SchemaFunction): string[] {
    const s = fn.node;
    const base = typeof s["$id"] === "string" ? withoutFragment(resolveUri(s["$id"], fn.base)) : fn.base;
    const here = (node: JsonValue, pointer: string): Located => ({ node, base, document: fn.document, pointer: `${fn.pointer}${pointer}` });
    const child = (key: string, ...rest: (string | number)[]): Located => {
      let node: JsonValue = s[key]!;
      let pointer = `/${escapeToken(key)}`;
      for (const step of rest) {
        node = (typeof step === "number" ? (node as JsonValue[])[step] : (node as SchemaObject)[step])!;
        pointer += `/${typeof step === "number" ? step : escapeToken(step)}`;
      }
      return here(node, pointer);
    };
    const apply = (target: Located, value: string, composite: string): string => this.apply(target, value, composite, fn.document);
    const track = this.tracking;
    const body: string[] = [];
    const emit = (indent: number, ...lines: string[]): void => {
      for (const line of lines) body.push(`${"    ".repeat(indent)}${line}`);
    };
    const fail = (keyword: string, message: string): string => `return CompiledSchema.fail(${stringLiteral(keyword)}, ${stringLiteral(message)})`;

    // 1. type, unless checked with its group's keywords.
    const types = typeof s["type"] === "string" ? [s["type"]] : Array.isArray(s["type"]) ? s["type"].filter((t): t is string => typeof t === "string") : [];
    const groupOf = (t: string): keyof typeof GROUPS | undefined => (t === "number" || t === "string" || t === "array" || t === "object" ? t : undefined);
    const single = types.length === 1 ? groupOf(types[0]!) : undefined;
    const typeWithGroup = single !== undefined && GROUPS[single].some((k) => has(s, k)) ? single : undefined;
    if (types.length > 0 && typeWithGroup === undefined) {
      emit(0, `if !(${types.map(typeTest).join(" || ")}) { ${fail("type", `must be ${types.join(",")}`)} }`);
    }

    // 2. Keywords for any type.
    if (typeof s["$ref"] === "string") {
      const reference = s["$ref"];
      const target = resolveUri(reference, base);
      if (target.startsWith(META_SCHEMA_PREFIX)) throw new SwiftValidatorError(fn.document.uri, fn.pointer, `$ref ${reference}: the 2020-12 meta-schema uses $dynamicRef, which the runtimes do not implement`);
      const resolved = this.resolve(reference, base);
      if (resolved === undefined) throw new SwiftValidatorError(fn.document.uri, fn.pointer, `cannot resolve $ref ${reference}`);
      emit(0, "do {", `    let outcome = ${apply(resolved, "value", "composite")}`, "    if !outcome.errors.isEmpty { return outcome }");
      if (track) emit(1, "evaluated.merge(outcome.evaluated)");
      emit(0, "}");
    }
    if (has(s, "const")) emit(0, `if !(${equality("value", s["const"]!)}) { ${fail("const", "must be equal to constant")} }`);
    if (Array.isArray(s["enum"])) {
      const options = s["enum"];
      emit(0, `if !(${options.length === 0 ? "false" : options.map((o) => equality("value", o)).join(" || ")}) { ${fail("enum", "must be equal to one of the allowed values")} }`);
    }
    if (has(s, "not")) emit(0, `if ${apply(child("not"), "value", "true")}.errors.isEmpty { ${fail("not", "must NOT be valid")} }`);
    if (Array.isArray(s["anyOf"])) {
      emit(0, "do {", "    var collected: [ValidationError] = []", "    var matched = false");
      s["anyOf"].forEach((_, i) => {
        // Without annotations to collect, the branches after a match change nothing: skipped.
        emit(1, track ? "do {" : "if !matched {", `    let branch = ${apply(child("anyOf", i), "value", "true")}`);
        if (track) emit(2, "if branch.errors.isEmpty { matched = true; evaluated.merge(branch.evaluated) } else if !matched { collected += branch.errors }");
        else emit(2, "if branch.errors.isEmpty { matched = true } else { collected += branch.errors }");
        emit(1, "}");
      });
      emit(1, `if !matched { return .failed(collected + CompiledSchema.error("anyOf", "must match a schema in anyOf")) }`);
      emit(0, "}");
    }
    const discriminated = has(s, "discriminator");
    if (Array.isArray(s["oneOf"]) && !discriminated) {
      emit(0, "do {", "    var collected: [ValidationError] = []", "    var passing = 0");
      s["oneOf"].forEach((_, i) => {
        emit(1, "do {", `    let branch = ${apply(child("oneOf", i), "value", "true")}`);
        emit(2, `if branch.errors.isEmpty { passing += 1${track ? "; evaluated.merge(branch.evaluated)" : ""} } else { collected += branch.errors }`);
        emit(1, "}");
      });
      emit(1, `if passing == 0 { return .failed(collected + CompiledSchema.error("oneOf", "must match exactly one schema in oneOf")) }`);
      emit(1, `if passing > 1 { ${fail("oneOf", "must match exactly one schema in oneOf")} }`);
      emit(0, "}");
    }
    if (Array.isArray(s["allOf"])) {
      s["allOf"].forEach((_, i) => {
        emit(0, "do {", `    let part = ${apply(child("allOf", i), "value", "composite")}`, "    if !part.errors.isEmpty { return part }");
        if (track) emit(1, "evaluated.merge(part.evaluated)");
        emit(0, "}");
      });
    }
    if (has(s, "if") && (has(s, "then") || has(s, "else") || track)) {
      emit(0, "do {", `    let test = ${apply(child("if"), "value", "true")}`, "    if test.errors.isEmpty {");
      if (track) emit(2, "evaluated.merge(test.evaluated)");
      const branch = (key: "then" | "else", indent: number): void => {
        if (!has(s, key)) return;
        emit(indent, `let outcome = ${apply(child(key), "value", "composite")}`);
        emit(indent, `if !outcome.errors.isEmpty { return .failed(outcome.errors + CompiledSchema.error("if", ${stringLiteral(`must match "${key}" schema`)})) }`);
        if (track) emit(indent, "evaluated.merge(outcome.evaluated)");
      };
      branch("then", 2);
      if (has(s, "else")) {
        emit(1, "} else {");
        branch("else", 2);
      }
      emit(1, "}");
      emit(0, "}");
    }

    // 3. Keywords for one type each, each group only for values of its type.
    for (const group of ["number", "string", "array", "object"] as const) {
      if (!GROUPS[group].some((k) => has(s, k))) continue;
      const inner: string[] = [];
      const add = (indent: number, ...lines: string[]): void => {
        for (const line of lines) inner.push(`${"    ".repeat(indent + 1)}${line}`);
      };
      const binding = { number: "number", string: "text", array: "items", object: "object" }[group];
      if (group === "number") this.numberChecks(s, add, fail);
      else if (group === "string") this.stringChecks(s, add, fail, fn.document);
      else if (group === "array") this.arrayChecks(s, add, fail, child, apply, track);
      else this.objectChecks(s, add, fail, child, apply, track, fn, base);
      const typeFail = `${fail("type", `must be ${group}`)}`;
      if (inner.length === 0) {
        if (typeWithGroup === group) emit(0, `if !${typeTest(group)} { ${typeFail} }`);
        continue;
      }
      const uses = inner.some((l) => new RegExp(`\\b${binding}\\b`).test(l));
      emit(0, `if case ${uses ? `let .${group === "number" ? "number" : group}(${binding})` : `.${group}`} = value {`);
      body.push(...inner);
      emit(0, typeWithGroup === group ? `} else { ${typeFail} }` : "}");
    }

    // 4. What no other keyword evaluated, last.
    if (has(s, "unevaluatedItems")) {
      const rest = child("unevaluatedItems");
      emit(0, "if case let .array(items) = value {", "    for index in items.indices where !evaluated.hasItem(index) {");
      emit(2, `let outcome = ${apply(rest, "items[index]", "composite")}`);
      if (rest.node === false) emit(2, `if !outcome.errors.isEmpty { return .failed(CompiledSchema.error("unevaluatedItems", "must NOT have more than \\(index) items")) }`);
      else emit(2, "if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, index) }");
      emit(1, "}", "    evaluated.allItems = true");
      emit(0, "}");
    }
    if (has(s, "unevaluatedProperties")) {
      const rest = child("unevaluatedProperties");
      emit(0, "if case let .object(object) = value {", "    for member in object.members where !evaluated.hasProperty(member.key) {");
      emit(2, `let outcome = ${apply(rest, "member.value", "composite")}`);
      if (rest.node === false) emit(2, `if !outcome.errors.isEmpty { ${fail("unevaluatedProperties", "must NOT have unevaluated properties")} }`);
      else emit(2, "if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, member.key) }");
      emit(1, "}", "    evaluated.allProperties = true");
      emit(0, "}");
    }

    const mutatesEvaluated = body.some((l) => /\bevaluated\.(merge|properties|items|allItems|allProperties)\b/.test(l));
    return [
      `/// ${fn.document.uri}#${fn.pointer}`,
      "static func " + fn.name + "(_ value: JSONValue, _ composite: Bool, _ depth: Int) -> SchemaRegistry.Outcome {",
      "    if depth > SchemaRegistry.maxDepth { return CompiledSchema.tooDeep }",
      ...(mutatesEvaluated ? ["    var evaluated = SchemaRegistry.Evaluated()"] : []),
      ...body.map((l) => `    ${l}`),
      mutatesEvaluated ? "    return SchemaRegistry.Outcome(errors: [], evaluated: evaluated)" : "    return CompiledSchema.valid",
      "}",
    ];
  }

  private numberChecks(s: SchemaObject, add: (i: number, ...l: string[]) => void, fail: (k: string, m: string) => string): void {
    const limits: [string, string, string][] = [
      ["maximum", "<=", "must be <="],
      ["minimum", ">=", "must be >="],
      ["exclusiveMaximum", "<", "must be <"],
      ["exclusiveMinimum", ">", "must be >"],
    ];
    for (const [keyword, op, text] of limits) {
      const limit = num(s[keyword]);
      if (limit !== undefined) add(0, `if !(number ${op} ${double(limit)}) { ${fail(keyword, `${text} ${jsNumber(limit)}`)} }`);
    }
    const divisor = num(s["multipleOf"]);
    if (divisor !== undefined && divisor > 0) {
      // As ajv decides it (quotient === parseInt(quotient)): a quotient that overflows is no multiple.
      add(0, "do {", `    let quotient = number / ${double(divisor)}`);
      add(1, `if !quotient.isFinite || quotient != quotient.rounded(.towardZero) { ${fail("multipleOf", `must be multiple of ${jsNumber(divisor)}`)} }`);
      add(0, "}");
    }
  }

  private stringChecks(s: SchemaObject, add: (i: number, ...l: string[]) => void, fail: (k: string, m: string) => string, document: Document): void {
    const max = num(s["maxLength"]);
    const min = num(s["minLength"]);
    // Lengths count Unicode code points, as ajv does.
    if (max !== undefined || min !== undefined) add(0, "let length = CompiledSchema.length(text)");
    if (max !== undefined) add(0, `if ${countAbove("length", max)} { ${fail("maxLength", `must NOT have more than ${Math.trunc(max)} characters`)} }`);
    if (min !== undefined) add(0, `if ${countBelow("length", min)} { ${fail("minLength", `must NOT have fewer than ${Math.trunc(min)} characters`)} }`);
    if (typeof s["pattern"] === "string") add(0, `if !${this.matches(document, s["pattern"], "text")} { ${fail("pattern", `must match pattern "${s["pattern"]}"`)} }`);
    if (typeof s["format"] === "string") add(0, `if !Formats.check(${stringLiteral(s["format"])}, text) { ${fail("format", `must match format "${s["format"]}"`)} }`);
  }

  private arrayChecks(
    s: SchemaObject,
    add: (i: number, ...l: string[]) => void,
    fail: (k: string, m: string) => string,
    child: (key: string, ...rest: (string | number)[]) => Located,
    apply: (t: Located, v: string, c: string) => string,
    track: boolean,
  ): void {
    const max = num(s["maxItems"]);
    const min = num(s["minItems"]);
    if (max !== undefined) add(0, `if ${countAbove("items.count", max)} { ${fail("maxItems", `must NOT have more than ${Math.trunc(max)} items`)} }`);
    if (min !== undefined) add(0, `if ${countBelow("items.count", min)} { ${fail("minItems", `must NOT have fewer than ${Math.trunc(min)} items`)} }`);
    const prefix = Array.isArray(s["prefixItems"]) ? s["prefixItems"] : undefined;
    prefix?.forEach((_, i) => {
      add(0, `if items.count > ${i} {`, `    let outcome = ${apply(child("prefixItems", i), `items[${i}]`, "composite")}`, `    if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, ${i}) }`);
      if (track) add(1, `evaluated.items.insert(${i})`);
      add(0, "}");
    });
    if (has(s, "items")) {
      const itemSchema = child("items");
      const start = prefix?.length ?? 0;
      if (itemSchema.node !== true) {
        add(0, `for index in ${start === 0 ? "items.indices" : `${start}..<max(${start}, items.count)`} {`, `    let outcome = ${apply(itemSchema, "items[index]", "composite")}`);
        add(1, "if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, index) }");
        add(0, "}");
      }
      if (track) add(0, "evaluated.allItems = true");
    }
    if (has(s, "contains")) {
      const minimum = num(s["minContains"]) ?? 1;
      const maximum = num(s["maxContains"]);
      const bounds = maximum === undefined ? `at least ${jsNumber(minimum)}` : `at least ${jsNumber(minimum)} and no more than ${jsNumber(maximum)}`;
      const message = stringLiteral(`must contain ${bounds} valid item(s)`);
      add(0, "do {", "    var itemErrors: [ValidationError] = []", "    var found = 0", "    for index in items.indices {");
      add(2, `let outcome = ${apply(child("contains"), "items[index]", "true")}`);
      add(2, `if outcome.errors.isEmpty { found += 1${track ? "; evaluated.items.insert(index)" : ""} } else if ${countBelow("found", minimum)} { itemErrors += CompiledSchema.within(outcome, index).errors }`);
      add(1, "}");
      // Inside a composite keyword ajv keeps the items' errors ahead of its own; outside one it replaces them by its own.
      add(1, `if ${countBelow("found", minimum)} { return .failed((composite ? itemErrors : []) + CompiledSchema.error("contains", ${message})) }`);
      if (maximum !== undefined) add(1, `if ${countAbove("found", maximum)} { return CompiledSchema.fail("contains", ${message}) }`);
      add(0, "}");
    }
    if (s["uniqueItems"] === true) {
      add(0, `if let (i, j) = CompiledSchema.firstDuplicate(items) { return CompiledSchema.fail("uniqueItems", "must NOT have duplicate items (items ## \\(i) and \\(j) are identical)") }`);
    }
  }

  private objectChecks(
    s: SchemaObject,
    add: (i: number, ...l: string[]) => void,
    fail: (k: string, m: string) => string,
    child: (key: string, ...rest: (string | number)[]) => Located,
    apply: (t: Located, v: string, c: string) => string,
    track: boolean,
    fn: SchemaFunction,
    base: string,
  ): void {
    const max = num(s["maxProperties"]);
    const min = num(s["minProperties"]);
    if (max !== undefined) add(0, `if ${countAbove("object.count", max)} { ${fail("maxProperties", `must NOT have more than ${Math.trunc(max)} properties`)} }`);
    if (min !== undefined) add(0, `if ${countBelow("object.count", min)} { ${fail("minProperties", `must NOT have fewer than ${Math.trunc(min)} properties`)} }`);
    if (Array.isArray(s["required"])) {
      for (const name of s["required"].filter((n): n is string => typeof n === "string")) {
        add(0, `if !CompiledSchema.has(object, ${stringLiteral(name)}) { ${fail("required", `must have required property '${name}'`)} }`);
      }
    }
    if (has(s, "propertyNames")) {
      add(0, "for member in object.members {", `    let errors = ${apply(child("propertyNames"), ".string(member.key)", "true")}.errors`);
      add(1, `if !errors.isEmpty { return .failed(errors + CompiledSchema.error("propertyNames", "property name '\\(member.key)' is invalid")) }`);
      add(0, "}");
    }
    const properties = isObject(s["properties"]) ? s["properties"] : {};
    const patternProperties = isObject(s["patternProperties"]) ? s["patternProperties"] : {};
    if (has(s, "additionalProperties")) {
      const additional = child("additionalProperties");
      const names = Object.keys(properties);
      const patterns = Object.keys(patternProperties);
      if (additional.node === false && names.length === 0 && patterns.length === 0) {
        // Every member is additional.
        add(0, `if !object.isEmpty { ${fail("additionalProperties", "must NOT have additional properties")} }`);
      } else if (additional.node !== true) {
        add(0, "for member in object.members {");
        if (names.length > 0) add(1, `if ${names.map((n) => `CompiledSchema.same(member.key, ${stringLiteral(n)})`).join(" || ")} { continue }`);
        if (patterns.length > 0) add(1, `if ${patterns.map((p) => this.matches(fn.document, p, "member.key")).join(" || ")} { continue }`);
        if (additional.node === false) add(1, fail("additionalProperties", "must NOT have additional properties"));
        else add(1, `let outcome = ${apply(additional, "member.value", "composite")}`, "if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, member.key) }");
        add(0, "}");
      }
      if (track) add(0, "evaluated.allProperties = true");
    }
    for (const name of Object.keys(properties)) {
      const target = child("properties", name);
      if (target.node === true) {
        if (track) add(0, `if CompiledSchema.has(object, ${stringLiteral(name)}) { evaluated.properties.append(${stringLiteral(name)}) }`);
        continue;
      }
      add(0, `if let member = CompiledSchema.member(object, ${stringLiteral(name)}) {`, `    let outcome = ${apply(target, "member", "composite")}`, `    if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, ${stringLiteral(name)}) }`);
      if (track) add(1, `evaluated.properties.append(${stringLiteral(name)})`);
      add(0, "}");
    }
    for (const pattern of Object.keys(patternProperties)) {
      add(0, `for member in object.members where ${this.matches(fn.document, pattern, "member.key")} {`, `    let outcome = ${apply(child("patternProperties", pattern), "member.value", "composite")}`);
      add(1, "if !outcome.errors.isEmpty { return CompiledSchema.within(outcome, member.key) }");
      if (track) add(1, "evaluated.properties.append(member.key)");
      add(0, "}");
    }
    if (isObject(s["dependentRequired"])) {
      for (const [key, value] of Object.entries(s["dependentRequired"])) {
        const names = (Array.isArray(value) ? value : []).filter((n): n is string => typeof n === "string");
        // ajv's message lists every dependency, not only the missing ones.
        const listed = names.length === 1 ? `property ${names[0]}` : `properties ${names.join(", ")}`;
        if (names.length === 0) continue;
        add(0, `if CompiledSchema.has(object, ${stringLiteral(key)}) && !(${names.map((n) => `CompiledSchema.has(object, ${stringLiteral(n)})`).join(" && ")}) { ${fail("dependentRequired", `must have ${listed} when property ${key} is present`)} }`);
      }
    }
    if (isObject(s["dependentSchemas"])) {
      for (const key of Object.keys(s["dependentSchemas"])) {
        add(0, `if CompiledSchema.has(object, ${stringLiteral(key)}) {`, `    let outcome = ${apply(child("dependentSchemas", key), "value", "composite")}`, "    if !outcome.errors.isEmpty { return outcome }");
        if (track) add(1, "evaluated.merge(outcome.evaluated)");
        add(0, "}");
      }
    }
    const discriminator = s["discriminator"];
    const tagName = isObject(discriminator) && typeof discriminator["propertyName"] === "string" ? discriminator["propertyName"] : undefined;
    if (tagName !== undefined && Array.isArray(s["oneOf"])) {
      // The tag picks the branch: the first whose tag property's const or enum holds the tag.
      const choices: { test: string; call: string }[] = [];
      s["oneOf"].forEach((branch, i) => {
        let branchSchema: JsonValue = branch;
        if (isObject(branch) && typeof branch["$ref"] === "string") branchSchema = this.resolve(branch["$ref"], base)?.node ?? branch;
        const tagSchema = isObject(branchSchema) && isObject(branchSchema["properties"]) ? branchSchema["properties"][tagName] : undefined;
        const values = isObject(tagSchema) ? (has(tagSchema, "const") ? [tagSchema["const"]!] : Array.isArray(tagSchema["enum"]) ? tagSchema["enum"] : []) : [];
        const tags = values.filter((v): v is string => typeof v === "string");
        if (tags.length > 0) choices.push({ test: tags.map((t) => `CompiledSchema.same(tag, ${stringLiteral(t)})`).join(" || "), call: apply(child("oneOf", i), "value", "composite") });
      });
      if (choices.length === 0) throw new SwiftValidatorError(fn.document.uri, fn.pointer, `discriminator "${tagName}": no oneOf branch names a string tag`);
      add(0, "do {", `    guard case let .string(tag)? = object[${stringLiteral(tagName)}] else { ${fail("discriminator", `tag "${tagName}" must be string`)} }`, "    let chosen: SchemaRegistry.Outcome");
      choices.forEach((choice, i) => add(1, `${i === 0 ? "if" : "} else if"} ${choice.test} {`, `    chosen = ${choice.call}`));
      add(1, `} else {`, `    return CompiledSchema.fail(at: ${stringLiteral(tagName)}, "discriminator", ${stringLiteral(`value of tag "${tagName}" must be in oneOf`)})`, "}");
      add(1, "if !chosen.errors.isEmpty { return chosen }");
      if (track) add(1, "evaluated.merge(chosen.evaluated)");
      add(0, "}");
    }
  }
}

function typeTest(type: string): string {
  switch (type) {
    case "null":
      return "CompiledSchema.isNull(value)";
    case "boolean":
      return "CompiledSchema.isBoolean(value)";
    case "number":
      return "CompiledSchema.isNumber(value)";
    case "integer":
      return "CompiledSchema.isInteger(value)";
    case "string":
      return "CompiledSchema.isString(value)";
    case "array":
      return "CompiledSchema.isArray(value)";
    case "object":
      return "CompiledSchema.isObject(value)";
    default:
      return `SchemaRegistry.hasType(value, ${stringLiteral(type)})`;
  }
}

/** `count > limit` as the interpreter decides it (Double(count) > limit), in Int when the limit is whole. */
function countAbove(count: string, limit: number): string {
  return Number.isSafeInteger(limit) ? `${count} > ${limit}` : `Double(${count}) > ${double(limit)}`;
}

function countBelow(count: string, limit: number): string {
  return Number.isSafeInteger(limit) ? `${count} < ${limit}` : `Double(${count}) < ${double(limit)}`;
}

/** A Swift condition: `value` equals the JSON value `expected` (JSON equality, strings by scalars). */
function equality(value: string, expected: JsonValue): string {
  if (typeof expected === "string") return `CompiledSchema.isString(${value}, ${stringLiteral(expected)})`;
  if (typeof expected === "boolean") return `${value} == .bool(${expected})`;
  if (expected === null) return `CompiledSchema.isNull(${value})`;
  if (typeof expected === "number") return `${value} == .number(${double(expected)})`;
  return `${value} == ${jsonLiteral(expected)}`;
}

function jsonLiteral(value: JsonValue): string {
  if (typeof value === "string") return `.string(${stringLiteral(value)})`;
  if (typeof value === "boolean") return `.bool(${value})`;
  if (typeof value === "number") return `.number(${double(value)})`;
  if (value === null) return ".null";
  if (Array.isArray(value)) return `.array([${value.map(jsonLiteral).join(", ")}])`;
  return `.object(JSONObject(pairs: [${Object.entries(value).map(([k, v]) => `(${stringLiteral(k)}, ${jsonLiteral(v)})`).join(", ")}]))`;
}

/** One Swift file per schema document (the same documents Schemas.swift hands the interpreter). */
export function generateSwiftValidators(documents: readonly JsonValue[]): { validators: GeneratedValidator[]; patterns: string } {
  const compiler = new ValidatorCompiler(documents);
  const validators = compiler.emit(() => []);
  return { validators, patterns: compiler.patternsFile() };
}
