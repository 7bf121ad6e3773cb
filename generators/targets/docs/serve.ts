// A plain static file server for the built site, mounted under a base path (default "/") on
// 127.0.0.1. It does what any static host does and nothing more: files by path, index.html for a
// folder, 404 otherwise. Used by `make docs-serve` and the browser test.
// `npx tsx generators/targets/docs/serve.ts [dir] [--port N] [--base /path/]`
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

export interface StaticServer {
  /** The site's URL, ending in the base path. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startStaticServer(dir: string, options: { port?: number; base?: string } = {}): Promise<StaticServer> {
  const root = resolve(dir);
  const base = normaliseBase(options.base ?? "/");
  const server = createServer((req, res) => {
    const send = (status: number, text: string): void => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed");
    const url = new URL(req.url ?? "/", "http://localhost");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return send(400, "bad path");
    }
    if (path === base.slice(0, -1)) {
      res.writeHead(301, { location: base });
      return res.end();
    }
    if (!path.startsWith(base)) return send(404, "not found");
    let file = resolve(join(root, path.slice(base.length)));
    if (file !== root && !file.startsWith(root + sep)) return send(404, "not found");
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith("/")) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` });
        return res.end();
      }
      file = join(file, "index.html");
    }
    if (!existsSync(file) || !statSync(file).isFile()) return send(404, "not found");
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-length": statSync(file).size, "cache-control": "no-cache" });
    if (req.method === "HEAD") return res.end();
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, "127.0.0.1", () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base}`,
    server,
    close: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}

function normaliseBase(base: string): string {
  const trimmed = base.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "/" : `/${trimmed}/`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const valueOf = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = args.find((a, i) => !a.startsWith("--") && !["--port", "--base"].includes(args[i - 1] ?? "")) ?? "docs-site/dist";
  if (!existsSync(join(dir, "index.html"))) {
    console.error(`docs-serve: ${dir}/index.html not found; run \`make docs\` first`);
    process.exit(2);
  }
  const site = await startStaticServer(dir, { port: Number(valueOf("--port") ?? 8000), base: valueOf("--base") ?? "/" });
  console.log(`Serving ${resolve(dir)} at ${site.url} (Ctrl-C to stop)`);
}
