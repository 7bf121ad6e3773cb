// Runs a loaded conformance suite against a live implementation: one case at a time, each step a
// request (or a read of a stream kept open, a close, a wait), each expectation checked in order;
// the first failed expectation fails the case. Only the --url host is ever contacted.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Exchange, type OutgoingRequest, type ResponseHead } from "./http.js";
import { loadSseSpec, SseReader, type SseSpec } from "./sse.js";
import type { Case, CaseResult, Expect, FieldExpect, Frame, FrameMatch, Json, LoadedSuite, RequestSpec, Step } from "./types.js";

export interface Bindings {
  parseMessage(protocol: string, name: string, input: string | Uint8Array): { ok: true; value: unknown } | { ok: false; errors: { instancePath: string; message?: string; keyword: string }[] };
  listMessages(): { protocol: string; name: string }[];
}

export async function loadBindings(root: string): Promise<Bindings> {
  const entry = `${root}/generated/ts/index.js`;
  if (!existsSync(entry)) throw new Error("generated/ts is missing: run `make` first");
  return (await import(pathToFileURL(entry).href)) as Bindings;
}

export interface RunOptions {
  root: string;
  url: string;
  key?: string;
  tags?: string[];
  only?: string[];
  serverState?: string;
  /** Per response head and per body chunk (default 30000). */
  timeoutMs?: number;
  bindings: Bindings;
  onResult?: (result: CaseResult) => void;
}

export interface RunSummary {
  results: CaseResult[];
  passed: number;
  failed: number;
  skipped: number;
}

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;

class CaseFailure extends Error {}
const fail = (message: string): never => {
  throw new CaseFailure(message);
};

export function selectCases(suite: LoadedSuite, tags?: string[], only?: string[]): LoadedSuite["cases"] {
  return suite.cases.filter((c) => (!tags || tags.length === 0 || c.tags.some((t) => tags.includes(t))) && (!only || only.length === 0 || only.includes(c.id)));
}

export async function runSuite(suite: LoadedSuite, options: RunOptions): Promise<RunSummary> {
  const base = new URL(options.url);
  const sse = loadSseSpec(options.root, suite.protocol);
  const state = options.serverState ?? suite.suite.defaultServerState;
  const key = options.key ?? suite.suite.credential?.default ?? "";
  const results: CaseResult[] = [];
  for (const c of selectCases(suite, options.tags, options.only)) {
    const started = Date.now();
    let result: CaseResult;
    if (c.serverStates && !c.serverStates.includes(state)) {
      result = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: "skip", detail: `needs server state ${c.serverStates.join(" or ")}`, ms: 0 };
    } else {
      const run = new CaseRun(suite.protocol, base, key, options.bindings, sse, options.timeoutMs ?? 30_000);
      try {
        await run.execute(c);
        result = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: "pass", ms: Date.now() - started };
      } catch (error) {
        const detail = error instanceof CaseFailure ? error.message : `error: ${(error as Error).message}`;
        result = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: "fail", detail, ms: Date.now() - started };
      } finally {
        run.closeAll();
      }
    }
    results.push(result);
    options.onResult?.(result);
  }
  return {
    results,
    passed: results.filter((r) => r.status === "pass").length,
    failed: results.filter((r) => r.status === "fail").length,
    skipped: results.filter((r) => r.status === "skip").length,
  };
}

export function formatResult(r: CaseResult): string {
  if (r.status === "pass") return `pass ${r.id} — ${r.title}`;
  if (r.status === "skip") return `skip ${r.id} — ${r.detail ?? ""}`;
  return `FAIL ${r.id} — ${r.title}: ${r.detail ?? ""}`;
}

export function formatSummary(s: { passed: number; failed: number }): string {
  return `${s.passed} passed, ${s.failed} failed`;
}

interface OpenStream {
  exchange: Exchange;
  reader: SseReader;
  all: Frame[];
  ended: boolean;
}

class CaseRun {
  private vars = new Map<string, Json>();
  private uuids = new Map<string, string>();
  private streams = new Map<string, OpenStream>();

  constructor(
    private readonly protocol: string,
    private readonly base: URL,
    private readonly key: string,
    private readonly bindings: Bindings,
    private readonly sse: SseSpec | undefined,
    private readonly timeoutMs: number,
  ) {}

  closeAll(): void {
    for (const s of this.streams.values()) s.exchange.destroy();
    this.streams.clear();
  }

