// Where each page of the documentation site lives. Every path is relative to the site root and
// every link a page prints is `root + path`, where `root` climbs from the page back to the site
// root ("", "../", "../../"): the site works under any base path and from a plain file server.

export const sitePaths = {
  home: "index.html",
  common: "common.html",
  signing: "signing.html",
  interop: "interop.html",
  search: "search.html",
  performance: "performance.html",
  limits: "limits.html",
  runtime: "runtime.html",
  breakingRules: "breaking-rules.html",
  specChangelog: "spec-changelog.html",
  changelog: "changelog.html",
  api: "api/index.html",
  searchIndex: "search-index.json",
  protocol: (protocol: string) => `${protocol}/index.html`,
  message: (protocol: string, name: string) => `${protocol}/messages/${name}.html`,
  lifecycle: (protocol: string, name: string) => `${protocol}/lifecycles/${name}.html`,
  guide: (name: string) => `guides/${name}.html`,
  playground: (protocol: string) => `${protocol}/playground.html`,
  playgroundScript: (protocol: string) => `assets/playground-${protocol}.js`,
} as const;

/** The relative prefix that leads from `pagePath` back to the site root. */
export function rootOf(pagePath: string): string {
  return "../".repeat(pagePath.split("/").length - 1);
}

/**
 * An HTML id for any text: letters, digits, "_" and "-" stay, every other character becomes
 * "." followed by its code point in hex, so two different texts never share an id.
 */
export function anchorId(...parts: string[]): string {
  return parts
    .map((part) => Array.from(part, (ch) => (/[A-Za-z0-9_-]/.test(ch) ? ch : `.${ch.codePointAt(0)!.toString(16)}`)).join(""))
    .join("--");
}

export const anchors = {
  field: (owner: string, field: string) => anchorId("f", owner, field),
  def: (name: string) => anchorId("def", name),
  constants: (group: string) => anchorId("constants", group),
  constant: (group: string, name: string) => anchorId("c", group, name),
  route: (id: string) => anchorId("route", id),
  secret: (field: string) => anchorId("secret", field),
  rule: (id: string) => anchorId("rule", id),
  divergence: (protocol: string, id: string) => anchorId("div", protocol, id),
  signing: (protocol: string, message: string) => anchorId("sign", protocol, message),
  replay: (protocol: string, message: string) => anchorId("replay", protocol, message),
  state: (name: string) => anchorId("state", name),
  section: (title: string) => anchorId("sec", title),
};
