// The Rust target: model -> the files of generated/rust, one crate. Pure: the hand-written runtime,
// tests and case files are read by the pipeline (inputs.ts) and passed in; paths are relative to
// generated/rust.
import type { JsonValue, Model, OutputFile } from "../../model/types.js";
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { rustDoctorFiles } from "./emit-doctor.js";
import { lifecycleTypeName, renderLifecycles } from "./emit-lifecycles.js";
import { ProtocolTypes, renderDeclarations } from "./emit-types.js";
import type { RustInputs } from "./inputs.js";
import { driverLifecycles, driverMessageDispatch, type DriverMessage } from "./emit-driver.js";
import { docComment, identifier, rawStringLiteral, snakeCase, stringLiteral } from "./naming.js";

/** Spec descriptions are prose, not Markdown: list-like lines must not trip the doc lints. */
const ALLOW_PROSE = "#![allow(clippy::doc_lazy_continuation, clippy::doc_overindented_list_items)]";

/** Each import of messages.rs and what in the rendered types uses it. */
const IMPORTS: readonly (readonly [string, RegExp])[] = [
  ["use crate::runtime::content_address::ContentAddressDeclaration;", /ContentAddressDeclaration/],
  ["use crate::runtime::crypto::HmacSha256Key;", /HmacSha256Key/],
  ["use crate::runtime::fixed;", /fixed::/],
  ["use crate::runtime::hmac_v1;", /hmac_v1::/],
  ["use crate::runtime::hmac_v1::HmacV1Declaration;", /HmacV1Declaration/],
  ["use crate::runtime::message::ContractMessage;", /ContractMessage/],
  ["use crate::runtime::replay::ReplayDeclaration;", /ReplayDeclaration/],
  ["use serde::de::Error as _;", /D::Error::custom/],
  ["use serde::{Deserialize, Serialize};", /./],
  ["use serde::Deserializer;", /Deserializer</],
  ["use std::collections::BTreeMap;", /BTreeMap</],
];

/** The crate's names from the project's identity: the package name (kebab-case) and its library name. */
export function crateNames(model: Model): { crate: string; lib: string } {
  const crate = model.project.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "contracts";
  return { crate, lib: crate.replaceAll("-", "_") };
}

/** The library name the hand-written tests are written against. */
const WRITTEN_LIB = "agent_contracts";

/** The dependencies, pinned by Cargo.lock (generators/targets/rust/Cargo.lock). */
const DEPENDENCIES = [
  'serde = { version = "1", features = ["derive"] }',
  'serde_json = { version = "1", features = ["preserve_order"] }',
  'base64 = "0.22"',
  'hmac = "0.12"',
  'sha2 = "0.10"',
  'subtle = "2"',
  'ryu-js = "1"',
  'jsonschema = { version = "0.61", default-features = false }',
  // The WHATWG URL parser of the whatwgUrl and urlOriginIn cross-field rules (runtime/rules.rs).
  'url = "2"',
  'rusqlite = { version = "0.32", features = ["bundled"], optional = true }',
  'redis = { version = "1", default-features = false, optional = true }',
  'tokio-postgres = { version = "0.7", optional = true }',
  'tokio = { version = "1", features = ["rt", "time", "net"], optional = true }',
];

/** The runtime modules compiled only with a cargo feature (the stores' client crates are optional). */
const MODULE_FEATURES: Readonly<Record<string, string>> = {
  replay_sqlite: 'feature = "sqlite"',
  replay_redis: 'feature = "redis"',
  replay_postgres: 'feature = "postgres"',
  fleet_support: 'any(feature = "redis", feature = "postgres")',
};

