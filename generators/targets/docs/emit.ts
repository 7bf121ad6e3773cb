// The documentation site as a pure function of the model: emitDocsSite(model, inputs) returns
// every file of docs-site/dist except the typedoc output (api/), which the build entry adds.
// Pages are handlebars templates (docs-site/templates) over view models built here; everything
// from the spec is escaped by handlebars or by html.ts, and every link is relative.
import { dialectViews } from "./dialect-view.js";
import Handlebars from "handlebars";
import type { Lifecycle } from "../../lifecycles/types.js";
import { literalText } from "../../lifecycles/types.js";
import type { Divergence, JsonValue, Message, Model, Protocol } from "../../model/types.js";
import { lifecycleDot, inlineSvg } from "./dot.js";
import { escapeHtml, inline, json, prose, summaryOf } from "./html.js";
import { anchorId, anchors, rootOf, sitePaths } from "./paths.js";
import { messageTables, typeTable, type SchemaContext, type SchemaDoc } from "./schema-view.js";
import { chainDeclaration, workedVectors, type ProtocolVectors } from "./signing-view.js";

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
  /** docs-site/bench/latest.md, when the benchmarks have run. */
  bench?: string;
  /** spec/<protocol>/conformance/ cases, when they exist. */
  conformance: Record<string, ConformanceFile[]>;
  /** What each algorithm is, from the meta-schemas: "hmac-sha256-v1", "approval token", "content address", "replay". */
  algorithmNotes: Record<string, string>;
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
  /** Kind: message, field, lifecycle, state, constant, route, divergence, type. */
  k: string;
  /** Protocol id ("" for site-wide entries). */
  p: string;
  /** Site-relative URL. */
  u: string;
  /** One-line description, also matched. */
  d: string;
}

// Names as the Kotlin and Swift emitters write them: package dev.agentcontracts.<id without
// dashes> with an <Id>Validators object; Swift enum namespace <Id> in module AgentContracts.
const PROTOCOL_LANGS = (id: string) => ({
  kotlinPackage: `dev.agentcontracts.${id.replace(/-/g, "")}`,
  kotlinValidators: `${pascal(id)}Validators`,
  swiftNamespace: pascal(id),
  tsModule: `@agent-contracts/bindings/${id}`,
});

function pascal(id: string): string {
  const c = camel(id);
  return c.charAt(0).toUpperCase() + c.slice(1);
}

function camel(id: string): string {
  return id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

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
}

type Obj = { [key: string]: JsonValue };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A divergence with where it is recorded, for the interoperability page and the coverage links. */
interface RecordedDivergence {
  protocol: string;
  divergence: Divergence;
  /** "protocol.yaml", a message or a lifecycle. */
  origin: { kind: "protocol" | "message" | "lifecycle"; name: string; page: string };
  anchor: string;
}

