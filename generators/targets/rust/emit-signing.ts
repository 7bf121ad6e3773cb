// Each signed message's `signing_input` and `verify_signature`, generated from its x-signature
// declaration: the covered members found in one pass over the message (a match on the member
// name, no hash lookup per line), then the lines written in declaration order into one reserved
// String by the runtime's line helpers, which raise the interpreter's errors. The interpreter
// (runtime/hmac_v1.rs, `hmac_v1_signing_input`) stays the oracle: tests/signing.rs compares them.
import type { SignatureDeclaration } from "../../model/declarations.js";
import { rawStringLiteral, stringLiteral } from "./naming.js";

const VALUE = "serde_json::Value";
const MEMBERS = `serde_json::Map<String, ${VALUE}>`;
/** Room per line for its value: a digest is 43 characters, most covered texts are shorter. */
const VALUE_ROOM = 44;

/** The Rust of one message's signing functions (inside its `impl` block, four spaces in). */
export function rustSigningFunctions(messageName: string, signature: SignatureDeclaration): string[] {
  // One slot per distinct member read: the lines' fields, then the signature and algorithm fields.
  const slots: string[] = [];
  const slot = (field: string): number => {
    if (!slots.includes(field)) slots.push(field);
    return slots.indexOf(field);
  };
  const lineSlots = signature.lines.map((l) => slot(l.field));
  const signatureSlot = slot(signature.signatureField);
  const algorithmSlot = slot(signature.algorithmField);
  const found = `[Option<&${VALUE}>; ${slots.length}]`;
  const prefixes = signature.lines.map((l, i) => (i === 0 ? "" : signature.lineSeparator) + l.name + "=");
  const capacity = prefixes.reduce((sum, p) => sum + p.length + VALUE_ROOM, 0);
  const writes = signature.lines.flatMap((l, i) => {
    const helper = l.value === "string" ? "push_string_value" : "push_digest_value";
    let raw = `found[${lineSlots[i]}]`;
    const out = [`        input.push_str(${stringLiteral(prefixes[i]!)});`];
    if (l.default !== undefined) {
      // A default of any JSON, parsed once and kept: the interpreter reads the same declared value.
      const constant = `DEFAULT_${i}`;
      out.push(`        static ${constant}: std::sync::OnceLock<${VALUE}> = std::sync::OnceLock::new();`);
      raw = `${raw}.or_else(|| Some(${constant}.get_or_init(|| serde_json::from_str(${rawStringLiteral(JSON.stringify(l.default))}).expect("the generator wrote valid JSON"))))`;
    }
    out.push(`        hmac_v1::${helper}(&mut input, ${raw}, ${stringLiteral(l.field)})?;`);
    return out;
  });
  return [
    `    /// The members the ${messageName} signature reads, found in one pass over the message: the`,
    "    /// x-signature lines' fields, then the signature and the algorithm field.",
    `    fn signed_members(message: &${MEMBERS}) -> ${found} {`,
    `        let mut found: ${found} = [None; ${slots.length}];`,
    "        for (name, value) in message {",
    "            match name.as_str() {",
    ...slots.map((field, i) => `                ${stringLiteral(field)} => found[${i}] = Some(value),`),
    "                _ => {}",
    "            }",
    "        }",
    "        found",
    "    }",
    "",
    "    /// The signing input from the members `signed_members` found, line by line in declaration order.",
    `    fn write_signing_input(found: &${found}) -> Result<String, hmac_v1::HmacV1Error> {`,
    `        let mut input = String::with_capacity(${capacity});`,
    ...writes,
    "        Ok(input)",
    "    }",
    "",
    `    /// The ${messageName} signing input (its x-signature lines in order, written by generated code),`,
    "    /// or the first covered field that is missing or malformed: what `hmac_v1_signing_input` gives",
    "    /// for `signature_declaration()`.",
    `    pub fn signing_input(message: &${MEMBERS}) -> Result<String, hmac_v1::HmacV1Error> {`,
    "        Self::write_signing_input(&Self::signed_members(message))",
    "    }",
    "",
    `    /// Verifies a received ${messageName} exactly as it arrived, with a key prepared once: the`,
    "    /// checks, their order and the errors of `verify_hmac_v1` with `signature_declaration()`.",
    `    pub fn verify_signature(message: &${VALUE}, key: &HmacSha256Key) -> Result<(), hmac_v1::HmacV1Error> {`,
    `        let ${VALUE}::Object(members) = message else {`,
    "            return hmac_v1::not_an_object();",
    "        };",
    "        let found = Self::signed_members(members);",
    `        let received = hmac_v1::check_signed(found[${signatureSlot}], found[${algorithmSlot}], ${stringLiteral(signature.algorithmField)}, ${stringLiteral(signature.algorithmId)}, key.is_empty())?;`,
    "        hmac_v1::check_mac(&Self::write_signing_input(&found)?, key, &received)",
    "    }",
  ];
}