export function emitRust(model: Model, inputs: RustInputs): OutputFile[] {
  const { crate, lib } = crateNames(model);
  const files: OutputFile[] = [];
  const modules: string[] = [];
  const exampleArms: string[] = [];
  const examples: Record<string, Record<string, unknown[]>> = {};
  /** Every message with its Rust type path and declarations, for the driver's dispatch. */
  const driverMessages: DriverMessage[] = [];
  for (const protocol of model.protocols) {
    const module = identifier(snakeCase(protocol.id));
    const types = new ProtocolTypes(model, protocol);
    const messageSources = [...model.shared.map((s) => s.location.file), ...protocol.messages.map((m) => m.location.file)].sort();
    const lifecycles = protocol.lifecycles;
    const body = `${types.render()}\n${renderDeclarations(protocol, types)}`;
    // Only the imports the protocol's types use, so clippy's unused-import lint holds.
    const imports = IMPORTS.filter(([, used]) => used.test(body)).map(([line]) => line);
    const contents = [ALLOW_PROSE, "", ...imports, "", body].join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
    files.push({ path: `src/${module}/messages.rs`, contents, sources: messageSources });
    const parts = ["pub mod messages;", "pub use messages::*;"];
    if (lifecycles.length > 0) {
      files.push({ path: `src/${module}/lifecycles.rs`, contents: renderLifecycles(lifecycles).trimEnd() + "\n", sources: lifecycles.map((l) => l.location.file) });
      parts.push("pub mod lifecycles;");
    }
    const doctor = rustDoctorFiles(protocol, types.messageTypes, module, lib, inputs.cases);
    if (doctor.length > 0) parts.push("pub mod doctor;");
    files.push(...doctor);
    files.push({ path: `src/${module}/mod.rs`, contents: `${docComment(`${protocol.title} (${protocol.id} ${protocol.version}): ${protocol.summary}`, "", "//!")}\n${parts.join("\n")}\n`, sources: [protocol.location.file] });
    modules.push(`pub mod ${module};`);
    examples[protocol.id] = {};
    for (const m of protocol.messages) {
      examples[protocol.id]![m.name] = m.examples;
      exampleArms.push(`        (${stringLiteral(protocol.id)}, ${stringLiteral(m.name)}) => round_trip::<${lib}::${module}::${types.messageTypes.get(m.name)!}>(example),`);
      driverMessages.push({ protocol: protocol.id, name: m.name, type: `${lib}::${module}::${types.messageTypes.get(m.name)!}`, signed: m.signature !== undefined, addressed: m.contentAddress !== undefined });
    }
  }
  files.push({ path: "src/schemas.rs", contents: renderSchemas(model), sources: model.sourceFiles });
  files.push({ path: "tests/cases/validation-cases.json", contents: `${JSON.stringify(validationCases(model), null, 1)}\n`, sources: model.sourceFiles });
  const runtimeModules = inputs.runtime.map((r) => r.name.replace(/\.rs$/, ""));
  for (const source of inputs.runtime) {
    files.push({ path: `src/runtime/${source.name}`, contents: source.text, sources: [`generators/targets/rust/runtime/${source.name}`] });
  }
  files.push({
    path: "src/runtime/mod.rs",
    contents: `//! The hand-written runtime (generators/targets/rust/runtime), the same in every project.\n\n${runtimeModules.map((m) => (MODULE_FEATURES[m] !== undefined ? `#[cfg(${MODULE_FEATURES[m]})]\npub mod ${m};` : `pub mod ${m};`)).join("\n")}\n`,
    sources: inputs.runtime.map((r) => `generators/targets/rust/runtime/${r.name}`),
  });
  files.push({
    path: "src/lib.rs",
    contents: [
      `//! ${model.project.name} ${model.version}: types, lifecycles, canonical JSON, signing, replay protection,`,
      "//! content ids and audit chains for the protocols of spec/, generated from the spec.",
      "",
      "pub mod runtime;",
      "pub mod schemas;",
      ...modules,
      "",
      "/// The project version these bindings belong to (spec/project.yaml).",
      `pub const VERSION: &str = ${stringLiteral(model.version)};`,
      "",
    ].join("\n"),
    sources: ["spec/project.yaml"],
  });
  files.push({
    path: "Cargo.toml",
    contents: [
      "[package]",
      `name = ${stringLiteral(crate)}`,
      `version = ${stringLiteral(model.version)}`,
      'edition = "2021"',
      'rust-version = "1.80"',
      `description = ${stringLiteral(`${model.project.name} bindings generated from its spec`)}`,
      "publish = false",
      "",
      "[lib]",
      `name = ${stringLiteral(lib)}`,
      "",
      "[features]",
      'default = ["sqlite"]',
      "# The SQLite replay store (rusqlite with SQLite compiled in).",
      'sqlite = ["dep:rusqlite"]',
      "# The fleet replay stores (runtime::replay_redis, runtime::replay_postgres): off by default.",
      'redis = ["dep:redis"]',
      'postgres = ["dep:tokio-postgres", "dep:tokio"]',
      "",
      "[dependencies]",
      ...DEPENDENCIES,
      "",
    ].join("\n"),
    sources: ["spec/project.yaml"],
  });
  files.push({ path: "Cargo.lock", contents: inputs.lock.replaceAll(`name = "agent-contracts"\nversion = "0.1.0"`, `name = ${stringLiteral(crate)}\nversion = ${stringLiteral(model.version)}`), sources: ["generators/targets/rust/Cargo.lock"] });
  const caseFiles = new Set(inputs.cases.map((c) => c.path));
  const crateModules = new Set(["runtime", "schemas", ...model.protocols.map((p) => identifier(snakeCase(p.id)))]);
  for (const test of inputs.tests) {
    // A hand-written test that reads a protocol module this spec does not have (this repository's
    // agent_provider, for one) is left out of that project, as the Kotlin target leaves its out.
    const reads = [...test.text.matchAll(new RegExp(`\\b${WRITTEN_LIB}::([a-z_][a-z0-9_]*)`, "g"))].map((m) => m[1]!);
    if (reads.some((module) => !crateModules.has(module))) continue;
    // So is one whose `//! cases:` line names a case file this project does not have.
    const needs = /^\/\/! cases: (.+)$/m.exec(test.text)?.[1]?.split(" ") ?? [];
    if (needs.some((path) => !caseFiles.has(path))) continue;
    // support.rs is shared by the test crates: tests/support/mod.rs, not a test crate of its own.
    const path = test.name === "support.rs" ? "tests/support/mod.rs" : `tests/${test.name}`;
    files.push({ path, contents: test.text.replace(new RegExp(`\\b${WRITTEN_LIB}::`, "g"), `${lib}::`), sources: [`generators/targets/rust/tests/${test.name}`] });
  }
  for (const file of inputs.cases) files.push({ path: `tests/cases/${file.path}`, contents: file.text, sources: [file.source] });
  files.push({ path: "tests/cases/examples.json", contents: `${JSON.stringify(examples, null, 1)}\n`, sources: model.sourceFiles });
  files.push({
    path: "tests/examples.rs",
    contents: [
      "//! Every example of the spec decodes into its message's type, and encodes back to the same JSON",
      "//! (compared canonically).",
      "",
      "mod support;",
      "",
      `use ${lib}::runtime::canonical_json::canonicalize;`,
      "use serde::de::DeserializeOwned;",
      "use serde::Serialize;",
      "use serde_json::Value;",
      "",
      "fn round_trip<T: DeserializeOwned + Serialize>(example: &Value) -> Result<Value, String> {",
      "    let typed: T = serde_json::from_value(example.clone()).map_err(|e| e.to_string())?;",
      "    serde_json::to_value(&typed).map_err(|e| e.to_string())",
      "}",
      "",
      "fn decode(protocol: &str, message: &str, example: &Value) -> Result<Value, String> {",
      "    match (protocol, message) {",
      ...exampleArms,
      '        _ => Err(format!("no type for {protocol}/{message}")),',
      "    }",
      "}",
      "",
      "#[test]",
      "fn every_example_decodes_and_encodes_back() {",
      '    let cases = support::read_json("examples.json");',
      "    let mut checked = 0;",
      "    for (protocol, messages) in cases.as_object().expect(\"protocols\") {",
      "        for (message, examples) in messages.as_object().expect(\"messages\") {",
      "            for example in examples.as_array().expect(\"examples\") {",
      '                let back = decode(protocol, message, example).unwrap_or_else(|e| panic!("{protocol}/{message}: {e}"));',
      '                assert_eq!(canonicalize(&back), canonicalize(example), "{protocol}/{message}");',
      "                checked += 1;",
      "            }",
      "        }",
      "    }",
      `    assert_eq!(checked, ${Object.values(examples).flatMap((m) => Object.values(m)).reduce((n, list) => n + list.length, 0)});`,
      "}",
      "",
    ].join("\n"),
    sources: model.sourceFiles,
  });
  files.push({ path: "tests/lifecycles.rs", contents: lifecycleTests(model, lib), sources: model.protocols.flatMap((p) => p.lifecycles.map((l) => l.location.file)) });
  // The shared-case driver (property-tests/drivers): a cargo example, built with the crate's tests.
  files.push({ path: "examples/shared_case_driver/main.rs", contents: inputs.driver.replace(new RegExp(`\\b${WRITTEN_LIB}::`, "g"), `${lib}::`), sources: ["generators/targets/rust/driver/main.rs"] });
  files.push({ path: "examples/shared_case_driver/lifecycles.rs", contents: driverLifecycles(model, lib), sources: model.protocols.flatMap((p) => p.lifecycles.map((l) => l.location.file)) });
  files.push({ path: "examples/shared_case_driver/messages.rs", contents: driverMessageDispatch(driverMessages, lib), sources: model.sourceFiles });
  files.push({ path: "README.md", contents: readme(model, crate, lib), sources: [] });
  return files;
}

