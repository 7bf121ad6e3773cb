// The site as a reader meets it (issue 34), in Debian's Chromium over one build:
// - on any screen: every built page at a phone's 390 px and a desktop's 1400 px (and 320 and 768
//   for the pages most likely to be wide) is no wider than the viewport; below 52rem the
//   navigation is a Menu button; dark mode follows the system setting;
// - every page is reachable from the home page's links, and the top-level ones from the navigation;
// - search finds the page that explains a concept among its first three hits (the expected pages
//   are hand-written below), typos included;
// - the playground runs the bindings in the page: every error of an invalid ActionProposal at its
//   line and pointer (positions counted here from the text typed in), a signature vector of
//   spec/agent-provider/vectors verified with its key, the trust lifecycle walked to its terminal state;
// Screenshots at both widths land in docs-site/test-artifacts/ (git-ignored).
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifact, buildAndServe, ROOT, type BuiltSite } from "./browser-harness.js";

let site: BuiltSite;

beforeAll(async () => {
  site = await buildAndServe();
  // A guard against a hang, not a speed check: the build alone took over 100 s at load average 25.
}, 420_000);

afterAll(async () => {
  await site?.close();
});

/** The pages (site-relative) wider than the viewport at `width`, with how wide each one is. */
async function overflowing(width: number, pages: string[]): Promise<string[]> {
  const page = await site.open(width);
  const wide: string[] = [];
  try {
    for (const path of pages) {
      await page.goto(site.url + path, { waitUntil: "load" });
      const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      if (scroll > inner) wide.push(`${path}: ${scroll} px wide at ${inner} px`);
    }
  } finally {
    await page.close();
  }
  return wide;
}

// Pages with the widest content: the longest tables, code and diagrams.
const WIDEST = ["index.html", "signing.html", "spec-changelog.html", "performance.html", "agent-provider/messages/ActionProposal.html", "agent-connector/lifecycles/trust.html", "agent-service/index.html", "search.html"];

