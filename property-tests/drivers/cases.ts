// The shared cases every language's driver answers (property-tests/drivers/README.md), built from
// the spec's own data, never from a driver: each message's examples (valid, or the first error its
// x-invalid-examples entry declares), the model's validation cases (mutations of the first example
// with the reference validator's first error), each lifecycle's paths suite
// (spec/<protocol>/lifecycles/<name>.paths.json, step by step), the RFC 8785 vectors
// (spec/common/vectors/jcs.json, RFC 8785's own input/output pairs and its ES6 number file), the
// strict JSON vectors and the fuzz corpus (hostile bytes into the parser, the RFC 3339 reader and
// each message's validator; hostile-cases.ts for messages the corpus does not hold).
import { isDeepStrictEqual } from "node:util";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonValue, Model } from "../../generators/model/types.js";
import { hostileCases } from "./hostile-cases.js";

/** One case as the drivers read it: what to do (`kind`) and its input; `id` names it in every report. */
export type DriverCase =
  | { id: string; kind: "validate"; protocol: string; message: string; instance: JsonValue }
  | { id: string; kind: "lifecycle"; protocol: string; lifecycle: string; steps: { event: string; guards: Record<string, boolean> }[] }
  | { id: string; kind: "canonicalize"; input: string }
  | { id: string; kind: "number"; bits: string }
  | { id: string; kind: "parse"; b64: string }
  | { id: string; kind: "rfc3339"; text: string }
  | { id: string; kind: "parse-validate"; protocol: string; message: string; b64: string }
  | { id: string; kind: "hmac-verify" | "hmac-sign"; protocol: string; message: string; key_utf8: string; instance: JsonValue }
  | { id: string; kind: "content-id"; protocol: string; message: string; record: JsonValue }
  | { id: string; kind: "approval-token"; protocol: string; message: string; secret_utf8: string; token: string; now_unix_seconds: number; bindings?: ApprovalBindings };

/** The request an approval token must be bound to, as the vectors spell it (snake_case, expected_choice optional). */
export interface ApprovalBindings { action: string; resource_id: string; request_id: string; expected_choice?: string | null }

/** A driver's answer to one case (see README.md for each kind's spelling). */
export type Verdict = string | string[];

export interface SharedCases {
  cases: DriverCase[];
  /** The answer each case must get, keyed by case id. */
  expected: Map<string, Verdict>;
}

interface PathsSuite {
  protocol: string;
  lifecycle: string;
  cases: { id: string; steps: { event: string; guards: Record<string, boolean>; expect: { ok: boolean; state: string; effects?: string[]; refusal?: string; guard?: string } }[] }[];
}

/** `valid`, or the first error as `<instancePath> <keyword>` with ` <rule id>` for an x-rules error. */
export function firstError(error: { instancePath: string; keyword: string; rule?: string } | null | undefined): string {
  if (error === null || error === undefined) return "valid";
  return `${error.instancePath} ${error.keyword}${error.rule === undefined ? "" : ` ${error.rule}`}`;
}

/** One lifecycle step's outcome: `moved <state> [<effect>,...]` or `refused <reason> <guard or ->`. */
export function stepOutcome(outcome: { ok: boolean; state: string; effects?: readonly string[]; refusal?: string; guard?: string }): string {
  return outcome.ok ? `moved ${outcome.state} [${(outcome.effects ?? []).join(",")}]` : `refused ${outcome.refusal} ${outcome.guard ?? "-"}`;
}

/** `base` with the member at `pointer` replaced by `value`, or removed (a copy; `base` is left alone). */
export function patched(base: JsonValue, pointer: string, remove: boolean, value: JsonValue): JsonValue {
  if (pointer === "") return remove ? null : value;
  const tokens = pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  const copy = structuredClone(base) as JsonValue;
  let node = copy as Record<string, JsonValue> | JsonValue[];
  for (const token of tokens.slice(0, -1)) node = (Array.isArray(node) ? node[Number(token)] : node[token]) as typeof node;
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(node)) {
    if (remove) node.splice(Number(last), 1);
    else node[Number(last)] = value;
  } else if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

/**
 * Every shared case of `model` (whose project lives at `root`), with the expected answers.
 * `vectorsRoot` is where the runtime's outside vectors live (this repository: the JCS files are
 * the runtime's, not a spec's, so an example project is checked against them too).
 */
