// Which of the strict parser's two paths answered: the fast path (strict-json-check.ts) returns the
// very object JSON.parse built, the stepwise parser its own. Shared by the fast path's kill tests.
import { afterEach, beforeEach, expect } from "vitest";
import { parseStrictJson, parseStrictJsonStepwise, type StrictJsonLimits } from "../../generators/targets/ts/runtime/src/strict-json.js";

const nativeParse = JSON.parse;
let lastNative: unknown;

/** Records what JSON.parse returns during each test of the calling file (call at its top level). */
export function recordJsonParse(): void {
  beforeEach(() => {
    JSON.parse = ((text: string, reviver?: Parameters<typeof nativeParse>[1]) => (lastNative = nativeParse(text, reviver))) as typeof JSON.parse;
  });
  afterEach(() => {
    JSON.parse = nativeParse;
  });
}

/** What JSON.parse returned last in the current test (undefined before a call or after path()'s reset). */
export const lastJsonParseResult = (): unknown => lastNative;

/** "fast" when parseStrictJson returned JSON.parse's own object, else "stepwise"; the value must equal the stepwise parser's either way. */
export function path(text: string, limits: StrictJsonLimits = {}): string {
  lastNative = undefined;
  const fast = parseStrictJson(text, limits);
  const stepwise = parseStrictJsonStepwise(text, limits);
  expect(fast, text).toEqual(stepwise);
  if (!fast.ok) return `error ${fast.error.code}`;
  return fast.value === lastNative && typeof fast.value === "object" && fast.value !== null ? "fast" : "stepwise";
}
