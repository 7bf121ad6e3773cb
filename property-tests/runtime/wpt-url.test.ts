// web-platform-tests' URL data (property-tests/vectors/wpt-url) against the TypeScript runtime's
// whatwgUrl rule: every input without a base whose scheme is special with a tuple origin (http,
// https, ws, wss, ftp) gets WPT's verdict and origin from the parser checkHttpsUrl uses, and an
// https one passes the rule's "origin" form exactly when its WPT origin is the whole input.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkHttpsUrl } from "../../generators/targets/ts/runtime/src/whatwg-url.js";

interface Entry {
  input: string;
  base?: string | null;
  failure?: boolean;
  origin?: string;
  href?: string;
}

const SCHEMES = new Set(["http", "https", "ws", "wss", "ftp"]);

function wptSpecialSchemeEntries(): Entry[] {
  const data = JSON.parse(readFileSync(join(import.meta.dirname, "../vectors/wpt-url/urltestdata.json"), "utf8")) as unknown[];
  return data.filter((e): e is Entry => {
    if (typeof e !== "object" || e === null) return false;
    const entry = e as Entry;
    if (entry.base !== undefined && entry.base !== null) return false;
    // WHATWG's trimming of C0 controls and spaces, and removal of tabs and newlines.
    const trimmed = entry.input.replace(/^[\u0000-\u0020]+/, "").replace(/[\t\n\r]/g, "");
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed)?.[1]?.toLowerCase();
    return scheme !== undefined && SCHEMES.has(scheme);
  });
}

/** The origin of an href (entries without an `origin` give only the href). */
function originOf(href: string): string {
  const start = href.indexOf("://") + 3;
  const end = href.slice(start).search(/[/?#]/);
  return end < 0 ? href : href.slice(0, start + end);
}

describe("WPT URL data, special schemes without a base", () => {
  const entries = wptSpecialSchemeEntries();

  it("has the 296 entries (156 failures)", () => {
    expect(entries.length).toBe(296);
    expect(entries.filter((e) => e.failure === true).length).toBe(156);
  });

  it("every entry gets WPT's verdict and origin", () => {
    const wrong: string[] = [];
    for (const e of entries) {
      let origin: string | undefined;
      try {
        origin = new URL(e.input).origin;
      } catch {
        origin = undefined;
      }
      const expected = e.failure === true ? undefined : (e.origin ?? originOf(e.href!));
      if (origin !== expected) wrong.push(`${JSON.stringify(e.input)}: WPT ${expected ?? "failure"}, got ${origin ?? "failure"}`);
      if (e.input.startsWith("https:")) {
        const isOrigin = expected !== undefined && expected === e.input;
        if (checkHttpsUrl(e.input, "origin") !== isOrigin) wrong.push(`${JSON.stringify(e.input)}: origin form ${!isOrigin}`);
      }
    }
    console.log(`WPT URL special-scheme inputs without base, TypeScript: ${entries.length - wrong.length}/${entries.length}`);
    expect(wrong).toEqual([]);
  });
});
