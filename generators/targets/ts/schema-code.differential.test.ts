// The generated schema checks (generated/ts/<protocol>/validators.js, emit-schema-code.ts) against
// ajv, the oracle they replace: ajv compiled at run time from the same spec schemas exactly as the
// generator used to build its standalone code (createSchemaCompiler over the validator view of the
// shared schemas and the protocol's messages). On every shared validation case of the drivers
// (each message's examples and invalid examples, the model's mutations of the first example, the
// fuzz corpus's hostile inputs and reproducers, parsed strictly) the verdict and the first error,
// message and params included, must be equal.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as connector from "../../../generated/ts/agent-connector/validators.js";
import * as provider from "../../../generated/ts/agent-provider/validators.js";
import * as integration from "../../../generated/ts/provider-integration/validators.js";
import * as service from "../../../generated/ts/agent-service/validators.js";
import { parseStrictJson } from "../../../generated/ts/runtime/strict-json.js";
import { fromAjvError, type AjvLikeError, type ValidationError } from "../../../generated/ts/runtime/validation.js";
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { createSchemaCompiler } from "../../model/schema-compiler.js";
import type { JsonSchema, JsonValue } from "../../model/types.js";
import { loadModel } from "../../pipeline.js";
import { sharedCases } from "../../../property-tests/drivers/cases.js";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const generated: Record<string, Record<string, unknown>> = {
  "agent-connector": connector,
  "agent-provider": provider,
  "agent-service": service,
  "provider-integration": integration,
};

const loaded = loadModel(ROOT);
if (!loaded.ok) throw new Error(`spec does not load: ${loaded.errors.map((e) => e.message).join("; ")}`);
const model = loaded.model;

type Check = (value: unknown) => ValidationError[] | undefined;

function checkOf(protocol: string, message: string): Check {
  const check = generated[protocol]?.[`check${message}`];
  if (typeof check !== "function") throw new Error(`generated/ts/${protocol}/validators.js has no check${message}`);
  return check as Check;
}

/** ajv's first error, mapped as the bindings map ajv's errors. */
const oracles = new Map<string, (value: unknown) => ValidationError | undefined>();
function oracleOf(protocol: string, message: string): (value: unknown) => ValidationError | undefined {
  const key = `${protocol}/${message}`;
  const known = oracles.get(key);
  if (known !== undefined) return known;
  const p = model.protocols.find((x) => x.id === protocol)!;
  const m = p.messages.find((x) => x.name === message)!;
  const schemas = [...model.shared.map((s) => s.schema), ...p.messages.map((x) => x.schema)].map((s) => validatorView(s, (k) => PROSE_AND_EXAMPLES.has(k)) as JsonSchema);
  const validate = createSchemaCompiler(schemas).getSchema(m.id)!;
  const oracle = (value: unknown): ValidationError | undefined => {
    if (validate(value)) return undefined;
    const first = (validate.errors ?? [])[0];
    if (first === undefined) throw new Error(`ajv failed ${key} without an error`);
    return fromAjvError(first as AjvLikeError);
  };
  oracles.set(key, oracle);
  return oracle;
}

interface Instance {
  id: string;
  protocol: string;
  message: string;
  value: JsonValue;
}

function instances(): Instance[] {
  const out: Instance[] = [];
  for (const c of sharedCases(ROOT, model, ROOT).cases) {
    if (c.kind === "validate") out.push({ id: c.id, protocol: c.protocol, message: c.message, value: c.instance });
    else if (c.kind === "parse-validate") {
      const parsed = parseStrictJson(Buffer.from(c.b64, "base64"));
      if (parsed.ok) out.push({ id: c.id, protocol: c.protocol, message: c.message, value: parsed.value as JsonValue });
    }
  }
  return out;
}

describe("generated TS schema checks against ajv (the oracle)", () => {
  const all = instances();

  it("covers every message of the spec with valid and invalid inputs", () => {
    for (const p of model.protocols) {
      for (const m of p.messages) {
        const mine = all.filter((i) => i.protocol === p.id && i.message === m.name);
        const verdicts = new Set(mine.map((i) => oracleOf(p.id, m.name)(i.value) === undefined));
        expect(verdicts, `${p.id}/${m.name}`).toEqual(new Set([true, false]));
      }
    }
    expect(all.length).toBeGreaterThan(1000);
  });

  it("gives ajv's verdict and first error (path, keyword, message, params) on every shared case", () => {
    const differences: string[] = [];
    for (const i of all) {
      const want = oracleOf(i.protocol, i.message)(i.value);
      const got = checkOf(i.protocol, i.message)(i.value)?.[0];
      if (JSON.stringify(got) !== JSON.stringify(want)) differences.push(`${i.id}: generated ${JSON.stringify(got)}, ajv ${JSON.stringify(want)}`);
    }
    expect(differences.slice(0, 20), `${differences.length} of ${all.length} cases differ`).toEqual([]);
  });

  it("leaves no error in the generated checks' own state between calls (a valid value after an invalid one is valid)", () => {
    const example = model.protocols.flatMap((p) => p.messages.map((m) => ({ p, m }))).find(({ m }) => Array.isArray(m.schema["examples"]))!;
    const check = checkOf(example.p.id, example.m.name);
    const valid = (example.m.schema["examples"] as JsonValue[])[0];
    expect(check(42)).toBeDefined();
    expect(check(valid)).toBeUndefined();
    // Each error is a fresh object: the path a caller prefixes never leaks into the next failure.
    expect(check(42)).toEqual(check(42));
  });

  it("lists propertyNames' own error after the failing name's, naming the member, as ajv does", () => {
    const p = model.protocols.find((x) => x.id === "provider-integration")!;
    const schemas = [...model.shared.map((s) => s.schema), ...p.messages.map((x) => x.schema)].map((s) => validatorView(s, (k) => PROSE_AND_EXAMPLES.has(k)) as JsonSchema);
    const m = p.messages.find((x) => x.name === "LiveInboxChanged")!;
    const validate = createSchemaCompiler(schemas).getSchema(m.id)!;
    const frame = { type: "inbox.changed", latest_sequence: 42, body: "hello" };
    expect(validate(frame)).toBe(false);
    expect(checkOf(p.id, m.name)(frame)).toEqual((validate.errors ?? []).map((e) => fromAjvError(e as AjvLikeError)));
  });
});
