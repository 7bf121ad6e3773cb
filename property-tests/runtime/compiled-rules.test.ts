// The x-rules compiled to straight-line code in generated/ts/<protocol>/messages.js against the
// reference evaluator (checkRules in runtime/rules.ts, which walks the same rule tables at run
// time): the same errors, in the same order, on the spec's valid and invalid examples, on those
// examples with the rules' operands replaced by hostile values, and on arbitrary values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crossFieldRules as connectorRules } from "../../generated/ts/agent-connector/messages.js";
import { crossFieldRules as providerRules } from "../../generated/ts/agent-provider/messages.js";
import { crossFieldRules as serviceRules } from "../../generated/ts/agent-service/messages.js";
import { crossFieldRules as integrationRules } from "../../generated/ts/provider-integration/messages.js";
import { checkRules, type CrossFieldRule } from "../../generators/targets/ts/runtime/src/rules.js";
import { loadModel } from "../../generators/pipeline.js";
import { pointerTokens } from "../../generators/targets/ts/emit-rules.js";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 300);
const OPTIONS = { numRuns: RUNS, seed: 20261201 };
const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

interface Compiled { rules: readonly CrossFieldRule[]; check(value: unknown): unknown }
const byProtocol: Record<string, Record<string, Compiled>> = {
  "agent-connector": connectorRules,
  "agent-provider": providerRules,
  "agent-service": serviceRules,
  "provider-integration": integrationRules,
};

const loaded = loadModel(ROOT);
if (!loaded.ok) throw new Error(`spec does not load: ${loaded.errors.map((e) => e.message).join("; ")}`);
const messages = loaded.model.protocols.flatMap((p) => p.messages).filter((m) => m.rules.length > 0);

function compiledFor(protocol: string, name: string): Compiled {
  const compiled = byProtocol[protocol]?.[name];
  if (compiled === undefined) throw new Error(`${protocol}/${name} has x-rules but no compiled check`);
  return compiled;
}

/** Both evaluations on one value (the compiled check reports no errors as undefined); how many errors. */
function agree(compiled: Compiled, value: unknown): number {
  const reference = checkRules(value, compiled.rules);
  expect(compiled.check(value) ?? []).toEqual(reference);
  return reference.length;
}

// Values that sit on each side of every rule kind: SemVer and not, https origins and endpoints
// and near misses, text the secret filter redacts and text it keeps, items whose keys (the
// rules' own key names) repeat.
const SECRETS = ["Bearer abcdef123", "token=abc", "api_key: xyz", "sk_live_abcdefghijklmnop", "eyJhbGciOiJIUzI1NiJ9.e30.sig", "https://u:p@a.example"];
function operand(itemKeys: readonly string[]): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    scalar: fc.oneof(
      fc.constantFrom(
        "1.0.0", "0.9.0", "2.3.4", "1.0.0-rc.1", "1.0.0-01", "01.0.0", "1.0", "v1.0.0", "99999999999999999999.0.0",
        "https://a.example", "https://a.example/", "https://a.example:443", "https://b.example", "http://a.example",
        "https://a.example/x?q=1", "https://a.example/x#f", "https://a.example/path", "not a url",
        "plain words.", "slot-a", "slot-b", "tool", "assistant", "user", "", "__proto__",
      ),
      fc.constantFrom(...SECRETS),
      fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 3 }), fc.string({ maxLength: 8 }),
    ),
    item: fc.oneof(tie("scalar"), fc.dictionary(fc.constantFrom(...itemKeys, "id", "name"), tie("scalar"), { maxKeys: 3 })),
    items: fc.array(tie("item"), { maxLength: 4 }),
    value: fc.oneof(
      { weight: 3, arbitrary: tie("scalar") },
      { weight: 2, arbitrary: tie("items") },
      // Some items, then one item twice (uniqueBy).
      { weight: 1, arbitrary: fc.tuple(tie("items"), tie("item")).map(([xs, x]) => [...(xs as unknown[]), x, structuredClone(x)]) },
      { weight: 1, arbitrary: tie("item") },
    ),
  })).value;
}

/** A copy of `base` with `replacement` at `pointer`, making the containers on the way as needed. */
function placed(base: unknown, pointer: string, replacement: unknown): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) return replacement;
  const root = structuredClone(base);
  const top: Record<string, unknown> = typeof root === "object" && root !== null ? (root as Record<string, unknown>) : {};
  let current = top;
  tokens.forEach((token, i) => {
    if (i === tokens.length - 1) {
      current[token] = replacement;
      return;
    }
    const next = current[token];
    const container = typeof next === "object" && next !== null ? next : /^(0|[1-9][0-9]*)$/.test(tokens[i + 1]!) ? [] : {};
    current[token] = container;
    current = container as Record<string, unknown>;
  });
  return top;
}

function pointersOf(rule: CrossFieldRule): string[] {
  const { id: _id, kind: _kind, message: _message, ...fields } = rule as unknown as Record<string, string>;
  return Object.values(fields).filter((v) => typeof v === "string" && v.startsWith("/"));
}

describe("compiled x-rules agree with the reference evaluator", () => {
  it("every message with x-rules has a compiled check over the same table", () => {
    expect(messages.length).toBeGreaterThan(5);
    for (const m of messages) expect(compiledFor(m.protocol, m.name).rules).toEqual(m.rules);
  });

  for (const m of messages) {
    describe(`${m.protocol}/${m.name} (${m.rules.length} rules)`, () => {
      const compiled = compiledFor(m.protocol, m.name);

      it("on the spec's examples, invalid examples and differential cases", () => {
        const values = [...m.examples, ...m.invalidExamples.map((e) => e.instance), ...m.validationCases.map((c) => c.value)];
        expect(values.length).toBeGreaterThan(0);
        for (const value of values) agree(compiled, value);
        // The examples are valid: no rule may fire on them, in either evaluation.
        for (const value of m.examples) expect(compiled.check(value)).toBeUndefined();
        // An invalid example refused by a rule is refused by the compiled check with that rule's id.
        for (const e of m.invalidExamples.filter((x) => x.error.keyword === "x-rule")) {
          const errors = (compiled.check(e.instance) ?? []) as { params: { rule: string } }[];
          expect(errors.map((x) => x.params.rule)).toContain(e.error.rule);
        }
      });

      it("on the examples with the rules' operands replaced by hostile values", () => {
        const pointers = [...new Set(m.rules.flatMap(pointersOf))];
        const base = m.examples[0] ?? {};
        const itemKeys = m.rules.flatMap((r) => ("key" in r ? [r.key] : []));
        const edits = fc.array(fc.tuple(fc.constantFrom(...pointers), operand(itemKeys)), { minLength: 1, maxLength: 4 });
        const firedRules = new Set<string>();
        fc.assert(fc.property(edits, (list) => {
          const value = list.reduce<unknown>((v, [pointer, replacement]) => placed(v, pointer, replacement), base);
          if (agree(compiled, value) > 0) for (const e of checkRules(value, compiled.rules)) firedRules.add(String(e.params["rule"]));
        }), OPTIONS);
        // The inputs reach both sides: every rule is broken by some of them, not only kept.
        expect([...firedRules].sort()).toEqual(m.rules.map((r) => r.id).sort());
      });

      it("on arbitrary values", () => {
        fc.assert(fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3, withNullPrototype: true })), (value) => {
          agree(compiled, value);
        }), OPTIONS);
      });
    });
  }
});