/** Every schema document of the spec, registered by `$id` for runtime::validation. */
function renderSchemas(model: Model): string {
  // What validation reads: prose, examples, sources and divergences stay in the spec (and the docs).
  const view = (schema: JsonValue): JsonValue => validatorView(schema, (keyword) => PROSE_AND_EXAMPLES.has(keyword));
  const documents = [...model.shared.map((s) => ({ id: s.id, schema: view(s.schema) })), ...model.protocols.flatMap((p) => p.messages.map((m) => ({ id: m.id, schema: view(m.schema) })))];
  return [
    "//! The spec's schema documents by `$id` (shared types and every message), compiled once into the",
    "//! registry runtime::message::parse_validated and each message's `validate_json` use.",
    "",
    "use crate::runtime::validation::SchemaRegistry;",
    "use std::sync::OnceLock;",
    "",
    "/// (`$id`, schema JSON) of every document.",
    "pub const DOCUMENTS: &[(&str, &str)] = &[",
    ...documents.map((d) => `    (${stringLiteral(d.id)}, ${rawStringLiteral(JSON.stringify(d.schema))}),`),
    "];",
    "",
    "/// (protocol id, message name, schema `$id`) of every message.",
    "pub const MESSAGES: &[(&str, &str, &str)] = &[",
    ...model.protocols.flatMap((p) => p.messages.map((m) => `    (${stringLiteral(p.id)}, ${stringLiteral(m.name)}, ${stringLiteral(m.id)}),`)),
    "];",
    "",
    "/// (`$id`, the JSON array of its `x-rules`) of every message with cross-field rules.",
    "pub const RULES: &[(&str, &str)] = &[",
    ...model.protocols.flatMap((p) => p.messages.filter((m) => m.rules.length > 0).map((m) => `    (${stringLiteral(m.id)}, ${rawStringLiteral(JSON.stringify(m.rules))}),`)),
    "];",
    "",
    "/// The schema `$id` of a protocol's message, by the protocol id and the message name.",
    "pub fn message_schema_id(protocol: &str, message: &str) -> Option<&'static str> {",
    "    MESSAGES.iter().find(|(p, m, _)| *p == protocol && *m == message).map(|(_, _, id)| *id)",
    "}",
    "",
    "/// The compiled documents with their cross-field rules, built on first use.",
    "pub fn registry() -> &'static SchemaRegistry {",
    "    static REGISTRY: OnceLock<SchemaRegistry> = OnceLock::new();",
    '    REGISTRY.get_or_init(|| SchemaRegistry::new(DOCUMENTS).and_then(|registry| registry.with_rules(RULES)).expect("the generator wrote schemas and rules the crate compiles"))',
    "}",
    "",
  ].join("\n");
}

