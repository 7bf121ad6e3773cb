// The site-wide pages: home, common types, signing, interoperability, performance and search.
import { runtimeContractHtml } from "./runtime-contract-view.js";
import { camel } from "../../emit/case.js";
import { safeHtml } from "../../emit/render.js";
import type { ProjectIdentity, ReplayDeclaration } from "../../model/types.js";
import { inline, json, prose, summaryOf } from "./html.js";
import { dedupe, demoteHeadings, headingIds, isObj, stripTags, wrapTables, type Obj } from "./page-html.js";

const SEARCH_LIBRARY = "assets/minisearch.js";
const SEARCH_LIBRARY_LICENSE = "assets/minisearch.LICENSE.txt";
import { anchorId, anchors, sitePaths } from "./paths.js";
import { typeTable } from "./schema-view.js";
import { chainDeclaration, type ProtocolVectors } from "./signing-view.js";
import type { Site } from "./site.js";
import { PROTOCOL_LANGS } from "./snippets.js";
import { hostileInputsHtml } from "./hostile-inputs.js";
import { dialectViews } from "./dialect-view.js";
import { buildSearchIndex } from "./search-index.js";

/** The home page: protocols, install lines, first steps. */
export function homePage(site: Site): void {
  const { model, inputs, hasBench, hasApi, render } = site;
  render(sitePaths.home, "home", model.project.name, [], {
    protocols: model.protocols.map((p) => ({
      title: p.title,
      id: p.id,
      version: p.version,
      href: sitePaths.protocol(p.id),
      summaryHtml: prose(p.summary),
      messageCount: p.messages.length,
      lifecycleCount: p.lifecycles.length,
      ...PROTOCOL_LANGS(model.project, p.id),
      swiftExample: p.messages[0]?.name ?? "Message",
    })),
    kotlin: inputs.kotlin,
    firstProtocol: model.protocols[0]?.id ?? "",
    firstProtocolCamel: camel(model.protocols[0]?.id ?? ""),
    firstMessage: model.protocols[0]?.messages[0]?.name ?? "Message",
    hasApi,
    hasBench,
  }, { nav: { label: "Home", group: "" } });
}

/** The shared schemas of spec/common. */
export function commonTypesPage(site: Site): void {
  const { model, search, render, ctxFor } = site;
  const page = sitePaths.common;
  const ctx = ctxFor(page);
  const groups = model.shared.map((shared) => {
    const defs = isObj(shared.schema.$defs) ? shared.schema.$defs : {};
    const tables = Object.entries(defs).filter(([, d]) => isObj(d)).map(([key, d]) => typeTable(String((d as Obj).title ?? key), d as Obj, shared.id, ctx, String((d as Obj).title ?? key)));
    for (const t of tables) search.push({ t: t.title, k: "type", p: "", u: `${page}#${t.anchor}`, d: summaryOf(stripTags(t.descriptionHtml)) });
    return { name: shared.name, id: shared.id, file: shared.location.file, descriptionHtml: prose(typeof shared.schema.description === "string" ? shared.schema.description : ""), tables };
  });
  render(page, "common", "Common types", [{ label: "Home", path: sitePaths.home }, { label: "Common types" }], { groups });
}

