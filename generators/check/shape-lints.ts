// Lint type-shape: every message has a type in every language (model/shapes.ts gives it), checked
// before any emitter runs, so a valid JSON Schema with no type shape is a spec error at its file,
// line:column and the offending keyword's pointer, never an emitter's crash. Then what a shape
// cannot be in one language's types: null alone or a const with no constant form (Kotlin), two
// enum values or two members spelled alike (Kotlin), an untitled type that contains itself (TS).
import type { SpecFile } from "../load/spec-file.js";
import { protocolShapeErrors, protocolShapes, type Declared, type Shape } from "../model/shapes.js";
import type { Model, SpecError } from "../model/types.js";
import { camelCase, screamingSnake } from "../targets/kotlin/kotlin-names.js";

const INT_LIMIT = 9007199254740991;

export function lintTypeShapes(model: Model, files: readonly SpecFile[]): SpecError[] {
  const byFile = new Map(files.map((f) => [f.file, f]));
  const errors: SpecError[] = [];
  const report = (file: string, pointer: string, message: string): void => {
    // A shape shared by two messages stops both at one place: reported once.
    if (errors.some((e) => e.file === file && e.pointer === pointer)) return;
    const { line, column } = byFile.get(file)?.locate(pointer) ?? { line: 1, column: 1 };
    errors.push({ file, line, column, pointer, message, lint: "type-shape" });
  };
  for (const protocol of model.protocols) {
    const stops = protocolShapeErrors(model, protocol);
    for (const error of stops) report(error.file, error.pointer, error.reason);
    if (stops.length === 0) new TargetTypes(report).walkAll(protocolShapes(model, protocol).messages.values());
  }
  return errors;
}

type Report = (file: string, pointer: string, message: string) => void;

/** Walks every shape once, with the file and pointer it is written at. */
class TargetTypes {
  private readonly seen = new Set<string>();
  /** Untitled shapes being walked inside their own type (TS writes them inline). */
  private readonly inline = new Set<string>();

  constructor(private readonly report: Report) {}

  walkAll(messages: Iterable<Declared>): void {
    for (const shape of messages) this.walk(shape, shape.source.file, shape.source.pointer);
  }

  private walk(shape: Shape, file: string, pointer: string): void {
    switch (shape.kind) {
      case "nullable":
        return this.walk(shape.inner, file, pointer);
      case "array":
        if (shape.items !== undefined) this.walk(shape.items, file, `${pointer}/items`);
        return;
      case "map":
        if (shape.values !== undefined) this.walk(shape.values, file, `${pointer}/additionalProperties`);
        return;
      case "null":
        return this.report(file, `${pointer}/type`, 'type null has no Kotlin type (a member that is always null carries nothing): drop the member, or allow a value beside null (type: [string, "null"])');
      case "const": {
        const v = shape.value;
        const kotlin = typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isInteger(v) && Math.abs(v) <= INT_LIMIT);
        if (!kotlin) this.report(file, `${pointer}/const`, `const ${JSON.stringify(v)} has no Kotlin constant form: a const is a string, a boolean or an integer; drop the member or give it a type`);
        return;
      }
      case "record":
      case "union":
      case "enum":
        return this.declared(shape);
      default:
        return;
    }
  }

  private declared(shape: Declared): void {
    const { file, pointer } = shape.source;
    if (shape.title === undefined && this.inline.has(shape.id)) {
      this.report(file, pointer, "an untitled type contains itself: TypeScript writes an untitled type in place, so it would never end; give it a title");
      return;
    }
    if (this.seen.has(shape.id)) return;
    this.seen.add(shape.id);
    if (shape.title === undefined) this.inline.add(shape.id);
    if (shape.kind === "enum") {
      if (shape.nullable) this.report(file, `${pointer}/enum`, 'an enum listing null has no Kotlin enum class: list strings only and allow null beside it (anyOf: [{enum: [...]}, {type: "null"}])');
      else this.distinct(file, `${pointer}/enum`, shape.values, screamingSnake, "enum values", "Kotlin enum constant");
    } else if (shape.kind === "record") {
      this.distinct(file, `${pointer}/properties`, shape.fields.map((f) => f.wireName), camelCase, "members", "Kotlin property");
      for (const field of shape.fields) this.walk(field.shape, file, `${pointer}/properties/${escape(field.wireName)}`);
    } else {
      for (const branch of shape.branches) this.declared(branch.record);
    }
    this.inline.delete(shape.id);
  }

  private distinct(file: string, pointer: string, names: readonly string[], spell: (name: string) => string, what: string, as: string): void {
    const seen = new Map<string, string>();
    for (const name of names) {
      const spelled = spell(name);
      const earlier = seen.get(spelled);
      if (earlier !== undefined && earlier !== name) {
        this.report(file, pointer, `${what} ${JSON.stringify(earlier)} and ${JSON.stringify(name)} both become the ${as} ${spelled}: make them differ in their letters or digits`);
        return;
      }
      seen.set(spelled, name);
    }
  }
}

function escape(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}