export function emitDocsSite(model: Model, inputs: DocsInputs): SiteFile[] {
  const hbs = Handlebars.create();
  for (const [name, source] of Object.entries(inputs.templates)) if (name.startsWith("_")) hbs.registerPartial(name.slice(1), source);
  hbs.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  const template = (name: string): HandlebarsTemplateDelegate => {
    const source = inputs.templates[name];
    if (source === undefined) throw new Error(`docs: missing template docs-site/templates/${name}.hbs`);
    if (!compiled.has(name)) compiled.set(name, hbs.compile(source, { noEscape: false, strict: false }));
    return compiled.get(name)!;
  };

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
      ...(hasApi ? [["API reference", sitePaths.api] as [string, string]] : []),
      ...(hasBench ? [["Performance", sitePaths.performance] as [string, string]] : []),
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
    };
    const body = template(name)({ ...common, ...view });
    const html = template("layout")({ ...common, body: new Handlebars.SafeString(body), scripts: (extra.scripts ?? []).map((s) => root + s) });
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
    for (const l of lifecyclesOf(p)) for (const d of l.divergences) addDivergence(p.id, d, { kind: "lifecycle", name: l.name, page: sitePaths.lifecycle(p.id, l.name) });
  }
  const divergenceHref = (page: string, protocol: string, id: string): string | undefined => {
    const anchor = divergenceAnchor.get(`${protocol}/${id}`);
    return anchor === undefined ? undefined : `${rootOf(page)}${sitePaths.interop}#${anchor}`;
  };

  const signingVectors = new Map<string, ReturnType<typeof workedVectors>>();
  for (const p of model.protocols) signingVectors.set(p.id, workedVectors(p, inputs.vectors[p.id] ?? {}));
  const signedMessages = new Set<string>();
  for (const p of model.protocols) for (const m of p.messages) if (m.annotations["x-signature"] || m.annotations["x-approval-token"] || m.contentAddress || m.annotations["x-replay"]) signedMessages.add(`${p.id}/${m.name}`);

  // ---- Home -----------------------------------------------------------------------------------
  render(sitePaths.home, "home", "agent-contracts", [], {
    protocols: model.protocols.map((p) => ({
      title: p.title,
      id: p.id,
      version: p.version,
      href: sitePaths.protocol(p.id),
      summaryHtml: prose(p.summary),
      messageCount: p.messages.length,
      lifecycleCount: lifecyclesOf(p).length,
      ...PROTOCOL_LANGS(p.id),
      swiftExample: p.messages[0]?.name ?? "Message",
    })),
    kotlin: inputs.kotlin,
    firstProtocol: model.protocols[0]?.id ?? "",
    firstProtocolCamel: camel(model.protocols[0]?.id ?? ""),
    firstMessage: model.protocols[0]?.messages[0]?.name ?? "Message",
    hasApi,
    hasBench,
  });

  // ---- Common types ---------------------------------------------------------------------------
  {
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

  // ---- Protocols, messages, lifecycles ---------------------------------------------------------
  for (const p of model.protocols) {
    const protocolPage = sitePaths.protocol(p.id);
    const lifecycles = lifecyclesOf(p);
    const langs = PROTOCOL_LANGS(p.id);

    const usedBy = (message: string) => ({
      lifecycles: lifecycles.filter((l) => l.events.some((e) => e.message === message)).map((l) => ({ name: l.name, path: sitePaths.lifecycle(p.id, l.name) })),
      routes: p.routes.filter((r) => r.request === message || r.responses.some((s) => s.message === message)).map((r) => ({ label: `${r.method} ${r.path}`, path: `${protocolPage}#${anchors.route(r.id)}` })),
    });

    for (const m of p.messages) {
      const page = sitePaths.message(p.id, m.name);
      const root = rootOf(page);
      const ctx = ctxFor(page);
      const tables = messageTables(m.name, m.schema, m.id, ctx);
      // A message that is a bare value (an enum, a string) still gets a one-row field table.
      const root0 = tables[0]!;
      if (root0.rows.length === 0 && root0.variants.length === 0) {
        root0.rows.push({ name: "(the message value)", anchor: anchors.field("", "value"), typeHtml: root0.kind, required: true, constraints: root0.constraints, descriptionHtml: "The message is this JSON value itself, not an object." });
        root0.constraints = [];
      }
      const apiPath = inputs.apiLinks[`${p.id}/${m.name}`];
      const used = usedBy(m.name);
      const inferred = m.annotations["x-inferred-from-clients"];
      render(page, "message", `${m.name} — ${p.title}`, [{ label: "Home", path: sitePaths.home }, { label: p.title, path: protocolPage }, { label: m.name }], {
        name: m.name,
        protocol: { id: p.id, title: p.title, href: root + protocolPage },
        descriptionHtml: prose(m.description),
        id: m.id,
        file: m.location.file,
        sources: m.sources,
        tables,
        ts: {
          module: langs.tsModule,
          snippet: tsSnippet(m.name, langs.tsModule),
          apiHref: apiPath ? `${root}api/${apiPath}` : undefined,
        },
        kotlin: { fqName: `${langs.kotlinPackage}.${m.name}`, snippet: kotlinSnippet(m.name, langs.kotlinPackage, langs.kotlinValidators) },
        swift: { fqName: `AgentContracts.${langs.swiftNamespace}.${m.name}`, snippet: swiftSnippet(m.name, langs.swiftNamespace) },
        rules: m.rules.map((r) => ({ id: r.id, anchor: anchors.rule(r.id), kind: r.kind, messageHtml: inline(r.message), pointers: Object.entries(r).filter(([k]) => !["id", "kind", "message"].includes(k)).map(([k, v]) => `${k}: ${String(v)}`) })),
        contentAddress: m.contentAddress ? { ...m.contentAddress, href: `${root}${sitePaths.signing}#${anchors.signing(p.id, m.name)}` } : undefined,
        signingHref: signedMessages.has(`${p.id}/${m.name}`) ? `${root}${sitePaths.signing}#${anchors.signing(p.id, m.name)}` : undefined,
        signingKinds: [m.annotations["x-signature"] ? "signed (x-signature)" : "", m.annotations["x-approval-token"] ? "approval token (x-approval-token)" : "", m.annotations["x-replay"] ? "single use (x-replay)" : "", m.contentAddress ? "content-addressed (x-content-address)" : ""].filter(Boolean).join(", "),
        divergences: messageDivergences(m).map((d) => ({ id: d.id, summaryHtml: inline(d.summary), ruleHtml: inline(d.rule), href: divergenceHref(page, p.id, d.id) })),
        inferredHtml: inferred === undefined ? undefined : genericHtml(inferred),
        examples: m.examples.map((e, i) => ({ n: i + 1, json: JSON.stringify(e, null, 2) })),
        invalidExamples: m.invalidExamples.map((e, i) => ({
          n: i + 1,
          descriptionHtml: inline(e.description),
          json: JSON.stringify(e.instance, null, 2),
          error: { instancePath: e.error.instancePath === "" ? "(root)" : e.error.instancePath, keyword: e.error.keyword, rule: e.error.rule },
          actual: inputs.bindingErrors[`${p.id}/${m.name}/${i}`],
        })),
        schemaSource: inputs.sources[m.location.file] ?? JSON.stringify(m.schema, null, 2),
        usedByLifecycles: used.lifecycles.map((l) => ({ name: l.name, href: root + l.path })),
        usedByRoutes: used.routes.map((r) => ({ label: r.label, href: root + r.path })),
      });
      search.push({ t: m.name, k: "message", p: p.id, u: page, d: summaryOf(m.description) });
      for (const t of tables) {
        if (t.title !== m.name) search.push({ t: t.title, k: "type", p: p.id, u: `${page}#${t.anchor}`, d: summaryOf(stripTags(t.descriptionHtml)) || `Type in ${m.name}` });
        for (const r of t.rows) if (!r.name.startsWith("(")) search.push({ t: `${t.title}.${r.name}`, k: "field", p: p.id, u: `${page}#${r.anchor}`, d: summaryOf(stripTags(r.descriptionHtml)) });
      }
    }

    for (const l of lifecycles) {
      const page = sitePaths.lifecycle(p.id, l.name);
      const root = rootOf(page);
      const messageHref = (name?: string) => (name && p.messages.some((m) => m.name === name) ? root + sitePaths.message(p.id, name) : undefined);
      const captionId = "diagram-caption";
      render(page, "lifecycle", `${l.title} — ${p.title}`, [{ label: "Home", path: sitePaths.home }, { label: p.title, path: protocolPage }, { label: l.title }], {
        name: l.name,
        title: l.title,
        protocol: { id: p.id, title: p.title, href: root + protocolPage },
        descriptionHtml: prose(l.description),
        role: l.role,
        initial: l.initial,
        file: l.location.file,
        sources: l.sources,
        captionId,
        svg: new Handlebars.SafeString(inlineSvg(inputs.renderSvg(lifecycleDot(l)), captionId)),
        states: l.states.map((s) => ({ ...s, anchor: anchors.state(s.name), descriptionHtml: inline(s.description), initial: s.name === l.initial })),
        events: l.events.map((e) => ({ ...e, descriptionHtml: inline(e.description), messageHref: messageHref(e.message) })),
        guards: l.guards.map((g) => ({ name: g.name, descriptionHtml: inline(g.description) })),
        effects: l.effects.map((e) => ({ name: e.name, descriptionHtml: inline(e.description) })),
        mutuallyExclusive: l.mutuallyExclusive.map((g) => g.join(", ")),
        transitions: l.transitions.map((t) => ({
          from: t.from,
          fromHref: `#${anchors.state(t.from)}`,
          event: t.event,
          to: t.to,
          toHref: `#${anchors.state(t.to)}`,
          guards: t.guards.map(literalText).join(" and "),
          effects: t.effects.join(", "),
          descriptionHtml: inline(t.description),
        })),
        divergences: l.divergences.map((d) => ({ id: d.id, summaryHtml: inline(d.summary), ruleHtml: inline(d.rule), href: divergenceHref(page, p.id, d.id) })),
        dot: lifecycleDot(l),
      });
      search.push({ t: l.name, k: "lifecycle", p: p.id, u: page, d: summaryOf(`${l.title}. ${l.description}`) });
      for (const s of l.states) search.push({ t: `${l.name}.${s.name}`, k: "state", p: p.id, u: `${page}#${anchors.state(s.name)}`, d: summaryOf(s.description) });
    }

    // The protocol page.
    {
      const page = protocolPage;
      const root = rootOf(page);
      const coverageHref = (item: string): string | undefined => {
        const colon = item.indexOf(":");
        const kind = item.slice(0, colon);
        const ref = item.slice(colon + 1);
        switch (kind) {
          case "message":
            return p.messages.some((m) => m.name === ref) ? root + sitePaths.message(p.id, ref) : undefined;
          case "lifecycle":
            return lifecycles.some((l) => l.name === ref) ? root + sitePaths.lifecycle(p.id, ref) : undefined;
          case "constants":
            return `#${anchors.constants(ref)}`;
          case "route":
            return `#${anchors.route(ref)}`;
          case "secret":
            return `#${anchors.secret(ref)}`;
          case "divergence":
            return divergenceHref(page, p.id, ref);
          case "rule": {
            const [msg = "", id = ""] = ref.split("/");
            return `${root}${sitePaths.message(p.id, msg)}#${anchors.rule(id)}`;
          }
          case "signing":
            return `${root}${sitePaths.signing}#${anchors.signing(p.id, ref)}`;
          default:
            return undefined;
        }
      };
      const constantGroups = p.constants.map((g) => ({
        group: g.group,
        kind: g.kind,
        anchor: anchors.constants(g.group),
        descriptionHtml: inline(g.description),
        items: g.items.map((c) => ({ name: c.name, anchor: anchors.constant(g.group, c.name), value: typeof c.value === "string" ? c.value : json(c.value), unit: c.unit, descriptionHtml: inline(c.description) })),
      }));
      for (const g of p.constants) {
        search.push({ t: g.group, k: "constants", p: p.id, u: `${page}#${anchors.constants(g.group)}`, d: summaryOf(g.description) });
        for (const c of g.items) search.push({ t: `${g.group}.${c.name}`, k: "constant", p: p.id, u: `${page}#${anchors.constant(g.group, c.name)}`, d: summaryOf(`${String(c.value)}${c.unit ? ` ${c.unit}` : ""} — ${c.description}`) });
      }
      for (const r of p.routes) search.push({ t: `${r.method} ${r.path}`, k: "route", p: p.id, u: `${page}#${anchors.route(r.id)}`, d: summaryOf(`${r.id}: ${r.description}`) });
      const msgHref = (name?: string) => (name && p.messages.some((m) => m.name === name) ? root + sitePaths.message(p.id, name) : undefined);
      render(page, "protocol", p.title, [{ label: "Home", path: sitePaths.home }, { label: p.title }], {
        id: p.id,
        title: p.title,
        version: p.version,
        document: p.document,
        file: p.location.file,
        summaryHtml: prose(p.summary),
        transports: p.transports.map((t) => ({ ...t, descriptionHtml: inline(t.description) })),
        messages: p.messages.map((m) => ({ name: m.name, href: root + sitePaths.message(p.id, m.name), summary: summaryOf(m.description, 160) })),
        lifecycles: lifecycles.map((l) => ({ name: l.name, title: l.title, href: root + sitePaths.lifecycle(p.id, l.name), summary: summaryOf(l.description, 160) })),
        constantGroups,
        routes: p.routes.map((r) => ({
          ...r,
          anchor: anchors.route(r.id),
          descriptionHtml: inline(r.description),
          requestHref: msgHref(r.request),
          responses: r.responses.map((s) => ({ ...s, messageHref: msgHref(s.message), descriptionHtml: inline(s.description) })),
        })),
        secrets: p.secrets.map((s) => ({ field: s.field, anchor: anchors.secret(s.field), reasonHtml: inline(s.reason), neverIn: s.neverIn.map((n) => ({ name: n, href: msgHref(n) })) })),
        extensions: Object.entries(p.extensions).map(([key, value]) => ({ key, html: new Handlebars.SafeString(genericHtml(value)) })),
        divergences: p.divergences.map((d) => ({ id: d.id, summaryHtml: inline(d.summary), href: divergenceHref(page, p.id, d.id) })),
        sections: p.sections.map((s) => ({ title: s.title, anchor: anchors.section(s.title), items: s.coveredBy.map((item) => ({ item, href: coverageHref(item) })) })),
        conformance: (inputs.conformance[p.id] ?? []).map((f) => ({ ...f, anchor: anchorId("conformance", f.file), descriptionHtml: inline(f.description), cases: f.cases.map((c) => ({ ...c, descriptionHtml: inline(c.description), tags: c.tags.join(", ") })) })),
        conformanceCount: (inputs.conformance[p.id] ?? []).reduce((n, f) => n + f.cases.length, 0),
        hasConformance: (inputs.conformance[p.id] ?? []).length > 0,
        signingHref: p.messages.some((m) => signedMessages.has(`${p.id}/${m.name}`)) ? root + sitePaths.signing : undefined,
      });
      search.push({ t: p.title, k: "protocol", p: p.id, u: page, d: summaryOf(p.summary) });
    }
  }

  // ---- Signing ----------------------------------------------------------------------------------
  {
    const page = sitePaths.signing;
    const jcs = inputs.vectors.common?.["jcs.json"];
    const jcsCases = isObj(jcs) && Array.isArray(jcs.cases) ? jcs.cases.filter(isObj).slice(0, 6).map((c) => ({ name: String(c.name), input: String(c.input), canonical: String(c.canonical), sha256: String(c.sha256_hex ?? "") })) : [];
    const vectors = model.protocols.flatMap((p) =>
      (signingVectors.get(p.id) ?? []).map((v) => {
        const m = p.messages.find((x) => x.name === v.message)!;
        const sig = m.annotations["x-signature"];
        return {
          ...v,
          protocolTitle: p.title,
          anchor: anchors.signing(p.id, v.message),
          messageHref: sitePaths.message(p.id, v.message),
          lines: isObj(sig) && Array.isArray(sig.lines) ? sig.lines.filter(isObj).map((l, i) => ({ n: i + 1, name: String(l.name), field: String(l.field), value: String(l.value), default: l.default === undefined ? undefined : json(l.default) })) : [],
          key: isObj(sig) && isObj(sig.key) ? `${String(sig.key.field)} from the ${String(sig.key.source)} record, as ${String(sig.key.encoding)} bytes` : undefined,
          approval: isObj(m.annotations["x-approval-token"]) ? Object.entries(m.annotations["x-approval-token"]).map(([k, val]) => ({ k, v: json(val) })) : undefined,
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
        .filter((m) => isObj(m.annotations["x-replay"]))
        .map((m) => {
          const r = m.annotations["x-replay"] as Obj;
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
    render(page, "signing", "Signing and replay", [{ label: "Home", path: sitePaths.home }, { label: "Signing" }], { jcsCases, algorithms, replay, replayNoteHtml: inline(inputs.algorithmNotes.replay), interopHref: sitePaths.interop });
    for (const a of vectors) search.push({ t: `${a.message} ${a.algorithm}`, k: "signing", p: a.protocol, u: `${page}#${a.anchor}`, d: `Worked vector: ${a.caseName}` });
  }

  // ---- Interoperability --------------------------------------------------------------------------
  {
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
          dialectHtml: dialectViews(p, inputs.vectors[p.id] ?? {}).get(d.divergence.id),
        })),
    }));
    render(page, "interop", "Interoperability notes", [{ label: "Home", path: sitePaths.home }, { label: "Interoperability" }], { groups, total: divergences.length });
    for (const d of divergences) search.push({ t: d.divergence.id, k: "divergence", p: d.protocol, u: `${page}#${d.anchor}`, d: summaryOf(d.divergence.summary) });
  }

  // ---- Performance (optional), search ------------------------------------------------------------
  if (hasBench) {
    render(sitePaths.performance, "performance", "Performance", [{ label: "Home", path: sitePaths.home }, { label: "Performance" }], { html: new Handlebars.SafeString(demoteHeadings(inputs.renderMarkdown(inputs.bench!))) });
  }
  render(sitePaths.search, "search", "Search", [{ label: "Home", path: sitePaths.home }, { label: "Search" }], { indexPath: sitePaths.searchIndex }, { scripts: ["assets/search.js"] });

  files.push({ path: sitePaths.searchIndex, contents: JSON.stringify(dedupe(search)) + "\n" });
  for (const [name, contents] of Object.entries(inputs.assets)) files.push({ path: `assets/${name}`, contents });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function lifecyclesOf(p: Protocol): Lifecycle[] {
  return p.lifecycles as Lifecycle[];
}

/** The message's own divergences and those recorded on nested schemas ($defs, properties). */
export function messageDivergences(m: Message): Divergence[] {
  const out: Divergence[] = [...m.divergences];
  const seen = new Set(out.map((d) => d.id));
  const walk = (node: JsonValue | undefined, isRoot: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, false));
    if (!isObj(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-divergences" && !isRoot && Array.isArray(value)) {
        for (const d of value) if (isObj(d) && typeof d.id === "string" && !seen.has(d.id)) {
          seen.add(d.id);
          out.push(d as unknown as Divergence);
        }
      } else if (key !== "examples" && key !== "x-invalid-examples") walk(value, false);
    }
  };
  walk(m.schema, true);
  return out;
}

