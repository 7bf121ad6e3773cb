// Edges of the Kotlin type mapper (kotlin-types.ts) next to kotlin-types.test.ts, with the
// declaration expected from the mapping rules in kotlin-types.ts's header: a bound that is not a
// number is no bound (JSON Schema: minimum and maximum are numbers), and one Kotlin name per
// declaration, enums included.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../model/types.js";
import { kotlinDeclarations, type KotlinDeclaration } from "./kotlin-types.js";

const BASE = "https://agent-contracts.dev/schemas/demo/";

function declare(messages: Record<string, JsonSchema>): KotlinDeclaration[] {
  const list = Object.entries(messages).map(([name, schema]) => ({ name, id: `${BASE}${name}.json`, schema, location: { file: `spec/demo/${name}.yaml` } }));
  return kotlinDeclarations({ shared: [] } as never, { messages: list } as never, list as never);
}
const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({ type: "object", additionalProperties: false, required, properties });
function typeOf(schema: JsonSchema): string | undefined {
  const [first] = declare({ Demo: { title: "Demo", ...object({ x: schema }) } });
  if (first?.kind !== "class") throw new Error("no class");
  return first.properties[0]!.type;
}

describe("kotlin-types edges", () => {
  it("a string maximum is no bound: the integer stays Long", () => {
    expect(typeOf({ type: "integer", minimum: 0, maximum: 5 })).toBe("Int");
    expect(typeOf({ type: "integer", minimum: 0, maximum: "5" as never })).toBe("Long");
  });
  it("refuses two enums with one name, and an enum and a class with one name", () => {
    const mode = (values: string[]) => ({ title: "Mode", type: "string", enum: values }) as JsonSchema;
    const taken = `spec/demo/A.yaml /properties/q: Kotlin name Mode is also taken by spec/demo/A.yaml /properties/p; give one of them another title`;
    expect(() => declare({ A: object({ p: mode(["a"]), q: mode(["b"]) }) })).toThrow(taken);
    expect(() => declare({ A: object({ p: mode(["a"]), q: { title: "Mode", ...object({ y: { type: "string" } }) } }) })).toThrow(taken);
  });
});
