// The two rule kinds the Agent Connector messages use beyond plain JSON Schema, on the shared
// vectors the Kotlin and Swift runtimes read too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SECRET_TEXT_MAX_UNITS, containsSecret, findSecret } from "../../generators/targets/ts/runtime/src/secret-text.js";
import { checkHttpsUrl } from "../../generators/targets/ts/runtime/src/whatwg-url.js";
import { originOf } from "../../generators/targets/ts/runtime/src/rules.js";

const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const secrets = read("spec/agent-connector/vectors/secret-text.json") as { cases: { name: string; shape: string; text: string; secret: boolean }[] };
const urls = read("spec/agent-connector/vectors/whatwg-urls.json") as { cases: { name: string; url: string; origin: boolean; endpoint: boolean; originOf: string | null }[] };

describe("noSecrets (spec/agent-connector/vectors/secret-text.json)", () => {
  it("has cases for every shape, both ways", () => {
    const shapes = new Set(secrets.cases.map((c) => c.shape));
    expect([...shapes].sort()).toEqual(["api-key-prefix", "assignment", "aws-access-key", "basic", "bearer", "clean", "google-api-key", "jose", "private-key", "url-credentials"]);
    for (const shape of shapes) if (shape !== "clean") expect(new Set(secrets.cases.filter((c) => c.shape === shape).map((c) => c.secret))).toEqual(new Set([true, false]));
  });
  for (const c of secrets.cases) {
    it(`${c.name} ${JSON.stringify(c.text).slice(0, 70)} -> ${c.secret ? "secret" : "clean"}`, () => {
      expect(containsSecret(c.text)).toBe(c.secret);
      // A refusal names the shape the case probes, unless an earlier stage of the filter fires.
      if (c.secret && c.shape !== "clean") expect(findSecret(c.text)).toBeDefined();
    });
  }
  it("refuses text longer than its limit without scanning it", () => {
    expect(findSecret("a".repeat(SECRET_TEXT_MAX_UNITS + 1))).toBe("too-long");
  });
  it("scans adversarial repetitions of every shape's prefix (linear scan, no backtracking)", () => {
    // Each of these makes a backtracking regex for the shape quadratic or worse.
    const parts = ["sk-", "Basic a", "-----BEGIN ", "a.", "token", "\"token", "https://a:", "Bearer ", "AIza", "AKIA"];
    for (const part of parts) expect(containsSecret(part.repeat(Math.floor(SECRET_TEXT_MAX_UNITS / part.length)))).toBeTypeOf("boolean");
  });
});

describe("whatwgUrl and urlOriginIn (spec/agent-connector/vectors/whatwg-urls.json)", () => {
  for (const c of urls.cases) {
    it(`${c.name} ${JSON.stringify(c.url)}`, () => {
      expect(checkHttpsUrl(c.url, "origin")).toBe(c.origin);
      expect(checkHttpsUrl(c.url, "endpoint")).toBe(c.endpoint);
      expect(originOf(c.url) ?? null).toBe(c.originOf);
    });
  }
});