function vectorsHaveCase(vectors: ProtocolVectors, message: string): boolean {
  return Object.values(vectors).some((doc) => isObj(doc) && Array.isArray(doc.cases) && doc.cases.some((c) => isObj(c) && c.message_type === message));
}

function chainOf(vectors: ProtocolVectors): { k: string; v: string }[] | undefined {
  const decl = chainDeclaration(vectors);
  return decl ? Object.entries(decl).map(([k, v]) => ({ k, v: json(v) })) : undefined;
}

function replayProse(r: Obj): string {
  const keys = Array.isArray(r.keyFields) ? r.keyFields.map(String).join(" + ") : "";
  const scope = Array.isArray(r.scopeFields) && r.scopeFields.length > 0 ? ` within each ${r.scopeFields.map(String).join(" + ")}` : " globally";
  const unix = r.timeFormat === "unix-seconds";
  const parts = [
    `A receiver admits the message once: ${keys} is a single-use key${scope}.`,
    unix
      ? `It refuses the message when ${String(r.expiresAtField)} (Unix seconds) is before now; ${String(r.expiresAtField)} equal to now still passes.`
      : `It refuses an unparseable ${String(r.expiresAtField)}, or one at or before now minus ${String(r.skewSeconds)} s of allowed clock skew.`,
  ];
  if (typeof r.notBeforeField === "string") parts.push(`It refuses a ${r.notBeforeField} more than ${String(r.skewSeconds)} s in the future.`);
  if (typeof r.maxLifetimeSeconds === "number") parts.push(`It refuses an expiry more than ${r.maxLifetimeSeconds} s away.`);
  parts.push(`Then it records the key atomically and keeps the record until ${String(r.expiresAtField)} + ${String(r.skewSeconds)} s, so evicting it never readmits a message that would still be accepted.`);
  return parts.join(" ");
}

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
function demoteHeadings(html: string): string {
  return html.replace(/<(\/?)h([1-6])\b/g, (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + 1)}`);
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, "`").replace(/&#61;/g, "=").replace(/&amp;/g, "&");
}

