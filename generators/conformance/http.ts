// One HTTP exchange with the implementation under test. It only ever talks to the host and port of
// the --url it was given (the case path is appended to the URL's path verbatim, never resolved), it
// never follows a redirect (node:http does not), the response head (connect included) and every
// body chunk have a timeout, the body a byte cap enforced as bytes arrive (so a server cannot make
// the kit hold more than the cap, read or not), and `destroy` closes the socket on every path.
import http from "node:http";
import https from "node:https";
import { DEFAULT_LIMITS, KitFailure } from "./failures.js";

export interface OutgoingRequest {
  method: string;
  /** The path appended to the base URL's path, sent verbatim. */
  path: string;
  headers: [string, string][];
  body?: Buffer;
}

export interface ResponseHead {
  status: number;
  /** Lowercased names; repeated headers joined with ", " except set-cookie. */
  headers: Record<string, string>;
}

export class Exchange {
  private chunks: Buffer[] = [];
  private waiters: (() => void)[] = [];
  private ended = false;
  private failed: KitFailure | undefined;
  private received = 0;
  private req: http.ClientRequest;
  private res: http.IncomingMessage | undefined;
  private rejectHead: ((e: KitFailure) => void) | undefined;
  private headTimer: NodeJS.Timeout | undefined;
  readonly head: Promise<ResponseHead>;

  constructor(
    base: URL,
    request: OutgoingRequest,
    timeoutMs: number,
    private readonly maxBodyBytes: number = DEFAULT_LIMITS.maxBodyBytes,
  ) {
    const basePath = base.pathname.replace(/\/$/, "");
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of request.headers) {
      const k = name.toLowerCase();
      const prev = headers[k];
      headers[k] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    if (request.body !== undefined) headers["content-length"] = String(request.body.length);
    const lib = base.protocol === "https:" ? https : http;
    let resolveHead!: (h: ResponseHead) => void;
    this.head = new Promise<ResponseHead>((resolve, reject) => {
      resolveHead = resolve;
      this.rejectHead = reject;
    });
    this.head.catch(() => undefined);
    // The request is built first: Node refuses a path or header value with control characters
    // (a CR/LF would split the request) by throwing here, and that refusal is the case's failure,
    // with no timer left behind to fire into a request that never existed.
    try {
      this.req = lib.request({
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ""),
        port: base.port || (base.protocol === "https:" ? 443 : 80),
        method: request.method,
        path: basePath + request.path || "/",
        headers,
        agent: false,
        timeout: timeoutMs,
      });
    } catch (error) {
      throw new KitFailure("request-error", `the request cannot be sent: ${describe(error as Error)}`);
    }
    // node's socket timeout starts only once connected; this timer covers DNS, connect, sending
    // the request and waiting for the head.
    this.headTimer = setTimeout(() => this.destroy(new KitFailure("idle-timeout", `no response head within ${timeoutMs} ms (connect included)`)), timeoutMs);
    this.req.on("response", (res) => {
      clearTimeout(this.headTimer);
      this.rejectHead = undefined;
      this.res = res;
      if (this.failed) {
        res.destroy();
        return;
      }
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(", ") : v;
      res.on("data", (c: Buffer) => this.accept(c));
      res.on("end", () => {
        this.ended = true;
        this.wake();
      });
      res.on("error", (e) => this.destroy(new KitFailure("connection-error", `the body broke off: ${describe(e)}`)));
      res.on("close", () => {
        this.ended = true;
        this.wake();
      });
      resolveHead({ status: res.statusCode ?? 0, headers: h });
    });
    this.req.on("error", (e) => this.destroy(new KitFailure("connection-error", describe(e))));
    this.req.on("timeout", () => this.destroy(new KitFailure("idle-timeout", `socket idle for ${timeoutMs} ms`)));
    this.req.end(request.body);
  }

  /** Keeps a chunk only while the body stays within the cap; past it the socket is closed. */
  private accept(c: Buffer): void {
    if (this.failed) return;
    const room = this.maxBodyBytes - this.received;
    if (c.length > room) {
      this.destroy(new KitFailure("body-too-large", `the body is larger than ${this.maxBodyBytes} bytes`));
      return;
    }
    this.received += c.length;
    this.chunks.push(c);
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Body bytes kept so far: never more than the cap. */
  get bytesReceived(): number {
    return this.received;
  }

  /** The next chunk of body, or undefined at the end; a KitFailure after `timeoutMs` without data. */
  async next(timeoutMs: number): Promise<Buffer | undefined> {
    for (;;) {
      // Once failed (cap, deadline, reset) the exchange is over: queued data is no answer.
      if (this.failed) throw this.failed;
      if (this.chunks.length > 0) return this.chunks.shift();
      if (this.ended) return undefined;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
        this.waiters.push(() => resolve(false));
      });
      clearTimeout(timer);
      if (timedOut) this.destroy(new KitFailure("idle-timeout", `no data within ${timeoutMs} ms`));
    }
  }

  /** Reads the rest of the body; stops (and closes) once more than maxBytes arrived. */
  async readAll(maxBytes: number, timeoutMs: number): Promise<{ body: Buffer; overLimit: boolean }> {
    const parts: Buffer[] = [];
    let size = 0;
    for (;;) {
      const c = await this.next(timeoutMs);
      if (c === undefined) break;
      parts.push(c);
      size += c.length;
      if (size > maxBytes) {
        this.destroy();
        return { body: Buffer.concat(parts), overLimit: true };
      }
    }
    return { body: Buffer.concat(parts), overLimit: false };
  }

  get isEnded(): boolean {
    return this.ended && this.chunks.length === 0;
  }

  /**
   * Closes the connection (request aborted, socket destroyed). With a reason, a pending head and
   * every pending or later read fail with it; the first reason wins.
   */
  destroy(reason?: KitFailure): void {
    clearTimeout(this.headTimer);
    if (reason && !this.failed && !(this.ended && reason.code !== "deadline-exceeded")) {
      this.failed = reason;
      this.chunks = [];
    }
    const reject = this.rejectHead;
    this.rejectHead = undefined;
    reject?.(this.failed ?? new KitFailure("connection-error", "the exchange was closed before the response head"));
    this.res?.destroy();
    this.req.destroy();
    this.wake();
  }
}

function describe(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code && !e.message.includes(code) ? `${code}: ${e.message}` : e.message;
}
