// The "Writing a spec" guide (docs-site/guides/writing-a-spec.md) stays true: its keyword and
// format tables say what each registered target declares it enforces, its policy-lint table lists
// every policy lint with its default, and every project.yaml key it names is in the meta-schema.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_FORMATS, VALIDATION_KEYWORDS } from "../check/keywords.js";
import { POLICY_LINTS } from "../model/project.js";
import { schemaSupportOf } from "../pipeline.js";
import { TARGETS } from "../targets/registry.js";
import { REPO_ROOT } from "./fixture.js";

const guide = readFileSync(join(REPO_ROOT, "docs-site/guides/writing-a-spec.md"), "utf8");
const support = schemaSupportOf(TARGETS);

/** The rows `| \`name\` | yes | no | … |` of the table whose header starts with `| <first> |`. */
function table(first: string): string[][] {
  const start = guide.indexOf(`| ${first} |`);
  expect(start, first).toBeGreaterThan(-1);
  const lines = guide.slice(start).split("\n");
  const end = lines.findIndex((l) => !l.startsWith("|"));
  return lines.slice(2, end).map((l) => l.split("|").slice(1, -1).map((c) => c.trim().replace(/^`|`$/g, "")));
}

describe("the Writing a spec guide", () => {
  it("has one column per registered target that validates messages", () => {
    expect(guide).toContain(`| keyword | ${support.map((t) => t.id).join(" | ")} |`);
  });
  it("states each target's keywords as declared", () => {
    const expected = VALIDATION_KEYWORDS.map((k) => [k, ...support.map((t) => (t.schemaSupport.keywords.includes(k) ? "yes" : "no"))]);
    expect(table("keyword")).toEqual(expected);
  });
  it("states each target's formats as declared", () => {
    const expected = KNOWN_FORMATS.map((f) => [f, ...support.map((t) => (t.schemaSupport.formats.includes(f) ? "yes" : "no"))]);
    expect(table("format")).toEqual(expected);
  });
  it("lists every policy lint with its default", () => {
    expect(table("lint").map(([id, dflt]) => [id, dflt])).toEqual(POLICY_LINTS.map((l) => [l.id, l.defaultOn ? "on" : "off"]));
  });
  it("names only project.yaml keys the meta-schema has", () => {
    const meta = JSON.parse(readFileSync(join(REPO_ROOT, "spec/meta/project.schema.json"), "utf8")) as { properties: { project: { properties: Record<string, { properties?: Record<string, { properties?: object }> }> } } };
    const project = meta.properties.project.properties;
    const known = new Set<string>(["lints.<id>"]);
    for (const [key, value] of Object.entries(project)) {
      known.add(`project.${key}`);
      for (const [sub, subValue] of Object.entries(value.properties ?? {})) {
        known.add(`project.${key}.${sub}`);
        for (const leaf of Object.keys(subValue.properties ?? {})) known.add(`project.${key}.${sub}.${leaf}`);
      }
    }
    const named = table("key").flatMap(([cell]) => cell!.split(/`?, `?/).map((k, i, all) => (k.startsWith(".") ? all[0]!.replace(/\.[^.]+$/, "") + k : k)));
    expect(named.filter((k) => !known.has(k))).toEqual([]);
  });
});
