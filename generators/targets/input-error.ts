// A target's inputs() found a defect in the project's own files (not a bug of the generator): the
// pipeline reports these as spec errors, `file:line:col pointer message [lint]`, and writes nothing.
import type { SpecError } from "../model/types.js";

export class TargetInputError extends Error {
  constructor(readonly errors: SpecError[]) {
    super(errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("\n"));
  }
}
