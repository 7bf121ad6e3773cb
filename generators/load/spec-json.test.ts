// The JSON fast path of the spec loader (spec-json.ts) against the YAML library's reading of the
// same text (parseSpecTextWithYaml, the path every spec file took before): the same value, member
// order included, and the same line and column for every pointer, on every JSON file of this
// repository's spec/ and examples/ and on hand-written edge cases; text the fast path must leave to
// YAML (so that its errors are reported as before) is left to it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSpecText, parseSpecTextWithYaml, type SpecFile } from "./spec-file.js";
import { readPlainJson } from "./spec-json.js";
import { MAX_SPEC_DEPTH } from "./spec-guard.js";
import { pointers } from "./json-pointers.js";

const ROOT = resolve(import.meta.dirname, "../..");

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

function expectSameReading(file: string, text: string): void {
  expect(readPlainJson(text, MAX_SPEC_DEPTH), `${file}: the fast path read it`).toBeDefined();
  const fast = parseSpecText(file, text);
  const yaml = parseSpecTextWithYaml(file, text);
  expect(yaml.ok, `${file}: YAML reads it`).toBe(true);
  expect(fast.ok).toBe(true);
  const a = (fast as { spec: SpecFile }).spec;
  const b = (yaml as { spec: SpecFile }).spec;
  // JSON text compares member order too.
  expect(JSON.stringify(a.value)).toBe(JSON.stringify(b.value));
  expect(a.value).toEqual(b.value);
  for (const p of [...pointers(b.value), "/no/such/member", `${pointers(b.value).at(-1)}/missing`]) expect(a.locate(p), `${file} ${p}`).toEqual(b.locate(p));
}

describe("spec JSON read without YAML", () => {
  const files = [...jsonFiles(join(ROOT, "spec")), ...jsonFiles(join(ROOT, "examples")).filter((f) => f.includes("/spec/"))];
  it("there are JSON spec files to compare", () => expect(files.length).toBeGreaterThan(20));
  it.each(files.map((f) => [relative(ROOT, f)]))("%s: the same value and positions as the YAML path", (file) => {
    expectSameReading(file, readFileSync(join(ROOT, file), "utf8"));
  });
  it.each([
    ["escapes", `{"a\\/b": "\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\ud83d\\ude00\\ud800x", "~k": [1, -2.5e-3, 1E+2, 0, 0.5, 9007199254740991]}`],
    ["whitespace everywhere", `\n\t {\n  "a" :\n\t[ true , false,null ] ,\n  "b":{ } , "c" : [ ]\n}\n\n`],
    ["a top-level scalar", `"just a string"`],
    ["a top-level number", ` 42 `],
    ["non-ASCII text before a member", `{"é😀": {"x": "ü"}, "y": 1}`],
    ["deep but under the limit", `${"[".repeat(40)}1${"]".repeat(40)}`],
  ])("%s: the same value and positions as the YAML path", (_name, text) => expectSameReading("spec/x/edge.json", text));
  it.each([
    ["a syntax error", `{"a": 1,}`],
    ["a duplicate key", `{"a": 1, "a": 2}`],
    ["a carriage return", `{"a":\r\n1}`],
    ["a byte order mark", `\ufeff{"a": 1}`],
    ["a __proto__ member", `{"__proto__": {"x": 1}}`],
    ["nesting near the depth limit", `${"[".repeat(MAX_SPEC_DEPTH - 1)}${"]".repeat(MAX_SPEC_DEPTH - 1)}`],
    ["an integer no double holds exactly", `{"n": 9007199254740993}`],
    ["an integer beyond 2^53 - 1", `{"n": 9007199254740992}`],
    ["negative zero", `[-0, -0.0]`],
    ["a number out of range", `[1e400]`],
    ["a raw control character in a string", `["a\tb"]`],
    ["an unknown escape", `["\\x41"]`],
    ["a colon on the next line", `{"a"\n: 1}`],
    ["a key over 1024 characters", `{"${"k".repeat(1100)}": 1}`],
    ["a second value", `{} {}`],
    ["a YAML comment", `{"a": 1} # no`],
    ["a single-quoted string", `['a']`],
    ["a leading plus", `[+1]`],
  ])("%s: left to the YAML path", (_name, text) => {
    expect(readPlainJson(text, MAX_SPEC_DEPTH)).toBeUndefined();
    const yaml = parseSpecTextWithYaml("spec/x/edge.json", text);
    const loaded = parseSpecText("spec/x/edge.json", text);
    expect(loaded.ok).toBe(yaml.ok);
    if (!loaded.ok || !yaml.ok) expect(loaded).toEqual(yaml);
    else for (const p of pointers(yaml.spec.value)) expect(loaded.spec.locate(p)).toEqual(yaml.spec.locate(p));
  });
});
