// One case against the implementation: each step a request (or a read of a stream kept open, a
// close, a wait), each expectation checked in order; the first failed expectation fails the case.
// Every exchange it opens is tracked, so a failure, an exception or the case deadline closes them all.
import { randomUUID } from "node:crypto";
import { generateBody } from "./body-gen.js";
import { checkField, checkOrdering, deepEqual, describeMatch, getPointer, lastInteraction, summarize } from "./checks.js";
import { KitFailure, type Limits } from "./failures.js";
import { Exchange, type OutgoingRequest, type ResponseHead } from "./http.js";
import { SseReader, type SseSpec } from "./sse.js";
import type { Case, Expect, FieldExpect, Frame, FrameMatch, Json, RequestSpec, Step } from "./types.js";

export interface Bindings {
  parseMessage(protocol: string, name: string, input: string | Uint8Array): { ok: true; value: unknown } | { ok: false; errors: { instancePath: string; message?: string; keyword: string }[] };
  listMessages(): { protocol: string; name: string }[];
}

/** What a case kept in memory at most, from the kit's own counters (for its tests and reports). */
export interface CaseStats {
  /** The largest body (or stream) held for one request, in bytes. */
  bodyBytesMax: number;
  /** The largest unterminated SSE block held between chunks, in UTF-8 bytes. */
  sseRetainedBytesMax: number;
}

const fail = (message: string): never => {
  throw new KitFailure("expectation-failed", message);
};

interface OpenStream {
  exchange: Exchange;
  reader: SseReader;
  all: Frame[];
  ended: boolean;
}

export class CaseRun {
  private vars = new Map<string, Json>();
  private uuids = new Map<string, string>();
  private streams = new Map<string, OpenStream>();
  /** Every exchange of the case still open: closed by abort and closeAll whatever happened. */
  private open = new Set<Exchange>();
  private aborted: KitFailure | undefined;
  private wakeWait: (() => void) | undefined;
  readonly stats: CaseStats = { bodyBytesMax: 0, sseRetainedBytesMax: 0 };

  constructor(
    private readonly protocol: string,
    private readonly base: URL,
    private readonly key: string,
    private readonly bindings: Bindings,
    private readonly sse: SseSpec | undefined,
    private readonly limits: Limits,
  ) {}

  /** Ends the case now: every open exchange fails with `reason`, a wait returns, no step starts. */
  abort(reason: KitFailure): void {
    this.aborted ??= reason;
    for (const x of this.open) x.destroy(reason);
    this.wakeWait?.();
  }

  closeAll(): void {
    for (const x of this.open) this.forget(x);
    this.streams.clear();
  }

  private forget(x: Exchange): void {
    x.destroy();
    this.stats.bodyBytesMax = Math.max(this.stats.bodyBytesMax, x.bytesReceived);
    this.open.delete(x);
  }

  async execute(c: Case): Promise<void> {
    for (let i = 0; i < c.steps.length; i++) {
      const step = c.steps[i]!;
      const where = `step ${i + 1}${step.note ? ` (${step.note})` : ""}`;
      try {
        if (this.aborted) throw this.aborted;
        await this.step(step);
        if (this.aborted) throw this.aborted;
      } catch (error) {
        const e = this.aborted ?? error;
        if (e instanceof KitFailure) throw new KitFailure(e.code, `${where}: ${e.message}`);
        throw new KitFailure("internal-error", `${where}: ${(e as Error).message}`);
      }
    }
  }

  private async step(step: Step): Promise<void> {
    if (step.wait !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((r) => {
        timer = setTimeout(r, step.wait);
        this.wakeWait = r;
      });
      clearTimeout(timer);
      this.wakeWait = undefined;
      return;
    }
    if (step.close !== undefined) {
      const s = this.streams.get(step.close);
      if (s) this.forget(s.exchange);
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
    const exchange = new Exchange(this.base, this.buildRequest(r), this.limits.timeoutMs, this.limits.maxBodyBytes);
    this.open.add(exchange);
    let kept = false;
    try {
      kept = await this.exchange(step, r, exchange);
    } finally {
      // Every way out of a step (a failed status, a bad header, an exception) closes the socket,
      // unless the case keeps the stream open for a later `continue`.
      if (!kept) this.forget(exchange);
    }
  }

  /** Runs one request step; true when its stream stays open for a later step. */
  private async exchange(step: Step, r: RequestSpec, exchange: Exchange): Promise<boolean> {
    let head: ResponseHead;
    try {
      head = await exchange.head;
    } catch (error) {
      if (error instanceof KitFailure) throw new KitFailure(error.code, `no response: ${error.message}`);
      throw error;
    }
    const expect = step.expect ?? {};
    this.checkStatus(expect, head.status);
    const applies = !expect.when || expect.when.includes(head.status);
    const isStream = (head.headers["content-type"] ?? "").startsWith("text/event-stream");
    if (r.read === "until-interaction" || (expect.sse && applies)) { // sse checks frames: an answer with none, no event stream, fails them
      if (!this.sse) return fail(`${this.protocol} has no x-sse framing`);
      if (!isStream) return fail(`expected a text/event-stream answer, got ${head.status} ${head.headers["content-type"] ?? "(no content-type)"}`);
      const s: OpenStream = { exchange, reader: new SseReader(this.sse, this.parse, this.limits.maxEventBytes), all: [], ended: false };
      const keep = r.read === "until-interaction";
      if (keep) this.streams.set(r.stream!, s);
      if (applies) this.checkHeaders(expect, head);
      const frames = await this.readFrames(s, keep);
      if (applies) this.checkSse(expect, s, frames);
      if (keep && !lastInteraction(frames) && !expect.sse?.ended) return fail("the stream ended without an interaction_required frame");
      this.captureFrom(step.capture, lastInteraction(frames)?.payload);
      return keep;
    }
    const limit = Math.min(expect.body?.maxBytes ?? Infinity, this.limits.maxBodyBytes);
    let read: { body: Buffer; overLimit: boolean };
    try {
      read = await exchange.readAll(limit, this.limits.timeoutMs);
    } catch (error) {
      if (error instanceof KitFailure) throw new KitFailure(error.code, `reading the body: ${error.message}`);
      throw error;
    }
    const { body, overLimit } = read;
    this.forget(exchange);
    if (!applies) return false;
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
    return false;
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
        chunk = await s.exchange.next(this.limits.timeoutMs);
      } catch (error) {
        if (error instanceof KitFailure) throw new KitFailure(error.code, `reading the stream: ${error.message}`);
        throw error;
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
      this.stats.sseRetainedBytesMax = Math.max(this.stats.sseRetainedBytesMax, s.reader.peakPendingBytes);
      if (s.reader.tooLarge) throw new KitFailure("sse-event-too-large", `an SSE event is larger than ${s.reader.maxEventBytes} bytes`);
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
    if (b.maxBytes !== undefined && (overLimit || body.length > b.maxBytes)) throw new KitFailure("body-too-large", `body is larger than ${b.maxBytes} bytes`);
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

