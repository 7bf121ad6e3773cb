// Schemas.swift: every schema document as a raw string literal, for the schema interpreter
// (SchemaRegistry), which validates nothing at run time any more: the generated validators
// (emit-validators.ts) do; it stays as their test oracle and as the public API for other schemas.
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { lengthFirst } from "../../model/length-first.js";
import type { JsonValue, Model } from "../../model/types.js";
import { rawStringLiteral } from "./naming.js";

/** The Swift validator reads x-rules from the schema; prose, examples and these notes it does not. */
const dropForSwift = (keyword: string): boolean => PROSE_AND_EXAMPLES.has(keyword) || keyword === "x-inferred-from-clients" || keyword === "x-open" || keyword === "x-closed-enum";

/** The schema documents as the Swift validators see them (the interpreter's and the generated code's). */
export function swiftSchemaDocuments(model: Model): JsonValue[] {
  const documents = [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))];
  return documents.map((d) => validatorView(lengthFirst(d), dropForSwift));
}

export function renderSchemas(model: Model): string {
  const literals = swiftSchemaDocuments(model).map((d) => `        ${rawStringLiteral(JSON.stringify(d))},`);
  return [
    "import Foundation",
    "",
    "/// Every schema document of the spec (shared types and each message), without prose and examples,",
    "/// for SchemaRegistry (the messages validate with the generated code of Validators/).",
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
