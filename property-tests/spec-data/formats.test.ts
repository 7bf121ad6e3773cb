// Every `format` the spec uses is exercised by an invalid example, so a validator whose format
// checks are weakened (ajv-formats dropped, a format mapped to "accept anything") fails: the spec's
// examples-valid lint, the TS validators here, and the Kotlin and Swift suites that replay the same
// invalid examples.
import { describe, expect, it } from "vitest";
import { validateMessage } from "../../generated/ts/index.js";
import { loadModel } from "../../generators/pipeline.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";

const result = loadModel(REPO_ROOT);
if (!result.ok) throw new Error("spec has errors");
const messages = result.model.protocols.flatMap((p) => p.messages);

/** (property name, format) for every schema node with a `format`, anywhere in the message schema. */
function formatted(schema: unknown, property = ""): { property: string; format: string }[] {
  if (Array.isArray(schema)) return schema.flatMap((s) => formatted(s, property));
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const own = typeof node["format"] === "string" ? [{ property, format: node["format"] }] : [];
  const nested = Object.entries(node).flatMap(([key, value]) => {
    if (key === "properties" && value !== null && typeof value === "object") {
      return Object.entries(value as Record<string, unknown>).flatMap(([name, sub]) => formatted(sub, name));
    }
    if (key.startsWith("x-") || key === "examples" || key === "format") return [];
    return formatted(value, property);
  });
  return [...own, ...nested];
}

const uses = messages.flatMap((m) => formatted(m.schema).map((u) => ({ ...u, message: m })));

it("the spec's formats are the ones this test knows (uri, hostname)", () => {
  expect([...new Set(uses.map((u) => u.format))].sort()).toEqual(["hostname", "uri"]);
  // date-time is deliberately absent: the shared-timestamp lint makes every timestamp a Timestamp pattern.
  expect(uses).toHaveLength(7);
});

describe.each(uses.map((u) => [`${u.message.protocol}/${u.message.name} ${u.property} (${u.format})`, u] as const))("%s", (_label, use) => {
  const cases = use.message.invalidExamples.filter((x) => x.error.keyword === "format" && x.error.instancePath.split("/").at(-1) === use.property);
  it("has an invalid example failing on that format", () => {
    expect(cases.length).toBeGreaterThanOrEqual(1);
  });
  it("the generated validator refuses it at that property with keyword format", () => {
    for (const c of cases) {
      const out = validateMessage(use.message.protocol, use.message.name, c.instance) as { ok: boolean; errors?: { instancePath: string; keyword: string }[] };
      expect(out.ok, c.description).toBe(false);
      expect(out.errors?.[0], c.description).toMatchObject({ instancePath: c.error.instancePath, keyword: "format" });
      // The same instance with the property's value from a valid example passes: only the format fails.
      const valid = use.message.examples.find((e) => typeof e === "object" && e !== null && use.property in e);
      expect(valid, `a valid example with ${use.property}`).toBeDefined();
      const fixed = { ...(c.instance as object), [use.property]: (valid as Record<string, unknown>)[use.property] };
      expect(validateMessage(use.message.protocol, use.message.name, fixed).ok, `${c.description} with a valid ${use.property}`).toBe(true);
    }
  });
});
