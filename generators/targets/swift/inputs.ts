// What the Swift emitter needs from disk, read once by the pipeline so that emitSwift stays pure:
// the hand-written runtime, and the language-neutral case files the Swift tests read (vectors
// from spec/, and the lifecycle paths as this run generates them).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { pathsFiles } from "../../lifecycles/paths.js";
import type { Model } from "../../model/types.js";
import { generatorHome } from "../../write/generator-home.mjs";
import type { SharedCaseFile, SwiftRuntimeSource } from "./emit.js";

/** UTS 46's mapping table (property-tests/vectors/unicode-idna/README.md), which IDNA.swift reads. */
export const IDNA_MAPPING_SOURCE = "property-tests/vectors/unicode-idna/idna-mapping-17.0.0.txt";

export function readSwiftRuntime(root: string): SwiftRuntimeSource[] {
  const dir = `${root}/generators/targets/swift/runtime`;
  const files: SwiftRuntimeSource[] = readdirSync(dir)
    .filter((name) => name.endsWith(".swift"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
  const table = readFileSync(`${root}/${IDNA_MAPPING_SOURCE}`, "utf8");
  // One raw string literal, parsed once at run time: an array literal of 8,000 entries would cost
  // the Swift type checker minutes.
  const text = [
    `// UTS 46 IDNA mapping table, Unicode 17.0.0, from ${IDNA_MAPPING_SOURCE}: one line per range`,
    "// start, \"<first code point> <status> [<mapping code points>]\" in hex (V valid, M mapped, D deviation,",
    "// I ignored, X disallowed); the range runs to the next line's first code point.",
    "",
    "enum IdnaMappingData {",
    `    static let text = #"""\n${table.trimEnd()}\n"""#`,
    "}",
    "",
  ].join("\n");
  files.push({ name: "IdnaMappingData.swift", text, source: IDNA_MAPPING_SOURCE });
  return files;
}

/** Files under `dir` (relative paths, in name order at every level); none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(`${dir}/${entry.name}`).map((n) => `${entry.name}/${n}`) : [entry.name]));
}

export function readSwiftCases(root: string, model: Model): SharedCaseFile[] {
  const cases: SharedCaseFile[] = [];
  // spec/common/vectors (strict JSON, JCS) is the generator's data, answered by the shared-case
  // drivers (property-tests/drivers), not copied into the package.
  const vectorDirs = [
    ...model.protocols.map((p) => ({ dir: `spec/${p.id}/vectors`, into: `${p.id}/vectors` })),
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
  // The fuzz corpus's hostile inputs of this spec's own messages (CompiledRulesTests feeds them to
  // the compiled x-rules); the corpus's verdicts are the shared-case drivers' (property-tests/drivers).
  const corpus = "property-tests/fuzz/corpus/validators.json";
  if (existsSync(`${home}/${corpus}`)) {
    const file = JSON.parse(readFileSync(`${home}/${corpus}`, "utf8")) as { description: string; cases: { protocol: string; message: string }[] };
    const own = new Set(model.protocols.flatMap((p) => p.messages.map((m) => `${p.id}/${m.name}`)));
    cases.push({ path: "fuzz/validators.json", source: corpus, text: `${JSON.stringify({ ...file, cases: file.cases.filter((c) => own.has(`${c.protocol}/${c.message}`)) }, null, 1)}\n` });
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
  // Public suites (each folder's README names source, commit and licence) and what the tests over
  // them compare with: the refused groups, the committed counts, the declared keyword set.
  const copied: { source: string; into: string }[] = [
    { source: "generators/targets/runtime-keywords.json", into: "runtime-keywords.json" },
    { source: "property-tests/json-schema-suite/counts.json", into: "json-schema-test-suite/counts.json" },
    { source: "property-tests/vectors/json-schema-test-suite/refused.json", into: "json-schema-test-suite/refused.json" },
    { source: "property-tests/vectors/wpt-url/urltestdata.json", into: "wpt-url/urltestdata.json" },
    { source: "property-tests/vectors/jcs/es6numbers/es6testfile_100000.txt.gz", into: "jcs/es6numbers/es6testfile_100000.txt" },
  ];
  for (const [folder, into] of [
    ["property-tests/vectors/json-schema-test-suite/tests/draft2020-12", "json-schema-test-suite/tests"],
    ["property-tests/vectors/json-schema-test-suite/remotes", "json-schema-test-suite/remotes"],
    ["property-tests/vectors/jcs/testdata/input", "jcs/testdata/input"],
    ["property-tests/vectors/jcs/testdata/output", "jcs/testdata/output"],
    ["property-tests/vectors/jcs/testdata/outhex", "jcs/testdata/outhex"],
  ] as const) {
    for (const name of filesUnder(`${home}/${folder}`)) copied.push({ source: `${folder}/${name}`, into: `${into}/${name}` });
  }
  for (const { source, into } of copied) {
    if (!existsSync(`${home}/${source}`)) continue;
    // A gzip file (the 100k ES6 number lines) is carried as its text: SwiftPM resources are plain files.
    const text = source.endsWith(".gz") ? gunzipSync(readFileSync(`${home}/${source}`)).toString("utf8") : readFileSync(`${home}/${source}`, "utf8");
    cases.push({ path: into, source, text });
  }
  for (const file of pathsFiles(model.protocols.flatMap((p) => p.lifecycles))) {
    cases.push({ path: file.path.replace(/^spec\//, ""), source: file.path, text: file.contents });
  }
  return cases;
}
