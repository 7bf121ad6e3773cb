// Boolean subschemas generate in every target, and a valid schema with no type shape is a spec
// error (lint type-shape) at its file, line:column and keyword, before any emitter runs.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatSpecError, type Io } from "../cli/io.js";
import { main } from "../cli/main.js";
import { build, loadModel } from "../pipeline.js";
import { connectorFixture } from "./fixture.js";

const RESPONSE = "spec/agent-connector/messages/HttpJsonResponse.yaml";
const work = mkdtempSync(join(tmpdir(), "type-shapes-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(args: string[], root: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.from("") };
  const code = await main(args, io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** HttpJsonResponse with [lines] added as its first properties (line 16 on). */
function withProperties(...lines: string[]): ReturnType<typeof connectorFixture> {
  const fixture = connectorFixture();
  fixture.edit(RESPONSE, "properties:\n", `properties:\n${lines.join("\n")}\n`);
  return fixture;
}

describe("boolean subschemas", () => {
  const fixture = withProperties(
    "  anything: true",
    "  never: false",
    "  noItems: { type: array, items: false }",
    "  narrowed: { allOf: [true, { type: string }] }",
    "  falseRef: { $ref: '#/$defs/nothing' }",
  );
  fixture.edit(RESPONSE, "examples:\n", "$defs:\n  nothing: false\nexamples:\n");

  it("generate builds every target", async () => {
    const result = await build(fixture.root);
    expect(result.ok ? [] : result.errors.map(formatSpecError)).toEqual([]);
    if (!result.ok) return;
    const ts = [...result.rendered.entries()].find(([path, text]) => path.endsWith(".ts") && text.includes("interface HttpJsonResponse"))?.[1] ?? "";
    expect(ts).toMatch(/anything\?: unknown/);
    expect(ts).toMatch(/narrowed\?: string/);
    // Kotlin: `falseSchema(path)?.let { return it }` (items: false) compiles under -Werror only if the check is nullable.
    const kotlin = [...result.rendered.values()].filter((text) => text.includes("falseSchema(")).join("\n");
    expect(kotlin).toMatch(/for \(i in 0 until data\.size\) falseSchema\("\$path\/\$i"\)\?\.let \{ return it \}/);
    expect(kotlin).toContain("fun falseSchema(path: String): ValidationError? =");
  });

  const cases: [string, object, boolean][] = [
    ["true takes any value", { text: "a", anything: { x: [1, null] } }, true],
    ["false takes none", { text: "a", never: 1 }, false],
    ["false takes not even null", { text: "a", never: null }, false],
    ["items: false takes the empty array", { text: "a", noItems: [] }, true],
    ["items: false takes no item", { text: "a", noItems: [1] }, false],
    ["allOf [true, string] takes a string", { text: "a", narrowed: "x" }, true],
    ["allOf [true, string] takes no number", { text: "a", narrowed: 1 }, false],
    ["a $ref to false takes nothing", { text: "a", falseRef: "x" }, false],
  ];
  for (const [name, instance, valid] of cases) {
    it(`validate: ${name}`, async () => {
      const file = join(work, `${name.replace(/\W+/g, "-")}.json`);
      writeFileSync(file, JSON.stringify(instance));
      const r = await run(["validate", "agent-connector", "HttpJsonResponse", file], fixture.root);
      expect(r.code, r.err).toBe(valid ? 0 : 1);
    });
  }
});

describe("lint type-shape: no type shape is a spec error, not a crash", () => {
  // Each line below is added as line 16 of HttpJsonResponse.yaml; the column is the keyword's (counted by hand).
  const cases: [string, string, string, RegExp][] = [
    ["an enum of numbers", "  mixed: { enum: [1, 'a'] }", "16:12 /properties/mixed/enum", /only an enum of strings \(and null\) has a type shape: list strings only/],
    ["an object const", "  fixed: { const: { a: 1 } }", "16:12 /properties/fixed/const", /an object or array const has no type shape: describe the value/],
    ["two types", "  either: { type: [string, integer], minimum: 0, maximum: 1 }", "16:13 /properties/either/type", /type \["string","integer"\] is no single type: every language needs one type here/],
    ["type null", "  nothing: { type: 'null' }", "16:14 /properties/nothing/type", /type null has no Kotlin type \(a member that is always null carries nothing\): drop the member/],
    ["const null", "  none: { const: null }", "16:11 /properties/none/const", /const null has no Kotlin constant form: a const is a string, a boolean or an integer/],
    ["two enum values spelled alike", "  kind: { enum: ['a-b', 'a_b'] }", "16:11 /properties/kind/enum", /enum values "a-b" and "a_b" both become the Kotlin enum constant A_B: make them differ/],
    ["an untitled type that contains itself", "  tree: { properties: { child: { $ref: '#/properties/tree' } } }", "16:3 /properties/tree", /an untitled type contains itself: TypeScript writes an untitled type in place.*give it a title/],
  ];
  for (const [name, line, at, message] of cases) {
    it(`${name}: loadModel reports it at the keyword`, () => {
      const result = loadModel(withProperties(line).root);
      const errors = result.ok ? [] : result.errors.map(formatSpecError);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(`${RESPONSE}:${at} `);
      expect(errors[0]).toMatch(message);
      expect(errors[0]).toMatch(/\[type-shape\]$/);
    });
    it(`${name}: generate exits 1 with it, no stack trace, nothing written`, async () => {
      const fixture = withProperties(line);
      const r = await run(["generate"], fixture.root);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${RESPONSE}:${at} `);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(existsSync(join(fixture.root, "generated"))).toBe(false);
    });
  }
});
