// Helpers every part of the Swift emitter shares: templates, Swift literals of JSON values, and
// small text fixes.
import { templateFolder, templateRenderer } from "../../emit/render.js";
import type { JsonValue } from "../../model/types.js";
import { stringLiteral } from "./naming.js";
// From the package root, not this file: compiled, every target shares dist/cli/ (generator-home.mjs).
import { packageFileUrl } from "../../write/generator-home.mjs";

export const SOURCES = "Sources/AgentContracts";
export const TESTS = "Tests/AgentContractsTests";

export function article(word: string): string {
  return /^[AEIOU]/.test(word) ? "an" : "a";
}

/** No blank line right after an opening brace, never two blank lines in a row. */
export function tidy(text: string): string {
  return text.replace(/\{\n(\s*\n)+/g, "{\n").replace(/\n(\s*\n){2,}/g, "\n\n");
}

export const render = templateRenderer(templateFolder(packageFileUrl("generators/targets/swift/templates/")), { htmlEscape: false });

export function swiftLiteral(value: JsonValue): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  throw new Error(`no Swift literal for ${JSON.stringify(value)}`);
}

export function jsonValueLiteral(value: JsonValue): string {
  if (typeof value === "string") return `.string(${stringLiteral(value)})`;
  if (typeof value === "boolean") return `.bool(${value})`;
  if (typeof value === "number") return `.number(${Number.isInteger(value) ? value.toFixed(0) : String(value)})`;
  if (value === null) return ".null";
  if (Array.isArray(value)) return `.array([${value.map(jsonValueLiteral).join(", ")}])`;
  return `.object(JSONObject(pairs: [${Object.entries(value).map(([k, v]) => `(${stringLiteral(k)}, ${jsonValueLiteral(v)})`).join(", ")}]))`;
}
