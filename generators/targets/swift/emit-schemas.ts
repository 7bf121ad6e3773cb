// Schemas.swift: every schema document as a raw string literal, for the runtime's validator.
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { lengthFirst } from "../../model/length-first.js";
import type { Model } from "../../model/types.js";
import { rawStringLiteral } from "./naming.js";

/** The Swift validator reads x-rules from the schema; prose, examples and these notes it does not. */
const dropForSwift = (keyword: string): boolean => PROSE_AND_EXAMPLES.has(keyword) || keyword === "x-inferred-from-clients" || keyword === "x-open" || keyword === "x-closed-enum";

export function renderSchemas(model: Model): string {
  const documents = [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))];
  const literals = documents.map((d) => `        ${rawStringLiteral(JSON.stringify(validatorView(lengthFirst(d), dropForSwift)))},`);
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
