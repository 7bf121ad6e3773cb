// What the Swift emitter needs from disk, read once by the pipeline so that emitSwift stays pure:
// the hand-written runtime, and the language-neutral case files the Swift tests read (vectors
// from spec/, and the lifecycle paths as this run generates them).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { pathsFiles } from "../../lifecycles/paths.js";
import type { Model } from "../../model/types.js";
import { generatorHome } from "../../write/generator-home.mjs";
import type { SharedCaseFile, SwiftRuntimeSource } from "./emit.js";

export function readSwiftRuntime(root: string): SwiftRuntimeSource[] {
  const dir = `${root}/generators/targets/swift/runtime`;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".swift"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

export function readSwiftCases(root: string, model: Model): SharedCaseFile[] {
  const cases: SharedCaseFile[] = [];
  const vectorDirs = [
    { dir: "spec/common/vectors", into: "common" },
    ...model.protocols.map((p) => ({ dir: `spec/${p.id}/vectors`, into: `${p.id}/vectors` })),
    // The hostile-input corpus with TypeScript's verdicts (property-tests/fuzz/corpus.ts).
    { dir: "property-tests/fuzz/corpus", into: "fuzz" },
  ];
  // spec/ is the project's; the outside data is the generator's (generator-home.mjs).
  const home = generatorHome(root);
  for (const { dir, into } of vectorDirs) {
    const base = dir.startsWith("spec/") ? root : home;
    if (!existsSync(`${base}/${dir}`)) continue;
    for (const name of readdirSync(`${base}/${dir}`).filter((n) => n.endsWith(".json")).sort()) {
      cases.push({ path: `${into}/${name}`, source: `${dir}/${name}`, text: readFileSync(`${base}/${dir}/${name}`, "utf8") });
    }
  }
  // Real implementations' verdicts the Swift suite checks too (property-tests/vectors/real-implementations/README.md).
  for (const name of ["meldwork-connector/field-value-verdicts.json"]) {
    const source = `property-tests/vectors/real-implementations/${name}`;
    if (existsSync(`${home}/${source}`)) cases.push({ path: `real-implementations/${name}`, source, text: readFileSync(`${home}/${source}`, "utf8") });
  }
  // ajv's verdicts on hand-written schemas (property-tests/vectors/json-schema-kills/README.md).
  for (const source of ["property-tests/vectors/json-schema-kills/ajv-verdicts.json"]) {
    if (existsSync(`${home}/${source}`)) cases.push({ path: "json-schema-kills/ajv-verdicts.json", source, text: readFileSync(`${home}/${source}`, "utf8") });
  }
  for (const file of pathsFiles(model.protocols.flatMap((p) => p.lifecycles))) {
    cases.push({ path: file.path.replace(/^spec\//, ""), source: file.path, text: file.contents });
  }
  return cases;
}
