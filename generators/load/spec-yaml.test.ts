// The block-YAML fast path of the spec loader (spec-yaml.ts) against the YAML library's reading of
// the same text (parseSpecTextWithYaml, the path every YAML spec file took before): the same value,
// member order included, and the same line and column for every pointer, on every YAML file of
// this repository's spec/ and examples/ and on hand-written edge cases; text the fast path must
// leave to the library (so that its errors, or its reading of rarer YAML, stay the library's) is
// left to it, and the loader's result for it is the library's.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseSpecText, parseSpecTextWithYaml, type SpecFile } from "./spec-file.js";
import { readPlainYaml } from "./spec-yaml.js";
import { MAX_SPEC_DEPTH } from "./spec-guard.js";
import { pointers } from "./json-pointers.js";

const ROOT = resolve(import.meta.dirname, "../..");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

function expectSameReading(file: string, text: string): void {
  const yaml = parseSpecTextWithYaml(file, text);
  expect(yaml.ok, `${file}: the YAML library reads it`).toBe(true);
  const fast = readPlainYaml(text, MAX_SPEC_DEPTH);
  expect(fast, `${file}: the fast path read it`).toBeDefined();
  const b = (yaml as { spec: SpecFile }).spec;
  // JSON text compares member order too; toEqual tells -0 from 0 and a missing member from null.
  expect(JSON.stringify(fast!.value)).toBe(JSON.stringify(b.value));
  expect(fast!.value).toEqual(b.value);
  const loaded = parseSpecText(file, text);
  expect(loaded.ok).toBe(true);
  const a = (loaded as { spec: SpecFile }).spec;
  for (const p of [...pointers(b.value), "/no/such/member"]) expect(a.locate(p), `${file} ${p}`).toEqual(b.locate(p));
}

function expectLeftToLibrary(text: string): void {
  expect(readPlainYaml(text, MAX_SPEC_DEPTH)).toBeUndefined();
  const yaml = parseSpecTextWithYaml("spec/x/edge.yaml", text);
  const loaded = parseSpecText("spec/x/edge.yaml", text);
  expect(loaded.ok).toBe(yaml.ok);
  if (!loaded.ok || !yaml.ok) return void expect(loaded).toEqual(yaml);
  expect(loaded.spec.value).toEqual(yaml.spec.value);
  for (const p of pointers(yaml.spec.value)) expect(loaded.spec.locate(p)).toEqual(yaml.spec.locate(p));
}

