// The Rust shared-case driver's generated half (examples/shared_case_driver beside the hand-written
// driver/main.rs): dispatch by protocol, message and lifecycle name to the crate's generated types,
// declarations and machines. Pure.
import type { Model } from "../../model/types.js";
import { lifecycleTypeName } from "./emit-lifecycles.js";
import { identifier, snakeCase, stringLiteral } from "./naming.js";

/** A message as the driver reaches it: its Rust type path and which declarations it has. */
export interface DriverMessage {
  protocol: string;
  name: string;
  type: string;
  signed: boolean;
  addressed: boolean;
}

/** The driver's message cases: bytes parsed, validated and decoded into each message's type; its declarations by name. */
export function driverMessageDispatch(messages: readonly DriverMessage[], lib: string): string {
  const arm = (m: { protocol: string; name: string }) => `        (${stringLiteral(m.protocol)}, ${stringLiteral(m.name)})`;
  const signed = messages.filter((m) => m.signed);
  const addressed = messages.filter((m) => m.addressed);
  const imports = [`use ${lib}::runtime::content_address::ContentAddressDeclaration;`, `use ${lib}::runtime::hmac_v1::HmacV1Declaration;`, `use ${lib}::runtime::message::{parse_validated, ContractMessage, MessageError};`];
  /** A lookup by (protocol, message); without a declaring message, one that finds none. */
  const lookup = (doc: string, name: string, type: string, declaring: typeof messages, call: string): string[] =>
    declaring.length > 0
      ? [`/// ${doc}`, `pub fn ${name}(protocol: &str, message: &str) -> Option<${type}> {`, "    match (protocol, message) {", ...declaring.map((m) => `${arm(m)} => Some(${m.type}::${call}()),`), "        _ => None,", "    }", "}"]
      : [`/// ${doc} No message of this spec declares one.`, `pub fn ${name}(_protocol: &str, _message: &str) -> Option<${type}> {`, "    None", "}"];
  return [
    "//! The driver's message cases by protocol and message name: `parse-validate` decodes into the",
    "//! message's generated type (as a consumer receives it), `hmac-*` and `content-id` use its",
    "//! generated declarations.",
    "",
    ...imports,
    "",
    "/// `valid`, `json <code>`, or the first error `<instancePath> <keyword>[ <rule>]`.",
    "fn verdict<T: ContractMessage>(bytes: &[u8]) -> Result<String, String> {",
    "    match parse_validated::<T>(bytes) {",
    '        Ok(_) => Ok("valid".to_string()),',
    '        Err(MessageError::Json(error)) => Ok(format!("json {}", error.code.as_str())),',
    "        Err(MessageError::Schema(errors)) => Ok(super::first_error(&errors)),",
    "        // Valid against the schema but not of the type: a generator bug, never a verdict.",
    '        Err(MessageError::Shape(error)) => Err(format!("decoding a schema-valid message: {error}")),',
    "    }",
    "}",
    "",
    "pub fn parse_validate(protocol: &str, message: &str, bytes: &[u8]) -> Result<String, String> {",
    "    match (protocol, message) {",
    ...messages.map((m) => `${arm(m)} => verdict::<${m.type}>(bytes),`),
    '        _ => Err(format!("no message {protocol}/{message}")),',
    "    }",
    "}",
    "",
    ...lookup("The message's x-signature declaration.", "signature", "HmacV1Declaration", signed, "signature_declaration"),
    "",
    ...generatedVerifier(signed, lib),
    "",
    ...lookup("The message's x-content-address declaration.", "content_address", "ContentAddressDeclaration", addressed, "content_address_declaration"),
    "",
  ].join("\n");
}

/** The dispatch to each signed message's generated `verify_signature` (a key prepared once). */
function generatedVerifier(signed: readonly DriverMessage[], lib: string): string[] {
  const doc = "/// The message's generated verifier (`verify_signature`), or None when it declares no signature.";
  const signature = (used: boolean): string =>
    `pub fn verify_signature(${used ? "" : "_"}protocol: &str, ${used ? "" : "_"}message: &str, ${used ? "" : "_"}instance: &serde_json::Value, ${used ? "" : "_"}key: &${lib}::runtime::crypto::HmacSha256Key) -> Option<Result<(), ${lib}::runtime::hmac_v1::HmacV1Error>> {`;
  if (signed.length === 0) return [doc, signature(false), "    None", "}"];
  const arms = signed.map((m) => `        (${stringLiteral(m.protocol)}, ${stringLiteral(m.name)}) => Some(${m.type}::verify_signature(instance, key)),`);
  return [doc, signature(true), "    match (protocol, message) {", ...arms, "        _ => None,", "    }", "}"];
}

/** The driver's lifecycle cases: each step's outcome from the machine the case names, by name. */
export function driverLifecycles(model: Model, lib: string): string {
  const machines = model.protocols.flatMap((p) => p.lifecycles.map((l) => ({ protocol: p.id, name: l.name, path: `${lib}::${identifier(snakeCase(p.id))}::lifecycles::${identifier(snakeCase(l.name))}::${lifecycleTypeName(l)}` })));
  const out = ["//! The driver's `lifecycle` cases: from the initial state, one outcome per step, by the machine's name.", ""];
  if (machines.length === 0) {
    out.push("use serde_json::Value;", "", "pub fn run(protocol: &str, lifecycle: &str, _steps: &[Value]) -> Result<Vec<String>, String> {", '    Err(format!("no lifecycle {protocol}/{lifecycle}"))', "}", "");
    return out.join("\n");
  }
  out.push(
    `use ${lib}::runtime::lifecycle::{LifecycleMachine, LifecycleName};`,
    "use serde_json::Value;",
    "use std::collections::HashMap;",
    "",
    "/// `moved <state> [<effect>,...]` or `refused <reason> <guard or ->` per step; a refused step keeps the state.",
    "fn outcomes<M: LifecycleMachine>(steps: &[Value]) -> Result<Vec<String>, String> {",
    "    let mut state = M::INITIAL;",
    "    let mut out = Vec::new();",
    "    for step in steps {",
    '        let name = step["event"].as_str().ok_or("event is not a string")?;',
    '        let event = M::Event::from_name(name).ok_or_else(|| format!("unknown event {name}"))?;',
    "        let mut guards = HashMap::new();",
    '        for (name, value) in step["guards"].as_object().ok_or("guards is not an object")? {',
    "            // A guard the machine does not name is read by none of its transitions (as in TS and Kotlin).",
    "            let Some(guard) = M::Guard::from_name(name) else { continue };",
    '            guards.insert(guard, value.as_bool().ok_or_else(|| format!("guard {name} is not a boolean"))?);',
    "        }",
    "        out.push(match M::transition(state, event, &guards) {",
    "            Ok(done) => {",
    "                state = done.to;",
    '                format!("moved {} [{}]", state.as_str(), done.effects.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(","))',
    "            }",
    '            Err(refused) => format!("refused {} {}", refused.reason.as_str(), refused.guard.as_deref().unwrap_or("-")),',
    "        });",
    "    }",
    "    Ok(out)",
    "}",
    "",
    "pub fn run(protocol: &str, lifecycle: &str, steps: &[Value]) -> Result<Vec<String>, String> {",
    "    match (protocol, lifecycle) {",
    ...machines.map((m) => `        (${stringLiteral(m.protocol)}, ${stringLiteral(m.name)}) => outcomes::<${m.path}>(steps),`),
    '        _ => Err(format!("no lifecycle {protocol}/{lifecycle}")),',
    "    }",
    "}",
    "",
  );
  return out.join("\n");
}
