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

interface NavItem {
  label: string;
  href: string;
  current: boolean;
}

interface PageCommon {
  title: string;
  root: string;
  nav: NavItem[];
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

export interface Site {
  model: Model;
  inputs: DocsInputs;
  files: SiteFile[];
  search: SearchEntry[];
  hasBench: boolean;
  hasApi: boolean;
  render(page: string, name: string, title: string, crumbs: Crumb[], view: object, extra?: { scripts?: string[] }): void;
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

  const navFor = (page: string): NavItem[] => {
    const items: [string, string][] = [
      ["Home", sitePaths.home],
      ...model.protocols.map((p): [string, string] => [p.title, sitePaths.protocol(p.id)]),
      ["Common types", sitePaths.common],
      ["Signing", sitePaths.signing],
      ["Interoperability", sitePaths.interop],
      ["Hostile input", sitePaths.limits],
      ["Runtime contract", sitePaths.runtime],
      ...inputs.guides.map((g): [string, string] => [g.title, sitePaths.guide(g.name)]),
      ...(hasApi ? [["API reference", sitePaths.api] as [string, string]] : []),
      ...(hasBench ? [["Performance", sitePaths.performance] as [string, string]] : []),
      ...(inputs.breaking !== undefined
        ? ([
            ["Breaking-change rules", sitePaths.breakingRules],
            ["Spec changelog", sitePaths.specChangelog],
          ] as [string, string][])
        : []),
      ["Search", sitePaths.search],
    ];
    return items.map(([label, path]) => ({ label, href: rootOf(page) + path, current: path === page }));
  };

  const render = (page: string, name: string, title: string, crumbs: { label: string; path?: string }[], view: object, extra: { scripts?: string[] } = {}): void => {
    const root = rootOf(page);
    const common: PageCommon = {
      title,
      root,
      nav: navFor(page),
      breadcrumbs: crumbs.map((c) => ({ label: c.label, href: c.path === undefined ? undefined : c.path === page ? undefined : root + c.path })),
      project: model.project,
    };
    const body = template(name, { ...common, ...view });
    const html = template("layout", { ...common, body: safeHtml(body), scripts: (extra.scripts ?? []).map((s) => root + s) });
    files.push({ path: page, contents: html });
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

  return { model, inputs, files, search, hasBench, hasApi, render, ctxFor, divergences, divergenceHref, signingVectors, signedMessages };
}
