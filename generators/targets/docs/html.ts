// The only places HTML is made outside the templates. Everything that comes from the spec goes
// through escapeHtml first; callers get strings that are safe to print unescaped.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;", "=": "&#61;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (ch) => ESCAPES[ch]!);
}

/** Spec prose to HTML: escaped, `code` spans kept, blank lines start a new paragraph. */
export function prose(text: string | undefined): string {
  if (text === undefined || text.trim() === "") return "";
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((para) => `<p>${inline(para)}</p>`)
    .join("");
}

/** Like prose but for a table cell or a list item: no paragraph wrapper. */
export function inline(text: string | undefined): string {
  if (text === undefined) return "";
  return text
    .split(/(`[^`\n]+`)/)
    .map((part) => (part.length > 2 && part.startsWith("`") && part.endsWith("`") ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join("");
}

export function link(href: string, label: string, className?: string): string {
  return `<a href="${escapeHtml(href)}"${className ? ` class="${escapeHtml(className)}"` : ""}>${label}</a>`;
}

/** Compact JSON of a value, for defaults, constants and constraints. */
export function json(value: unknown): string {
  return JSON.stringify(value) ?? "undefined";
}

/** Shortens prose to one line for tables of contents and the search index. */
export function summaryOf(text: string | undefined, max = 180): string {
  const flat = (text ?? "").replace(/`/g, "").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${cut.slice(0, space > max / 2 ? space : max)}…`;
}
