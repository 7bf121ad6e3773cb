// The documentation site in a real browser: build it, serve it from a plain static server under a
// non-root base path on 127.0.0.1, and load every page in the system Chromium (never a downloaded
// browser). Fails on a console error, a failed request, a broken internal link or fragment, a
// lifecycle page without its SVG, a message page without its field table, and when searching
// "ActionProposal" does not lead to its page.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, resolve } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocs } from "../../generators/targets/docs/build.js";
import { startStaticServer, type StaticServer } from "../../generators/targets/docs/serve.js";
import { main } from "../../generators/cli/main.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CHROMIUM = "/usr/bin/chromium";
const BASE = "/docs/agent-contracts/v0/";

interface Listed {
  protocols: { id: string; messages: string[]; lifecycles: string[] }[];
}

interface Visit {
  path: string;
  ids: string[];
  /** Every same-site URL the page references (a, link, script, img, iframe), resolved. */
  refs: { attr: string; url: string }[];
  /** Raw href/src attributes, to check they are relative. */
  raw: string[];
  problems: string[];
}

let outDir = "";
let profileDir = "";
let site: StaticServer | undefined;
let context: BrowserContext | undefined;
let pages: string[] = [];
const visits = new Map<string, Visit>();

function htmlPages(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const path = rel === "" ? name : `${rel}/${name}`;
    if (statSync(join(dir, path)).isDirectory()) {
      if (path !== "api") out.push(...htmlPages(dir, path));
    } else if (name.endsWith(".html")) out.push(path);
  }
  return out;
}

async function listJson(): Promise<Listed> {
  const lines: string[] = [];
  const code = await main(["list", "--json"], { out: (t) => lines.push(t), err: (t) => lines.push(t), root: ROOT, readStdin: async () => Buffer.alloc(0) });
  expect(code, lines.join("\n")).toBe(0);
  return JSON.parse(lines.join("\n")) as Listed;
}

/** Opens a page and records what it printed, what failed and what it links to. */
async function visit(page: Page, path: string): Promise<Visit> {
  const problems: string[] = [];
  // Chromium asks for /favicon.ico at the origin root on pages that declare no icon (the typedoc
  // pages): outside the base path, so a static host answers 404. That request is not the site's.
  const isFavicon = (url: string) => new URL(url, site!.url).pathname === "/favicon.ico";
  const onConsole = (msg: { type(): string; text(): string; location(): { url: string } }) => {
    if (msg.type() === "error" && !isFavicon(msg.location().url || "about:blank")) problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  };
  const onPageError = (error: Error) => problems.push(`page error: ${error.message}`);
  const onFailed = (req: { url(): string; failure(): { errorText: string } | null }) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ""}`);
  const onResponse = (res: { url(): string; status(): number }) => {
    if (res.status() >= 400 && !isFavicon(res.url())) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  };
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("requestfailed", onFailed);
  page.on("response", onResponse);
  try {
    const response = await page.goto(site!.url + path, { waitUntil: "load" });
    if (!response || response.status() !== 200) problems.push(`status ${response?.status()} for ${path}`);
    // The search page fetches its index after "load"; let it finish, or leaving the page aborts the
    // fetch and the failure lands on the next page visited.
    if ((await page.locator("[data-index]").count()) > 0) {
      await page.waitForSelector("html[data-search-ready]", { timeout: 15_000 }).catch(() => problems.push(`search index never loaded on ${path}`));
    }
    const found = await page.evaluate(() => {
      const refs: { attr: string; url: string }[] = [];
      const raw: string[] = [];
      for (const el of Array.from(document.querySelectorAll("a[href], link[href], script[src], img[src], iframe[src]"))) {
        const attr = el.hasAttribute("href") ? "href" : "src";
        const value = el.getAttribute(attr) ?? "";
        raw.push(value);
        refs.push({ attr, url: (el as HTMLAnchorElement).href || (el as HTMLScriptElement).src });
      }
      return { ids: Array.from(document.querySelectorAll("[id]")).map((e) => e.id), refs, raw };
    });
    return { path, ...found, problems };
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onPageError);
    page.off("requestfailed", onFailed);
    page.off("response", onResponse);
  }
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the docs browser test needs the Debian chromium package (apt-get install -y chromium; make test installs it)`);
  }
  outDir = mkdtempSync(join(tmpdir(), "agent-contracts-docs-"));
  profileDir = mkdtempSync(join(tmpdir(), "agent-contracts-chromium-"));
  const built = await buildDocs(ROOT, outDir);
  if (!built.ok) throw new Error(`docs build failed:\n${built.errors.map((e) => `${e.file}:${e.line} ${e.message}`).join("\n")}`);
  pages = htmlPages(outDir);
  site = await startStaticServer(outDir, { base: BASE });
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Load every page of the site (two tabs at a time), keeping what each one links to.
  const queue = [...pages];
  await Promise.all(
    [0, 1].map(async () => {
      const page = await context!.newPage();
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) visits.set(path, await visit(page, path));
      await page.close();
    }),
  );
  // A guard against a hang, not a speed check: the build alone took over 100 s at load average 25.
}, 420_000);

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