/** Per message: its schema id, examples, invalid examples and the model's differential validation cases. */
function validationCases(model: Model): unknown[] {
  return model.protocols.flatMap((p) => p.messages.map((m) => ({ protocol: p.id, message: m.name, schemaId: m.id, examples: m.examples, invalid: m.invalidExamples.map((e) => ({ description: e.description, instance: e.instance, error: e.error })), cases: m.validationCases })));
}

/** Every lifecycle's paths file (generators/lifecycles/paths.ts) replayed through its generated machine. */
function lifecycleTests(model: Model, lib: string): string {
  const out = [
    "//! Every case of every lifecycle's paths file: the steps from the initial state, each with its",
    "//! guards, give the expected state, effects or refusal (and the guard it names).",
    "",
    "mod support;",
    "",
    `use ${lib}::runtime::lifecycle::{LifecycleMachine, LifecycleName};`,
    "use serde_json::Value;",
    "use std::collections::HashMap;",
    "",
    "fn run<M: LifecycleMachine>(path: &str) {",
    "    let file = support::read_json(path);",
    '    assert_eq!(file["initial"].as_str(), Some(M::INITIAL.as_str()), "{path}");',
    "    let cases = support::cases(&file);",
    '    assert!(!cases.is_empty(), "{path}");',
    "    for case in cases {",
    "        let mut state = M::INITIAL;",
    '        for step in case["steps"].as_array().expect("steps") {',
    '            let event = M::Event::from_name(support::text(step, "event")).expect("a known event");',
    '            let guards: HashMap<M::Guard, bool> = step["guards"].as_object().expect("guards").iter().map(|(name, value)| (M::Guard::from_name(name).expect("a known guard"), value.as_bool().expect("a boolean"))).collect();',
    '            let expect = &step["expect"];',
    "            match M::transition(state, event, &guards) {",
    "                Ok(done) => {",
    '                    assert_eq!(expect["ok"], Value::Bool(true), "{} {}", path, case["id"]);',
    "                    let effects: Vec<&str> = done.effects.iter().map(|e| e.as_str()).collect();",
    '                    let expected: Vec<&str> = expect["effects"].as_array().map(|list| list.iter().filter_map(Value::as_str).collect()).unwrap_or_default();',
    '                    assert_eq!(effects, expected, "{} {}", path, case["id"]);',
    "                    state = done.to;",
    "                }",
    "                Err(refused) => {",
    '                    assert_eq!(expect["ok"], Value::Bool(false), "{} {}: {:?}", path, case["id"], refused);',
    '                    assert_eq!(Some(refused.reason.as_str()), expect["refusal"].as_str(), "{} {}", path, case["id"]);',
    '                    assert_eq!(refused.guard.as_deref(), expect["guard"].as_str(), "{} {}", path, case["id"]);',
    "                }",
    "            }",
    '            assert_eq!(Some(state.as_str()), expect["state"].as_str(), "{} {}", path, case["id"]);',
    "        }",
    "    }",
    "}",
    "",
  ];
  for (const protocol of model.protocols) {
    for (const l of protocol.lifecycles) {
      const module = identifier(snakeCase(protocol.id));
      const machine = `${module}::lifecycles::${identifier(snakeCase(l.name))}::${lifecycleTypeName(l)}`;
      out.push("#[test]", `fn ${snakeCase(`${protocol.id} ${l.name}`)}() {`, `    run::<${lib}::${machine}>(${stringLiteral(`lifecycles/${protocol.id}/${l.name}.paths.json`)});`, "}", "");
    }
  }
  return out.join("\n");
}