export function sharedCases(root: string, model: Model, vectorsRoot: string): SharedCases {
  const cases: DriverCase[] = [];
  const expected = new Map<string, Verdict>();
  const add = (c: DriverCase, verdict: Verdict) => {
    if (expected.has(c.id)) throw new Error(`two shared cases with id ${c.id}`);
    cases.push(c);
    expected.set(c.id, verdict);
  };
  for (const protocol of model.protocols) {
    for (const message of protocol.messages) {
      const at = `${protocol.id}/${message.name}`;
      message.examples.forEach((instance, i) => add({ id: `example ${at} #${i}`, kind: "validate", protocol: protocol.id, message: message.name, instance }, "valid"));
      message.invalidExamples.forEach((invalid, i) =>
        add({ id: `invalid-example ${at} #${i} (${invalid.description})`, kind: "validate", protocol: protocol.id, message: message.name, instance: invalid.instance }, firstError(invalid.error)),
      );
      const base = message.examples[0];
      if (base === undefined) continue;
      message.validationCases.forEach((c, i) =>
        add(
          { id: `mutation ${at} #${i} ${c.pointer} ${c.remove ? "removed" : JSON.stringify(c.value)}`, kind: "validate", protocol: protocol.id, message: message.name, instance: patched(base, c.pointer, c.remove, c.value) },
          firstError(c.expected),
        ),
      );
    }
    for (const lifecycle of protocol.lifecycles) {
      const file = join(root, "spec", protocol.id, "lifecycles", `${lifecycle.name}.paths.json`);
      const suite = JSON.parse(readFileSync(file, "utf8")) as PathsSuite;
      for (const c of suite.cases) {
        add(
          { id: `lifecycle ${protocol.id}/${lifecycle.name} ${c.id}`, kind: "lifecycle", protocol: protocol.id, lifecycle: lifecycle.name, steps: c.steps.map((s) => ({ event: s.event, guards: s.guards })) },
          c.steps.map((s) => stepOutcome(s.expect)),
        );
      }
    }
  }
  const jcs = JSON.parse(readFileSync(join(vectorsRoot, "spec/common/vectors/jcs.json"), "utf8")) as { cases: { name: string; input: string; canonical: string }[] };
  for (const c of jcs.cases) add({ id: `jcs ${c.name}`, kind: "canonicalize", input: c.input }, c.canonical);
  // RFC 8785's reference pairs (property-tests/vectors/jcs/README.md): input/<f> canonicalizes to output/<f>.
  const rfc = join(vectorsRoot, "property-tests/vectors/jcs/testdata");
  for (const name of readdirSync(join(rfc, "input")).sort()) {
    if (!existsSync(join(rfc, "output", name))) throw new Error(`RFC 8785 vector ${name} has no output file`);
    add({ id: `rfc8785 ${name}`, kind: "canonicalize", input: readFileSync(join(rfc, "input", name), "utf8") }, readFileSync(join(rfc, "output", name), "utf8"));
  }
  // RFC 8785's ES6 number lines: `<IEEE 754 bits in hex>,<the number's ES6 string>`.
  const es6 = readFileSync(join(vectorsRoot, "property-tests/vectors/jcs/es6numbers/es6testfile_10000.txt"), "utf8").split("\n").filter((l) => l !== "");
  if (es6.length !== 10_000) throw new Error(`the ES6 number file has ${es6.length} lines, not 10000`);
  es6.forEach((line, i) => {
    const [bits, text] = line.split(",");
    add({ id: `es6-number #${i} ${bits}`, kind: "number", bits: bits!.padStart(16, "0") }, text!);
  });
  addHostileInputCases(model, vectorsRoot, add);
  addSigningCases(root, model, add);
  return { cases, expected };
}

interface CorpusCase { kind: string; name: string; b64?: string; text?: string; protocol?: string; message?: string; expect: string }

/**
 * The strict JSON vectors (spec/common/vectors/strict-json.json) and the fuzz corpus
 * (property-tests/fuzz/corpus: its verdicts checked against an independent oracle by
 * property-tests/fuzz/oracle.test.ts), both the generator's data, read from `vectorsRoot`, never
 * from the project's spec/. The corpus's validate cases name this repository's messages: a project
 * gets those of its own protocols' messages, and hostile-cases.ts's patterns on every other message.
 */
