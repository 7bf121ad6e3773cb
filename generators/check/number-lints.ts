// Lint: every integer the schema allows fits all three languages exactly. TypeScript holds
// integers exactly up to 2^53 - 1 (I-JSON, RFC 7493 section 2.2); Kotlin and Swift decode into
// Long / Int64. An unbounded `type: integer` lets `1e19` pass the schema in TypeScript and then
// overflow Kotlin's Long, so each one needs explicit bounds within +-(2^53 - 1).
import type { SpecFile } from "../load/spec-file.js";
import type { SpecError } from "../model/types.js";
import { reporter, walkSchemas } from "./lints.js";

export const MAX_EXACT_INTEGER = 9007199254740991;

export function lintIntegerRange(file: SpecFile, errors: SpecError[]): void {
  const report = reporter(file, "integer-range", errors);
  walkSchemas(file.value, "", (schema, pointer) => {
    const type = schema["type"];
    const isInteger = type === "integer" || (Array.isArray(type) && type.includes("integer"));
    if (!isInteger || schema["const"] !== undefined || schema["enum"] !== undefined) return;
    const min = schema["minimum"];
    const max = schema["maximum"];
    if (typeof min !== "number" || min < -MAX_EXACT_INTEGER || typeof max !== "number" || max > MAX_EXACT_INTEGER) {
      report(pointer, `an integer needs minimum and maximum within +-${MAX_EXACT_INTEGER} (2^53 - 1): every language must hold every value the schema allows`);
    }
  });
}