describe("responsive layout in Chromium", () => {
  it("no page is wider than a 390 px phone", async () => {
    expect(site.pages.length).toBeGreaterThan(50);
    expect(await overflowing(390, site.pages)).toEqual([]);
  }, 300_000);

  it("no page is wider than a 1400 px desktop", async () => {
    expect(await overflowing(1400, site.pages)).toEqual([]);
  }, 300_000);

  it("the widest pages fit at 320 and 768 px too", async () => {
    expect(await overflowing(320, WIDEST)).toEqual([]);
    expect(await overflowing(768, WIDEST)).toEqual([]);
  }, 120_000);

  it("writes screenshots of the widest pages at 390 and 1400 px", async () => {
    for (const width of [390, 1400]) {
      const page = await site.open(width);
      try {
        for (const path of WIDEST) {
          await page.goto(site.url + path, { waitUntil: "load" });
          await page.screenshot({ path: artifact(`layout-${width}-${path}`), fullPage: false });
        }
      } finally {
        await page.close();
      }
    }
  }, 120_000);

  it("folds the navigation into a Menu button on a phone and shows it whole on a desktop", async () => {
    const phone = await site.open(390);
    try {
      await phone.goto(site.url + "agent-connector/lifecycles/trust.html");
      const menu = phone.getByRole("button", { name: "Menu" });
      const link = phone.locator("nav.site-nav").getByRole("link", { name: "Signing" });
      expect(await menu.isVisible()).toBe(true);
      expect(await link.isVisible()).toBe(false);
      // The page's own heading is on the first screen, not pushed down by the navigation.
      const h1 = await phone.locator("main h1").boundingBox();
      expect(h1!.y).toBeLessThan(844 / 2);
      await menu.click();
      expect(await menu.getAttribute("aria-expanded")).toBe("true");
      expect(await link.isVisible()).toBe(true);
      await link.click();
      await phone.waitForURL(/signing\.html$/);
    } finally {
      await phone.close();
    }
    const desktop = await site.open(1400);
    try {
      await desktop.goto(site.url + "index.html");
      expect(await desktop.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
      expect(await desktop.locator("nav.site-nav").getByRole("link", { name: "Signing" }).isVisible()).toBe(true);
    } finally {
      await desktop.close();
    }
  }, 60_000);

  it("scales lifecycle diagrams to the phone's width", async () => {
    const page = await site.open(390);
    try {
      await page.goto(site.url + "agent-connector/lifecycles/trust.html");
      const svg = await page.locator("figure.diagram svg").boundingBox();
      const figure = await page.locator("figure.diagram").boundingBox();
      expect(svg!.width).toBeGreaterThan(100);
      expect(svg!.x + svg!.width).toBeLessThanOrEqual(figure!.x + figure!.width);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("follows the system's dark mode", async () => {
    const luminance = async (scheme: "light" | "dark"): Promise<number> => {
      const page = await site.open(1400, scheme);
      try {
        await page.goto(site.url + "index.html");
        if (scheme === "dark") await page.screenshot({ path: artifact("layout-1400-dark-index.html") });
        const rgb = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number);
        return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
      } finally {
        await page.close();
      }
    };
    expect(await luminance("light")).toBeGreaterThan(0.8);
    expect(await luminance("dark")).toBeLessThan(0.2);
  }, 60_000);
});

describe("every page reachable", () => {
  /** Site-relative paths of the HTML pages the links of `from` lead to, outside api/, without fragments. */
  function linksOf(from: string): string[] {
    const html = readFileSync(join(site.dir, from), "utf8");
    const out: string[] = [];
    for (const m of html.matchAll(/<a\s[^>]*href="([^"#?]*)[^"]*"/g)) {
      const href = m[1]!;
      if (href === "" || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const target = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(href)));
      if (target.endsWith(".html") && !target.startsWith("api/")) out.push(target);
    }
    return out;
  }

  it("crawling links from the home page reaches every built page", () => {
    const seen = new Set<string>(["index.html"]);
    const queue = ["index.html"];
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const target of linksOf(page)) {
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    expect(site.pages.filter((p) => !seen.has(p))).toEqual([]);
    expect([...seen].filter((p) => !site.pages.includes(p))).toEqual([]);
  });

  it("the navigation lists the breaking-change rules, the spec changelog, every guide and every protocol", async () => {
    const page = await site.open(1400);
    try {
      await page.goto(site.url + "index.html");
      const labels = await page.locator("nav.site-nav a").allTextContents();
      for (const label of ["Breaking-change rules", "Spec changelog", "Signing", "Interoperability", "Hostile input", "Search", "Agent Connector SDK"]) expect(labels).toContain(label);
      const guides = site.pages.filter((p) => p.startsWith("guides/"));
      expect(guides.length).toBeGreaterThan(3);
      const hrefs = await page.locator("nav.site-nav a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      for (const g of guides) expect(hrefs).toContain(g);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("the Kotlin guide and the home page show spec/project.yaml's version and Maven coordinates", () => {
    const { project } = parseYaml(readFileSync(join(ROOT, "spec/project.yaml"), "utf8")) as { project: { version: string; packages: { maven: { groupId: string; artifactId: string } } } };
    const coordinates = `&lt;groupId&gt;${project.packages.maven.groupId}&lt;/groupId&gt;\n  &lt;artifactId&gt;${project.packages.maven.artifactId}&lt;/artifactId&gt;\n  &lt;version&gt;${project.version}&lt;/version&gt;`;
    for (const path of ["guides/kotlin.html", "index.html"]) {
      const html = readFileSync(join(site.dir, path), "utf8");
      expect(html, path).toContain(coordinates);
      expect(html, path).not.toContain("{{project");
      expect(html, path).not.toContain("SNAPSHOT");
    }
  });
});

describe("search", () => {
  // Hand-written: the guide and concept pages that explain each query's subject.
  const EXPECTED: Record<string, string[]> = {
    replay: ["signing.html", "guides/kotlin.html", "guides/using-swift.html", "guides/running-a-fleet.html"],
    // A typo of "nonce": the replay key's single-use value.
    nonse: ["signing.html", "interop.html", "guides/running-a-fleet.html", "guides/kotlin.html", "guides/using-swift.html"],
    "signature mismatch": ["signing.html", "interop.html", "guides/kotlin.html", "guides/using-swift.html"],
    trust: ["agent-connector/lifecycles/trust.html", "agent-connector/index.html"],
  };

  for (const [query, pages] of Object.entries(EXPECTED)) {
    it(`"${query}" has a guide or concept page among its first three hits`, async () => {
      for (const width of [390, 1400]) {
        const page = await site.open(width);
        try {
          await page.goto(`${site.url}search.html?q=${encodeURIComponent(query)}`);
          await page.waitForSelector("html[data-search-ready]", { timeout: 30_000 });
          const first = await page.locator("#search-results li a").evaluateAll((as) => as.slice(0, 3).map((a) => (a as HTMLAnchorElement).href));
          expect(first.length, query).toBe(3);
          const paths = first.map((href) => new URL(href).pathname.slice(new URL(site.url).pathname.length));
          expect(paths.filter((p) => pages.includes(p)), `${query}: first three hits ${paths.join(", ")}`).not.toEqual([]);
          await page.screenshot({ path: artifact(`search-${width}-${query}`) });
        } finally {
          await page.close();
        }
      }
    }, 90_000);
  }

  it("an exact name still leads to its definition first (a lookup, not a concept search)", async () => {
    const page = await site.open(1400);
    try {
      for (const [query, first] of [["ActionProposal", "ActionProposal"], ["HANDLE_PROPOSAL", "AndroidIntentActions.HANDLE_PROPOSAL"]]) {
        await page.goto(`${site.url}search.html?q=${query}`);
        await page.waitForSelector("html[data-search-ready]", { timeout: 30_000 });
        expect(await page.locator("#search-results li a").first().textContent()).toBe(first);
      }
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe("playground", () => {
  interface HmacCase { name: string; message_type: string; key_utf8: string; message: Record<string, unknown>; expected_signature?: string; expect: string }
  const hmac = (JSON.parse(readFileSync(join(ROOT, "spec/agent-provider/vectors/hmac-sha256-v1.json"), "utf8")) as { cases: HmacCase[] }).cases;
  const proposal = hmac.find((c) => c.message_type === "ActionProposal" && c.expect === "valid" && c.expected_signature !== undefined)!;

  /** 1-based line and column where `needle` starts in `text`. */
  function position(text: string, needle: string): { line: number; column: number } {
    const at = text.indexOf(needle);
    expect(at, needle).toBeGreaterThanOrEqual(0);
    const before = text.slice(0, at).split("\n");
    return { line: before.length, column: before.at(-1)!.length + 1 };
  }

  for (const width of [390, 1400]) {
    it(`at ${width} px: lists every error of an invalid ActionProposal at its line and pointer`, async () => {
      const page = await site.open(width);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      try {
        await page.goto(site.url + "agent-provider/playground.html");
        await page.waitForSelector("html[data-playground-ready]", { timeout: 30_000 });
        await page.selectOption("#pg-message", "ActionProposal");
        // Two faults: nonce is a number, and a member the schema does not allow.
        const invalid = JSON.stringify({ ...proposal.message, nonce: 7, colour: "red" }, null, 2);
        await page.fill("#pg-json", invalid);
        await page.click("#pg-check");
        const items = await page.locator("#pg-errors li").allTextContents();
        const nonce = position(invalid, "7,");
        const colour = position(invalid, '"colour"');
        expect(items.some((t) => t.startsWith(`line ${nonce.line}, column ${nonce.column}`) && t.includes("/nonce: must be string")), items.join("\n")).toBe(true);
        expect(items.some((t) => t.startsWith(`line ${colour.line}, column ${colour.column}`) && t.includes('(root): unknown member "colour"')), items.join("\n")).toBe(true);
        expect(await page.locator("#pg-verdict").textContent()).toMatch(/^\d+ errors?/);
        await page.screenshot({ path: artifact(`playground-${width}-invalid-ActionProposal`), fullPage: true });
      } finally {
        await page.close();
      }
      expect(errors).toEqual([]);
    }, 90_000);

    it(`at ${width} px: verifies the shared signature vector "${proposal.name}" and signs it to the same signature`, async () => {
      const page = await site.open(width);
      try {
        await page.goto(site.url + "agent-provider/playground.html");
        await page.waitForSelector("html[data-playground-ready]", { timeout: 30_000 });
        await page.selectOption("#pg-message", "ActionProposal");
        await page.fill("#pg-json", JSON.stringify(proposal.message, null, 2));
        // The signing input's first line is the first covered field (spec/agent-provider's declaration).
        expect(await page.locator("#pg-input").textContent()).toContain(`request_id=${String(proposal.message.request_id)}\n`);
        await page.fill("#pg-key", proposal.key_utf8);
        await page.click("#pg-verify");
        expect(await page.locator("#pg-signature").textContent()).toBe("Signature valid.");
        // A wrong key is refused with the typed reason.
        await page.fill("#pg-key", `${proposal.key_utf8}-wrong`);
        await page.click("#pg-verify");
        expect(await page.locator("#pg-signature").textContent()).toContain("signature-mismatch");
        await page.fill("#pg-key", proposal.key_utf8);
        await page.click("#pg-sign");
        expect(await page.locator("#pg-signature").textContent()).toContain(`Signature: ${proposal.expected_signature}`);
        // The key is in the page only: not in the URL, not in storage.
        expect(page.url()).not.toContain(proposal.key_utf8);
        expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
        await page.screenshot({ path: artifact(`playground-${width}-verify`), fullPage: true });
      } finally {
        await page.close();
      }
    }, 90_000);

    it(`at ${width} px: walks the trust lifecycle to its terminal state by clicking events`, async () => {
      const page = await site.open(width);
      try {
        await page.goto(site.url + "agent-connector/playground.html");
        await page.waitForSelector("html[data-playground-ready]", { timeout: 30_000 });
        await page.selectOption("#pg-lifecycle", "trust");
        expect(await page.locator("#pg-state").textContent()).toBe("imported");
        // Hand-written from spec/agent-connector/lifecycles/trust.machine.yaml: remove needs `not inUse` (unchecked).
        for (const [event, state] of [["approve", "approved"], ["install", "installed"], ["disable", "disabled"], ["revoke", "revoked"], ["remove", "removed"]]) {
          await page.click(`#pg-events button[data-event="${event}"]`);
          expect(await page.locator("#pg-state").textContent()).toBe(state);
        }
        expect(await page.locator("#pg-terminal").isVisible()).toBe(true);
        expect(await page.locator("#pg-events button").count()).toBe(0);
        await page.screenshot({ path: artifact(`playground-${width}-trust`), fullPage: true });
      } finally {
        await page.close();
      }
    }, 90_000);
  }
});