function readme(model: Model, crate: string, lib: string): string {
  return [
    `# ${crate} (Rust)`,
    "",
    `Generated by agent-contracts from spec/ (version ${model.version}); do not edit: \`make\` rewrites it.`,
    `The guide is docs/guides/using-the-rust-crate.md. Library name \`${lib}\`.`,
    "",
    "- `src/<protocol>/messages.rs`: serde types of every message (closed records refuse unknown members,",
    "  tagged unions decode by their tag, open enums keep unknown values in `Unknown(String)`).",
    "- `src/<protocol>/lifecycles.rs`: the state machines; `transition` returns `Result<Transitioned, Refused>`.",
    "- `src/schemas.rs`: the spec's schema documents and cross-field rules (x-rules), validated with the `jsonschema`",
    "  crate and runtime/rules.rs, the first error in the other languages' order (runtime/first_error.rs).",
    "- `src/<protocol>/doctor.rs` (protocols that sign): the recorded JSON dialects and `explain_signature` on each signed message.",
    "- `src/runtime/`: strict JSON, validation, RFC 8785, hmac-sha256-v1, the signature doctor, replay guard (memory, SQLite;",
    "  Redis and PostgreSQL behind the `redis` and `postgres` features), content ids, audit chain.",
    "- `tests/`: `cargo test` over the shared case files in `tests/cases/`.",
    "- `examples/shared_case_driver/`: the shared-case driver (property-tests/drivers in the generator's repository).",
    "",
  ].join("\n");
}
