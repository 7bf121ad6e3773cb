// One HTTP exchange with the implementation under test. It only ever talks to the host and port of
// the --url it was given (the case path is appended to the URL's path verbatim, never resolved), it
// never follows a redirect (node:http does not), every read has a timeout and every body a byte cap.
import http from "node:http";
import https from "node:https";

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
  private failed: Error | undefined;
  private req: http.ClientRequest;
  private res: http.IncomingMessage | undefined;
  readonly head: Promise<ResponseHead>;

  constructor(base: URL, request: OutgoingRequest, timeoutMs: number) {
    const basePath = base.pathname.replace(/\/$/, "");
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of request.headers) {
      const k = name.toLowerCase();
      const prev = headers[k];
      headers[k] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    if (request.body !== undefined) headers["content-length"] = String(request.body.length);
    const lib = base.protocol === "https:" ? https : http;
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
    this.head = new Promise<ResponseHead>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no response within ${timeoutMs} ms`));
        this.destroy();
      }, timeoutMs);
      this.req.on("response", (res) => {
        clearTimeout(timer);
        this.res = res;
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(", ") : v;
        res.on("data", (c: Buffer) => {
          this.chunks.push(c);
          this.wake();
        });
        res.on("end", () => {
          this.ended = true;
          this.wake();
        });
        res.on("error", (e) => {
          this.failed = e;
          this.wake();
        });
        res.on("close", () => {
          this.ended = true;
          this.wake();
        });
        resolve({ status: res.statusCode ?? 0, headers: h });
      });
      this.req.on("error", (e) => {
        clearTimeout(timer);
        this.failed = e;
        this.wake();
        reject(e);
      });
      this.req.on("timeout", () => this.req.destroy(new Error(`socket idle for ${timeoutMs} ms`)));
    });
    this.head.catch(() => undefined);
    this.req.end(request.body);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The next chunk of body, or undefined at the end; rejects after `timeoutMs` without data. */
  async next(timeoutMs: number): Promise<Buffer | undefined> {
    for (;;) {
      if (this.chunks.length > 0) return this.chunks.shift();
      if (this.failed) throw this.failed;
      if (this.ended) return undefined;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
        this.waiters.push(() => resolve(false));
      });
      clearTimeout(timer);
      if (timedOut) throw new Error(`no data within ${timeoutMs} ms`);
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

  destroy(): void {
    this.res?.destroy();
    this.req.destroy();
  }
}
