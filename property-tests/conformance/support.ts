// Shared pieces of the reference servers: listen on 127.0.0.1 port 0, read a body with a cap,
// answer JSON, close every socket on shutdown.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Running {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: http.RequestListener): Promise<Running & { server: http.Server }> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
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
