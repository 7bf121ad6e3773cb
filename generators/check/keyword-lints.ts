// Which JSON Schema keywords a spec file uses, against what the generators can honour: a key no
// target knows is a typo (unknown-keyword, with the closest keyword), and a keyword or format
// some registered target's runtime does not enforce is refused (target-keywords), each at the
// key's own line and column. Both run before any schema is compiled, so a typo is reported once,
// in its own file, never as a compile error of every file that $refs it.
import type { SpecFile } from "../load/spec-file.js";
import { joinPointer } from "../load/spec-file.js";
import type { SpecError } from "../model/types.js";
import { ANNOTATION_KEYWORDS, closestKeyword, KNOWN_FORMATS, VALIDATION_KEYWORDS, type SchemaSupport } from "./keywords.js";
import { reporter, walkSchemas } from "./lints.js";

/** A registered target's id and what its runtime enforces. */
export interface TargetSupport {
  id: string;
  schemaSupport: SchemaSupport;
}

const KNOWN = new Set([...VALIDATION_KEYWORDS, ...ANNOTATION_KEYWORDS]);
const ALL_KEYWORDS = [...VALIDATION_KEYWORDS, ...ANNOTATION_KEYWORDS];

export function lintUnknownKeywords(file: SpecFile, errors: SpecError[]): void {
  const keyword = reporter(file, "unknown-keyword", errors);
  const format = reporter(file, "unknown-format", errors);
  walkSchemas(file.value, "", (schema, pointer) => {
    for (const key of Object.keys(schema)) {
      if (key.startsWith("x-") || KNOWN.has(key)) continue;
      const guess = closestKeyword(key, ALL_KEYWORDS);
      keyword(joinPointer(pointer, key), `unknown keyword ${key}${guess === undefined ? "" : ` (did you mean ${guess}?)`}`);
    }
    const value = schema["format"];
    if (typeof value === "string" && !KNOWN_FORMATS.includes(value)) {
      const guess = closestKeyword(value, KNOWN_FORMATS);
      format(joinPointer(pointer, "format"), `unknown format ${value}${guess === undefined ? "" : ` (did you mean ${guess}?)`}`);
    }
  });
}

export function lintTargetKeywords(file: SpecFile, targets: readonly TargetSupport[], errors: SpecError[]): void {
  const report = reporter(file, "target-keywords", errors);
  const lacking = (has: (support: SchemaSupport) => boolean) => targets.filter((t) => !has(t.schemaSupport)).map((t) => t.id);
  walkSchemas(file.value, "", (schema, pointer) => {
    for (const key of Object.keys(schema)) {
      if (!VALIDATION_KEYWORDS.includes(key)) continue;
      const without = lacking((s) => s.keywords.includes(key));
      if (without.length > 0) report(joinPointer(pointer, key), `keyword ${key} is not enforced by the ${names(without)} runtime${without.length > 1 ? "s" : ""}: a binding would throw on it or skip it`);
    }
    const value = schema["format"];
    // An unknown format is the unknown-format lint's.
    if (typeof value === "string" && KNOWN_FORMATS.includes(value)) {
      const without = lacking((s) => s.formats.includes(value));
      if (without.length > 0) report(joinPointer(pointer, "format"), `format ${value} is not checked by the ${names(without)} runtime${without.length > 1 ? "s" : ""}: use a pattern instead`);
    }
  });
}

function names(ids: readonly string[]): string {
  return ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1]!}`;
}
