// Lint type-shape: every message has a type in every language (model/shapes.ts gives it), checked
// before any emitter runs, so a valid JSON Schema with no type shape is a spec error at its file,
// line:column and the offending keyword's pointer, never an emitter's crash.
import type { SpecFile } from "../load/spec-file.js";
import { protocolShapeErrors } from "../model/shapes.js";
import type { Model, SpecError } from "../model/types.js";

export function lintTypeShapes(model: Model, files: readonly SpecFile[]): SpecError[] {
  const byFile = new Map(files.map((f) => [f.file, f]));
  const errors: SpecError[] = [];
  for (const protocol of model.protocols) {
    for (const error of protocolShapeErrors(model, protocol)) {
      // A shape shared by two messages stops both at one place: reported once.
      if (errors.some((e) => e.file === error.file && e.pointer === error.pointer)) continue;
      const { line, column } = byFile.get(error.file)?.locate(error.pointer) ?? { line: 1, column: 1 };
      errors.push({ file: error.file, line, column, pointer: error.pointer, message: error.reason, lint: "type-shape" });
    }
  }
  return errors;
}