function addHostileInputCases(model: Model, vectorsRoot: string, add: (c: DriverCase, verdict: Verdict) => void): void {
  const strict = JSON.parse(readFileSync(join(vectorsRoot, "spec/common/vectors/strict-json.json"), "utf8")) as { limits: { maxBytes: number; maxDepth: number }; cases: { name: string; input_hex: string; expect: string }[] };
  // The drivers parse with each runtime's default limits, which these vectors are written for.
  if (strict.limits.maxBytes !== 4 * 1024 * 1024 || strict.limits.maxDepth !== 64) throw new Error(`strict-json.json: limits ${JSON.stringify(strict.limits)} are not the runtimes' defaults (4 MiB, depth 64)`);
  for (const c of strict.cases) add({ id: `strict-json ${c.name}`, kind: "parse", b64: Buffer.from(c.input_hex, "hex").toString("base64") }, c.expect === "valid" ? "ok" : c.expect);
  const corpus = (file: string) => (JSON.parse(readFileSync(join(vectorsRoot, "property-tests/fuzz/corpus", file), "utf8")) as { cases: CorpusCase[] }).cases;
  for (const c of corpus("strict-json.json")) add({ id: `fuzz-parse ${c.name}`, kind: "parse", b64: c.b64! }, c.expect);
  for (const c of corpus("rfc3339.json")) add({ id: `fuzz-rfc3339 ${c.name}`, kind: "rfc3339", text: c.text! }, c.expect);
  const messages = new Set(model.protocols.flatMap((p) => p.messages.map((m) => `${p.id}/${m.name}`)));
  const covered = new Set<string>();
  for (const [file, prefix] of [["validators.json", "fuzz-validate"], ["reproducers.json", "fuzz-reproducer"]] as const) {
    for (const c of corpus(file)) {
      const at = `${c.protocol!}/${c.message!}`;
      if (!messages.has(at)) continue;
      if (file === "validators.json") covered.add(at);
      add({ id: `${prefix} ${c.protocol} ${c.name}`, kind: "parse-validate", protocol: c.protocol!, message: c.message!, b64: c.b64! }, c.expect);
    }
  }
  for (const c of hostileCases(model, covered)) add({ id: `hostile ${c.protocol} ${c.name}`, kind: "parse-validate", protocol: c.protocol, message: c.message, b64: c.b64 }, c.expect);
}

interface HmacVector { name: string; message_type: string; key_utf8: string; message: Record<string, JsonValue>; expect: string; expected_signature?: string }
interface ContentIdVector { name: string; message_type: string; record: JsonValue; expected_id: string }
interface ApprovalTokenVectors { declaration: JsonValue; cases: { name: string; secret_utf8: string; token: string; now_unix_seconds: number; bindings?: ApprovalBindings; expect: string }[] }

/**
 * A protocol's own signing vectors (spec/<protocol>/vectors: hmac-sha256-v1.json, MACs from Python's
 * hmac and the real SDKs; content-ids.json, ids from the real packages), the cases of messages the
 * project has that declare the scheme: each verified (its `expect`), each valid one re-signed
 * without its signature members (its signature), each record's id computed (its `expected_id`);
 * approval-token.json (tokens minted by the real Python agent and by Python's stdlib, verdicts in the
 * reference verifier's order), for each message whose x-approval-token declaration is the one the
 * file's vectors are written for: each token decoded at the case's clock, and bound to the case's
 * request when it has one (its `expect`).
 */
function addSigningCases(root: string, model: Model, add: (c: DriverCase, verdict: Verdict) => void): void {
  for (const protocol of model.protocols) {
    const vectors = (file: string) => {
      const path = join(root, "spec", protocol.id, "vectors", file);
      return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as { cases: unknown[] }).cases : [];
    };
    const messageOf = (name: string) => protocol.messages.find((m) => m.name === name);
    for (const c of vectors("hmac-sha256-v1.json") as HmacVector[]) {
      const signature = messageOf(c.message_type)?.signature;
      if (signature === undefined) continue;
      const at = { protocol: protocol.id, message: c.message_type, key_utf8: c.key_utf8 };
      add({ id: `hmac-verify ${protocol.id} ${c.name}`, kind: "hmac-verify", ...at, instance: c.message }, c.expect);
      if (c.expect !== "valid" || c.expected_signature === undefined) continue;
      const { [signature.signatureField]: _signature, [signature.algorithmField]: _algorithm, ...unsigned } = c.message;
      add({ id: `hmac-sign ${protocol.id} ${c.name}`, kind: "hmac-sign", ...at, instance: unsigned }, c.expected_signature);
    }
    for (const c of vectors("content-ids.json") as ContentIdVector[]) {
      if (messageOf(c.message_type)?.contentAddress === undefined) continue;
      add({ id: `content-id ${protocol.id} ${c.name}`, kind: "content-id", protocol: protocol.id, message: c.message_type, record: c.record }, c.expected_id);
    }
    const tokenFile = join(root, "spec", protocol.id, "vectors", "approval-token.json");
    if (existsSync(tokenFile)) {
      const tokens = JSON.parse(readFileSync(tokenFile, "utf8")) as ApprovalTokenVectors;
      for (const message of protocol.messages.filter((m) => m.approvalToken !== undefined && isDeepStrictEqual(m.approvalToken, tokens.declaration))) {
        for (const c of tokens.cases) {
          const { name: _name, expect, ...input } = c;
          add({ id: `approval-token ${protocol.id}/${message.name} ${c.name}`, kind: "approval-token", protocol: protocol.id, message: message.name, ...input }, expect);
        }
      }
    }
  }
}
