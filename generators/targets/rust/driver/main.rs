//! The Rust shared-case driver: answers every case of a language-neutral case file with this
//! crate and writes the verdicts as JSON. The TypeScript test property-tests/drivers/drivers.test.ts
//! writes the cases, runs every language's driver and compares the verdicts with the spec's (its
//! README.md spells each kind's verdict). One process answers every case.
//!
//!   cargo run --example shared_case_driver -- <cases.json> <verdicts.json>

mod lifecycles;
mod messages;

use agent_contracts::runtime::canonical_json::{canonicalize, format_number};
use agent_contracts::runtime::content_address::compute_content_id;
use agent_contracts::runtime::crypto::HmacSha256Key;
use agent_contracts::runtime::hmac_v1::{sign_hmac_v1, verify_hmac_v1};
use agent_contracts::runtime::replay::parse_rfc3339;
use agent_contracts::runtime::strict_json::{parse_strict_json, parse_strict_with, StrictJsonLimits};
use agent_contracts::runtime::validation::SchemaError;
use agent_contracts::schemas::{message_schema_id, registry};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};
use std::process::ExitCode;

/// A case's answer; `Err` becomes the verdict `error: <message>`, which matches no expected verdict.
type Answer = Result<Value, String>;

fn text<'c>(case: &'c Value, member: &str) -> Result<&'c str, String> {
    case[member].as_str().ok_or_else(|| format!("case member {member} is not a string"))
}

/// The first error as `<instancePath> <keyword>[ <rule id>]`.
pub fn first_error(errors: &[SchemaError]) -> String {
    match errors.first() {
        Some(first) => format!("{} {}{}", first.instance_path, first.keyword, first.rule.as_ref().map(|rule| format!(" {rule}")).unwrap_or_default()),
        None => "error: no error reported for an invalid instance".to_string(),
    }
}

fn bytes(case: &Value) -> Result<Vec<u8>, String> {
    STANDARD.decode(text(case, "b64")?).map_err(|e| format!("b64: {e}"))
}

fn answer(case: &Value) -> Answer {
    match text(case, "kind")? {
        "validate" => {
            let (protocol, message) = (text(case, "protocol")?, text(case, "message")?);
            let id = message_schema_id(protocol, message).ok_or_else(|| format!("no message {protocol}/{message}"))?;
            Ok(Value::String(match registry().validate(id, &case["instance"]) {
                Ok(()) => "valid".to_string(),
                Err(errors) => first_error(&errors),
            }))
        }
        "parse-validate" => messages::parse_validate(text(case, "protocol")?, text(case, "message")?, &bytes(case)?).map(Value::String),
        "parse" => Ok(Value::String(match parse_strict_json(&bytes(case)?) {
            Ok(_) => "ok".to_string(),
            Err(error) => error.code.as_str().to_string(),
        })),
        "rfc3339" => Ok(Value::String(parse_rfc3339(text(case, "text")?).map_or("null".to_string(), |ms| ms.to_string()))),
        "hmac-verify" | "hmac-sign" => {
            let (protocol, message) = (text(case, "protocol")?, text(case, "message")?);
            let declaration = messages::signature(protocol, message).ok_or_else(|| format!("no signature declared for {protocol}/{message}"))?;
            let key = text(case, "key_utf8")?.as_bytes();
            Ok(Value::String(if case["kind"] == "hmac-verify" {
                // The message's generated verifier answers; the interpreter of its declaration is
                // its oracle, so a disagreement is the driver's error, named with the case.
                let interpreted = verify_hmac_v1(&declaration, &case["instance"], key);
                let generated = messages::verify_signature(protocol, message, &case["instance"], &HmacSha256Key::new(key)).ok_or_else(|| format!("no generated verifier for {protocol}/{message}"))?;
                if generated != interpreted {
                    return Err(format!("the generated verifier says {generated:?}, the interpreter {interpreted:?}"));
                }
                generated.map_or_else(|error| error.code.as_str().to_string(), |()| "valid".to_string())
            } else {
                let unsigned = case["instance"].as_object().ok_or("instance is not an object")?;
                sign_hmac_v1(&declaration, unsigned, key).map_or_else(|error| format!("error: {}", error.code.as_str()), |(_, signature)| signature)
            }))
        }
        "content-id" => {
            let (protocol, message) = (text(case, "protocol")?, text(case, "message")?);
            let declaration = messages::content_address(protocol, message).ok_or_else(|| format!("no content address declared for {protocol}/{message}"))?;
            let record = case["record"].as_object().ok_or("record is not an object")?;
            Ok(Value::String(compute_content_id(&declaration, record)))
        }
        "lifecycle" => {
            let (protocol, lifecycle) = (text(case, "protocol")?, text(case, "lifecycle")?);
            let steps = case["steps"].as_array().ok_or("steps is not an array")?;
            lifecycles::run(protocol, lifecycle, steps).map(|outcomes| Value::Array(outcomes.into_iter().map(Value::String).collect()))
        }
        "canonicalize" => {
            let parsed = parse_strict_json(text(case, "input")?.as_bytes()).map_err(|e| format!("strict parse: {e}"))?;
            Ok(Value::String(canonicalize(&parsed)))
        }
        "number" => {
            let bits = u64::from_str_radix(text(case, "bits")?, 16).map_err(|e| format!("bits: {e}"))?;
            Ok(Value::String(format_number(f64::from_bits(bits))))
        }
        kind => Err(format!("unknown case kind {kind}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [cases_file, verdicts_file] = args.as_slice() else {
        eprintln!("usage: shared_case_driver <cases.json> <verdicts.json>");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(cases_file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{cases_file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Read strictly, as messages are (numbers as the other runtimes read them), with a case file's
    // limits: the test's own output, far larger and deeper than a message.
    let limits = StrictJsonLimits { max_bytes: 1 << 30, max_depth: 1000 };
    let cases = match parse_strict_with(&bytes, limits) {
        Ok(Value::Object(mut file)) => match file.remove("cases") {
            Some(Value::Array(cases)) => cases,
            _ => {
                eprintln!("{cases_file}: no cases array");
                return ExitCode::FAILURE;
            }
        },
        Ok(_) => {
            eprintln!("{cases_file}: not a JSON object");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("{cases_file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let verdicts: Vec<Value> = cases
        .iter()
        .map(|case| {
            let verdict = answer(case).unwrap_or_else(|message| Value::String(format!("error: {message}")));
            json!({ "id": case["id"], "verdict": verdict })
        })
        .collect();
    let out = json!({ "language": "rust", "verdicts": verdicts });
    if let Err(e) = std::fs::write(verdicts_file, format!("{out}\n")) {
        eprintln!("{verdicts_file}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
