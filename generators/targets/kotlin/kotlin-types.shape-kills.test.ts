// The Kotlin renderer of the shape model on the cases its own rules decide (model/shapes.ts decides
// what a schema is; these are the Kotlin-only refusals and the positions their errors name). Each
// expectation is written by hand from the rule in kotlin-types.ts.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../model/types.js";
import { kotlinDeclarations } from "./kotlin-types.js";

const BASE = "https://agent-contracts.dev/schemas/demo/";

function declare(messages: Record<string, JsonSchema>) {
  const list = Object.entries(messages).map(([name, schema]) => ({ name, id: `${BASE}${name}.json`, schema: { title: name, ...schema }, location: { file: `spec/demo/${name}.yaml` } }));
  return kotlinDeclarations({ shared: [] } as never, { messages: list } as never, list as never);
}
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: "object", additionalProperties: false, required: Object.keys(properties), properties });

describe("Kotlin-only refusals, at the member they are about", () => {
  it("refuses an enum that lists null: a Kotlin enum class has no null constant", () => {
    expect(() => declare({ Demo: object({ x: { enum: ["a", null] } }) })).toThrow("spec/demo/Demo.yaml /properties/x: an enum listing null has no Kotlin enum class");
  });

  it("refuses a member of type null, naming the member", () => {
    expect(() => declare({ Demo: object({ x: { type: "null" } }) })).toThrow("spec/demo/Demo.yaml /properties/x: type null has no Kotlin type");
  });

  it("names the items of an array, and escapes the member name in the pointer", () => {
    expect(() => declare({ Demo: object({ x: { type: "array", items: { const: 1.5 } } }) })).toThrow("spec/demo/Demo.yaml /properties/x/items: const 1.5 has no Kotlin constant form");
    expect(() => declare({ Demo: object({ "a/b~": { const: 1.5 } }) })).toThrow("spec/demo/Demo.yaml /properties/a~1b~0: const 1.5 has no Kotlin constant form");
  });

  it("names a whole document by / when two messages take one Kotlin name", () => {
    expect(() => declare({ A: { title: "Same", ...object({ x: { type: "string" } }) }, B: { title: "Same", ...object({ y: { type: "string" } }) } })).toThrow(
      "spec/demo/B.yaml /: Kotlin name Same is also taken by spec/demo/A.yaml /; give one of them another title",
    );
  });
});
