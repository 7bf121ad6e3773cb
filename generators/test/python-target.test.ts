// The toy fourth target (fixtures/python-target): Python dataclasses rendered from the shape model
// for every message of every protocol, with no other target touched. python3 compiles each module
// and round-trips every example of the spec through decode and encode (the example is the
// expectation: it must come back byte-equal as JSON), and refuses a closed enum's unknown value.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { build, loadModel } from "../pipeline.js";
import { REPO_ROOT } from "./fixture.js";
import { pythonTarget } from "./fixtures/python-target/target.js";

const ROUND_TRIP = `
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
cases = json.load(open(sys.argv[2]))
checked = 0
for protocol, messages in cases.items():
    module = importlib.import_module(protocol)
    for name, examples in messages.items():
        for example in examples:
            back = module.encode(module.decode_message(name, example))
            if json.dumps(back, sort_keys=True) != json.dumps(example, sort_keys=True):
                sys.exit(f"{protocol} {name}: {json.dumps(example)} came back as {json.dumps(back)}")
            checked += 1
print(checked)
`;

/** Generates the target for a spec project into a temporary folder and returns it. */
async function generatePython(root: string): Promise<{ dir: string; files: string[] }> {
  const result = await build(root, [pythonTarget]);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join("\n"));
  const dir = mkdtempSync(`${tmpdir()}/agent-contracts-python-`);
  const files: string[] = [];
  for (const [path, contents] of result.rendered) {
    if (!path.startsWith("generated/python/")) continue;
    writeFileSync(`${dir}/${path.slice("generated/python/".length)}`, contents);
    files.push(path);
  }
  return { dir, files };
}

function roundTrip(root: string, dir: string): number {
  const model = loadModel(root);
  if (!model.ok) throw new Error("spec has errors");
  const cases = Object.fromEntries(model.model.protocols.map((p) => [p.id.replaceAll("-", "_"), Object.fromEntries(p.messages.map((m) => [m.name, m.examples]))]));
  writeFileSync(`${dir}/cases.json`, JSON.stringify(cases));
  writeFileSync(`${dir}/round_trip.py`, ROUND_TRIP);
  return Number(execFileSync("python3", [`${dir}/round_trip.py`, dir, `${dir}/cases.json`], { encoding: "utf8" }).trim());
}

describe("a Python dataclasses target over the shape model", () => {
  it("writes one module per protocol of this repository, only under its own folder, and python3 compiles them", async () => {
    const { dir, files } = await generatePython(REPO_ROOT);
    expect(files.sort()).toEqual(["generated/python/agent_connector.py", "generated/python/agent_provider.py", "generated/python/agent_service.py", "generated/python/provider_integration.py"]);
    execFileSync("python3", ["-m", "py_compile", ...files.map((f) => `${dir}/${f.slice("generated/python/".length)}`)]);
  });

  it("round-trips every example of every message of every protocol", async () => {
    const { dir } = await generatePython(REPO_ROOT);
    const model = loadModel(REPO_ROOT);
    if (!model.ok) throw new Error("spec has errors");
    const examples = model.model.protocols.reduce((n, p) => n + p.messages.reduce((k, m) => k + m.examples.length, 0), 0);
    expect(roundTrip(REPO_ROOT, dir)).toBe(examples);
    expect(examples).toBeGreaterThan(100);
  });

  it("types a new protocol too (the doorbell fixture), refusing a closed enum's unknown value and keeping an open one's", async () => {
    const root = mkdtempSync(`${tmpdir()}/agent-contracts-doorbell-`);
    mkdirSync(`${root}/spec`);
    for (const dir of ["meta", "common"]) cpSync(`${REPO_ROOT}/spec/${dir}`, `${root}/spec/${dir}`, { recursive: true });
    cpSync(`${REPO_ROOT}/spec/project.yaml`, `${root}/spec/project.yaml`);
    cpSync(`${REPO_ROOT}/generators/test/fixtures/doorbell/spec/doorbell`, `${root}/spec/doorbell`, { recursive: true });
    const { dir } = await generatePython(root);
    expect(roundTrip(root, dir)).toBe(5);
    const probe = (settings: object) =>
      execFileSync("python3", ["-c", `import sys, json; sys.path.insert(0, ${JSON.stringify(dir)}); import doorbell\ntry:\n    print(doorbell.decode_message("ChimeSettings", json.loads(sys.argv[1])).mode)\nexcept ValueError as e:\n    print("refused:", e)`, JSON.stringify(settings)], { encoding: "utf8" }).trim();
    expect(probe({ tune: "ding-dong", mode: "party", quiet_until: null, volume: 1 })).toBe("party");
    expect(probe({ tune: "cuckoo", mode: "normal", quiet_until: null, volume: 1 })).toBe("refused: 'cuckoo' is not one of ('ding-dong', 'westminster')");
    expect(probe({ tune: "ding-dong", mode: "normal", quiet_until: null, volume: 1, colour: "red" })).toMatch(/^refused: ChimeSettings: unknown members \['colour'\]/);
  });
});
