// spec/project.yaml names the project (issue 30): every target writes its package under those
// names, and nothing of this repository's identity is left in the output of another project.
// The expected names are the issue's own example project, written out by hand here.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { build } from "../pipeline.js";
import { connectorFixture } from "./fixture.js";
import { ourNamesIn } from "./our-names.js";

const DOORBELL = `project:
  name: doorbell-contracts
  version: 0.3.0
  schemaBase: https://schemas.example.org/doorbell/
  packages:
    npm: "@example/doorbell-contracts"
    maven: { groupId: org.example.doorbell, artifactId: doorbell-contracts, package: org.example.doorbell }
    swift: { package: DoorbellContracts, module: DoorbellContracts }
`;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(`${dir}/${n}`).isDirectory() ? walk(`${dir}/${n}`) : [`${dir}/${n}`]));
}

describe("the project's identity (spec/project.yaml)", () => {
  it("names every package another project generates, and none of this repository's names is left", async () => {
    const fixture = connectorFixture();
    for (const path of walk(`${fixture.root}/spec`)) {
      if (!path.includes("/spec/meta/")) writeFileSync(path, readFileSync(path, "utf8").replaceAll("https://agent-contracts.dev/schemas/", "https://schemas.example.org/doorbell/"));
    }
    fixture.write("spec/project.yaml", DOORBELL);
    const result = await build(fixture.root);
    if (!result.ok) throw new Error(result.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("\n"));
    const out = result.rendered;

    const pkg = JSON.parse(out.get("generated/ts/package.json")!) as { name: string; version: string };
    expect([pkg.name, pkg.version]).toEqual(["@example/doorbell-contracts", "0.3.0"]);
    expect(out.get("generated/ts/README.md")).toContain('from "@example/doorbell-contracts"');
    expect(out.get("generated/kotlin/pom.xml")).toContain("<groupId>org.example.doorbell</groupId>\n  <artifactId>doorbell-contracts</artifactId>\n  <version>0.3.0</version>");
    expect(out.get("generated/kotlin/src/main/kotlin/org/example/doorbell/runtime/CanonicalJson.kt")).toMatch(/\npackage org\.example\.doorbell\.runtime\n/);
    expect(out.get("generated/kotlin/src/main/kotlin/org/example/doorbell/agentconnector/AgentConnectorValidators.kt")).toMatch(/\npackage org\.example\.doorbell\.agentconnector\n/);
    expect([...out.keys()].some((p) => p.startsWith("generated/kotlin/src/main/resources/org/example/doorbell/schemas/"))).toBe(true);
    const manifest = out.get("generated/swift/Package.swift")!;
    expect(manifest).toContain('name: "DoorbellContracts",');
    expect(manifest).toContain('.target(name: "DoorbellContracts", path: "Sources/DoorbellContracts")');
    expect(manifest).toContain('name: "DoorbellContractsTests",');
    expect(out.get("generated/swift/Sources/DoorbellContracts/Version.swift")).toContain('public enum DoorbellContractsPackage {\n    public static let version = "0.3.0"');
    expect(out.get("generated/swift/Tests/DoorbellContractsTests/ExampleTests.swift")).toMatch(/\n@testable import DoorbellContracts\n/);

    expect(ourNamesIn(out)).toEqual([]);
  }, 120_000);

  it("refuses a $id outside the project's schemaBase, at the $id", () => {
    // The fixture keeps this repository's $ids; a project with another base must refuse them.
    const fixture = connectorFixture();
    fixture.write("spec/project.yaml", DOORBELL);
    return build(fixture.root).then((result) => {
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const first = result.errors.find((e) => e.lint === "id-matches-file")!;
      expect(first.message).toMatch(/^\$id must be https:\/\/schemas\.example\.org\/doorbell\/agent-connector\/\w+\.json for this file$/);
      expect(first.pointer).toBe("/$id");
      expect(first.line).toBeGreaterThan(1);
    });
  });
});
