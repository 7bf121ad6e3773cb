// The shared cases every language replays, counted per kind from spec/, and the copies the Kotlin
// and Swift packages carry as test resources checked against them: same cases, same counts, so
// "the Kotlin (or Swift) suite ran N cases" means the same N as here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../../generators/pipeline.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";

const result = loadModel(REPO_ROOT);
if (!result.ok) throw new Error("spec has errors");
const { model } = result;
const json = (path: string) => JSON.parse(readFileSync(`${REPO_ROOT}/${path}`, "utf8")) as Record<string, unknown>;

const examples = Object.fromEntries(
  model.protocols.map((p) => [p.id, { valid: p.messages.reduce((n, m) => n + m.examples.length, 0), invalid: p.messages.reduce((n, m) => n + m.invalidExamples.length, 0) }]),
);
const vectorFiles = ["spec/common/vectors", ...model.protocols.map((p) => `spec/${p.id}/vectors`)].flatMap((dir) => {
  try {
    return readdirSync(`${REPO_ROOT}/${dir}`).filter((f) => f.endsWith(".json")).map((f) => `${dir}/${f}`);
  } catch {
    return [];
  }
});
const vectors = Object.fromEntries(vectorFiles.map((f) => [f, (json(f)["cases"] as unknown[]).length]));
const pathsFiles = model.protocols.flatMap((p) => p.lifecycles.map((l) => ({ protocol: p.id, name: l.name, file: `spec/${p.id}/lifecycles/${l.name}.paths.json` })));
const paths = Object.fromEntries(pathsFiles.map((f) => [f.file, (json(f.file)["cases"] as unknown[]).length]));

describe("shared cases", () => {
  it("counts every kind (printed for comparison with the Kotlin and Swift suites)", () => {
    const total = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const validCount = Object.values(examples).reduce((n, e) => n + e.valid, 0);
    const invalidCount = Object.values(examples).reduce((n, e) => n + e.invalid, 0);
    console.log(`shared cases: examples valid=${validCount} invalid=${invalidCount}; vectors=${total(vectors)} (${Object.entries(vectors).map(([f, n]) => `${f.split("/").pop()}=${n}`).join(", ")}); lifecycle paths=${total(paths)} in ${pathsFiles.length} machines`);
    expect(validCount).toBeGreaterThan(0);
    expect(invalidCount).toBeGreaterThan(0);
    expect(total(vectors)).toBeGreaterThan(0);
    expect(total(paths)).toBeGreaterThan(0);
  });

  for (const protocol of model.protocols) {
    it(`${protocol.id}: the Kotlin and Swift example resources hold exactly the spec's examples`, () => {
      const kotlin = json(`generated/kotlin/src/test/resources/examples/${protocol.id}.json`) as { messages: { name: string; examples: unknown[]; invalidExamples: unknown[] }[] };
      const swift = json(`generated/swift/Tests/AgentContractsTests/Resources/examples/${protocol.id}.json`) as { messages: { message: string; valid: unknown[]; invalid: unknown[] }[] };
      for (const message of protocol.messages) {
        const k = kotlin.messages.find((m) => m.name === message.name);
        const s = swift.messages.find((m) => m.message === message.name);
        expect([k?.examples.length, k?.invalidExamples.length], `Kotlin ${message.name}`).toEqual([message.examples.length, message.invalidExamples.length]);
        expect([s?.valid.length, s?.invalid.length], `Swift ${message.name}`).toEqual([message.examples.length, message.invalidExamples.length]);
      }
    });
  }

  // Kotlin no longer carries the paths suites: the shared-case driver (property-tests/drivers) feeds
  // their steps to the Kotlin runtime from spec/ itself.
  it("the Swift lifecycle resources are byte-identical to spec/**/*.paths.json; Kotlin carries none", () => {
    expect(existsSync(`${REPO_ROOT}/generated/kotlin/src/test/resources/lifecycles`)).toBe(false);
    for (const f of pathsFiles) {
      const spec = readFileSync(`${REPO_ROOT}/${f.file}`, "utf8");
      expect(readFileSync(`${REPO_ROOT}/generated/swift/Tests/AgentContractsTests/Resources/${f.protocol}/lifecycles/${f.name}.paths.json`, "utf8").replace(/^\/\/.*\n/, ""), f.file).toBe(spec);
    }
  });

  // spec/common/vectors (strict JSON, JCS) are the generator's own data, answered through the
  // shared-case drivers (property-tests/drivers), so no package carries a copy of them.
  it("the Swift vector resources hold every protocol's spec vector, and no copy of the common ones", () => {
    expect(existsSync(`${REPO_ROOT}/generated/swift/Tests/AgentContractsTests/Resources/common`)).toBe(false);
    for (const file of vectorFiles.filter((f) => !f.startsWith("spec/common/"))) {
      const rel = file.replace(/^spec\//, "").replace("/vectors/", "/vectors/").replace(/^common\/vectors\//, "common/");
      const copy = json(`generated/swift/Tests/AgentContractsTests/Resources/${rel}`);
      expect((copy["cases"] as unknown[]).length, file).toBe(vectors[file]);
    }
  });
});
