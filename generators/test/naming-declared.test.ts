// Each language target declares its naming service (targets/target.ts Naming), and the service
// answers what the target really writes: every message's type is in the file naming.file says,
// under the name naming.type gives, with its first member named as naming.member says.
import { describe, expect, it } from "vitest";
import { build, loadModel } from "../pipeline.js";
import { TARGETS } from "../targets/registry.js";
import type { Target } from "../targets/target.js";
import { REPO_ROOT } from "./fixture.js";
import { pythonTarget } from "./fixtures/python-target/target.js";

const model = loadModel(REPO_ROOT);
if (!model.ok) throw new Error("spec has errors");

describe.each([...TARGETS.filter((t) => t.naming !== undefined), pythonTarget as Target<unknown>].map((t) => [t.id, t] as const))("the %s target's naming service", (_id, target) => {
  it("names every message's type and file as the emitted files do", async () => {
    const result = await build(REPO_ROOT, [target]);
    if (!result.ok) throw new Error("build failed");
    const naming = target.naming!;
    let checked = 0;
    for (const protocol of model.model.protocols) {
      for (const message of protocol.messages) {
        const type = naming.type(message.name);
        const text = result.rendered.get(`${target.outDir}/${naming.file(protocol.id, type)}`);
        expect(text, `${protocol.id} ${message.name}: ${naming.file(protocol.id, type)}`).toBeDefined();
        expect(text).toMatch(new RegExp(`(class|struct|enum|interface|object) ${type}\\b|^    "${type}": \\(`, "m"));
        const first = (message.schema["properties"] ?? {}) as Record<string, unknown>;
        const wire = Object.keys(first)[0];
        if (wire !== undefined && message.signature?.algorithmField !== wire) expect(text, `${message.name}.${wire}`).toContain(naming.member(wire));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

it("the registry's language targets declare a naming service", () => {
  expect(TARGETS.filter((t) => t.naming !== undefined).map((t) => t.id)).toEqual(["kotlin", "swift", "rust"]);
});
