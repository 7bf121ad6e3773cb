// The whole required JSON-Schema-Test-Suite (draft 2020-12) through the validator the TypeScript
// bindings are generated from: ajv as createSchemaCompiler builds it (runtime-keywords.json
// checked, the declared formats asserted), on instances read by the bindings' strict parser.
// Verdicts come from the suite; the refused groups from the rule in suite.ts (refused.json).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "../../generators/model/schema-compiler.js";
import { SchemaKeywordError } from "../../generators/model/runtime-keywords.js";
import type { JsonSchema } from "../../generators/model/types.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { committedRefusals, FORMAT_FILE, neededRemotes, REFUSED_KEYWORDS, suiteGroups, suiteRemotes, type SuiteGroup } from "./suite.js";

const HERE = import.meta.dirname;

interface Outcome {
  refused?: { keyword: string; message: string };
  /** Per test: true when the verdict is the suite's. */
  verdicts: { test: string; agrees: boolean; valid: boolean }[];
  thrown: string[];
}

/** The schema and the remotes it needs; a remote whose `$id` differs from its URL is also reachable at its URL. */
function documentsFor(group: SuiteGroup, index: number): { rootId: string; documents: JsonSchema[] } {
  const documents: JsonSchema[] = [];
  for (const [url, remote] of neededRemotes(group.schema, suiteRemotes())) {
    const doc = remote as JsonSchema;
    if (typeof doc["$id"] !== "string") documents.push({ $id: url, ...doc });
    else {
      documents.push(doc);
      if (doc["$id"] !== url) documents.push({ $id: url, $ref: doc["$id"] });
    }
  }
  const rootId = `http://agent-contracts.invalid/json-schema-test-suite/${index}.json`;
  if (typeof group.schema === "boolean") return { rootId, documents: [{ $id: rootId, allOf: [group.schema] }, ...documents] };
  const schema = group.schema as JsonSchema;
  return { rootId: typeof schema["$id"] === "string" ? schema["$id"] : rootId, documents: [typeof schema["$id"] === "string" ? schema : { $id: rootId, ...schema }, ...documents] };
}

function run(group: SuiteGroup, index: number): Outcome {
  const { rootId, documents } = documentsFor(group, index);
  let validate: ((value: unknown) => boolean) | undefined;
  try {
    validate = createSchemaCompiler(documents).getSchema(rootId);
  } catch (error) {
    if (error instanceof SchemaKeywordError) return { refused: { keyword: error.keyword, message: error.message }, verdicts: [], thrown: [] };
    return { verdicts: [], thrown: [`compile: ${(error as Error).message}`] };
  }
  const outcome: Outcome = { verdicts: [], thrown: [] };
  for (const test of group.tests) {
    try {
      const parsed = parseStrictJson(JSON.stringify(test.data));
      if (!parsed.ok) throw new Error(`the strict parser refuses the instance: ${parsed.error.message}`);
      const valid = validate!(parsed.value);
      outcome.verdicts.push({ test: test.description, agrees: valid === test.valid, valid });
    } catch (error) {
      outcome.thrown.push(`${test.description}: ${(error as Error).message}`);
    }
  }
  return outcome;
}

const groups = suiteGroups();
const outcomes = groups.map((g, i) => ({ group: g, outcome: run(g, i) }));

describe("JSON-Schema-Test-Suite 2020-12 (required) through the TypeScript validators", () => {
  it("refuses exactly the groups of refused.json, each with its keyword", () => {
    const refused = outcomes
      .filter((o) => o.group.file !== FORMAT_FILE && o.outcome.refused !== undefined)
      .map((o) => ({ file: o.group.file, group: o.group.description, keyword: o.outcome.refused!.keyword }))
      .sort((a, b) => (a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    expect(refused).toEqual(committedRefusals());
    for (const r of refused) expect(REFUSED_KEYWORDS).toContain(r.keyword);
  });

  it("throws nothing, at load or out of validation", () => {
    expect(outcomes.flatMap((o) => o.outcome.thrown.map((t) => `${o.group.file} / ${o.group.description}: ${t}`))).toEqual([]);
  });

  // ajv's own annotation bugs (contains, a lone if, items in an anyOf branch) are spelled around
  // by generators/model/annotation-spelling.ts: no case is excepted.
  it("gives every other case the suite's verdict", () => {
    const failures = outcomes
      .filter((o) => o.group.file !== FORMAT_FILE)
      .flatMap((o) => o.outcome.verdicts.filter((v) => !v.agrees).map((v) => ({ file: o.group.file, group: o.group.description, test: v.test })));
    expect(failures).toEqual([]);
  });

  it("format.json: a declared format is asserted (only the annotation-only string differs), any other refused", () => {
    for (const { group, outcome } of outcomes.filter((o) => o.group.file === FORMAT_FILE)) {
      const format = (group.schema as { format: string }).format;
      if (outcome.refused !== undefined) {
        expect(outcome.refused.keyword, format).toBe("format");
        continue;
      }
      for (const v of outcome.verdicts) {
        // The suite's annotation-only case is the one string in each group; the runtimes assert it.
        if (v.test.includes("only an annotation")) expect(v.valid, `${format}: ${v.test}`).toBe(false);
        else expect(v.agrees, `${format}: ${v.test}`).toBe(true);
      }
    }
  });

  it("the counts are the committed ones (counts.json, shown on the Conformance page)", () => {
    const counts = { groups: 0, tests: 0, pass: 0, fail: 0, refused: 0, thrown: 0, formatAsserted: 0, formatRefused: 0 };
    for (const { group, outcome } of outcomes) {
      counts.groups++;
      counts.tests += group.tests.length;
      counts.thrown += outcome.thrown.length;
      if (group.file === FORMAT_FILE) {
        if (outcome.refused !== undefined) counts.formatRefused += group.tests.length;
        else counts.formatAsserted += group.tests.length;
      } else if (outcome.refused !== undefined) counts.refused += group.tests.length;
      else for (const v of outcome.verdicts) v.agrees ? counts.pass++ : counts.fail++;
    }
    console.log(`JSON-Schema-Test-Suite 2020-12 required, TypeScript: ${JSON.stringify(counts)}`);
    const committed = JSON.parse(readFileSync(join(HERE, "counts.json"), "utf8")) as { jsonSchemaTestSuite: Record<string, unknown> };
    expect(counts).toEqual(committed.jsonSchemaTestSuite["typescript"]);
  });
});
