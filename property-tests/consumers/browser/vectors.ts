// The inputs the consumer runs and the answers the spec expects, both read from the spec: the
// shared vectors (spec/*/vectors), every lifecycle's paths file and every message's examples.
// Nothing here runs the bindings, so the expectations cannot drift with them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { loadModel } from "../../../generators/pipeline.js";
import { ROOT } from "./bundle.js";
import type { Answer, VectorInput } from "./src/run-vectors.js";

const json = (path: string): any => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

export interface Vectors {
  input: VectorInput;
  expected: Answer[];
}

export function readVectors(): Vectors {
  const loaded = loadModel(ROOT);
  if (!loaded.ok) throw new Error("spec has errors");
  const strict = json("spec/common/vectors/strict-json.json");
  const jcs = json("spec/common/vectors/jcs.json");
  const hmac = json("spec/agent-provider/vectors/hmac-sha256-v1.json");
  const ids = json("spec/agent-connector/vectors/content-ids.json");
  const tokens = json("spec/agent-service/vectors/approval-token.json");
  const lifecycles = loaded.model.protocols.flatMap((p) => p.lifecycles.map((l) => ({ protocol: p.id, lifecycle: l.name, paths: json(`spec/${p.id}/lifecycles/${l.name}.paths.json`) })));
  const examples = loaded.model.protocols.flatMap((p) =>
    p.messages.flatMap((m) => [
      ...m.examples.map((example, i) => ({ protocol: p.id, message: m.name, name: `example ${i}`, json: JSON.stringify(example), expected: "valid" as unknown })),
      ...m.invalidExamples.map((invalid) => ({ protocol: p.id, message: m.name, name: invalid.description, json: JSON.stringify(invalid.instance), expected: { instancePath: invalid.error.instancePath, keyword: invalid.error.keyword, rule: invalid.error.rule } as unknown })),
    ]),
  );
  const input: VectorInput = {
    strictJson: strict.cases.map((c: any) => ({ name: c.name, input_hex: c.input_hex })),
    jcs: jcs.cases.map((c: any) => ({ name: c.name, input: c.input })),
    hmac: hmac.cases.map((c: any) => ({ name: c.name, message_type: c.message_type, key_utf8: c.key_utf8, message: c.message })),
    contentIds: ids.cases.map((c: any) => ({ name: c.name, message_type: c.message_type, record: c.record })),
    approvalTokens: tokens.cases.map((c: any) => ({ name: c.name, secret_utf8: c.secret_utf8, token: c.token, now_unix_seconds: c.now_unix_seconds, ...(c.bindings !== undefined ? { bindings: c.bindings } : {}) })),
    lifecyclePaths: lifecycles.map((l) => ({ protocol: l.protocol, lifecycle: l.lifecycle, cases: l.paths.cases.map((c: any) => ({ id: c.id, steps: c.steps.map((s: any) => ({ event: s.event, guards: s.guards })) })) })),
    examples: examples.map(({ expected: _expected, ...e }) => e),
  };
  const expected: Answer[] = [
    ...strict.cases.map((c: any) => ({ suite: "strict-json", name: c.name, actual: c.expect })),
    ...jcs.cases.map((c: any) => ({ suite: "jcs", name: c.name, actual: { canonical: c.canonical, sha256_hex: c.sha256_hex } })),
    // A valid case's signature (its expected_signature where the file states one) is also what
    // signing the message without it must give.
    ...hmac.cases.map((c: any) => ({ suite: "hmac-sha256-v1", name: c.name, actual: { verdict: c.expect, signature: c.expect === "valid" ? (c.expected_signature ?? c.message.signature) : expect.anything() } })),
    ...ids.cases.map((c: any) => ({ suite: "content-ids", name: c.name, actual: c.expected_id })),
    ...tokens.cases.map((c: any) => ({ suite: "approval-token", name: c.name, actual: c.expect })),
    ...lifecycles.flatMap((l) => l.paths.cases.map((c: any) => ({ suite: `lifecycle ${l.protocol}/${l.lifecycle}`, name: c.id, actual: c.steps.map((s: any) => s.expect) }))),
    ...examples.map((e) => ({ suite: `examples ${e.protocol}/${e.message}`, name: e.name, actual: e.expected })),
  ];
  return { input, expected };
}

/** The answers grouped by suite, each suite's cases in order: a failure names the suite that differs. */
export function bySuite(answers: readonly Answer[]): Record<string, { name: string; actual: unknown }[]> {
  const out: Record<string, { name: string; actual: unknown }[]> = {};
  for (const a of answers) (out[a.suite] ??= []).push({ name: a.name, actual: a.actual });
  return out;
}
