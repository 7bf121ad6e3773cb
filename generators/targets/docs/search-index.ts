// The site's search index, built with MiniSearch (npm `minisearch`) at build time and loaded by
// assets/search.js with the same settings: every message, field, type, state, constant, route,
// divergence and worked vector (one entry each), and every section of the prose pages (guides,
// signing, interoperability, hostile input, breaking-change rules, changelog, protocol and
// lifecycle pages), so a search for a concept finds the page that explains it before the
// constants that name it. Ranking is MiniSearch's BM25 with field boosts and a per-kind document
// boost; typo tolerance is its fuzzy matching. The settings travel inside search-index.json, so
// the browser ranks exactly as they say.
import MiniSearch from "minisearch";
import type { SearchEntry } from "./emit.js";
import { stripTags } from "./page-html.js";
import { summaryOf } from "./html.js";

/** How much each kind of entry weighs: pages that explain before the names they mention. */
export const KIND_BOOST: Record<string, number> = {
  guide: 3,
  concept: 3,
  protocol: 2,
  lifecycle: 2,
  message: 2,
  divergence: 1.5,
  signing: 1.2,
  type: 1,
  route: 1,
  state: 1,
  constants: 0.8,
  field: 0.7,
  constant: 0.5,
};

/** Fields indexed, with their boosts: the title first, its words, the page it is on, the text. */
export const SEARCH_SETTINGS = {
  fields: ["t", "w", "g", "x"],
  storeFields: ["t", "k", "p", "u", "d", "g"],
  searchOptions: { boost: { t: 4, w: 3, g: 1.5, x: 1 }, fuzzy: 0.2, prefix: true },
  kindBoost: KIND_BOOST,
} as const;

/** A prose section's text is cut here: enough to rank by, bounded for the index's size. */
const SECTION_TEXT_LIMIT = 4000;

/** "ReplayStoreKeys.NONCE" -> "Replay Store Keys NONCE": camelCase and dotted names as words. */
export function titleWords(title: string): string {
  return title.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
}

/**
 * A page's prose split at its h2 and h3 headings: the text before the first heading (under the
 * page's title), then each heading with the text up to the next. A heading without an id links to
 * the page itself. Sections named in `skip` (by id) are left out, an h2's with its h3s.
 */
export function proseSections(html: string, page: string, pageTitle: string, skip: readonly string[] = []): { title: string; url: string; text: string }[] {
  const out: { title: string; url: string; text: string }[] = [];
  const heading = /<h([23])([^>]*)>([\s\S]*?)<\/h\1>/g;
  let last = { title: pageTitle, url: page, skip: false };
  let skippedH2 = false;
  let from = 0;
  const flush = (to: number): void => {
    const text = stripTags(html.slice(from, to)).replace(/\s+/g, " ").trim();
    if (!last.skip && (text !== "" || last.url !== page)) out.push({ title: last.title, url: last.url, text: text.slice(0, SECTION_TEXT_LIMIT) });
  };
  for (const m of html.matchAll(heading)) {
    flush(m.index);
    const id = /\bid="([^"]*)"/.exec(m[2]!)?.[1];
    const skipped = id !== undefined && skip.includes(id);
    // An h3 under a skipped h2 is skipped with it.
    if (m[1] === "2") skippedH2 = skipped;
    last = { title: stripTags(m[3]!).replace(/\s+/g, " ").trim(), url: id === undefined ? page : `${page}#${id}`, skip: skipped || skippedH2 };
    from = m.index + m[0].length;
  }
  flush(html.length);
  return out;
}

/** Search entries for the sections of one prose page. */
export function sectionEntries(html: string, page: string, pageTitle: string, kind: string, protocol = "", skip: readonly string[] = []): SearchEntry[] {
  return proseSections(html, page, pageTitle, skip).map((s) => ({ t: s.title, k: kind, p: protocol, u: s.url, d: summaryOf(s.text), g: s.title === pageTitle ? "" : pageTitle, x: s.text }));
}

/** search-index.json: the settings and MiniSearch's serialized index over `entries`, in their order. */
export function buildSearchIndex(entries: SearchEntry[]): string {
  const search = new MiniSearch({ fields: [...SEARCH_SETTINGS.fields], storeFields: [...SEARCH_SETTINGS.storeFields], idField: "id" });
  search.addAll(entries.map((e, id) => ({ id, t: e.t, w: titleWords(e.t), g: e.g ?? "", x: e.x ?? e.d, k: e.k, p: e.p, u: e.u, d: e.d })));
  return JSON.stringify({ settings: SEARCH_SETTINGS, index: search.toJSON() }) + "\n";
}
