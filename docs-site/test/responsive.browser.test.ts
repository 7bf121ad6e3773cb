// The site on any screen (issue 34): every built page at a phone's 390 px and a desktop's 1400 px
// (and 320 and 768 for the pages most likely to be wide) must be no wider than the viewport: wide
// tables and code scroll inside themselves, long words wrap, diagrams scale. Below 52rem the
// navigation is a Menu button; dark mode follows the system setting. Screenshots of a few pages
// at both widths land in docs-site/test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifact, buildAndServe, type BuiltSite } from "./browser-harness.js";

let site: BuiltSite;

beforeAll(async () => {
  site = await buildAndServe();
}, 180_000);

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
