// What the reader-facing browser tests share: build the site once into a temporary folder, serve it
// under a non-root base path, start Debian's Chromium (never a downloaded browser), list the built
// pages, and write screenshots to docs-site/test-artifacts/ (git-ignored) for a person to look at.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { buildDocs } from "../../generators/targets/docs/build.js";
import { startStaticServer, type StaticServer } from "../../generators/targets/docs/serve.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = join(ROOT, "docs-site/test-artifacts");
const BASE = "/docs/agent-contracts/v0/";

export interface BuiltSite {
  dir: string;
  url: string;
  /** Every built HTML page outside api/ (typedoc's own pages), site-relative, sorted. */
  pages: string[];
  browser: Browser;
  /** A page at a viewport width (height 844, a phone's), in the colour scheme asked for. */
  open(width: number, colorScheme?: "light" | "dark"): Promise<Page>;
  close(): Promise<void>;
}

export function htmlPages(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const path = rel === "" ? name : `${rel}/${name}`;
    if (statSync(join(dir, path)).isDirectory()) {
      if (path !== "api") out.push(...htmlPages(dir, path));
    } else if (name.endsWith(".html")) out.push(path);
  }
  return out;
}

export async function buildAndServe(): Promise<BuiltSite> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the docs browser tests need the Debian chromium package (apt-get install -y chromium; make test installs it)`);
  }
  const dir = mkdtempSync(join(tmpdir(), "agent-contracts-docs-"));
  const built = await buildDocs(ROOT, dir);
  if (!built.ok) throw new Error(`docs build failed:\n${built.errors.map((e) => `${e.file}:${e.line} ${e.message}`).join("\n")}`);
  const server: StaticServer = await startStaticServer(dir, { base: BASE });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    dir,
    url: server.url,
    pages: htmlPages(dir),
    browser,
    open: async (width, colorScheme = "light") => browser.newPage({ viewport: { width, height: 844 }, colorScheme }),
    close: async () => {
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** docs-site/test-artifacts/<name>.png */
export function artifact(name: string): string {
  return join(ARTIFACTS, `${name.replace(/[^A-Za-z0-9_.-]+/g, "_")}.png`);
}