/** The worked signing vectors and the replay rules. */
export function signingPage(site: Site): void {
  const { model, inputs, search, render, signingVectors } = site;
  const page = sitePaths.signing;
  const jcs = inputs.vectors.common?.["jcs.json"];
  const jcsCases = isObj(jcs) && Array.isArray(jcs.cases) ? jcs.cases.filter(isObj).slice(0, 6).map((c) => ({ name: String(c.name), input: String(c.input), canonical: String(c.canonical), sha256: String(c.sha256_hex ?? "") })) : [];
  const vectors = model.protocols.flatMap((p) =>
    (signingVectors.get(p.id) ?? []).map((v) => {
      const m = p.messages.find((x) => x.name === v.message)!;
      const sig = m.signature;
      return {
        ...v,
        protocolTitle: p.title,
        anchor: anchors.signing(p.id, v.message),
        messageHref: sitePaths.message(p.id, v.message),
        lines: isObj(sig) && Array.isArray(sig.lines) ? sig.lines.filter(isObj).map((l, i) => ({ n: i + 1, name: String(l.name), field: String(l.field), value: String(l.value), default: l.default === undefined ? undefined : json(l.default) })) : [],
        key: isObj(sig) && isObj(sig.key) ? `${String(sig.key.field)} from the ${String(sig.key.source)} record, as ${String(sig.key.encoding)} bytes` : undefined,
        approval: isObj(m.approvalToken) ? Object.entries(m.approvalToken).map(([k, val]) => ({ k, v: json(val) })) : undefined,
        contentAddress: m.contentAddress ? Object.entries(m.contentAddress).map(([k, val]) => ({ k, v: json(val) })) : undefined,
        chain: v.algorithm === "content address" && !vectorsHaveCase(inputs.vectors[p.id] ?? {}, m.name) ? chainOf(inputs.vectors[p.id] ?? {}) : undefined,
      };
    }),
  );
  const rank = (name: string) => {
    const i = ["hmac-sha256-v1", "approval token", "content address"].indexOf(name);
    return i < 0 ? 99 : i;
  };
  const algorithmOrder = [...new Set(vectors.map((v) => v.algorithm))].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  const algorithms = algorithmOrder.map((name) => ({
    name,
    anchor: anchorId("alg", name),
    noteHtml: inline(inputs.algorithmNotes[name]),
    items: vectors.filter((v) => v.algorithm === name),
  }));
  // Messages with a replay rule but no worked vector still get their anchor on this page.
  const replay = model.protocols.flatMap((p) =>
    p.messages
      .flatMap((m) => (m.replay === undefined ? [] : [{ m, r: m.replay }]))
      .map(({ m, r }) => {
        const hasVector = (signingVectors.get(p.id) ?? []).some((v) => v.message === m.name);
        return {
          protocol: p.id,
          message: m.name,
          messageHref: sitePaths.message(p.id, m.name),
          anchor: anchors.replay(p.id, m.name),
          signingAnchor: hasVector ? undefined : anchors.signing(p.id, m.name),
          rows: Object.entries(r).map(([k, val]) => ({ k, v: Array.isArray(val) ? val.map(String).join(", ") || "(none)" : String(val) })),
          prose: replayProse(r),
        };
      }),
  );
  render(page, "signing", "Signing and replay", [{ label: "Home", path: sitePaths.home }, { label: "Signing" }], { jcsCases, algorithms, replay, replayNoteHtml: inline(inputs.algorithmNotes.replay), interopHref: sitePaths.interop }, { index: { kind: "concept" } });
  for (const a of vectors) search.push({ t: `${a.message} ${a.algorithm}`, k: "signing", p: a.protocol, u: `${page}#${a.anchor}`, d: `Worked vector: ${a.caseName}` });
}

/** Every divergence between implementations the spec records. */
export function interopPage(site: Site): void {
  const { model, search, render, divergences } = site;
  const page = sitePaths.interop;
  const groups = model.protocols.map((p) => ({
    id: p.id,
    title: p.title,
    items: divergences
      .filter((d) => d.protocol === p.id)
      .map((d) => ({
        anchor: d.anchor,
        id: d.divergence.id,
        origin: d.origin.kind === "protocol" ? "protocol.yaml" : `${d.origin.kind} ${d.origin.name}`,
        originHref: d.origin.page,
        summaryHtml: prose(d.divergence.summary),
        ruleHtml: inline(d.divergence.rule),
        implementations: d.divergence.implementations.map((i) => ({ nameHtml: inline(i.name), behaviourHtml: inline(i.behaviour) })),
        dialectHtml: dialectViews(p, site.inputs.vectors[p.id] ?? {}).get(d.divergence.id),
      })),
  }));
  render(page, "interop", "Interoperability notes", [{ label: "Home", path: sitePaths.home }, { label: "Interoperability" }], { groups, total: divergences.length }, { index: { kind: "concept" } });
  for (const d of divergences) search.push({ t: d.divergence.id, k: "divergence", p: d.protocol, u: `${page}#${d.anchor}`, d: summaryOf(d.divergence.summary) });
}

