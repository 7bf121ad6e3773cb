// Schemas.swift: every schema document as a raw string literal, for the runtime's validator.
import type { JsonSchema, JsonValue, Model } from "../../model/types.js";
import { rawStringLiteral } from "./naming.js";

const NOT_FOR_VALIDATION = new Set(["examples", "description", "x-invalid-examples", "x-source", "x-divergences", "x-inferred-from-clients", "x-open", "x-closed-enum"]);

/** Keywords whose members are names chosen by the spec, not keywords. */
const NAME_MAPS = new Set(["properties", "$defs", "patternProperties", "dependentRequired", "dependentSchemas"]);

/** The schema without prose and examples; `properties`, `$defs`, `const` and `enum` keep every key. */
function validatorView(node: JsonValue, parentKey = ""): JsonValue {
  if (Array.isArray(node)) return parentKey === "enum" || parentKey === "const" ? node : node.map((n) => validatorView(n));
  if (node === null || typeof node !== "object") return node;
  if (parentKey === "const" || parentKey === "enum" || parentKey === "default") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const namesMembers = NAME_MAPS.has(parentKey);
    if (!namesMembers && NOT_FOR_VALIDATION.has(key)) continue;
    out[key] = validatorView(value, namesMembers ? "" : key);
  }
  return out;
}

export function renderSchemas(model: Model): string {
  const documents = [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))];
  const literals = documents.map((d) => `        ${rawStringLiteral(JSON.stringify(validatorView(d)))},`);
  return [
    "import Foundation",
    "",
    "/// Every schema document of the spec (shared types and each message), without prose and examples.",
    "public enum ContractSchemas {",
    "    public static let registry = SchemaRegistry(sources: [",
    ...literals,
    "    ])",
    "}",
    "",
    "extension ContractMessage {",
    "    public static var schemaRegistry: SchemaRegistry { ContractSchemas.registry }",
    "}",
    "",
  ].join("\n");
}
