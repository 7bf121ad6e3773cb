// Shared pieces of the mock servers: listen on 127.0.0.1 (port 0: any free port), read a body with
// a cap, answer JSON, close every socket on shutdown.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** How long a client may take to send its request head, and its whole request. */
export const REQUEST_HEAD_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

export async function listen(handler: http.RequestListener, port = 0): Promise<Running & { server: http.Server }> {
  const server = http.createServer({ headersTimeout: REQUEST_HEAD_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, handler);
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    server,
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads the whole body; past `max` bytes the rest is drained and `tooLarge` is set. */
export function readBody(req: http.IncomingMessage, max: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) tooLarge = true;
      else parts.push(c);
    });
    req.on("end", () => resolve({ body: Buffer.concat(parts), tooLarge }));
    req.on("error", reject);
  });
}

export function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  res.writeHead(status, { "content-type": "application/json", "content-length": String(body.length), ...headers });
  res.end(body);
}

export function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/** The values of a header in arrival order (repeats kept), from the raw header list. */
export function headerValues(req: http.IncomingMessage, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === name) out.push(req.rawHeaders[i + 1]!);
  return out;
}
