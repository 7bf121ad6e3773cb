// The guides stay true across a version bump and a change of the loop (issue 39): no guide writes
// the spec's version (or its Maven coordinates) as text, every {{placeholder}} names a value of
// spec/project.yaml, and the "Changing a spec" guide names files and commands that exist.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { commands } from "../cli/commands.js";
import { loadModel } from "../pipeline.js";
import { projectFacts as fillGuide } from "../targets/docs/pages-site.js";
import { REPO_ROOT } from "./fixture.js";

const GUIDES = join(REPO_ROOT, "docs-site/guides");
const guides = readdirSync(GUIDES).filter((f) => f.endsWith(".md")).sort();
const project = (YAML.parse(readFileSync(join(REPO_ROOT, "spec/project.yaml"), "utf8")) as { project: { version: string; packages: { maven: { artifactId: string } } } }).project;

describe("guides", () => {
  it.each(guides)("%s writes no version of the spec as text", (name) => {
    const text = readFileSync(join(GUIDES, name), "utf8");
    expect(text).not.toContain(project.version);
    expect(text.includes(`<artifactId>${project.packages.maven.artifactId}</artifactId>`), "the artifactId is {{packages.maven.artifactId}}").toBe(false);
  });
  it("every placeholder names a value of spec/project.yaml, filled in by the site", () => {
    const loaded = loadModel(REPO_ROOT);
    if (!loaded.ok) throw new Error("spec does not load");
    for (const name of guides) fillGuide(readFileSync(join(GUIDES, name), "utf8"), loaded.model.project, name);
    expect(fillGuide(readFileSync(join(GUIDES, "kotlin.md"), "utf8"), loaded.model.project, "kotlin.md")).toContain(`<version>${project.version}</version>`);
    expect(() => fillGuide("{{project.nope}}", loaded.model.project, "x.md")).toThrow("x.md: {{project.nope}} is not a text value of spec/project.yaml");
  });
});

describe("the Changing a spec guide", () => {
  const guide = readFileSync(join(GUIDES, "changing-a-spec.md"), "utf8");
  it("names only files and folders that exist (placeholders aside)", () => {
    const paths = [...guide.matchAll(/`((?:spec|property-tests|generators|releases)\/[\w./<>*-]*|releases\.json)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(8);
    const concrete = paths.filter((p) => !/[<*]|X\.Y\.Z/.test(p));
    for (const p of concrete) expect(existsSync(join(REPO_ROOT, p)), p).toBe(true);
    // A placeholder path's folder exists: spec/<protocol>/... has spec/, expectations/<protocol>/ has expectations/.
    for (const p of paths.filter((x) => x.includes("<"))) expect(existsSync(join(REPO_ROOT, p.slice(0, p.indexOf("<")))), p).toBe(true);
  });
  it("runs only agent-contracts commands and flags that exist", () => {
    const names = new Set(Object.keys(commands));
    const runs = [...guide.matchAll(/agent-contracts (\w[\w-]*)((?: --[\w-]+)*)/g)];
    expect(runs.length).toBeGreaterThan(3);
    for (const [, command, flags] of runs) {
      expect(names.has(command!), command).toBe(true);
      const help = commands[command!]!.help ?? "";
      for (const flag of flags!.trim().split(" ").filter(Boolean)) expect(help, `${command} ${flag}`).toContain(flag);
    }
  });
});
