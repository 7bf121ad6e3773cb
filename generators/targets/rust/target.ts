// The Rust target: generated/rust, one crate (name and version from spec/project.yaml's identity)
// with serde types, lifecycles, the hand-written runtime and `cargo test` suites over the shared
// case files. It declares no schemaSupport: the crate does not validate schemas yet (README).
import { generatorHome } from "../../write/generator-home.mjs";
import { COMMENT_SYNTAX, defineTarget } from "../target.js";
import { emitRust } from "./emit.js";
import { readRustInputs } from "./inputs.js";
import { rustNaming } from "./naming.js";

export const rustTarget = defineTarget({
  id: "rust",
  summary: "Rust crate: serde types, lifecycles, strict JSON, RFC 8785, hmac-sha256-v1, signature doctor, replay guard (memory, SQLite, Redis, PostgreSQL), content ids, audit chain",
  outDir: "generated/rust",
  naming: rustNaming,
  owns: ["generated/rust"],
  // Rust sources, Cargo.toml and the README get the header; Cargo.lock is cargo's own file, and the
  // copied case files stay byte for byte what the tests compare.
  header: (path) => path.endsWith(".rs") || path === "Cargo.toml" || path === "README.md",
  comments: { ...COMMENT_SYNTAX, ".rs": { open: "//" } },
  inputs: (root, model) => readRustInputs(generatorHome(root), root, model),
  emit: (model, inputs) => emitRust(model, inputs),
});