describe("spec YAML read without the YAML library", () => {
  const files = [...yamlFiles(join(ROOT, "spec")), ...yamlFiles(join(ROOT, "examples"))].map((f) => relative(ROOT, f));
  const read = files.filter((f) => readPlainYaml(readFileSync(join(ROOT, f), "utf8"), MAX_SPEC_DEPTH) !== undefined);

  it("reads nearly every YAML file of spec/ and examples/ itself (else the speed-up is gone)", () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files.filter((f) => !read.includes(f))).toEqual([]);
  });
  it.each(read.map((f) => [f]))("%s: the same value and positions as the library", (file) => {
    expectSameReading(file, readFileSync(join(ROOT, file), "utf8"));
  });

  it.each([
    ["scalars of the core schema", "a: null\nb: ~\nc:\nd: true\ne: False\nf: TRUE\ng: 12\nh: -3\ni: 0.5\nj: -12.25\nk: 1.0.0\nl: 9.9 text\nm: 0123abc\nn: yes\no: .5x\n"],
    ["quoted scalars", `a: 'it''s'\nb: "tab\\t \\"q\\" \\\\ \\/ \\u00e9 \\n"\nc: ''\nd: ""\n'e f': 1\n"g:h": 2\n`],
    ["comments everywhere", "# head\na: 1 # one\n\n  # indented comment\nb: # nothing on this line\n  c: x#not-a-comment\n# tail\n"],
    ["sequences in every position", "a:\n- 1\n- x\nb:\n  - - 1\n    - 2\n  - k: v\n    l: w\n  -\n    m: n\nc: [1, 'two', {d: e}, []]\n"],
    ["flow collections", "a: { name: X, value: 'agent.provider.action', description: Y JSON. }\nb: [https://x.example/a:b, c-d, -5]\nc: {\"q\":1, 'r': [ ]}\n"],
    ["folded and literal block scalars", "a: >-\n  one\n  two\n\n  three\n\n\n  four\nb: |\n  line 1\n\n    indented\n  end\nc: >\n  clip\n\nd: |-\n  strip\n\n\ne: |+\n  keep\n\nf: x\n"],
    ["block scalars in sequences and at the end", "- >-\n  folded\n  item\n- |+\n  kept\n\n"],
    ["a block scalar ended by a less indented comment", "a:\n  b: >-\n    text\n  # a comment\n  c: 1\n"],
    ["keys that need escaping in pointers", "a/b: 1\n'~c': 2\n\"é😀\": {x: ü}\n"],
    ["plain scalars with inner punctuation", "a: x, y] {z}\nb: 'a: b'\nc: -x\nd: 100%\ne: C#\n"],
    ["a root sequence", "- a\n- b: c\n"],
    ["deep but under the limit", `${Array.from({ length: 30 }, (_, i) => `${" ".repeat(2 * i)}k${i}:`).join("\n")} end\n`],
    ["no final line break", "a: 1\nb: [x]"],
    ["flow collections over several lines", "a: [1,\n  2, # two\n  {b: c,\n   d: e}]\nf:\n  g: [x,\n     y]\n"],
  ])("%s: the same value and positions as the library", (_name, text) => expectSameReading("spec/x/edge.yaml", text));

  it.each([
    ["an anchor and alias", "a: &x 1\nb: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["a custom tag", "a: !thing 1\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a multi-line plain scalar", "a: one\n  two\n"],
    ["a multi-line quoted scalar", "a: 'one\n  two'\n"],
    ["a flow collection's line not indented beyond its block", "a:\n  b: [1,\n  2]\n"],
    ["a flow collection with a blank line", "a: [1,\n\n  2]\n"],
    ["a plain scalar broken across a flow collection's lines", "a: [one\n  two]\n"],
    ["a key that is not a string", "1: a\n"],
    ["a null key", "~: a\n"],
    ["an octal, a hex and a plus-signed number", "a: 0o17\nb: 0x1F\nc: +1\n"],
    ["an exponent and infinity", "a: 1e3\nb: .inf\n"],
    ["an integer beyond 2^53 - 1", "a: 9007199254740993\n"],
    ["negative zero", "a: -0\n"],
    ["a document marker", "---\na: 1\n"],
    ["a tab", "a:\t1\n"],
    ["a carriage return", "a: 1\r\n"],
    ["a __proto__ key", "__proto__: {x: 1}\n"],
    ["a merge key", "<<: {x: 1}\n"],
    ["a mapping value on the key's line", "a: b: c\n"],
    ["bad indentation", "a:\n    b: 1\n  c: 2\n"],
    ["a block scalar with an indentation indicator", "a: >2\n   x\n"],
    ["a block scalar with leading blank lines", "a: |\n\n  x\n"],
    ["a more-indented folded line", "a: >\n  x\n    y\n  z\n"],
    ["an unknown escape", `a: "\\x41"\n`],
    ["a lone surrogate escape", `a: "\\ud800"\n`],
    ["a trailing comma in a flow sequence", "a: [1, 2,]\n"],
    ["a flow mapping key without a value", "a: {b}\n"],
    ["an empty sequence item", "a:\n- \n- 1\n"],
    ["an empty document", "# only a comment\n"],
    ["an indented root", "  a: 1\n"],
    ["a key over 1024 characters", `${"k".repeat(1100)}: 1\n`],
    ["nesting near the depth limit", `${Array.from({ length: MAX_SPEC_DEPTH }, (_, i) => `${" ".repeat(i)}- `).join("\n")}x\n`],
    ["a syntax error", "a: [1\n"],
  ])("%s: left to the YAML library", (_name, text) => expectLeftToLibrary(text));
});

describe("spec YAML fast path against the library on generated documents", () => {
  // Documents the library writes in its several styles: where the fast path reads one, it must
  // read the library's value and positions; where it declines, the loader's answer is the library's.
  const key = fc.oneof(fc.constantFrom("a", "b c", "x-y", "1", "true", "null", "#k", "k:", "é", "~t"), fc.string({ maxLength: 6 }));
  const scalar = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom("", " lead", "trail ", "a: b", "a #b", "-x", "- x", "[x]", "{y}", "'q'", '"d"', "line\nbreak", "two\n\nbreaks\n", "tab\there", "12", "1.50", "0x1F", "~", "True", "é😀"),
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(key, tie("node"), { maxKeys: 4 })),
  })).node;
  const style = fc.record({
    lineWidth: fc.constantFrom(0, 20, 40, 80),
    indent: fc.constantFrom(2, 4),
    indentSeq: fc.boolean(),
    flowCollectionPadding: fc.boolean(),
    collectionStyle: fc.constantFrom("any", "block", "flow"),
    defaultStringType: fc.constantFrom("PLAIN", "QUOTE_SINGLE", "QUOTE_DOUBLE", "BLOCK_FOLDED", "BLOCK_LITERAL"),
    defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE"),
  });

  it("reads what the library reads, or leaves it to the library", () => {
    let read = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), style, (doc, options) => {
        const text = stringify(doc, options as never);
        const yaml = parseSpecTextWithYaml("spec/x/gen.yaml", text);
        const fast = readPlainYaml(text, MAX_SPEC_DEPTH);
        if (fast === undefined || !yaml.ok) {
          if (fast !== undefined) expect.fail(`the fast path read text the library refuses:\n${text}`);
          return;
        }
        read++;
        expect(fast.value).toEqual(yaml.spec.value);
        const loaded = parseSpecText("spec/x/gen.yaml", text);
        expect(loaded.ok).toBe(true);
        if (loaded.ok) for (const p of pointers(yaml.spec.value)) expect(loaded.spec.locate(p), `${p} in\n${text}`).toEqual(yaml.spec.locate(p));
      }),
      { numRuns: 800, seed: 36 },
    );
    // The property means something only if many documents took the fast path (about a quarter do:
    // arbitrary strings bring tabs, control characters and exponents it leaves to the library).
    expect(read).toBeGreaterThan(150);
  });
});
