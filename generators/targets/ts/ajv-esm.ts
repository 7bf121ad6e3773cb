// ajv's standalone output as an ES module that every JavaScript runtime loads and a bundler can
// cut down to the validators one message reaches.
//
// 1. ajv names its runtime helpers with CommonJS `require("ajv/dist/runtime/…").default` even in
//    ESM mode (toolchain notes); a createRequire banner made that work under Node only (it imports
//    node:module). Each helper now comes from a module of this package, ajv-runtime/<name>.js:
//    - ucs2length and equal are ES modules written here (HELPER_SOURCES): two small functions over
//      JSON values, where importing ajv's CommonJS files would depend on each tool's default-import
//      interop (Node gives module.exports, vitest gives exports.default) and keep them in bundles;
//    - a format function of ajv-formats is imported by name (`import * as`), which Node, Deno,
//      Bun, vitest and bundlers resolve alike for a CommonJS `exports.fullFormats = …`.
//    This package is `sideEffects: false`, so an unused helper module is dropped with what it
//    imports (ajv declares no `sideEffects`: its CommonJS files imported directly always stay).
// 2. The only top-level statements with effects are `validateN.evaluated = {…}` (the annotation
//    ajv reads back inside the functions) and `new RegExp(…)`: the first become constants read in
//    place of the property, the second are marked pure. What is left is declarations, so a bundler
//    keeps only the functions reachable from what is imported.
// 3. Each error object's `schemaPath` is left out: nothing reads it (fromAjvError in
//    runtime/validation.ts keeps instancePath, keyword, message and params; AjvLikeError declares
//    no more), and the literal strings were about a tenth of every validator's bytes.

/** ajv's CommonJS helpers rewritten as ES modules: ajv's `require("<key>").default` becomes `<name>`. */
const HELPER_SOURCES: Record<string, { name: string; source: string }> = {
  "ajv/dist/runtime/ucs2length": {
    name: "ucs2length",
    source: `// A string's length in code points, as JSON Schema's minLength and maxLength count it: a
// surrogate pair is one, a lone surrogate is one (ajv's ucs2length; the string iterator does both).
export function ucs2length(text) {
  let length = 0;
  for (const _codePoint of text) length++;
  return length;
}
`,
  },
  "ajv/dist/runtime/equal": {
    name: "equal",
    source: `// Deep equality of JSON values, for const, enum and uniqueItems (ajv's equal, fast-deep-equal,
// on what JSON can hold): the same primitive, or arrays and objects with equal members; objects
// compare their own enumerable keys whatever their prototype.
export function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.prototype.hasOwnProperty.call(b, key) || !equal(a[key], b[key])) return false;
  return true;
}
`,
  },
};

const REQUIRE_MEMBER = /require\("([^"]+)"\)((?:\.[A-Za-z_$][\w$]*)+)/g;
const SCHEMA_PATH_MEMBER = /,schemaPath:"(?:[^"\\]|\\.)*"/g;
const EVALUATED_ASSIGNMENT = /^(validate\d+)\.evaluated = (.*);$/gm;

/** One member of an ajv CommonJS module, reached through a wrapper module of the package. */
export interface AjvHelper {
  /** The CommonJS module, e.g. `ajv/dist/runtime/equal`. */
  specifier: string;
  /** The member path after the module, e.g. `.default` or `.fullFormats.uri`. */
  member: string;
}

/** The helper module for a CommonJS module of ajv or ajv-formats, relative to the package root. */
export function helperModulePath(specifier: string): string {
  if (!/^(ajv|ajv-formats)\/dist\/[\w/-]+$/.test(specifier)) throw new Error(`TypeScript: ajv standalone code requires ${JSON.stringify(specifier)}, which has no ESM import rule here`);
  return `ajv-runtime/${specifier.split("/").at(-1)!}.js`;
}

