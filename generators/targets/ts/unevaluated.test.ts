// unevaluatedProperties and unevaluatedItems are enforced by every target (runtime-keywords.json),
// and the TypeScript target's generated checks do not track evaluated members: a message whose
// schema reaches either is checked by ajv's standalone code (validators-ajv.js) behind the same
// check<Message> export (emit-schema-code.ts). A copy of the spec whose HttpJsonResponse is closed
// with unevaluatedProperties beside allOf/properties, and whose HttpJsonRequest has a tuple closed
// with unevaluatedItems, must generate; its generated package must give the verdicts JSON Schema
// 2020-12 gives (written here by hand) with ajv's first error, and ajv compiled at run time agrees.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { createSchemaCompiler } from "../../model/schema-compiler.js";
import type { JsonSchema, JsonValue } from "../../model/types.js";
import { build } from "../../pipeline.js";
import { connectorFixture, REPO_ROOT } from "../../test/fixture.js";
import { ungeneratedMessages } from "./emit-schema-code.js";
import { tsTarget } from "./target.js";

const RESPONSE = "spec/agent-connector/messages/HttpJsonResponse.yaml";
const REQUEST = "spec/agent-connector/messages/HttpJsonRequest.yaml";
const BASE = "https://agent-contracts.dev/schemas/agent-connector/";

type Check = (value: unknown) => { instancePath: string; keyword: string; message: string; params: Record<string, unknown> }[] | undefined;
type Validate = (value: unknown) => { ok: boolean; errors?: { instancePath: string; keyword: string }[] };

const request = (pair?: unknown): Record<string, unknown> => ({
  prompt: "p",
  sessionRef: null,
  resume: null,
  permissionMode: "read-only",
  operationId: "op-7",
  ...(pair === undefined ? {} : { pair }),
});

/** [instance, expected first error (instancePath, keyword, params) or undefined when valid], by hand from 2020-12. */
const RESPONSE_CASES: [unknown, { instancePath: string; keyword: string; params: Record<string, unknown> } | undefined][] = [
  [{ text: "hi" }, undefined],
  // traceId is evaluated by the allOf entry's properties, so it is not unevaluated.
  [{ text: "hi", traceId: "t" }, undefined],
  [{ text: "hi", sessionRef: "s", traceId: "t" }, undefined],
  [{ text: "hi", extra: 1 }, { instancePath: "", keyword: "unevaluatedProperties", params: { unevaluatedProperty: "extra" } }],
  [{ text: "hi", traceId: "t", b: true }, { instancePath: "", keyword: "unevaluatedProperties", params: { unevaluatedProperty: "b" } }],
  // allOf runs before properties, unevaluatedProperties after both.
  [{ text: "hi", traceId: 5, extra: 1 }, { instancePath: "/traceId", keyword: "type", params: { type: "string" } }],
  [{ text: 1, extra: 1 }, { instancePath: "/text", keyword: "type", params: { type: "string" } }],
  [{ extra: 1 }, { instancePath: "", keyword: "required", params: { missingProperty: "text" } }],
];

const REQUEST_CASES: [unknown, { instancePath: string; keyword: string; params: Record<string, unknown> } | undefined][] = [
  [request(), undefined],
  [request([]), undefined],
  [request(["a"]), undefined],
  [request(["a", 1]), undefined],
  [request(["a", 1, true]), { instancePath: "/pair", keyword: "unevaluatedItems", params: { limit: 2 } }],
  [request(["a", 1, 2, 3]), { instancePath: "/pair", keyword: "unevaluatedItems", params: { limit: 2 } }],
  [request(["a", "b", true]), { instancePath: "/pair/1", keyword: "type", params: { type: "integer" } }],
  [request({ 0: "a" }), { instancePath: "/pair", keyword: "type", params: { type: "array" } }],
];

