// Every example in the spec passes or fails the GENERATED validator exactly as declared.
import { describe, expect, it } from "vitest";
import { loadModel } from "../pipeline.js";
import { REPO_ROOT } from "./fixture.js";
// @ts-ignore: generated JavaScript with its own declarations
import { validateMessage } from "../../generated/ts/index.js";

const result = loadModel(REPO_ROOT);
if (!result.ok) throw new Error(`spec has errors: ${result.errors.map((e) => `${e.file}:${e.line} ${e.message}`).join("; ")}`);

for (const protocol of result.model.protocols) {
  describe(protocol.id, () => {
    for (const message of protocol.messages) {
      it(`${message.name}: ${message.examples.length} valid and ${message.invalidExamples.length} invalid examples`, () => {
        expect(message.examples.length).toBeGreaterThan(0);
        expect(message.invalidExamples.length).toBeGreaterThan(0);
        for (const example of message.examples) {
          const r = validateMessage(protocol.id, message.name, example);
          expect(r.ok ? [] : r.errors).toEqual([]);
        }
        for (const invalid of message.invalidExamples) {
          const r = validateMessage(protocol.id, message.name, invalid.instance);
          expect(r.ok, invalid.description).toBe(false);
          const first = r.ok ? undefined : r.errors[0];
          expect({ description: invalid.description, instancePath: first?.instancePath, keyword: first?.keyword }).toEqual({
            description: invalid.description,
            instancePath: invalid.error.instancePath,
            keyword: invalid.error.keyword,
          });
          if (invalid.error.rule) expect(first?.params["rule"]).toBe(invalid.error.rule);
        }
      });
    }
  });
}