/** The name a helper is imported under. */
export function helperExportName(helper: AjvHelper): string {
  const own = HELPER_SOURCES[helper.specifier];
  if (own !== undefined) {
    if (helper.member !== ".default") throw new Error(`TypeScript: ajv standalone code uses ${helper.specifier}${helper.member}; only .default is rewritten`);
    return own.name;
  }
  if (helper.specifier !== "ajv-formats/dist/formats") throw new Error(`TypeScript: ajv standalone code requires ${JSON.stringify(helper.specifier)}, which has no ESM import rule here`);
  return `${helper.specifier.split("/").at(-1)!}${helper.member.replace(/\./g, "_")}`;
}

/**
 * The ajv standalone `code` as an ES module for a file one folder below the package root; `helpers`
 * collects the CommonJS members it uses (for ajvHelperModules).
 */
export function standaloneAsEsm(code: string, helpers: Map<string, AjvHelper>): string {
  const used = new Map<string, AjvHelper>();
  let body = code.replace(/^"use strict";\n?/, "").replace(REQUIRE_MEMBER, (_call, specifier: string, member: string) => {
    const helper = { specifier, member };
    const name = helperExportName(helper);
    used.set(name, helper);
    helpers.set(name, helper);
    return name;
  });
  if (body.includes("require(")) throw new Error("TypeScript: ajv standalone code still calls require() after the ESM rewrite");
  const evaluated = [...body.matchAll(EVALUATED_ASSIGNMENT)].map((m) => m[1]!);
  body = body.replace(EVALUATED_ASSIGNMENT, (_line, fn: string, value: string) => `const ${fn}Evaluated = ${value};`);
  for (const fn of evaluated) body = body.replaceAll(`${fn}.evaluated`, `${fn}Evaluated`);
  if (/\.evaluated\b/.test(body)) throw new Error("TypeScript: ajv standalone code reads an .evaluated annotation this rewrite does not know");
  body = body.replace(/^(const pattern\d+ = )new RegExp\(/gm, "$1/* @__PURE__ */ new RegExp(");
  body = body.replace(SCHEMA_PATH_MEMBER, "");
  if (body.includes("schemaPath")) throw new Error("TypeScript: ajv standalone code names schemaPath in a form this rewrite does not remove");
  const bySpecifier = new Map<string, string[]>();
  for (const [name, helper] of [...used].sort(([a], [b]) => (a < b ? -1 : 1))) bySpecifier.set(helper.specifier, [...(bySpecifier.get(helper.specifier) ?? []), name]);
  const imports = [...bySpecifier].sort(([a], [b]) => (a < b ? -1 : 1)).map(([specifier, names]) => `import { ${names.join(", ")} } from "../${helperModulePath(specifier)}";\n`);
  return `${imports.join("")}${body}\n`;
}

/** The helper modules (path relative to the package root, contents) for the collected helpers. */
export function ajvHelperModules(helpers: Map<string, AjvHelper>): { path: string; contents: string }[] {
  const bySpecifier = new Map<string, [string, AjvHelper][]>();
  for (const entry of [...helpers].sort(([a], [b]) => (a < b ? -1 : 1))) bySpecifier.set(entry[1].specifier, [...(bySpecifier.get(entry[1].specifier) ?? []), entry]);
  const paths = new Set<string>();
  return [...bySpecifier].sort(([a], [b]) => (a < b ? -1 : 1)).map(([specifier, entries]) => {
    const path = helperModulePath(specifier);
    if (paths.has(path)) throw new Error(`TypeScript: two ajv helper modules would both be ${path}`);
    paths.add(path);
    const own = HELPER_SOURCES[specifier];
    if (own !== undefined) return { path, contents: own.source };
    const lines = [
      `// The format functions of ${specifier} (CommonJS) the validators use, imported by name; a bundler`,
      "// drops this module, and with it ajv-formats, when no validator it keeps checks one of these formats.",
      `import * as commonJs from ${JSON.stringify(`${specifier}.js`)};`,
      "",
      ...entries.map(([name, helper]) => `export const ${name} = commonJs${helper.member};`),
    ];
    return { path, contents: lines.join("\n") + "\n" };
  });
}