describe("a message reaching unevaluatedProperties or unevaluatedItems (TypeScript target)", () => {
  let connector: Record<string, unknown>;
  let messages: Record<string, unknown>;
  let rendered: Map<string, string>;
  let schemas: JsonSchema[];

  beforeAll(async () => {
    const fixture = connectorFixture();
    fixture.edit(RESPONSE, "type: object\n", "type: object\nallOf:\n  - properties:\n      traceId: { type: string }\nunevaluatedProperties: false\n");
    fixture.edit(REQUEST, "properties:\n", "properties:\n  pair:\n    description: A tuple closed after its two items.\n    type: array\n    prefixItems: [{ type: string }, { type: integer, minimum: 0, maximum: 10 }]\n    unevaluatedItems: false\n");
    const result = await build(fixture.root, [tsTarget]);
    if (!result.ok) throw new Error(`generate failed: ${JSON.stringify(result.errors)}`);
    rendered = result.rendered;
    for (const [path, contents] of rendered) {
      const file = `${fixture.root}/${path}`;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, contents);
    }
    symlinkSync(`${REPO_ROOT}/node_modules`, `${fixture.root}/node_modules`);
    const out = `${fixture.root}/generated/ts/agent-connector`;
    connector = (await import(pathToFileURL(`${out}/validators.js`).href)) as Record<string, unknown>;
    messages = (await import(pathToFileURL(`${out}/messages.js`).href)) as Record<string, unknown>;
    const model = result.model;
    const protocol = model.protocols.find((p) => p.id === "agent-connector")!;
    schemas = [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((s) => validatorView(s, (k) => PROSE_AND_EXAMPLES.has(k)) as JsonSchema);
  }, 120_000);

  it("generates, checking exactly those two messages with ajv's standalone code", () => {
    const ajvJs = rendered.get("generated/ts/agent-connector/validators-ajv.js");
    expect(ajvJs).toBeDefined();
    expect(ajvJs).toMatch(/export const validateHttpJsonResponse\b/);
    expect(ajvJs).toMatch(/export const validateHttpJsonRequest\b/);
    expect(ajvJs).not.toMatch(/export const validateConnectorManifest\b/);
    const validators = rendered.get("generated/ts/agent-connector/validators.js")!;
    expect(validators).toMatch(/import \{[^}]*validateHttpJsonRequest as validateHttpJsonRequestAjv[^}]*\} from "\.\/validators-ajv\.js"/);
    expect(validators).toContain(`from ajv's standalone code: ${BASE}HttpJsonResponse.json# uses unevaluatedProperties`);
    // Every other message keeps its generated check.
    expect(validators).toMatch(/export function checkConnectorManifest\(value\) \{\n\s+const error = /);
  });

  const oracle = (id: string) => {
    const ajv = createSchemaCompiler(schemas);
    return ajv.getSchema(id)!;
  };

  for (const [name, cases] of [["HttpJsonResponse", RESPONSE_CASES], ["HttpJsonRequest", REQUEST_CASES]] as const) {
    it(`${name}: 2020-12's verdicts, ajv's first error, through check${name} and validate${name}`, () => {
      const check = connector[`check${name}`] as Check;
      const validate = messages[`validate${name}`] as Validate;
      const ajv = oracle(`${BASE}${name}.json`);
      for (const [instance, expected] of cases) {
        const errors = check(instance);
        const verdict = validate(instance);
        const ajvValid = ajv(instance);
        if (expected === undefined) {
          expect(errors, JSON.stringify(instance)).toBeUndefined();
          expect(verdict.ok).toBe(true);
          expect(ajvValid).toBe(true);
          continue;
        }
        expect(errors, JSON.stringify(instance)).toBeDefined();
        const first = errors![0]!;
        expect({ instancePath: first.instancePath, keyword: first.keyword, params: first.params }, JSON.stringify(instance)).toEqual(expected);
        expect(verdict.ok).toBe(false);
        expect(verdict.errors![0]).toEqual(first);
        expect(ajvValid).toBe(false);
        expect({ instancePath: ajv.errors![0]!.instancePath, keyword: ajv.errors![0]!.keyword, params: ajv.errors![0]!.params }).toEqual(expected);
      }
    });
  }
});

describe("ungeneratedMessages", () => {
  const ID = "https://example.test/M.json";
  const OTHER = "https://example.test/N.json";
  it("names a message reaching either keyword through a $ref, at the keyword's schema, and no other", () => {
    const documents: JsonValue[] = [
      { $id: ID, properties: { a: { $ref: "T.json" } } },
      { $id: "https://example.test/T.json", type: "array", prefixItems: [true], unevaluatedItems: false },
      { $id: OTHER, properties: { b: { type: "string" } } },
    ];
    expect(ungeneratedMessages(documents, [{ name: "M", id: ID }, { name: "N", id: OTHER }])).toEqual([
      { name: "M", id: ID, reason: "https://example.test/T.json# uses unevaluatedItems, whose annotation tracking the generated checks do not do" },
    ]);
  });
});
