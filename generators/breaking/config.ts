// The `breaking:` section of spec/breaking.yaml: which category to enforce, per-rule exceptions
// (each with a written reason), items marked unstable and tolerant readers. Checked against
// spec/meta/breaking.schema.json by the check stage and again here before use.
import { existsSync } from "node:fs";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { readSpecFile } from "../load/spec-file.js";
import type { SpecError } from "../model/types.js";
import type { Finding, Position } from "./finding.js";
import { enforcedCategories, type Category } from "./rules.js";
import { isObj } from "./tree.js";

export const CONFIG_PATH = "spec/breaking.yaml";
export const CONFIG_META_ID = "https://agent-contracts.dev/meta/breaking.schema.json";

export interface ItemEntry {
  at: string;
  reason: string;
}

export interface BreakingConfig {
  enforce: Category;
  exceptions: (ItemEntry & { rule: string })[];
  unstable: ItemEntry[];
  tolerantReaders: ItemEntry[];
}

export const DEFAULT_CONFIG: BreakingConfig = { enforce: "SOURCE", exceptions: [], unstable: [], tolerantReaders: [] };

/** Reads the config of one spec tree; a missing file is the default. Shape errors are returned, not thrown. */
export function readConfig(root: string): { config: BreakingConfig; errors: SpecError[] } {
  if (!existsSync(`${root}/${CONFIG_PATH}`)) return { config: DEFAULT_CONFIG, errors: [] };
  const read = readSpecFile(root, CONFIG_PATH);
  if (!read.ok) return { config: DEFAULT_CONFIG, errors: read.errors };
  const section = isObj(read.spec.value) && isObj(read.spec.value.breaking) ? read.spec.value.breaking : {};
  const entries = (v: unknown) => (Array.isArray(v) ? v.filter(isObj).map((e) => ({ at: String(e.at ?? ""), reason: String(e.reason ?? ""), rule: String(e.rule ?? "") })) : []);
  return {
    config: {
      enforce: (typeof section.enforce === "string" ? section.enforce : "SOURCE") as Category,
      exceptions: entries(section.exceptions),
      unstable: entries(section.unstable),
      tolerantReaders: entries(section.tolerantReaders),
    },
    errors: [],
  };
}

/** The check stage's hook: spec/breaking.yaml against its meta-schema, and every rule id known. */
export function checkConfigFile(root: string, meta: Ajv2020, knownRules: ReadonlySet<string>): SpecError[] {
  if (!existsSync(`${root}/${CONFIG_PATH}`)) return [];
  const read = readSpecFile(root, CONFIG_PATH);
  if (!read.ok) return read.errors;
  const validate = meta.getSchema(CONFIG_META_ID);
  if (!validate) return [{ file: CONFIG_PATH, line: 1, column: 1, pointer: "", message: `spec/meta has no ${CONFIG_META_ID}`, lint: "breaking-config" }];
  const errors: SpecError[] = [];
  const at = (pointer: string, message: string) => errors.push({ file: CONFIG_PATH, ...read.spec.locate(pointer), pointer, message, lint: "breaking-config" });
  if (!validate(read.spec.value)) for (const e of validate.errors ?? []) at(e.instancePath, `${e.message ?? "is invalid"}`);
  else {
    const section = (read.spec.value as { breaking: { exceptions?: { rule: string }[] } }).breaking;
    (section.exceptions ?? []).forEach((e, i) => {
      if (!knownRules.has(e.rule)) at(`/breaking/exceptions/${i}/rule`, `unknown rule ${e.rule}`);
    });
  }
  return errors;
}

/** `at` names a file (spec/x/messages/A.yaml), a place in it (…A.yaml#/properties/b) or a folder (spec/x/). */
export function matches(at: string, pos: Position | undefined): boolean {
  if (!pos || at === "") return false;
  const [file, pointer] = at.split("#", 2) as [string, string | undefined];
  const fileOk = file.endsWith("/") ? pos.file.startsWith(file) : pos.file === file;
  if (!fileOk) return false;
  if (pointer === undefined || pointer === "") return true;
  return pos.pointer === pointer || pos.pointer.startsWith(`${pointer}/`);
}

const hits = (at: string, f: Finding) => matches(at, f.at) || matches(at, f.old);

/** Sets each finding's status. `unstable` is the union of both versions' lists: an unstable item may leave the list when it is removed. */
export function applyConfig(findings: Finding[], config: BreakingConfig, oldUnstable: ItemEntry[] = []): Finding[] {
  const enforced = new Set(enforcedCategories(config.enforce));
  for (const f of findings) {
    const exception = config.exceptions.find((e) => e.rule === f.rule && (e.at === "" || hits(e.at, f)));
    const unstable = [...config.unstable, ...oldUnstable].find((u) => hits(u.at, f));
    const tolerant = f.direction === "new-writer-old-reader" ? config.tolerantReaders.find((t) => hits(t.at, f)) : undefined;
    if (!enforced.has(f.category)) Object.assign(f, { status: "not-enforced", reason: `category ${f.category} is not enforced (enforce: ${config.enforce})` });
    else if (exception) Object.assign(f, { status: "excepted", reason: exception.reason });
    else if (unstable) Object.assign(f, { status: "unstable", reason: unstable.reason || "marked unstable" });
    else if (tolerant) Object.assign(f, { status: "tolerant-reader", reason: tolerant.reason });
  }
  return findings;
}