describe("docs site in Chromium", () => {
  it("serves from a non-root base path and loads every page without a console error or a failed request", () => {
    expect(site!.url).toContain(BASE);
    expect(pages.length).toBeGreaterThan(50);
    expect(visits.size).toBe(pages.length);
    const problems = [...visits.values()].flatMap((v) => v.problems.map((p) => `${v.path}: ${p}`));
    expect(problems).toEqual([]);
  });

  it("links only relatively, and every internal link and fragment resolves", async () => {
    const absolute: string[] = [];
    const broken: string[] = [];
    const outside: string[] = [];
    const checked = new Map<string, number>();
    for (const v of visits.values()) {
      for (const raw of v.raw) if (/^(\/|[a-z][a-z0-9+.-]*:)/i.test(raw) && !raw.startsWith("data:")) absolute.push(`${v.path}: ${raw}`);
      for (const ref of v.refs) {
        if (ref.url.startsWith("data:")) continue;
        const url = new URL(ref.url);
        if (url.origin !== new URL(site!.url).origin || !url.pathname.startsWith(BASE)) {
          outside.push(`${v.path}: ${ref.url}`);
          continue;
        }
        const target = decodeURIComponent(url.pathname.slice(BASE.length)) || "index.html";
        if (!checked.has(target)) {
          const res = await fetch(new URL(url.pathname, site!.url), { method: "HEAD" });
          checked.set(target, res.status);
        }
        if (checked.get(target) !== 200) {
          broken.push(`${v.path}: ${ref.url} -> HTTP ${checked.get(target)}`);
          continue;
        }
        const fragment = decodeURIComponent(url.hash.slice(1));
        if (fragment !== "" && !target.startsWith("api/")) {
          const page = visits.get(target.endsWith("/") ? `${target}index.html` : target);
          if (!page) broken.push(`${v.path}: ${ref.url} -> not a crawled page`);
          else if (!page.ids.includes(fragment)) broken.push(`${v.path}: ${ref.url} -> no element with id "${fragment}"`);
        }
      }
    }
    expect(absolute).toEqual([]);
    expect(outside).toEqual([]);
    expect(broken).toEqual([]);
    // The typedoc pages the message pages link to were checked above; there is one per message.
    expect([...checked.keys()].filter((k) => k.startsWith("api/")).length).toBeGreaterThan(40);
  });

  it("the typedoc pages (not loaded one by one: there are hundreds) link only to files that exist", () => {
    const broken: string[] = [];
    let files = 0;
    const walk = (rel: string): void => {
      for (const name of readdirSync(join(outDir, rel))) {
        const path = `${rel}/${name}`;
        if (statSync(join(outDir, path)).isDirectory()) walk(path);
        else if (name.endsWith(".html")) {
          files++;
          for (const m of readFileSync(join(outDir, path), "utf8").matchAll(/\s(?:href|src)="([^"#?]*)[^"]*"/g)) {
            const target = m[1]!;
            if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
            if (target.startsWith("/")) broken.push(`${path}: absolute ${target}`);
            else if (!existsSync(join(outDir, posix.dirname(path), decodeURIComponent(target)))) broken.push(`${path}: ${target}`);
          }
        }
      }
    };
    walk("api");
    expect(files).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it("has a page for every message and lifecycle that `agent-contracts list --json` prints", async () => {
    const listed = await listJson();
    const missing: string[] = [];
    for (const p of listed.protocols) {
      for (const m of p.messages) if (!visits.has(`${p.id}/messages/${m}.html`)) missing.push(`message ${p.id}/${m}`);
      for (const l of p.lifecycles) if (!visits.has(`${p.id}/lifecycles/${l}.html`)) missing.push(`lifecycle ${p.id}/${l}`);
    }
    expect(missing).toEqual([]);
    expect(listed.protocols.flatMap((p) => p.messages).length).toBeGreaterThan(40);
  });

  it("shows each lifecycle's SVG diagram and each message's field table", async () => {
    const listed = await listJson();
    const page = await context!.newPage();
    const failures: string[] = [];
    try {
      for (const p of listed.protocols) {
        for (const l of p.lifecycles) {
          await page.goto(`${site!.url}${p.id}/lifecycles/${l}.html`);
          const svg = page.locator("figure.diagram svg");
          if ((await svg.count()) !== 1 || !(await svg.isVisible())) failures.push(`${p.id}/${l}: no visible SVG`);
          else {
            const box = await svg.boundingBox();
            const nodes = await svg.locator("g.node").count();
            const states = await page.locator("#states + .table-wrap tbody tr").count();
            if (!box || box.width < 50 || box.height < 20) failures.push(`${p.id}/${l}: SVG too small`);
            if (nodes !== states + 1) failures.push(`${p.id}/${l}: ${nodes} diagram nodes for ${states} states`);
          }
          if ((await page.locator("table.transitions tbody tr").count()) === 0) failures.push(`${p.id}/${l}: no transition table`);
        }
        for (const m of p.messages) {
          await page.goto(`${site!.url}${p.id}/messages/${m}.html`);
          const rows = page.locator("table.fields tbody tr");
          if ((await rows.count()) === 0 || !(await page.locator("table.fields").first().isVisible())) failures.push(`${p.id}/${m}: no field table`);
          if ((await page.locator("h1").textContent()) !== m) failures.push(`${p.id}/${m}: wrong heading`);
        }
      }
    } finally {
      await page.close();
    }
    expect(failures).toEqual([]);
  });

  it('finds the ActionProposal page by searching "ActionProposal" from any page', async () => {
    const page = await context!.newPage();
    const errors: string[] = [];
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    try {
      await page.goto(`${site!.url}agent-service/lifecycles/execution.html`);
      await page.getByRole("searchbox", { name: "Search" }).fill("ActionProposal");
      await page.keyboard.press("Enter");
      await page.waitForURL(/search\.html\?q=ActionProposal/);
      const first = page.locator("#search-results li a").first();
      await first.waitFor();
      expect(await first.textContent()).toBe("ActionProposal");
      await first.click();
      await page.waitForURL(/agent-provider\/messages\/ActionProposal\.html$/);
      expect(await page.locator("h1").textContent()).toBe("ActionProposal");
      expect(page.url().startsWith(site!.url)).toBe(true);
      // Live filtering on the search page finds fields and constants too.
      await page.goto(`${site!.url}search.html`);
      await page.locator("#search-q").fill("HANDLE_PROPOSAL");
      await expect.poll(() => page.locator("#search-results li").count()).toBeGreaterThan(0);
      expect(await page.locator("#search-results li a").first().textContent()).toContain("HANDLE_PROPOSAL");
    } finally {
      await page.close();
    }
    expect(errors).toEqual([]);
  });

  it("opens the typedoc API page a message links to", async () => {
    const page = await context!.newPage();
    try {
      await page.goto(`${site!.url}agent-provider/messages/ActionProposal.html`);
      await page.locator('section[aria-labelledby="lang-ts"]').getByRole("link", { name: "API reference" }).click();
      await page.waitForURL(/api\/interfaces\/agent-provider\.ActionProposal\.html$/);
      expect(await page.locator("h1").first().textContent()).toContain("ActionProposal");
      const v = await visit(page, "api/index.html");
      expect(v.problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
