// Runs every rule over two spec trees and settles each finding's status and witness.
import { compareCompatible, type Change } from "./changes.js";
import { applyConfig, readConfig, type BreakingConfig } from "./config.js";
import { filePosition, finding, type Finding } from "./finding.js";
import { compareLifecycles } from "./lifecycle.js";
import { compareSecurity } from "./security.js";
import { compareSource } from "./source.js";
import { isObj, loadTree, type Located, type SchemaDoc, type SpecTree } from "./tree.js";
import { compareSchemas } from "./wire.js";
import { compareConstantValues, compareCrossFieldRules } from "./wire-declared.js";
import { findWitness, Validators } from "./witness.js";

const rootOf = (doc: SchemaDoc): Located => ({ doc, pointer: "", schema: doc.file.value });

export function compareWire(oldTree: SpecTree, newTree: SpecTree): Finding[] {
  const out: Finding[] = [];
  for (const od of oldTree.schemas) {
    const nd = newTree.byId.get(od.id);
    if (!nd) {
      if (od.kind === "message") {
        out.push(finding("WIRE_MESSAGE_REMOVED", filePosition(newTree.protocols.get(od.owner) ?? od.file, ""), `message ${od.owner}/${od.name} was removed: new readers reject every instance of it`, {
          old: filePosition(od.file, ""),
          removed: true,
          direction: "old-writer-new-reader",
          witnessRequest: { oldRoot: rootOf(od), newRoot: null, path: [], candidates: [], direction: "old-writer-new-reader" },
        }));
      }
      continue;
    }
    out.push(...compareSchemas(oldTree, newTree, rootOf(od), rootOf(nd)));
    if (od.kind === "message") out.push(...compareCrossFieldRules(oldTree, newTree, od, nd));
    const odefs = isObj(od.file.value) && isObj(od.file.value.$defs) ? od.file.value.$defs : {};
    const ndefs = isObj(nd.file.value) && isObj(nd.file.value.$defs) ? nd.file.value.$defs : {};
    for (const name of Object.keys(odefs)) {
      if (!(name in ndefs)) continue;
      const p = `/$defs/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      out.push(...compareSchemas(oldTree, newTree, { doc: od, pointer: p, schema: odefs[name]! }, { doc: nd, pointer: p, schema: ndefs[name]! }));
    }
  }
  out.push(...compareConstantValues(oldTree, newTree));
  return out;
}

export interface CompareResult {
  findings: Finding[];
  /** What breaks no one (additions, documentation), beside the findings: release notes need both. */
  changes: Change[];
  config: BreakingConfig;
}

export function compareTrees(oldTree: SpecTree, newTree: SpecTree, options: { config?: BreakingConfig; oldConfig?: BreakingConfig; witnesses?: boolean } = {}): CompareResult {
  const config = options.config ?? readConfig(newTree.root).config;
  const oldConfig = options.oldConfig ?? readConfig(oldTree.root).config;
  const findings = [...compareSource(oldTree, newTree), ...compareWire(oldTree, newTree), ...compareSecurity(oldTree, newTree), ...compareLifecycles(oldTree, newTree)];
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = `${f.rule} ${f.at.file} ${f.at.pointer} ${f.old?.file ?? ""} ${f.old?.pointer ?? ""} ${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  applyConfig(unique, config, oldConfig.unstable);
  if (options.witnesses !== false && unique.some((f) => f.category === "WIRE")) {
    // Compiling every schema of both versions is the expensive part: only when there is a WIRE finding.
    const ov = new Validators(oldTree);
    const nv = new Validators(newTree);
    // A constant's witness is its old value, set where it is found.
    for (const f of unique) if (f.category === "WIRE" && f.witness === undefined) f.witness = findWitness(f, ov, nv);
    // Inside an intersection (allOf, if/then/else) a sibling may still reject what one part now
    // admits, so there a difference counts only when a witness shows it on the whole schema.
    const inIntersection = (p?: { pointer: string }) => p !== undefined && underIntersection(p.pointer);
    for (let i = unique.length - 1; i >= 0; i--) {
      const f = unique[i]!;
      if (f.category === "WIRE" && !f.witness && (f.maskable || inIntersection(f.at) || inIntersection(f.old))) unique.splice(i, 1);
    }
    for (const f of unique) delete f.maskable;
  }
  unique.sort((a, b) => (a.at.file < b.at.file ? -1 : a.at.file > b.at.file ? 1 : a.at.line - b.at.line || a.at.column - b.at.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
  return { findings: unique, changes: compareCompatible(oldTree, newTree, unique), config };
}

export function compareRoots(oldRoot: string, newRoot: string, options: { witnesses?: boolean } = {}): CompareResult & { errors: ReturnType<typeof loadTree>["errors"]; oldTree: SpecTree; newTree: SpecTree } {
  const oldTree = loadTree(oldRoot);
  const newTree = loadTree(newRoot);
  return { ...compareTrees(oldTree, newTree, options), errors: [...newTree.errors, ...oldTree.errors], oldTree, newTree };
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "prefixItems"]);
const SCHEMA_VALUED = new Set(["items", "additionalProperties", "not", "if", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]);

/**
 * Whether a pointer into a schema passes through allOf, then or else as keywords. Read token by
 * token from the root, so a property or $defs entry named "then" is a name, not the keyword, and
 * whatever follows a keyword whose value is data (const, enum, examples, x-…) is data.
 */
export function underIntersection(pointer: string): boolean {
  let next: "keyword" | "name" = "keyword";
  for (const token of pointer.split("/").slice(1)) {
    if (next === "name") {
      next = "keyword";
      continue;
    }
    if (token === "allOf" || token === "then" || token === "else") return true;
    if (SCHEMA_MAPS.has(token) || SCHEMA_LISTS.has(token)) next = "name";
    else if (!SCHEMA_VALUED.has(token)) return false;
  }
  return false;
}
