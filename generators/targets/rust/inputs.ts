// What the Rust emitter needs from disk, read once by the pipeline so that emitRust stays pure: the
// hand-written runtime, tests and shared-case driver, the crate's lock file, and the
// language-neutral case files the tests read (the runtime's vectors, each protocol's vectors,
// public suites, the lifecycle paths as this run generates them).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { pathsFiles } from "../../lifecycles/paths.js";
import type { Model } from "../../model/types.js";

/** A hand-written file of the target (runtime/<name>, tests/<name>, Cargo.lock). */
export interface RustSource {
  name: string;
  text: string;
}

/** A case file copied under tests/cases/<path>, read by the hand-written tests. */
export interface RustCaseFile {
  path: string;
  /** Where it comes from, relative to the repository root. */
  source: string;
  text: string;
}

export interface RustInputs {
  runtime: RustSource[];
  tests: RustSource[];
  /** The shared-case driver's hand-written main (driver/main.rs). */
  driver: string;
  lock: string;
  cases: RustCaseFile[];
}

function sources(dir: string): RustSource[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".rs"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

/** Files under `dir` (relative paths, in name order at every level); none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(`${dir}/${entry.name}`).map((n) => `${entry.name}/${n}`) : [entry.name]));
}

/** `home`: the generator's own folder (runtime, outside data); `root`: the project (spec/). */
export function readRustInputs(home: string, root: string, model: Model): RustInputs {
  const cases: RustCaseFile[] = [];
  const add = (base: string, source: string, path: string): void => {
    if (existsSync(`${base}/${source}`)) cases.push({ path, source, text: readFileSync(`${base}/${source}`, "utf8") });
  };
  // spec/common/vectors (RFC 8785, strict JSON) hold the runtime's own vectors: the generator's,
  // whatever the project (an init project has none); each protocol's vectors are the project's.
  const vectorDirs: [string, string][] = [[home, "spec/common/vectors"], ...model.protocols.map((p): [string, string] => [root, `spec/${p.id}/vectors`])];
  for (const [base, dir] of vectorDirs) {
    if (!existsSync(`${base}/${dir}`)) continue;
    for (const name of readdirSync(`${base}/${dir}`).filter((n) => n.endsWith(".json")).sort()) add(base, `${dir}/${name}`, `${dir.replace(/^spec\//, "").replace(/\/vectors$/, "")}/${name}`);
  }
  // The fuzz corpus is not copied: its cases are the drivers' (property-tests/drivers).
  // RFC 8785's reference pairs and ES6 number lines (property-tests/vectors/jcs/README.md).
  add(home, "property-tests/vectors/jcs/es6numbers/es6testfile_10000.txt", "jcs/es6testfile_10000.txt");
  for (const kind of ["input", "output"]) {
    const dir = `property-tests/vectors/jcs/testdata/${kind}`;
    if (existsSync(`${home}/${dir}`)) for (const name of readdirSync(`${home}/${dir}`).sort()) add(home, `${dir}/${name}`, `jcs/${kind}/${name}`);
  }
  // The JSON-Schema-Test-Suite (draft 2020-12, property-tests/vectors/json-schema-test-suite/README.md),
  // the groups every runtime refuses, and the counts the other runtimes reach.
  const suite = "property-tests/vectors/json-schema-test-suite";
  for (const [folder, into] of [[`${suite}/tests/draft2020-12`, "json-schema-test-suite/tests"], [`${suite}/remotes`, "json-schema-test-suite/remotes"]] as const) {
    for (const name of filesUnder(`${home}/${folder}`)) add(home, `${folder}/${name}`, `${into}/${name}`);
  }
  add(home, `${suite}/refused.json`, "json-schema-test-suite/refused.json");
  add(home, "property-tests/json-schema-suite/counts.json", "json-schema-test-suite/counts.json");
  for (const file of pathsFiles(model.protocols.flatMap((p) => p.lifecycles))) {
    cases.push({ path: `lifecycles/${file.path.replace(/^spec\//, "").replace("/lifecycles/", "/")}`, source: file.path, text: file.contents });
  }
  return {
    runtime: sources(`${home}/generators/targets/rust/runtime`),
    tests: sources(`${home}/generators/targets/rust/tests`),
    driver: readFileSync(`${home}/generators/targets/rust/driver/main.rs`, "utf8"),
    lock: readFileSync(`${home}/generators/targets/rust/Cargo.lock`, "utf8"),
    cases,
  };
}
