// The Rust signature doctor surface: per protocol with a signed message, `src/<protocol>/doctor.rs`
// with the protocol's recorded dialects (generators/model/dialects.ts, the list every target emits)
// and `explain_signature(text, key)` on each signed message; and, where the protocol's spec has
// signature-doctor vectors, a test that replays them. Kept out of emit.ts on purpose.
import { canonicalizationDialects } from "../../model/dialects.js";
import type { OutputFile, Protocol } from "../../model/types.js";
import type { RustCaseFile } from "./inputs.js";
import { rawStringLiteral, stringLiteral } from "./naming.js";

/**
 * The doctor module of `protocol` (none when it signs nothing) and its vector test. `types` maps
 * message names to their Rust types; `module` is the protocol's module, `lib` the library name.
 */
export function rustDoctorFiles(protocol: Protocol, types: ReadonlyMap<string, string>, module: string, lib: string, cases: readonly RustCaseFile[]): OutputFile[] {
  const signed = protocol.messages.filter((m) => m.signature !== undefined);
  if (signed.length === 0) return [];
  const sources = [...new Set([protocol.location.file, ...signed.map((m) => m.location.file)])].sort();
  const typeNames = signed.map((m) => types.get(m.name)!);
  const out = [
    `//! The signature doctor for ${protocol.id}: its recorded platform JSON writers (divergences with a`,
    "//! canonicalization entry) and, on each signed message, `explain_signature`: verify the received",
    "//! text and, when that fails, name each dialect whose bytes the signature matches (never acceptance).",
    "",
    `use super::messages::{${typeNames.join(", ")}};`,
    "use crate::runtime::canonical_dialects::CanonicalizationDialect;",
    "use crate::runtime::signature_doctor::{explain_hmac_v1, SignatureExplanation};",
    "use std::sync::OnceLock;",
    "",
    "/// The dialects as the generator wrote them from the spec, in spec order.",
    `pub const CANONICALIZATION_DIALECTS_JSON: &str = ${rawStringLiteral(JSON.stringify(canonicalizationDialects(protocol)))};`,
    "",
    "/// The recorded dialects, read once.",
    "pub fn canonicalization_dialects() -> &'static [CanonicalizationDialect] {",
    "    static DIALECTS: OnceLock<Vec<CanonicalizationDialect>> = OnceLock::new();",
    '    DIALECTS.get_or_init(|| serde_json::from_str(CANONICALIZATION_DIALECTS_JSON).expect("the generator wrote valid dialects"))',
    "}",
    "",
  ];
  for (const type of typeNames) {
    out.push(
      `impl ${type} {`,
      "    /// Verifies the received text and, when that fails, names each recorded dialect whose bytes the signature matches (never acceptance).",
      "    pub fn explain_signature(text: &str, key: &[u8]) -> SignatureExplanation {",
      "        explain_hmac_v1(&Self::signature_declaration(), canonicalization_dialects(), text, key)",
      "    }",
      "}",
      "",
    );
  }
  const files: OutputFile[] = [{ path: `src/${module}/doctor.rs`, contents: out.join("\n").trimEnd() + "\n", sources }];
  const vector = cases.find((c) => c.path === `${protocol.id}/signature-doctor.json`);
  if (vector !== undefined) files.push({ path: `tests/${module}_signature_doctor.rs`, contents: vectorTest(protocol, signed.map((m) => [m.name, types.get(m.name)!]), module, lib, vector), sources: ["generators/targets/rust/emit-doctor.ts", vector.source] });
  return files;
}

function vectorTest(protocol: Protocol, signed: [string, string][], module: string, lib: string, vector: RustCaseFile): string {
  // The count the file has now: a copy that lost cases fails the test instead of passing on fewer.
  const count = (JSON.parse(vector.text) as { cases: unknown[] }).cases.length;
  return [
    `//! The signature doctor on ${protocol.id}'s recorded signed messages (${vector.source}): the`,
    "//! verdicts and diagnoses written there from the real implementations' data, which the TypeScript,",
    "//! Kotlin and Swift doctors give too.",
    "",
    "mod support;",
    "",
    `use ${lib}::${module}::{${signed.map(([, type]) => type).join(", ")}};`,
    "use serde_json::Value;",
    "",
    "#[test]",
    "fn real_signed_messages_get_the_recorded_diagnoses() {",
    `    let file = support::read_json(${stringLiteral(`${protocol.id}/signature-doctor.json`)});`,
    "    let cases = support::cases(&file);",
    `    assert_eq!(cases.len(), ${count});`,
    "    for case in cases {",
    '        let (text, key) = (support::text(case, "text"), support::text(case, "key_utf8").as_bytes());',
    '        let result = match support::text(case, "message_type") {',
    ...signed.map(([name, type]) => `            ${stringLiteral(name)} => ${type}::explain_signature(text, key),`),
    '            other => panic!("unknown message type {other}"),',
    "        };",
    "        let actual = match &result.reason {",
    '            None => "verified".to_string(),',
    '            Some(reason) => format!("{} {:?}", reason.code, result.diagnoses.iter().map(|d| d.divergence.as_str()).collect::<Vec<_>>()),',
    "        };",
    '        let expected = match &case["expect"] {',
    "            Value::String(verdict) => verdict.clone(),",
    '            expect => format!("{} {:?}", support::text(expect, "reason"), expect["diagnoses"].as_array().expect("diagnoses").iter().map(|d| d.as_str().expect("an id")).collect::<Vec<_>>()),',
    "        };",
    '        assert_eq!(actual, expected, "{}", case["name"]);',
    "    }",
    "}",
    "",
  ].join("\n");
}
