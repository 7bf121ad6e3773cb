// The docs site's shared state: the page renderer (layout, navigation, breadcrumbs), the schema
// documents for $ref links, every recorded divergence with its anchor, the worked signing
// vectors, and the files and search entries the page builders (pages-*.ts) add to.
import type { Divergence, Model, ProjectIdentity } from "../../model/types.js";
import { messageDivergences } from "../../model/queries.js";
import { safeHtml, templateRenderer } from "../../emit/render.js";
import type { DocsInputs, SearchEntry, SiteFile } from "./emit.js";
import { anchors, rootOf, sitePaths } from "./paths.js";
import type { SchemaContext, SchemaDoc } from "./schema-view.js";
import { workedVectors } from "./signing-view.js";
import { sectionEntries } from "./search-index.js";

interface NavItem {
  label: string;
  href: string;
  current: boolean;
}

/** The navigation's groups, in the order it shows them ("" is the home page, shown first without a heading). */
export const NAV_GROUPS = ["", "Protocols", "Guides", "Reference", "Project"] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

interface NavEntry {
  label: string;
  path: string;
  group: NavGroup;
}

interface PageCommon {
  title: string;
  root: string;
  navGroups: { label: string; items: NavItem[] }[];
  breadcrumbs: { label: string; href?: string }[];
  /** spec/project.yaml's identity: the site's name and the package names the pages show. */
  project: ProjectIdentity;
}

/** A divergence with where it is recorded, for the interoperability page and the coverage links. */
export interface RecordedDivergence {
  protocol: string;
  divergence: Divergence;
  /** "protocol.yaml", a message or a lifecycle. */
  origin: { kind: "protocol" | "message" | "lifecycle"; name: string; page: string };
  anchor: string;
}

export type Crumb = { label: string; path?: string };

/** Options of one page: its scripts, and whether its prose sections go into the search index (and as what kind). */
export interface RenderExtra {
  scripts?: string[];
  index?: { kind: string; protocol?: string; skip?: readonly string[] };
  /** A top-level page's place in the navigation (default: its breadcrumb label, under Reference). */
  nav?: { label?: string; group: NavGroup };
}

export interface Site {
  model: Model;
  inputs: DocsInputs;
  files: SiteFile[];
  search: SearchEntry[];
  hasBench: boolean;
  hasApi: boolean;
  render(page: string, name: string, title: string, crumbs: Crumb[], view: object, extra?: RenderExtra): void;
  /** Lists a page the site did not render itself (typedoc's api/) in the navigation. */
  addNav(label: string, path: string, group: NavGroup): void;
  /** Applies the layout (with the complete navigation) to every rendered page; called once, last. */
  finish(): void;
  ctxFor(page: string): SchemaContext;
  divergences: RecordedDivergence[];
  divergenceHref(page: string, protocol: string, id: string): string | undefined;
  signingVectors: Map<string, ReturnType<typeof workedVectors>>;
  /** "<protocol>/<Message>" of every message with a signing, token, replay or content-address declaration. */
  signedMessages: Set<string>;
}

