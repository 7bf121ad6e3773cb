// The shared Handlebars renderer against hand-written expectations: code targets insert values as
// they are (their own literal functions quote them), the docs site HTML-escapes them, a missing key
// fails in strict mode, and each template is compiled once.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { safeHtml, templateFolder, templateRenderer } from "./render.js";

const sources: Record<string, string> = { value: "v={{v}};", list: "{{#each xs}}[{{> item}}]{{/each}}", shout: "{{up v}}", maybe: "<{{missing}}>" };

describe("templateRenderer", () => {
  it("inserts values unescaped for code and HTML-escaped for the docs site", () => {
    expect(templateRenderer((n) => sources[n]!, { htmlEscape: false })("value", { v: `<a href="x">&'` })).toBe(`v=<a href="x">&';`);
    expect(templateRenderer((n) => sources[n]!, { htmlEscape: true })("value", { v: `<a href="x">&'` })).toBe("v=&lt;a href&#x3D;&quot;x&quot;&gt;&amp;&#x27;;");
    expect(templateRenderer((n) => sources[n]!, { htmlEscape: true })("value", { v: safeHtml("<b>kept</b>") })).toBe("v=<b>kept</b>;");
  });
  it("fails on a missing key unless strict is off", () => {
    expect(() => templateRenderer((n) => sources[n]!, { htmlEscape: false })("maybe", {})).toThrow(/"missing" not defined/);
    expect(() => templateRenderer((n) => sources[n]!, { htmlEscape: false, strict: true })("maybe", {})).toThrow(/missing/);
    expect(templateRenderer((n) => sources[n]!, { htmlEscape: false, strict: false })("maybe", {})).toBe("<>");
  });
  it("registers partials and helpers in its own environment", () => {
    const render = templateRenderer((n) => sources[n]!, { htmlEscape: false, partials: { item: "{{this}}" }, helpers: { up: (s: string) => s.toUpperCase() } });
    expect(render("list", { xs: ["a", "b"] })).toBe("[a][b]");
    expect(render("shout", { v: "hi" })).toBe("HI");
    expect(() => templateRenderer((n) => sources[n]!, { htmlEscape: false })("list", { xs: ["a"] })).toThrow(/partial item could not be found/);
  });
  it("reads and compiles each template once", () => {
    const read: string[] = [];
    const render = templateRenderer((n) => (read.push(n), sources[n]!), { htmlEscape: false });
    expect([render("value", { v: 1 }), render("value", { v: 2 }), render("maybe", { missing: 3 })]).toEqual(["v=1;", "v=2;", "<3>"]);
    expect(read).toEqual(["value", "maybe"]);
  });
});

describe("templateFolder", () => {
  it("reads <name>.hbs from the folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "render-"));
    try {
      writeFileSync(join(dir, "page.hbs"), "Hello {{name}}");
      const source = templateFolder(pathToFileURL(`${dir}/`));
      expect(source("page")).toBe("Hello {{name}}");
      expect(templateRenderer(source, { htmlEscape: false })("page", { name: "you" })).toBe("Hello you");
      expect(() => source("absent")).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