  async execute(c: Case): Promise<void> {
    for (let i = 0; i < c.steps.length; i++) {
      const step = c.steps[i]!;
      try {
        await this.step(step);
      } catch (error) {
        if (error instanceof CaseFailure) throw new CaseFailure(`step ${i + 1}${step.note ? ` (${step.note})` : ""}: ${error.message}`);
        throw new Error(`step ${i + 1}${step.note ? ` (${step.note})` : ""}: ${(error as Error).message}`);
      }
    }
  }

  private async step(step: Step): Promise<void> {
    if (step.wait !== undefined) {
      await new Promise((r) => setTimeout(r, step.wait));
      return;
    }
    if (step.close !== undefined) {
      this.streams.get(step.close)?.exchange.destroy();
      this.streams.delete(step.close);
      return;
    }
    if (step.continue !== undefined) {
      const s = this.streams.get(step.continue);
      if (!s) return fail(`stream ${step.continue} is not open`);
      const frames = await this.readFrames(s, true);
      this.checkSse(step.expect, s, frames);
      this.captureFrom(step.capture, lastInteraction(frames)?.payload);
      return;
    }
    const r = step.request!;
    const exchange = new Exchange(this.base, this.buildRequest(r), this.timeoutMs);
    let head: ResponseHead;
    try {
      head = await exchange.head;
    } catch (error) {
      exchange.destroy();
      return fail(`no response: ${(error as Error).message}`);
    }
    const expect = step.expect ?? {};
    this.checkStatus(expect, head.status);
    const applies = !expect.when || expect.when.includes(head.status);
    const isStream = (head.headers["content-type"] ?? "").startsWith("text/event-stream");
    if (r.read === "until-interaction" || (expect.sse && applies && isStream)) {
      if (!this.sse) return fail(`${this.protocol} has no x-sse framing`);
      if (!isStream) return fail(`expected a text/event-stream answer, got ${head.status} ${head.headers["content-type"] ?? "(no content-type)"}`);
      const s: OpenStream = { exchange, reader: new SseReader(this.sse, this.parse), all: [], ended: false };
      const keep = r.read === "until-interaction";
      if (keep) this.streams.set(r.stream!, s);
      if (applies) this.checkHeaders(expect, head);
      const frames = await this.readFrames(s, keep);
      if (applies) this.checkSse(expect, s, frames);
      if (keep && !lastInteraction(frames) && !expect.sse?.ended) return fail("the stream ended without an interaction_required frame");
      this.captureFrom(step.capture, lastInteraction(frames)?.payload);
      if (!keep) exchange.destroy();
      return;
    }
    const { body, overLimit } = await exchange.readAll(expect.body?.maxBytes ?? DEFAULT_MAX_BODY, this.timeoutMs).catch((e: Error) => fail(`reading the body: ${e.message}`));
    exchange.destroy();
    if (!applies) return;
    this.checkHeaders(expect, head);
    if (expect.body) this.checkBody(expect.body, body, overLimit);
    if (step.capture) {
      let value: Json;
      try {
        value = JSON.parse(body.toString("utf8")) as Json;
      } catch {
        return fail("capture needs a JSON body");
      }
      this.captureFrom(step.capture, value);
    }
  }

  private parse = (name: string, text: string): { ok: true; value: unknown } | { ok: false; error: string } => {
    const result = this.bindings.parseMessage(this.protocol, name, text);
    if (result.ok) return { ok: true, value: result.value };
    const e = result.errors[0];
    return { ok: false, error: e ? `${e.instancePath || "/"} ${e.keyword} ${e.message ?? ""}`.trim() : "invalid" };
  };