/** The hostile-input limits page, the runtime contract's parity table, the optional performance page, the hand-written guides, the search page and its index, and the assets. */
export function finishSite(site: Site): void {
  const { inputs, files, search, hasBench, render } = site;
  render(sitePaths.limits, "limits", "Hostile input", [{ label: "Home", path: sitePaths.home }, { label: "Hostile input" }], { html: safeHtml(wrapTables(hostileInputsHtml())) }, { index: { kind: "concept" } });
  render(sitePaths.runtime, "guide", "Runtime contract", [{ label: "Home", path: sitePaths.home }, { label: "Runtime contract" }], { title: "Runtime contract", html: safeHtml(wrapTables(runtimeContractHtml())) }, { nav: { group: "Reference" }, index: { kind: "concept" } });
  if (hasBench) {
    render(sitePaths.performance, "performance", "Performance", [{ label: "Home", path: sitePaths.home }, { label: "Performance" }], { html: safeHtml(wrapTables(headingIds(demoteHeadings(inputs.renderMarkdown(inputs.bench!))))) }, { nav: { group: "Project" }, index: { kind: "page" } });
  }
  if (inputs.changelog !== undefined) {
    const body = inputs.changelog.replace(/^<!--.*-->\n/, "").replace(/^# .*\n/m, "");
    render(sitePaths.changelog, "guide", "Changelog", [{ label: "Home", path: sitePaths.home }, { label: "Changelog" }], { title: "Changelog", html: safeHtml(wrapTables(headingIds(demoteHeadings(inputs.renderMarkdown(body))))) }, { nav: { group: "Project" }, index: { kind: "page" } });
  }
  for (const g of inputs.guides) {
    const body = projectFacts(g.markdown.replace(/^# .*\n/, ""), site.model.project, `docs-site/guides/${g.name}.md`);
    render(sitePaths.guide(g.name), "guide", g.title, [{ label: "Home", path: sitePaths.home }, { label: g.title }], { title: g.title, html: safeHtml(wrapTables(headingIds(demoteHeadings(inputs.renderMarkdown(body))))) }, { nav: { group: "Guides" }, index: { kind: "guide" } });
  }
  if (inputs.breaking !== undefined) {
    const crumbs = (title: string) => [{ label: "Home", path: sitePaths.home }, { label: title }];
    const rules = "Breaking-change rules";
    render(sitePaths.breakingRules, "guide", rules, crumbs(rules), { title: rules, html: safeHtml(wrapTables(inputs.breaking.rules)) }, { nav: { group: "Project" }, index: { kind: "concept" } });
    // The changelog's entries come from git history, which a copy of the project may not have: only
    // the page itself is indexed, so the search index is the same wherever the site is built.
    const changelog = "Spec changelog";
    render(sitePaths.specChangelog, "guide", changelog, crumbs(changelog), { title: changelog, html: safeHtml(wrapTables(inputs.breaking.changelog)) }, { nav: { group: "Project" } });
    search.push({ t: changelog, k: "concept", p: "", u: sitePaths.specChangelog, d: "Every commit that changed spec/, compared with its parent by the breaking-change rules." });
  }
  if (site.hasApi) site.addNav("API reference", sitePaths.api, "Reference");
  render(sitePaths.search, "search", "Search", [{ label: "Home", path: sitePaths.home }, { label: "Search" }], { indexPath: sitePaths.searchIndex }, { scripts: [SEARCH_LIBRARY, "assets/search.js"] });

  files.push({ path: sitePaths.searchIndex, contents: buildSearchIndex(dedupe(search)) });
  for (const [name, contents] of Object.entries(inputs.assets)) files.push({ path: `assets/${name}`, contents });
  // MiniSearch's browser build and its licence, as the npm package ships them.
  files.push({ path: SEARCH_LIBRARY, contents: inputs.searchLibrary.code });
  files.push({ path: SEARCH_LIBRARY_LICENSE, contents: inputs.searchLibrary.license });
}

/**
 * A guide names versions and package coordinates as {{project.version}},
 * {{project.packages.maven.groupId}} and the like: spec/project.yaml's values are put in, so the
 * guides never state a version the packages do not have. A name that is not in the identity is an error.
 */
export function projectFacts(markdown: string, project: ProjectIdentity, file: string): string {
  return markdown.replace(/\{\{\s*(project(?:\.[A-Za-z]+)+)\s*\}\}/g, (token, path: string) => {
    let value: unknown = { project };
    for (const key of path.split(".")) value = typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value !== "string") throw new Error(`${file}: ${token} is not a text value of spec/project.yaml's project identity`);
    return value;
  });
}

function vectorsHaveCase(vectors: ProtocolVectors, message: string): boolean {
  return Object.values(vectors).some((doc) => isObj(doc) && Array.isArray(doc.cases) && doc.cases.some((c) => isObj(c) && c.message_type === message));
}

function chainOf(vectors: ProtocolVectors): { k: string; v: string }[] | undefined {
  const decl = chainDeclaration(vectors);
  return decl ? Object.entries(decl).map(([k, v]) => ({ k, v: json(v) })) : undefined;
}

function replayProse(r: ReplayDeclaration): string {
  const keys = r.keyFields.join(" + ");
  const scope = r.scopeFields.length > 0 ? ` within each ${r.scopeFields.join(" + ")}` : " globally";
  const parts = [
    `A receiver admits the message once: ${keys} is a single-use key${scope}.`,
    r.timeFormat === "unix-seconds"
      ? `It refuses the message when ${r.expiresAtField} (Unix seconds) is before now; ${r.expiresAtField} equal to now still passes.`
      : `It refuses an unparseable ${r.expiresAtField}, or one at or before now minus ${r.skewSeconds} s of allowed clock skew.`,
  ];
  if (r.notBeforeField !== undefined) parts.push(`It refuses a ${r.notBeforeField} more than ${r.skewSeconds} s in the future.`);
  if (r.maxLifetimeSeconds !== undefined) parts.push(`It refuses an expiry more than ${r.maxLifetimeSeconds} s away.`);
  parts.push(`Then it records the key atomically and keeps the record until ${r.expiresAtField} + ${r.skewSeconds} s, so evicting it never readmits a message that would still be accepted.`);
  return parts.join(" ");
}
