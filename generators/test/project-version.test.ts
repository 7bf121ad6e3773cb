// spec/project.yaml holds the one version every package carries (issue 17): the loader checks it,
// and each generated package states it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../pipeline.js";
import { connectorFixture, REPO_ROOT } from "./fixture.js";

const specVersion = /^ {2}version: (\S+)$/m.exec(readFileSync(`${REPO_ROOT}/spec/project.yaml`, "utf8"))?.[1];

describe("the project version", () => {
  it("is written into the TS, Kotlin and Swift packages", () => {
    expect(specVersion).toMatch(/^\d+\.\d+\.\d+/);
    const read = (path: string) => readFileSync(`${REPO_ROOT}/${path}`, "utf8");
    expect((JSON.parse(read("generated/ts/package.json")) as { version: string }).version).toBe(specVersion);
    expect(read("generated/kotlin/pom.xml")).toContain(`<artifactId>agent-contracts-bindings</artifactId>\n  <version>${specVersion}</version>`);
    expect(read("generated/kotlin/README.md")).toContain(`<version>${specVersion}</version>`);
    expect(read("generated/swift/Sources/AgentContracts/Version.swift")).toContain(`public static let version = "${specVersion}"`);
    expect(read("generated/swift/README.md")).toContain(`Version ${specVersion} `);
  });

  it("is a semantic version; a bad one is reported at spec/project.yaml", () => {
    const rest = "  schemaBase: https://agent-contracts.dev/schemas/\n  packages:\n    npm: x\n    maven: { groupId: a.b, artifactId: c, package: a.b }\n    swift: { package: C, module: C }\n";
    // [file text, line:col and pointer of the first error, message]
    const table: [string, string, RegExp][] = [
      ["project:\n  name: agent-contracts\n  version: 1.2\n" + rest, "3:3 /project/version", /must be string/],
      ["project:\n  name: agent-contracts\n  version: 01.2.3\n" + rest, "3:3 /project/version", /must match pattern/],
      ["project:\n  name: agent-contracts\n  version: 1.2.3\n" + rest + "  bogus: 1\n", "1:1 /project", /must NOT have additional properties \(bogus\)/],
      ["project: 3\n", "1:1 /project", /must be object/],
      ["project:\n  name: agent-contracts\n  version: 1.2.3\n", "1:1 /project", /must have required property 'schemaBase'/],
    ];
    for (const [text, where, message] of table) {
      const fixture = connectorFixture();
      fixture.write("spec/project.yaml", text);
      const result = loadModel(fixture.root);
      expect(result.ok, text).toBe(false);
      if (!result.ok) {
        const e = result.errors[0]!;
        expect(e.file).toBe("spec/project.yaml");
        expect(`${e.line}:${e.column} ${e.pointer}`, text).toBe(where);
        expect(e.message).toMatch(message);
      }
    }
    const good = connectorFixture();
    good.write("spec/project.yaml", "project:\n  name: agent-contracts\n  version: 2.0.0-rc.1\n" + rest);
    const loaded = loadModel(good.root);
    expect(loaded.ok && loaded.model.version).toBe("2.0.0-rc.1");
  });
});