function dedupe(entries: SearchEntry[]): SearchEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = `${e.k}|${e.u}|${e.t}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function tsSnippet(name: string, module: string): string {
  return `import { parse${name}, type ${name} } from "${module}";

const result = parse${name}(jsonText); // strict JSON parse, schema, cross-field rules
if (result.ok) {
  const message: ${name} = result.value;
} else {
  for (const e of result.errors) console.error(e.instancePath, e.keyword, e.message);
}`;
}

function kotlinSnippet(name: string, pkg: string, validators: string): string {
  return `import ${pkg}.${name}
import ${pkg}.${validators}
import dev.agentcontracts.runtime.ValidationResult

// strict JSON parse, schema, cross-field rules; errors name the JSON pointer
when (val result = ${validators}.parse${name}(bytes)) {
    is ValidationResult.Valid -> { val message: ${name} = result.value }
    is ValidationResult.Invalid -> result.errors.forEach { println("\${it.instancePath} \${it.keyword}: \${it.message}") }
}`;
}

function swiftSnippet(name: string, namespace: string): string {
  return `import AgentContracts

// strict JSON parse, schema, cross-field rules, then Codable; throws an error naming the JSON pointer
let message = try ${namespace}.${name}.decode(json: data)
let canonical = try message.canonicalJSON()`;
}