  /** Reads frames until an interaction frame (when `stopAtInteraction`) or the end of the stream. */
  private async readFrames(s: OpenStream, stopAtInteraction: boolean): Promise<Frame[]> {
    const frames: Frame[] = [];
    const decoder = new TextDecoder("utf-8", { fatal: true });
    for (;;) {
      let chunk: Buffer | undefined;
      try {
        chunk = await s.exchange.next(this.timeoutMs);
      } catch (error) {
        return fail(`reading the stream: ${(error as Error).message}`);
      }
      if (chunk === undefined) {
        s.ended = true;
        if (s.reader.rest.trim() !== "") fail(`the stream ended inside an unterminated block: ${JSON.stringify(s.reader.rest.slice(0, 120))}`);
        break;
      }
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return fail("the stream is not UTF-8");
      }
      const got = s.reader.push(text);
      if (s.reader.problems.length > 0) return fail(s.reader.problems[0]!);
      frames.push(...got);
      s.all.push(...got);
      if (stopAtInteraction && got.some((f) => f.kind === "interaction")) break;
    }
    if (s.reader.problems.length > 0) fail(s.reader.problems[0]!);
    return frames;
  }

  private buildRequest(r: RequestSpec): OutgoingRequest {
    const headers: [string, string][] = (r.headers ?? []).map(([n, v]) => [n, this.expandString(v)]);
    if (r.auth && this.key !== "") headers.push(["authorization", `Bearer ${this.key}`]);
    let body: Buffer | undefined;
    if (r.body !== undefined) body = Buffer.from(JSON.stringify(this.expandJson(r.body)), "utf8");
    else if (r.bodyText !== undefined) body = Buffer.from(this.expandString(r.bodyText), "utf8");
    else if (r.bodyGen) body = generateBody(this.expandJson(r.bodyGen.template), r.bodyGen);
    if (body !== undefined && !headers.some(([n]) => n.toLowerCase() === "content-type")) headers.push(["content-type", "application/json"]);
    return { method: r.method, path: this.expandString(r.path), headers, body };
  }

  private expandString(s: string): string {
    const v = this.expand(s);
    return typeof v === "string" ? v : JSON.stringify(v);
  }

  /** Placeholders: ${key}, ${uuid} (fresh), ${uuid:name} (fresh once per case), ${repeat:unit:n}, ${VAR} (captured). */
  private expand(s: string): Json {
    const whole = /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(s);
    if (whole) {
      if (!this.vars.has(whole[1]!)) fail(`variable ${whole[1]} was never captured`);
      return this.vars.get(whole[1]!)!;
    }
    return s.replace(/\$\{([^}]*)\}/g, (_, expr: string) => {
      if (expr === "key") return this.key;
      if (expr === "uuid") return randomUUID();
      if (expr.startsWith("uuid:")) {
        const name = expr.slice(5);
        if (!this.uuids.has(name)) this.uuids.set(name, randomUUID());
        return this.uuids.get(name)!;
      }
      const rep = /^repeat:(.+):(\d+)$/.exec(expr);
      if (rep) return rep[1]!.repeat(Number(rep[2]));
      if (/^[A-Z][A-Z0-9_]*$/.test(expr)) {
        if (!this.vars.has(expr)) fail(`variable ${expr} was never captured`);
        const v = this.vars.get(expr)!;
        return typeof v === "string" ? v : JSON.stringify(v);
      }
      return fail(`unknown placeholder \${${expr}}`);
    });
  }

  private expandJson(v: Json): Json {
    if (typeof v === "string") return this.expand(v);
    if (Array.isArray(v)) return v.map((x) => this.expandJson(x));
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.expandJson(x)]));
    return v;
  }

  private captureFrom(capture: Record<string, string> | undefined, value: Json | undefined): void {
    if (!capture) return;
    if (value === undefined) return fail("nothing to capture from (no interaction frame or JSON body)");
    for (const [name, pointer] of Object.entries(capture)) {
      const got = getPointer(value, pointer);
      if (!got.found) fail(`capture ${name}: ${pointer} not found`);
      this.vars.set(name, got.value!);
    }
  }

  private checkStatus(e: Expect, status: number): void {
    if (e.status !== undefined && status !== e.status) fail(`status ${status}, expected ${e.status}`);
    if (e.statusIn && !e.statusIn.includes(status)) fail(`status ${status}, expected one of ${e.statusIn.join(", ")}`);
    if (e.statusNot && e.statusNot.includes(status)) fail(`status ${status}, expected none of ${e.statusNot.join(", ")}`);
    if (e.statusRange && (status < e.statusRange[0] || status > e.statusRange[1])) fail(`status ${status}, expected ${e.statusRange[0]}-${e.statusRange[1]}`);
  }

  private checkHeaders(e: Expect, head: ResponseHead): void {
    for (const [name, exp] of Object.entries(e.headers ?? {})) {
      const v = head.headers[name.toLowerCase()];
      const problem = checkField(v, v !== undefined, this.expandExpect(exp));
      if (problem) fail(`header ${name}: ${problem}`);
    }
  }

  private expandExpect(exp: FieldExpect): FieldExpect {
    if (typeof exp === "string") return this.expandString(exp);
    if (exp === null || typeof exp !== "object") return exp;
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(exp)) out[k] = this.expandJson(v as Json);
    return out as FieldExpect;
  }

  private checkBody(b: NonNullable<Expect["body"]>, body: Buffer, overLimit: boolean): void {
    if (b.maxBytes !== undefined && (overLimit || body.length > b.maxBytes)) fail(`body is larger than ${b.maxBytes} bytes`);
    const text = body.toString("utf8");
    if (b.empty && body.length > 0) fail(`expected an empty body, got ${JSON.stringify(text.slice(0, 120))}`);
    if (b.text !== undefined && text !== this.expandString(b.text)) fail(`body ${JSON.stringify(text.slice(0, 120))}, expected ${JSON.stringify(b.text)}`);
    for (const s of b.notContains ?? []) {
      const needle = this.expandString(s);
      if (needle !== "" && text.includes(needle)) fail(`body contains ${JSON.stringify(s)}`);
    }
    const needsJson = b.json || b.message || b.equals !== undefined || b.fields;
    if (!needsJson) return;
    let value: Json;
    try {
      value = JSON.parse(text) as Json;
    } catch {
      return fail(`body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    }
    if (b.message) {
      const r = this.parse(b.message, text);
      if (!r.ok) fail(`body is not a valid ${b.message}: ${r.error}; body ${JSON.stringify(text.slice(0, 160))}`);
    }
    if (b.equals !== undefined && !deepEqual(value, this.expandJson(b.equals))) fail(`body ${JSON.stringify(value).slice(0, 200)}, expected ${JSON.stringify(b.equals)}`);
    this.checkFields(b.fields, value, "body");
  }

  private checkFields(fields: Record<string, FieldExpect> | undefined, value: Json, what: string): void {
    for (const [pointer, exp] of Object.entries(fields ?? {})) {
      const got = getPointer(value, pointer);
      const problem = checkField(got.value, got.found, this.expandExpect(exp));
      if (problem) fail(`${what} ${pointer || "/"}: ${problem}`);
    }
  }

  private checkSse(e: Expect | undefined, s: OpenStream, frames: Frame[]): void {
    const x = e?.sse;
    if (!x) return;
    if (x.ended !== undefined && x.ended !== s.ended) fail(x.ended ? "the stream did not end" : "the stream ended");
    if (x.ordering) {
      const problem = checkOrdering(s.all, s.ended);
      if (problem) fail(problem);
    }
    if (x.stepTypes) {
      const types = frames.filter((f) => f.kind === "step").map((f) => (f.payload as { type: string }).type);
      if (!deepEqual(types, x.stepTypes)) fail(`step types ${JSON.stringify(types)}, expected ${JSON.stringify(x.stepTypes)}`);
    }
    let from = 0;
    for (const m of x.contains ?? []) {
      const i = frames.findIndex((f, k) => k >= from && this.matches(f, m));
      if (i < 0) fail(`no frame ${describeMatch(m)}${from > 0 ? " after the previous match" : ""} (frames: ${summarize(frames)})`);
      from = i + 1;
    }
    for (const m of x.absent ?? []) {
      const f = frames.find((fr) => this.matches(fr, m));
      if (f) fail(`unexpected frame ${describeMatch(m)}: ${f.raw.slice(0, 160)}`);
    }
    for (const c of x.count ?? []) {
      const n = frames.filter((f) => this.matches(f, c.match)).length;
      if (c.n !== undefined && n !== c.n) fail(`${n} frames ${describeMatch(c.match)}, expected ${c.n} (frames: ${summarize(frames)})`);
      if (c.min !== undefined && n < c.min) fail(`${n} frames ${describeMatch(c.match)}, expected at least ${c.min}`);
      if (c.max !== undefined && n > c.max) fail(`${n} frames ${describeMatch(c.match)}, expected at most ${c.max}`);
    }
    if (x.answer !== undefined) {
      const answer = frames.filter((f) => f.kind === "answer").map((f) => (f.payload as { value: string }).value).join("");
      const problem = checkField(answer, true, this.expandExpect(x.answer));
      if (problem) fail(`answer: ${problem}`);
    }
    if (x.interaction) {
      const i = lastInteraction(frames);
      if (!i) fail("no interaction frame");
      this.checkFields(x.interaction, i!.payload, "interaction");
    }
  }

  private matches(f: Frame, m: FrameMatch): boolean {
    if (m.kind && f.kind !== m.kind) return false;
    const p = f.payload as { type?: string; name?: string };
    if (m.type !== undefined && p.type !== m.type) return false;
    if (m.name !== undefined && p.name !== m.name) return false;
    if (m.namePrefix !== undefined && !(typeof p.name === "string" && p.name.startsWith(m.namePrefix))) return false;
    for (const [pointer, exp] of Object.entries(m.fields ?? {})) {
      const got = getPointer(f.payload, pointer);
      if (checkField(got.value, got.found, this.expandExpect(exp))) return false;
    }
    return true;
  }
}

function lastInteraction(frames: Frame[]): Frame | undefined {
  return [...frames].reverse().find((f) => f.kind === "interaction");
}

function describeMatch(m: FrameMatch): string {
  return JSON.stringify(m);
}

function summarize(frames: Frame[]): string {
  const s = frames.map((f) => {
    const p = f.payload as { type?: string; name?: string };
    return f.kind === "step" ? `${p.type}:${p.name}` : f.kind;
  });
  return s.length > 24 ? `${s.slice(0, 24).join(" ")} …` : s.join(" ");
}

/** x-sse ordering rules that hold for every run, whatever the filter. */
export function checkOrdering(frames: Frame[], ended: boolean): string | undefined {
  const steps = frames.map((f, i) => ({ f, i, p: f.payload as { id?: string; type?: string; payload?: { metadata?: { provided_metadata?: { workflow_run_id?: string } } } } }));
  const starts = steps.filter((s) => s.f.kind === "step" && s.p.type === "WORKFLOW_START");
  const ends = steps.filter((s) => s.f.kind === "step" && s.p.type === "WORKFLOW_END");
  if (starts.length > 1) return `${starts.length} WORKFLOW_START frames`;
  if (ends.length > 1) return `${ends.length} WORKFLOW_END frames`;
  if (starts.length === 1 && starts[0]!.i !== 0) return "WORKFLOW_START is not the first frame";
  if (ends.length === 1) {
    if (ended && ends[0]!.i !== frames.length - 1) return "WORKFLOW_END is not the last frame";
    if (starts.length === 1 && ends[0]!.p.id !== starts[0]!.p.id) return "WORKFLOW_END does not reuse the WORKFLOW_START id";
  }
  const errors = frames.filter((f) => f.kind === "error");
  if (errors.length > 1) return `${errors.length} error frames (at most one)`;
  const interactions = frames.filter((f) => f.kind === "interaction").map((f) => f.payload as { execution_id: string; interaction_id: string });
  const runId = starts[0]?.p.payload?.metadata?.provided_metadata?.workflow_run_id;
  for (const x of interactions) {
    if (x.execution_id !== interactions[0]!.execution_id) return "interaction frames of one run carry different execution_ids";
    if (runId !== undefined && x.execution_id !== runId) return "interaction execution_id differs from workflow_run_id";
  }
  if (new Set(interactions.map((x) => x.interaction_id)).size !== interactions.length) return "an interaction_id is reused within the run";
  return undefined;
}

export function getPointer(value: Json, pointer: string): { found: boolean; value?: Json } {
  if (pointer === "") return { found: true, value };
  let cur: Json = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const sel = /^\[([^=^\]]+)(=|\^=)([^\]]*)\]$/.exec(token);
    if (sel) {
      if (!Array.isArray(cur)) return { found: false };
      const test = (v: Json | undefined): boolean => (sel[2] === "=" ? String(v) === sel[3] : typeof v === "string" && v.startsWith(sel[3]!));
      const hit: Json | undefined = cur.find((item) => item !== null && typeof item === "object" && !Array.isArray(item) && test((item as Record<string, Json>)[sel[1]!]));
      if (hit === undefined) return { found: false };
      cur = hit;
    } else if (Array.isArray(cur)) {
      const i = Number(token);
      if (!Number.isInteger(i) || i < 0 || i >= cur.length) return { found: false };
      cur = cur[i]!;
    } else if (cur !== null && typeof cur === "object") {
      if (!Object.prototype.hasOwnProperty.call(cur, token)) return { found: false };
      cur = (cur as Record<string, Json>)[token]!;
    } else return { found: false };
  }
  return { found: true, value: cur };
}

function typeOf(v: Json | undefined): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Why `value` does not meet `exp`, or undefined when it does. */
export function checkField(value: Json | undefined, found: boolean, exp: FieldExpect): string | undefined {
  const show = (v: Json | undefined): string => (v === undefined ? "absent" : JSON.stringify(v).slice(0, 160));
  if (exp === null || typeof exp !== "object") {
    return found && deepEqual(value!, exp) ? undefined : `${show(value)}, expected ${JSON.stringify(exp)}`;
  }
  if (exp.present !== undefined && exp.present !== found) return exp.present ? "absent" : `present (${show(value)})`;
  if (!found) {
    if (exp.present === false) return undefined;
    // "anything else" includes absence.
    if (Object.keys(exp).length === 1 && exp.notEquals !== undefined) return undefined;
    return "absent";
  }
  if (exp.equals !== undefined && !deepEqual(value!, exp.equals)) return `${show(value)}, expected ${JSON.stringify(exp.equals)}`;
  if (exp.notEquals !== undefined && deepEqual(value!, exp.notEquals)) return `${show(value)}, expected anything else`;
  if (exp.type !== undefined && typeOf(value) !== exp.type) return `${show(value)} is not of type ${exp.type}`;
  const needString = exp.startsWith !== undefined || exp.contains !== undefined || exp.notContains !== undefined || exp.pattern !== undefined;
  if (needString && typeof value !== "string") return `${show(value)} is not a string`;
  const s = value as string;
  if (exp.startsWith !== undefined && !s.startsWith(exp.startsWith)) return `${show(value)} does not start with ${JSON.stringify(exp.startsWith)}`;
  if (exp.contains !== undefined && !s.includes(exp.contains)) return `${show(value)} does not contain ${JSON.stringify(exp.contains)}`;
  if (exp.notContains !== undefined && exp.notContains !== "" && s.includes(exp.notContains)) return `${show(value)} contains ${JSON.stringify(exp.notContains)}`;
  if (exp.pattern !== undefined && !new RegExp(exp.pattern, "u").test(s)) return `${show(value)} does not match /${exp.pattern}/`;
  if (exp.length !== undefined) {
    const len = typeof value === "string" ? [...value].length : Array.isArray(value) ? value.length : -1;
    if (len !== exp.length) return `length ${len}, expected ${exp.length}`;
  }
  return undefined;
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as Json[]).length && a.every((x, i) => deepEqual(x, (b as Json[])[i]!));
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, Json>)[k]!, (b as Record<string, Json>)[k]!));
}

/** bodyGen: the template with the string at `pointer` set to `unit` repeated; with `bytes`, exactly that many UTF-8 bytes in all. */
export function generateBody(template: Json, gen: { pointer: string; unit?: string; repeat?: number; bytes?: number; cycle?: Json[]; count?: number }): Buffer {
  const put = (value: Json): string => {
    const copy = JSON.parse(JSON.stringify(template)) as Json;
    const tokens = gen.pointer.slice(1).split("/");
    let cur = copy as Record<string, Json> | Json[];
    for (const t of tokens.slice(0, -1)) cur = (cur as Record<string, Json>)[t] as Record<string, Json>;
    (cur as Record<string, Json>)[tokens[tokens.length - 1]!] = value;
    return JSON.stringify(copy);
  };
  if (gen.cycle !== undefined) return Buffer.from(put(Array.from({ length: gen.count ?? 0 }, (_, i) => gen.cycle![i % gen.cycle!.length]!)), "utf8");
  const unit = gen.unit ?? "x";
  const set = (n: number): string => put(unit.repeat(n));
  if (gen.repeat !== undefined) return Buffer.from(set(gen.repeat), "utf8");
  const target = gen.bytes!;
  const unitBytes = Buffer.byteLength(JSON.stringify(unit).slice(1, -1), "utf8");
  const empty = Buffer.byteLength(set(0), "utf8");
  const n = Math.floor((target - empty) / unitBytes);
  let text = set(Math.max(0, n));
  // Top up with ASCII "x" units when the unit does not divide the remainder.
  const missing = target - Buffer.byteLength(text, "utf8");
  if (missing > 0) {
    const copy = JSON.parse(text) as Json;
    const tokens = gen.pointer.slice(1).split("/");
    let cur = copy as Record<string, Json>;
    for (const t of tokens.slice(0, -1)) cur = cur[t] as Record<string, Json>;
    const last = tokens[tokens.length - 1]!;
    cur[last] = (cur[last] as string) + "x".repeat(missing);
    text = JSON.stringify(copy);
  }
  const out = Buffer.from(text, "utf8");
  if (out.length !== target) throw new Error(`bodyGen cannot make exactly ${target} bytes`);
  return out;
}
