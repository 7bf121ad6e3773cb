// Small HTML helpers of the docs pages.
import type { JsonValue } from "../../model/types.js";
import type { SearchEntry } from "./emit.js";
import { escapeHtml, inline, json } from "./html.js";
import { anchors } from "./paths.js";

export type Obj = { [key: string]: JsonValue };
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Any JSON (protocol x- extensions, x-inferred-from-clients) as nested definition lists. */
export function genericHtml(value: JsonValue, depth = 0): string {
  if (depth > 8) return `<code>${escapeHtml(json(value))}</code>`;
  if (Array.isArray(value)) {
    if (value.every((v) => !isObj(v) && !Array.isArray(v))) return value.map((v) => `<code>${escapeHtml(typeof v === "string" ? v : json(v))}</code>`).join(", ");
    return `<ul>${value.map((v) => `<li>${genericHtml(v, depth + 1)}</li>`).join("")}</ul>`;
  }
  if (isObj(value)) return `<dl class="generic">${Object.entries(value).map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${genericHtml(v, depth + 1)}</dd>`).join("")}</dl>`;
  if (typeof value === "string") return inline(value);
  return `<code>${escapeHtml(json(value))}</code>`;
}

/** The page has its own h1: markdown headings move one level down (h6 stays h6). */
export function demoteHeadings(html: string): string {
  return html.replace(/<(\/?)h([1-6])\b/g, (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + 1)}`);
}

/**
 * Every table of rendered Markdown or generated HTML inside a scroll box, so a wide table scrolls
 * within itself rather than widening the page on a phone (site.css: .table-wrap).
 */
export function wrapTables(html: string): string {
  return html.replace(/<table\b/g, '<div class="table-wrap"><table').replace(/<\/table>/g, "</table></div>");
}

/** An id on every h2-h4 that has none (from its text, unique on the page), so search results and readers can link to a section. */
export function headingIds(html: string): string {
  const used = new Set<string>();
  for (const m of html.matchAll(/\bid="([^"]*)"/g)) used.add(m[1]!);
  return html.replace(/<h([2-4])>([\s\S]*?)<\/h\1>/g, (_, level: string, inner: string) => {
    const base = anchors.section(stripTags(inner).replace(/\s+/g, " ").trim());
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return `<h${level} id="${id}">${inner}</h${level}>`;
  });
}

export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, "`").replace(/&#61;/g, "=").replace(/&amp;/g, "&");
}

export function dedupe(entries: SearchEntry[]): SearchEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = `${e.k}|${e.u}|${e.t}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
