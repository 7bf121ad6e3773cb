// Facts about a built documentation site checked against the spec files themselves (read here with
// the yaml package, not through the generator's model), for the test of `docs` from an installed
// CLI (cli-anywhere.test.ts): a page per protocol, message and lifecycle with the spec's titles,
// each lifecycle diagram an SVG with a node per state, and no relative link that leads to a file
// the site does not have or out of the site.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { parse as parseYaml } from "yaml";

export interface SpecProtocol {
  id: string;
  title: string;
  messages: string[];
  lifecycles: { name: string; title: string; states: string[] }[];
}

/** Each spec/<id>/protocol.yaml with the titles of its messages/*.yaml and its lifecycles/*.machine.yaml. */
export function specProtocols(specDir: string): SpecProtocol[] {
  const yamlOf = (path: string) => parseYaml(readFileSync(path, "utf8")) as Record<string, unknown>;
  const filesIn = (dir: string, suffix: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(suffix)).sort() : []);
  return readdirSync(specDir)
    .filter((id) => existsSync(join(specDir, id, "protocol.yaml")))
    .sort()
    .map((id) => ({
      id,
      title: String(yamlOf(join(specDir, id, "protocol.yaml")).title),
      messages: filesIn(join(specDir, id, "messages"), ".yaml").map((n) => String(yamlOf(join(specDir, id, "messages", n)).title)),
      lifecycles: filesIn(join(specDir, id, "lifecycles"), ".machine.yaml").map((n) => {
        const doc = yamlOf(join(specDir, id, "lifecycles", n));
        return { name: String(doc.name), title: String(doc.title), states: Object.keys(doc.states as object) };
      }),
    }));
}

/** Every file of the site, as site-relative paths with "/" separators, sorted. */
export function siteFiles(siteDir: string): string[] {
  return readdirSync(siteDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(siteDir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

const decode = (s: string) => s.replace(/&#45;/g, "-").replace(/&#x3D;/g, "=").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#x27;/g, "'").replace(/&amp;/g, "&");

/** The text of a page's first h1, tags removed. */
export function h1Of(html: string): string | undefined {
  const m = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return m ? decode(m[1]!.replace(/<[^>]+>/g, "")).trim() : undefined;
}

/** The node and edge titles of each inline SVG of a page (Graphviz writes one <title> per node). */
export function svgTitles(html: string): string[][] {
  return [...html.matchAll(/<svg\b[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>([\s\S]*?)<\/svg>/g)].map((m) => [...m[1]!.matchAll(/<title>([^<]*)<\/title>/g)].map((t) => decode(t[1]!)));
}

/** The relative href/src values of a page that exist nowhere in the site or climb out of it, as "page -> link". */
export function brokenLinks(siteDir: string): string[] {
  const files = new Set(siteFiles(siteDir));
  const broken: string[] = [];
  for (const page of files) {
    if (!page.endsWith(".html")) continue;
    const html = readFileSync(join(siteDir, page), "utf8");
    for (const m of html.matchAll(/\b(?:href|src)="([^"]*)"/g)) {
      const link = decode(m[1]!);
      // Other schemes (https:, data:, mailto:) leave the site on purpose; a bare #anchor stays on the page.
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("#") || link === "") continue;
      const path = link.split(/[?#]/)[0]!;
      if (path === "") continue;
      const target = link.startsWith("/") ? "/escapes" : posix.normalize(posix.join(posix.dirname(page), path));
      const resolved = target.endsWith("/") ? `${target}index.html` : target;
      if (resolved.startsWith("../") || resolved.startsWith("/") || !files.has(resolved)) broken.push(`${page} -> ${link}`);
    }
  }
  return broken;
}
