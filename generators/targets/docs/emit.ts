// The documentation site as a pure function of the model: emitDocsSite(model, inputs) returns
// every file of docs-site/dist except the typedoc output (api/), which the build entry adds.
// Pages are handlebars templates (docs-site/templates) over view models built here; everything
// from the spec is escaped by handlebars or by html.ts, and every link is relative.
// The pages are built by pages-site.ts and pages-protocols.ts over the shared state of site.ts.
import type { Model } from "../../model/types.js";
import { protocolPages } from "./pages-protocols.js";
import { commonTypesPage, finishSite, homePage, interopPage, signingPage } from "./pages-site.js";
import { createSite } from "./site.js";
import { playgroundPages } from "./pages-playground.js";
import type { ProtocolVectors } from "./signing-view.js";

export { genericHtml } from "./page-html.js";
export { messageDivergences } from "../../model/queries.js";

export interface ConformanceFile {
  /** Repository-relative path. */
  file: string;
  title?: string;
  description?: string;
  cases: { id: string; title?: string; description?: string; tags: string[] }[];
}

export interface DocsInputs {
  /** docs-site/templates/*.hbs by name without the extension. */
  templates: Record<string, string>;
  /** docs-site/assets/* by file name; copied to assets/. */
  assets: Record<string, string>;
  /** DOT source to SVG text (WASM Graphviz, loaded by the caller). */
  renderSvg(dot: string): string;
  /** Markdown to HTML that escapes raw HTML (for the optional performance page). */
  renderMarkdown(markdown: string): string;
  /** spec/<protocol>/vectors/*.json (and spec/common/vectors under "common"), by protocol then file name. */
  vectors: Record<string, ProtocolVectors>;
  /** Text of spec files by repository-relative path, for the schema source blocks. */
  sources: Record<string, string>;
  /** Typedoc page (relative to api/) of each generated type, keyed "<protocol>/<TypeName>". */
  apiLinks: Record<string, string>;
  /** The error the generated TS bindings give each invalid example, keyed "<protocol>/<Message>/<index>". */
  bindingErrors: Record<string, { instancePath: string; keyword: string; message: string }>;
  /** docs-site/bench/latest.md (then kotlin.md, swift.md, rust.md), when the benchmarks have run. */
  bench?: string;
  /**
   * The breaking-change pages' bodies (HTML, without their h1), computed from git by the build;
   * when present the site renders them with its layout and lists them in the navigation.
   */
  breaking?: { rules: string; changelog: string };
  /**
   * The changelog every package ships as CHANGELOG.md (generators/breaking/changelog.ts: per
   * version, per protocol), as markdown; rendered as changelog.html.
   */
  changelog?: string;
  /** docs-site/guides/*.md in name order: hand-written pages (title from the first "# " line). */
  guides: { name: string; title: string; markdown: string }[];
  /** spec/<protocol>/conformance/ cases, when they exist. */
  conformance: Record<string, ConformanceFile[]>;
  /** What each algorithm is, from the meta-schemas: "hmac-sha256-v1", "approval token", "content address", "replay". */
  algorithmNotes: Record<string, string>;
  /** Each protocol's playground bundle (the generated TS bindings for the browser, playground-bundle.ts); empty when they could not be built. */
  playgrounds: Record<string, string>;
  /** MiniSearch's browser build (dist/umd/index.js) and its LICENSE.txt, from the npm package. */
  searchLibrary: { code: string; license: string };
  /** Maven coordinates of the Kotlin bindings. */
  kotlin: { groupId: string; artifactId: string; version: string };
}

export interface SiteFile {
  path: string;
  contents: string;
}

export interface SearchEntry {
  /** Title shown and matched first. */
  t: string;
  /** Kind: guide, concept (prose sections), message, field, lifecycle, state, constant, route, divergence, type, signing. */
  k: string;
  /** Protocol id ("" for site-wide entries). */
  p: string;
  /** Site-relative URL. */
  u: string;
  /** One-line description, also matched. */
  d: string;
  /** The page a prose section is on (its title), when the entry is a section. */
  g?: string;
  /** The section's whole text (bounded), matched but not shown; `d` when absent. */
  x?: string;
}

/** Every page, in the order the site lists them; the files sorted by path. */
export function emitDocsSite(model: Model, inputs: DocsInputs): SiteFile[] {
  const site = createSite(model, inputs);
  homePage(site);
  commonTypesPage(site);
  protocolPages(site);
  signingPage(site);
  interopPage(site);
  playgroundPages(site);
  finishSite(site);
  site.finish();
  return site.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
