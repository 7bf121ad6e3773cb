// The shared test data the JUnit suites read (spec vectors, outside vectors, the suites' fixtures),
// copied into the Maven project's test resources under src/test/resources/shared/<repository
// path>, so that a copy of generated/kotlin alone builds and tests (TestData.kt reads them from
// the classpath). Text only: the writer writes UTF-8 strings, so the upstream ES6 number corpus
// comes as its 10,000-line text file, not the gzipped 100,000-line one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Model, OutputFile } from "../../model/types.js";
import { generatorHome } from "../../write/generator-home.mjs";

/**
 * Repository paths (files, or folders copied whole) the suites read besides the spec's own vector
 * folders (kotlinTestData adds those, one per protocol); each folder's README names source and licence.
 */
export const KOTLIN_TEST_DATA: readonly string[] = [
  "property-tests/vectors/agent-connector/generated",
  "property-tests/vectors/agent-provider",
  "property-tests/vectors/jcs/testdata",
  "property-tests/vectors/jcs/README.md",
  "property-tests/vectors/jcs/es6numbers/es6testfile_100000.txt.gz",
  "property-tests/vectors/real-implementations/README.md",
  "property-tests/vectors/real-implementations/meldwork-connector/field-value-verdicts.json",
  "property-tests/vectors/stdwebhooks",
  "property-tests/oracle-vectors/lenient-json/README.md",
  "property-tests/oracle-vectors/lenient-json/verdicts.json",
  "property-tests/vectors/json-schema-kills/ajv-verdicts.json",
  "property-tests/vectors/json-schema-test-suite",
  "property-tests/vectors/wpt-url",
  "generators/targets/runtime-keywords.json",
  "generators/targets/kotlin/tests/test-schemas/schema-array.json",
];

/** Where the suites find a repository path on the classpath. */
export const SHARED_RESOURCES = "src/test/resources/shared";

export interface TestDataFile {
  /** Repository-relative path (of the text: a gzip file's without .gz). */
  path: string;
  text: string;
  /** The file read, when it is not `path` (a gzip file). */
  source?: string;
}

/** The spec's vector folders (common, then each protocol's), then KOTLIN_TEST_DATA. */
export function kotlinTestData(model: Model): string[] {
  return ["spec/common/vectors", ...model.protocols.map((p) => `spec/${p.id}/vectors`), ...KOTLIN_TEST_DATA];
}

/**
 * Reads every file kotlinTestData names (folders recursively, in name order); the only I/O here.
 * A path missing from the tree is skipped, as the Swift target does (a spec tree of one protocol,
 * as the tests' fixtures are, still generates); emit.test.ts checks the repository has them all.
 */
export function readKotlinTestData(root: string, model: Model): TestDataFile[] {
  const out: TestDataFile[] = [];
  const visit = (rel: string) => {
    // spec/ is the project's; the outside vectors are the generator's (generator-home.mjs).
    const full = `${rel.startsWith("spec/") ? root : generatorHome(root)}/${rel}`;
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) for (const name of readdirSync(full).sort()) visit(`${rel}/${name}`);
    // A gzip file (the 100k ES6 number lines) is carried as its text: resources are read as text.
    else if (rel.endsWith(".gz")) out.push({ path: rel.slice(0, -".gz".length), text: gunzipSync(readFileSync(full)).toString("utf8"), source: rel });
    else out.push({ path: rel, text: readFileSync(full, "utf8") });
  };
  for (const rel of kotlinTestData(model)) visit(rel);
  return out;
}

export function emitKotlinTestData(files: readonly TestDataFile[]): OutputFile[] {
  return files.map((f) => ({ path: `${SHARED_RESOURCES}/${f.path}`, contents: f.text, sources: [f.source ?? f.path] }));
}
