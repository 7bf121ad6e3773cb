// The model's differential validation cases (generators/model/validation-cases.ts) as a Kotlin
// test resource: the Kotlin validator must report the same first error, or the same verdict
// "valid", on every case. Compact tuples keep the file small:
//   [pointer, null to remove the member or [replacement], null for valid or [instancePath, keyword, rule?]]
import type { Message, OutputFile, Protocol, ValidationCase } from "../../model/types.js";

type CaseTuple = [string, [unknown] | null, [string, string, string?] | null];

export function emitValidationCases(protocol: Protocol): OutputFile {
  const messages = protocol.messages.map((message) => ({ name: message.name, base: message.examples[0], cases: message.validationCases.map(tuple) }));
  return {
    path: `src/test/resources/validation-cases/${protocol.id}.json`,
    contents: `${JSON.stringify({ protocol: protocol.id, messages })}\n`,
    sources: protocol.messages.map((m: Message) => m.location.file),
  };
}

function tuple(c: ValidationCase): CaseTuple {
  const e = c.expected;
  return [c.pointer, c.remove ? null : [c.value], e === null ? null : e.rule === undefined ? [e.instancePath, e.keyword] : [e.instancePath, e.keyword, e.rule]];
}
