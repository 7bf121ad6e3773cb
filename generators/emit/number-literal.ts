// The one place a spec number becomes a typed literal in generated code (issue 31). The load stage
// (load/spec-file.ts, lint number-exact) admits only numbers every target holds exactly: integers
// within +-(2^53 - 1) and fractions, as IEEE 754 doubles. Here each becomes the literal of its
// target type, written so that it reads back as the same value; a number the lint would refuse is
// an error, never a literal of some nearby value.

/** 2^53 - 1: the largest integer a TypeScript number, a Kotlin Long and a Swift Int64 all hold with its neighbours. */
export const MAX_SHARED_INTEGER = 9007199254740991;
const INT32_MAX = 2 ** 31 - 1;

export type NumberLanguage = "ts" | "kotlin" | "swift";

export interface NumberLiteral {
  /** The target type: Kotlin Int / Long / Double, Swift Int / Double, TypeScript number. */
  type: string;
  literal: string;
}

/** Why `value` has no exact literal in every target, or undefined when it has one. */
export function numberNotShared(value: number): string | undefined {
  if (!Number.isFinite(value)) return `${value} is not a JSON number`;
  if (Number.isInteger(value) && Math.abs(value) > MAX_SHARED_INTEGER) {
    return `is an integer beyond +-${MAX_SHARED_INTEGER} (2^53 - 1): TypeScript's number cannot tell it from its neighbours, and ${Math.abs(value) >= 2 ** 63 ? "it exceeds Kotlin's Long and Swift's Int64 (2^63 - 1)" : "Kotlin and Swift would read it as an integer the TypeScript side cannot hold exactly"}`;
  }
  return undefined;
}

/** The literal of `value` in `language`; throws for a number numberNotShared refuses. */
export function numberLiteral(value: number, language: NumberLanguage): NumberLiteral {
  const refused = numberNotShared(value);
  if (refused !== undefined) throw new Error(`${value} ${refused} (lint number-exact should have refused it)`);
  // Shortest text that reads back as the same double (ECMAScript Number::toString): "12.5",
  // "1e-7"; a valid Double literal in Kotlin and Swift as well. Integers here are within 2^53 - 1,
  // so their text is every digit.
  const text = String(value === 0 ? 0 : value);
  if (language === "ts") return { type: "number", literal: text };
  if (!Number.isInteger(value)) return { type: "Double", literal: text };
  if (language === "swift") return { type: "Int", literal: text };
  return Math.abs(value) <= INT32_MAX ? { type: "Int", literal: text } : { type: "Long", literal: `${text}L` };
}
