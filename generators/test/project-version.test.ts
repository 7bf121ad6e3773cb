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
    const table: [string, RegExp][] = [
      ["project:\n  name: agent-contracts\n  version: 1.2\n", /version must be a semantic version/],
      ["project:\n  name: agent-contracts\n  version: 01.2.3\n", /version must be a semantic version/],
      ["project:\n  name: agent-contracts\n  version: 1.2.3\n  bogus: 1\n", /unknown member "bogus"/],
      ["project: 3\n", /project must be an object/],
    ];
    for (const [text, message] of table) {
      const fixture = connectorFixture();
      fixture.write("spec/project.yaml", text);
      const result = loadModel(fixture.root);
      expect(result.ok, text).toBe(false);
      if (!result.ok) {
        expect(result.errors[0]!.file).toBe("spec/project.yaml");
        expect(result.errors[0]!.message).toMatch(message);
      }
    }
    const good = connectorFixture();
    good.write("spec/project.yaml", "project:\n  name: agent-contracts\n  version: 2.0.0-rc.1\n");
    const loaded = loadModel(good.root);
    expect(loaded.ok && loaded.model.version).toBe("2.0.0-rc.1");
  });
});