export function createSite(model: Model, inputs: DocsInputs): Site {
  const partials = Object.fromEntries(Object.entries(inputs.templates).filter(([name]) => name.startsWith("_")).map(([name, source]) => [name.slice(1), source]));
  const template = templateRenderer(
    (name) => {
      const source = inputs.templates[name];
      if (source === undefined) throw new Error(`docs: missing template docs-site/templates/${name}.hbs`);
      return source;
    },
    // Not strict: page views leave optional fields undefined.
    { htmlEscape: true, strict: false, partials, helpers: { eq: (a: unknown, b: unknown) => a === b } },
  );

  const files: SiteFile[] = [];
  const search: SearchEntry[] = [];
  const hasBench = inputs.bench !== undefined && inputs.bench.trim() !== "";
  const hasApi = Object.keys(inputs.apiLinks).length > 0;

  // The navigation is whatever pages register, in the order they are rendered: every page whose
  // breadcrumbs are Home and itself (a top-level page) is listed under its group, so a page added
  // by a new page builder appears without editing this file; deeper pages (messages, lifecycles,
  // playgrounds) are linked from their parent. The layout is applied once every page is known.
  const navEntries: NavEntry[] = [];
  const pending: { page: string; common: Omit<PageCommon, "navGroups">; body: string; scripts: string[] }[] = [];
  const addNav = (label: string, path: string, group: NavGroup): void => {
    if (!navEntries.some((e) => e.path === path)) navEntries.push({ label, path, group });
  };

  const render = (page: string, name: string, title: string, crumbs: { label: string; path?: string }[], view: object, extra: RenderExtra = {}): void => {
    const root = rootOf(page);
    const common = {
      title,
      root,
      breadcrumbs: crumbs.map((c) => ({ label: c.label, href: c.path === undefined ? undefined : c.path === page ? undefined : root + c.path })),
      project: model.project,
    };
    const body = template(name, { ...common, ...view });
    if (extra.index !== undefined) search.push(...sectionEntries(body, page, title, extra.index.kind, extra.index.protocol, extra.index.skip));
    if (crumbs.length <= 2) addNav(extra.nav?.label ?? crumbs.at(-1)?.label ?? title, page, extra.nav?.group ?? (crumbs.length === 0 ? "" : "Reference"));
    pending.push({ page, common, body, scripts: (extra.scripts ?? []).map((s) => root + s) });
  };

  const finish = (): void => {
    for (const { page, common, body, scripts } of pending.splice(0)) {
      const root = rootOf(page);
      const navGroups = NAV_GROUPS.map((label) => ({
        label,
        items: navEntries.filter((e) => e.group === label).map((e) => ({ label: e.label, href: root + e.path, current: e.path === page })),
      })).filter((g) => g.items.length > 0);
      files.push({ path: page, contents: template("layout", { ...common, navGroups, body: safeHtml(body), scripts }) });
    }
  };

  // Schema documents, by $id, for resolving $ref to a page and an anchor.
  const docs = new Map<string, SchemaDoc>();
  for (const shared of model.shared) docs.set(shared.id, { id: shared.id, schema: shared.schema, page: sitePaths.common, name: shared.name });
  for (const p of model.protocols) for (const m of p.messages) docs.set(m.id, { id: m.id, schema: m.schema, page: sitePaths.message(p.id, m.name), name: m.name });
  const ctxFor = (page: string): SchemaContext => ({ docs, page, root: rootOf(page) });

  // Every divergence the spec records, with a unique anchor.
  const divergences: RecordedDivergence[] = [];
  const divergenceAnchor = new Map<string, string>();
  const addDivergence = (protocol: string, divergence: Divergence, origin: RecordedDivergence["origin"]): void => {
    let anchor = anchors.divergence(protocol, divergence.id);
    for (let n = 2; divergences.some((d) => d.anchor === anchor); n++) anchor = anchors.divergence(protocol, `${divergence.id}-${n}`);
    divergences.push({ protocol, divergence, origin, anchor });
    if (!divergenceAnchor.has(`${protocol}/${divergence.id}`)) divergenceAnchor.set(`${protocol}/${divergence.id}`, anchor);
  };
  for (const p of model.protocols) {
    for (const d of p.divergences) addDivergence(p.id, d, { kind: "protocol", name: "protocol.yaml", page: sitePaths.protocol(p.id) });
    for (const m of p.messages) for (const d of messageDivergences(m)) addDivergence(p.id, d, { kind: "message", name: m.name, page: sitePaths.message(p.id, m.name) });
    for (const l of p.lifecycles) for (const d of l.divergences) addDivergence(p.id, d, { kind: "lifecycle", name: l.name, page: sitePaths.lifecycle(p.id, l.name) });
  }
  const divergenceHref = (page: string, protocol: string, id: string): string | undefined => {
    const anchor = divergenceAnchor.get(`${protocol}/${id}`);
    return anchor === undefined ? undefined : `${rootOf(page)}${sitePaths.interop}#${anchor}`;
  };

  const signingVectors = new Map<string, ReturnType<typeof workedVectors>>();
  for (const p of model.protocols) signingVectors.set(p.id, workedVectors(p, inputs.vectors[p.id] ?? {}));
  const signedMessages = new Set<string>();
  for (const p of model.protocols) for (const m of p.messages) if (m.signature || m.approvalToken || m.contentAddress || m.replay) signedMessages.add(`${p.id}/${m.name}`);

  return { model, inputs, files, search, hasBench, hasApi, render, addNav, finish, ctxFor, divergences, divergenceHref, signingVectors, signedMessages };
}
