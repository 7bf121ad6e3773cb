// The JSON-Schema-Test-Suite (draft 2020-12, required tests) as the runtimes' tests read it: its
// cases, its remotes by their http://localhost:1234/ ids, and the one rule that says which groups
// a runtime refuses (property-tests/vectors/json-schema-test-suite/README.md).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const SUITE_DIR = join(dirname(fileURLToPath(import.meta.url)), "../vectors/json-schema-test-suite");
const TESTS_DIR = join(SUITE_DIR, "tests/draft2020-12");
const REMOTES_DIR = join(SUITE_DIR, "remotes");
export const REMOTE_BASE = "http://localhost:1234/";
/** The dialect every test schema declares: naming it is no reference to another document. */
export const DIALECT = "https://json-schema.org/draft/2020-12/schema";
/** The suite's one file whose cases are annotation-only where the runtimes assert (the listed difference). */
export const FORMAT_FILE = "format.json";
/** The keywords whose use refuses a group, in the order that names the refusal when several are used. */
export const REFUSED_KEYWORDS = ["$dynamicRef", "$dynamicAnchor", "$vocabulary"] as const;

export interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
export interface SuiteGroup {
  file: string;
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}
export interface Refusal {
  file: string;
  group: string;
  keyword: string;
}

export function suiteGroups(): SuiteGroup[] {
  const groups: SuiteGroup[] = [];
  for (const file of readdirSync(TESTS_DIR).filter((n) => n.endsWith(".json")).sort()) {
    const parsed = JSON.parse(readFileSync(join(TESTS_DIR, file), "utf8")) as Omit<SuiteGroup, "file">[];
    for (const group of parsed) groups.push({ file, ...group });
  }
  return groups;
}

/** Every remote document by the URI the suite serves it at (http://localhost:1234/<path>). */
export function suiteRemotes(): Map<string, unknown> {
  const remotes = new Map<string, unknown>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json")) remotes.set(REMOTE_BASE + relative(REMOTES_DIR, path), JSON.parse(readFileSync(path, "utf8")));
    }
  };
  walk(REMOTES_DIR);
  return remotes;
}

/** The 2020-12 meta-schema documents, as ajv ships them (they use $dynamicRef, $dynamicAnchor, $vocabulary). */
function metaSchemas(): Map<string, unknown> {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve("ajv/dist/refs/json-schema-2020-12/schema.json"));
  const found = new Map<string, unknown>([[DIALECT, JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"))]]);
  for (const name of readdirSync(join(dir, "meta"))) {
    const doc = JSON.parse(readFileSync(join(dir, "meta", name), "utf8")) as { $id: string };
    found.set(doc.$id, doc);
  }
  return found;
}

const SINGLE = new Set(["additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAP = new Set(["$defs", "dependentSchemas", "patternProperties", "properties"]);
const META_SCHEMA_BASE = "https://json-schema.org/draft/2020-12/";

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined; // a relative reference against a URN base: inside the same document
  }
}

/**
 * The refusal rule: a group is refused when its schema, or a document it references by `$ref`
 * (or names as its `$schema`, other than the 2020-12 dialect), uses $dynamicRef, $dynamicAnchor
 * or $vocabulary. The keyword named is the first of REFUSED_KEYWORDS used by the schema or the
 * documents it references, where a referenced document's `$ref` to the 2020-12 meta-schema counts
 * as $dynamicRef (the meta-schema is built on it); other references of those documents are not
 * followed: a referenced document that uses none of the three refers only to documents that a
 * runtime loads as well.
 */
export function refusalOf(schema: unknown, remotes: Map<string, unknown>, metas: Map<string, unknown> = metaSchemas()): string | undefined {
  const used = new Set<string>();
  const referenced = new Map<string, unknown>();
  const visit = (node: unknown, inherited: string, follow: boolean): void => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    const record = node as Record<string, unknown>;
    const base = typeof record["$id"] === "string" ? (resolveUri(record["$id"], inherited) ?? inherited) : inherited;
    for (const [key, value] of Object.entries(record)) {
      if ((REFUSED_KEYWORDS as readonly string[]).includes(key)) used.add(key);
      // A referenced document's own `$ref` to the 2020-12 meta-schema leads to $dynamicRef.
      if (!follow && key === "$ref" && typeof value === "string" && (resolveUri(value, base) ?? "").startsWith(META_SCHEMA_BASE)) used.add("$dynamicRef");
      if ((key === "$ref" || (key === "$schema" && value !== DIALECT)) && follow && typeof value === "string" && !value.startsWith("#")) {
        const target = resolveUri(value, base)?.split("#")[0];
        const document = target === undefined ? undefined : (remotes.get(target) ?? metas.get(target));
        if (target !== undefined && document !== undefined) referenced.set(target, document);
      } else if (SINGLE.has(key)) visit(value, base, follow);
      else if (LIST.has(key) && Array.isArray(value)) value.forEach((v) => visit(v, base, follow));
      else if (MAP.has(key) && value !== null && typeof value === "object") Object.values(value).forEach((v) => visit(v, base, follow));
    }
  };
  visit(schema, "http://agent-contracts.invalid/root.json", true);
  for (const [uri, document] of referenced) visit(document, uri, false);
  return REFUSED_KEYWORDS.find((k) => used.has(k));
}

/** refused.json as the rule computes it: one entry per refused group, sorted by file then group. */
export function computeRefusals(groups: readonly SuiteGroup[] = suiteGroups(), remotes: Map<string, unknown> = suiteRemotes()): Refusal[] {
  const metas = metaSchemas();
  const refusals: Refusal[] = [];
  for (const g of groups) {
    const keyword = refusalOf(g.schema, remotes, metas);
    if (keyword !== undefined) refusals.push({ file: g.file, group: g.description, keyword });
  }
  return refusals.sort((a, b) => (a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
}

export function committedRefusals(): Refusal[] {
  return JSON.parse(readFileSync(join(SUITE_DIR, "refused.json"), "utf8")) as Refusal[];
}

/**
 * The remotes a schema needs, followed through their own references: what a runtime's test
 * registers (at their http://localhost:1234/ ids) beside the schema.
 */
export function neededRemotes(schema: unknown, remotes: Map<string, unknown>): Map<string, unknown> {
  const needed = new Map<string, unknown>();
  const visit = (node: unknown, inherited: string): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((v) => visit(v, inherited));
    const record = node as Record<string, unknown>;
    const base = typeof record["$id"] === "string" ? (resolveUri(record["$id"], inherited) ?? inherited) : inherited;
    for (const [key, value] of Object.entries(record)) {
      if ((key === "$ref" || key === "$schema") && typeof value === "string") {
        const target = resolveUri(value, base)?.split("#")[0];
        const document = target === undefined ? undefined : remotes.get(target);
        if (target !== undefined && document !== undefined && !needed.has(target)) {
          needed.set(target, document);
          visit(document, target);
        }
      } else if (key !== "const" && key !== "enum" && key !== "default" && key !== "examples") visit(value, base);
    }
  };
  visit(schema, "http://agent-contracts.invalid/root.json");
  return needed;
}
