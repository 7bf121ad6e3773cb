// Shared test helpers: repo paths, JSON loading, and the independent oracles (canonicalize@2.1.0
// and Python's stdlib) that expected values are checked against.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));
export const OUTSIDE: string = `${ROOT}property-tests/vectors/`;

export function readJson<T = any>(relative: string): T {
  return JSON.parse(readFileSync(`${ROOT}${relative}`, "utf8")) as T;
}

const require = createRequire(import.meta.url);
/** The independent RFC 8785 implementation used as an oracle. */
export const oracleCanonicalize: (value: unknown) => string | undefined = require("canonicalize");

/** Runs a Python snippet with `data` (JSON) on stdin and returns its parsed JSON stdout. */
export function python<T = any>(script: string, data: unknown): T {
  const out = execFileSync("python3", ["-c", script], { input: JSON.stringify(data), encoding: "utf8" });
  return JSON.parse(out) as T;
}

export const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, "hex"));

import fc from "fast-check";
import { isInteroperableNumber } from "../../generators/targets/ts/runtime/src/canonical-json.js";

/** Replaces numbers outside the I-JSON domain (see isInteroperableNumber) so round trips apply. */
export function interoperable(value: unknown): any {
  if (typeof value === "number") return isInteroperableNumber(value) ? value : 0;
  if (Array.isArray(value)) return value.map(interoperable);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: interoperable(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** JSON values every conforming strict parser accepts back (full Unicode strings, I-JSON numbers). */
export function ijsonValue(maxDepth: number): fc.Arbitrary<any> {
  return fc.jsonValue({ maxDepth, stringUnit: "binary" }).map(interoperable);
}
