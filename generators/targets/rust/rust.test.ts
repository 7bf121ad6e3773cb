// The Rust emitter without cargo (make rust compiles and tests the crate): the output is a pure
// function of the model and inputs, has a type per message and a machine per lifecycle, takes its
// crate name and version from the project's identity, and refuses two schemas that would share a
// Rust type name.
import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import type { Model } from "../../model/types.js";
import { generatorHome } from "../../write/generator-home.mjs";
import { crateNames, emitRust } from "./emit.js";
import { lifecycleTypeName } from "./emit-lifecycles.js";
import { ProtocolTypes } from "./emit-types.js";
import { readRustInputs } from "./inputs.js";
import { rustNaming, snakeCase, upperCamel } from "./naming.js";

const loaded = loadModel(REPO_ROOT);
if (!loaded.ok) throw new Error("spec has errors");
const model = loaded.model;
const inputs = readRustInputs(generatorHome(REPO_ROOT), REPO_ROOT, model);
const files = emitRust(model, inputs);
const byPath = new Map(files.map((f) => [f.path, f.contents]));

describe("emitRust", () => {
  it("is pure: the same inputs give the same files", () => {
    expect(emitRust(model, inputs).map((f) => [f.path, f.contents])).toEqual(files.map((f) => [f.path, f.contents]));
  });

  it("names the crate and its version from spec/project.yaml", () => {
    const manifest = byPath.get("Cargo.toml")!;
    expect(manifest).toContain(`name = "agent-contracts"\nversion = "${model.version}"`);
    expect(manifest).toContain('[lib]\nname = "agent_contracts"');
    expect(byPath.get("Cargo.lock")).toContain(`name = "agent-contracts"\nversion = "${model.version}"`);
  });

  it("renames the crate, its lock entry and the tests' imports for another project's identity", () => {
    const other: Model = { ...model, version: "2.3.4", project: { ...model.project, name: "Acme Contracts" } };
    expect(crateNames(other)).toEqual({ crate: "acme-contracts", lib: "acme_contracts" });
    const renamed = new Map(emitRust(other, inputs).map((f) => [f.path, f.contents]));
    expect(renamed.get("Cargo.toml")).toContain('name = "acme-contracts"\nversion = "2.3.4"');
    expect(renamed.get("Cargo.lock")).toContain('name = "acme-contracts"\nversion = "2.3.4"');
    expect(renamed.get("tests/signing.rs")).toContain("use acme_contracts::agent_provider");
    expect(renamed.get("tests/signing.rs")).not.toContain("agent_contracts::");
  });

  it("declares a type and a ContractMessage impl for every message, in the file naming.file gives", () => {
    let checked = 0;
    for (const protocol of model.protocols) {
      for (const message of protocol.messages) {
        const text = byPath.get(rustNaming.file(protocol.id, message.name))!;
        const type = rustNaming.type(message.name);
        expect(text, message.name).toMatch(new RegExp(`^pub (struct|enum) ${type} \\{`, "m"));
        expect(text, message.name).toContain(`impl ContractMessage for ${type} {\n    const SCHEMA_ID: &'static str = "${message.id}";`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("closes closed records, keeps unknown members of open ones, and gives open enums Unknown(String)", () => {
    const provider = byPath.get("src/agent_provider/messages.rs")!;
    expect(provider).toMatch(/#\[serde\(deny_unknown_fields\)\]\npub struct ActionProposal \{/);
    expect(provider).toMatch(/pub enum InstallBinding \{\n[^}]*AndroidInstallBinding\(AndroidInstallBinding\)/);
    const service = byPath.get("src/agent_service/messages.rs")!;
    expect(service).toContain("Some(true) => ExecuteApplied::deserialize(value)");
    const connector = byPath.get("src/agent_connector/messages.rs")!;
    expect(connector).toContain("pub additional_members: serde_json::Map<String, serde_json::Value>,");
    expect(`${provider}${service}${connector}`).toContain("    Unknown(String),");
  });

  it("writes a machine per lifecycle and a test that runs its paths file", () => {
    const tests = byPath.get("tests/lifecycles.rs")!;
    for (const protocol of model.protocols) {
      for (const lifecycle of protocol.lifecycles) {
        expect(byPath.get(`src/${snakeCase(protocol.id)}/lifecycles.rs`)).toContain(`pub struct ${lifecycleTypeName(lifecycle)};`);
        expect(tests).toContain(`lifecycles/${protocol.id}/${lifecycle.name}.paths.json`);
        expect(byPath.has(`tests/cases/lifecycles/${protocol.id}/${lifecycle.name}.paths.json`)).toBe(true);
      }
    }
  });

  it("writes every message's schema id and x-rules into schemas.rs, and compiles the rules into the registry", () => {
    const schemas = byPath.get("src/schemas.rs")!;
    let rules = 0;
    for (const protocol of model.protocols) {
      for (const message of protocol.messages) {
        expect(schemas, message.name).toContain(`    ("${protocol.id}", "${message.name}", "${message.id}"),`);
        if (message.rules.length === 0) continue;
        expect(schemas, message.name).toContain(`    ("${message.id}", r#"${JSON.stringify(message.rules)}"#),`);
        rules += message.rules.length;
      }
    }
    expect(rules).toBeGreaterThanOrEqual(10);
    expect(schemas).toContain("SchemaRegistry::new(DOCUMENTS).and_then(|registry| registry.with_rules(RULES))");
  });

  it("writes the shared-case driver with a dispatch arm per lifecycle", () => {
    expect(byPath.get("examples/shared_case_driver/main.rs")).toContain("use agent_contracts::schemas::{message_schema_id, registry};");
    const dispatch = byPath.get("examples/shared_case_driver/lifecycles.rs")!;
    for (const protocol of model.protocols) {
      for (const lifecycle of protocol.lifecycles) {
        expect(dispatch).toContain(`("${protocol.id}", "${lifecycle.name}") => outcomes::<agent_contracts::${snakeCase(protocol.id)}::lifecycles::${snakeCase(lifecycle.name)}::${lifecycleTypeName(lifecycle)}>(steps),`);
      }
    }
    const none = new Map(emitRust({ ...model, protocols: model.protocols.map((p) => ({ ...p, lifecycles: [] })) }, inputs).map((f) => [f.path, f.contents]));
    // No machine: no lifecycle imports for clippy's unused-import lint to refuse.
    expect(none.get("examples/shared_case_driver/lifecycles.rs")).not.toContain("LifecycleMachine");
    expect(none.get("examples/shared_case_driver/lifecycles.rs")).toContain('Err(format!("no lifecycle {protocol}/{lifecycle}"))');
  });

  it("dispatches the driver's message cases to each message's type and declarations", () => {
    const dispatch = byPath.get("examples/shared_case_driver/messages.rs")!;
    let signed = 0;
    for (const protocol of model.protocols) {
      for (const message of protocol.messages) {
        const type = `agent_contracts::${snakeCase(protocol.id)}::${rustNaming.type(message.name)}`;
        expect(dispatch, message.name).toContain(`("${protocol.id}", "${message.name}") => verdict::<${type}>(bytes),`);
        expect(dispatch.includes(`("${protocol.id}", "${message.name}") => Some(${type}::signature_declaration()),`), message.name).toBe(message.signature !== undefined);
        expect(dispatch.includes(`("${protocol.id}", "${message.name}") => Some(${type}::content_address_declaration()),`), message.name).toBe(message.contentAddress !== undefined);
        if (message.signature !== undefined) signed++;
      }
    }
    expect(signed).toBeGreaterThan(0);
    const unsigned = emitRust({ ...model, protocols: model.protocols.map((p) => ({ ...p, messages: p.messages.map(({ signature: _s, contentAddress: _c, ...m }) => m) })) }, inputs);
    const bare = unsigned.find((f) => f.path === "examples/shared_case_driver/messages.rs")!.contents;
    expect(bare).toContain("pub fn signature(_protocol: &str, _message: &str) -> Option<HmacV1Declaration> {\n    None\n}");
  });

  it("leaves out a hand-written test whose `//! cases:` line names a case file the project lacks", () => {
    expect(byPath.has("tests/rules.rs")).toBe(true);
    const without = emitRust(model, { ...inputs, cases: inputs.cases.filter((c) => c.path !== "agent-connector/secret-text.json") });
    expect(without.some((f) => f.path === "tests/rules.rs")).toBe(false);
    expect(without.some((f) => f.path === "tests/validation.rs")).toBe(true);
  });

  it("copies every shared case file the tests read", () => {
    for (const path of ["common/strict-json.json", "common/jcs.json", "agent-provider/hmac-sha256-v1.json", "agent-connector/content-ids.json", "agent-connector/audit-chain.json", "jcs/es6testfile_10000.txt", "json-schema-test-suite/refused.json", "validation-cases.json", "examples.json"]) {
      expect(byPath.has(`tests/cases/${path}`), path).toBe(true);
    }
  });
});

describe("the fleet stores", () => {
  it("are compiled only with their cargo features, whose crates are optional", () => {
    const manifest = byPath.get("Cargo.toml")!;
    expect(manifest).toContain('redis = ["dep:redis"]');
    expect(manifest).toContain('postgres = ["dep:tokio-postgres", "dep:tokio"]');
    expect(manifest).toMatch(/^redis = \{ version = "1", default-features = false, optional = true \}$/m);
    expect(manifest).toContain('default = ["sqlite"]');
    const modules = byPath.get("src/runtime/mod.rs")!;
    expect(modules).toContain('#[cfg(feature = "redis")]\npub mod replay_redis;');
    expect(modules).toContain('#[cfg(feature = "postgres")]\npub mod replay_postgres;');
    expect(modules).toContain('#[cfg(any(feature = "redis", feature = "postgres"))]\npub mod fleet_support;');
    expect(byPath.get("tests/fleet_stores.rs")).toMatch(/^#!\[cfg\(all\(feature = "redis", feature = "postgres", feature = "sqlite"\)\)\]$/m);
  });
});

describe("the signature doctor", () => {
  it("gives each signed message explain_signature over the protocol's recorded dialects, and replays the vectors with their count", () => {
    const doctor = byPath.get("src/agent_provider/doctor.rs")!;
    expect(doctor).toContain("impl ActionProposal {\n");
    expect(doctor).toContain("impl AgentTriggerRequest {\n");
    expect(doctor).toContain('"divergence":"canonical-json-dialect-serde-json"');
    expect(byPath.get("src/agent_provider/mod.rs")).toContain("pub mod doctor;");
    // A protocol that signs nothing has no doctor module.
    expect(byPath.has("src/provider_integration/doctor.rs")).toBe(false);
    const vectors = JSON.parse(byPath.get("tests/cases/agent-provider/signature-doctor.json")!) as { cases: unknown[] };
    expect(byPath.get("tests/agent_provider_signature_doctor.rs")).toContain(`assert_eq!(cases.len(), ${vectors.cases.length});`);
  });
});

describe("ProtocolTypes", () => {
  it("refuses two schemas that would be one Rust type", () => {
    const protocol = model.protocols.find((p) => p.id === "agent-provider")!;
    const title = protocol.messages[0]!.schema["title"];
    const clash = { ...protocol, messages: protocol.messages.map((m, i) => (i === 1 ? { ...m, schema: { ...m.schema, title } } : m)) };
    expect(() => new ProtocolTypes(model, clash)).toThrow(/would both be the Rust type/);
  });
});

describe("rust naming", () => {
  it("writes snake_case members, raw keywords and UpperCamel types", () => {
    expect(rustNaming.member("packageId")).toBe("package_id");
    expect(rustNaming.member("type")).toBe("r#type");
    expect(rustNaming.member("self")).toBe("self_");
    expect(rustNaming.type("HTTPJsonRequest")).toBe("HttpJsonRequest");
    expect(rustNaming.enumCase("sdk.local-echo.v1")).toBe("SdkLocalEchoV1");
    expect(rustNaming.enumCase("unknown")).toBe("UnknownValue");
    expect(upperCamel("2fa")).toBe("V2fa");
  });
});
