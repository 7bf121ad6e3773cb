// The protocol pages: the protocol (routes, constants, secrets, coverage, conformance), each message
// (field tables, examples, language snippets, divergences) and each lifecycle (diagram, tables).
import { safeHtml } from "../../emit/render.js";
import { literalText } from "../../model/lifecycle.js";
import { messageDivergences } from "../../model/queries.js";
import { lifecycleDot, inlineSvg } from "./dot.js";
import { inline, json, prose, summaryOf } from "./html.js";
import { genericHtml, isObj, stripTags, type Obj } from "./page-html.js";
import { anchorId, anchors, rootOf, sitePaths } from "./paths.js";
import { messageTables, typeTable } from "./schema-view.js";
import type { Site } from "./site.js";
import { kotlinSnippet, PROTOCOL_LANGS, swiftSnippet, tsSnippet } from "./snippets.js";

/** Per protocol: its page, one page per message and one per lifecycle. */
export function protocolPages(site: Site): void {
  const { model, inputs, search, render, ctxFor, divergences, divergenceHref, signedMessages } = site;
  for (const p of model.protocols) {
    const protocolPage = sitePaths.protocol(p.id);
    const lifecycles = p.lifecycles;
    const langs = PROTOCOL_LANGS(model.project, p.id);

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
      const inferred = m.inferredFromClients;
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
        kotlin: { fqName: `${langs.kotlinPackage}.${m.name}`, snippet: kotlinSnippet(m.name, langs.kotlinPackage, langs.kotlinValidators, langs.kotlinRuntime) },
        swift: { fqName: `${langs.swiftModule}.${langs.swiftNamespace}.${m.name}`, snippet: swiftSnippet(m.name, langs.swiftNamespace, langs.swiftModule) },
        rules: m.rules.map((r) => ({ id: r.id, anchor: anchors.rule(r.id), kind: r.kind, messageHtml: inline(r.message), pointers: Object.entries(r).filter(([k]) => !["id", "kind", "message"].includes(k)).map(([k, v]) => `${k}: ${String(v)}`) })),
        contentAddress: m.contentAddress ? { ...m.contentAddress, href: `${root}${sitePaths.signing}#${anchors.signing(p.id, m.name)}` } : undefined,
        signingHref: signedMessages.has(`${p.id}/${m.name}`) ? `${root}${sitePaths.signing}#${anchors.signing(p.id, m.name)}` : undefined,
        signingKinds: [m.signature ? "signed (x-signature)" : "", m.approvalToken ? "approval token (x-approval-token)" : "", m.replay ? "single use (x-replay)" : "", m.contentAddress ? "content-addressed (x-content-address)" : ""].filter(Boolean).join(", "),
        divergences: messageDivergences(m).map((d) => ({ id: d.id, summaryHtml: inline(d.summary), ruleHtml: inline(d.rule), href: divergenceHref(page, p.id, d.id) })),
        inferredHtml: inferred === undefined ? undefined : genericHtml({ fields: inferred.fields, clients: inferred.clients }),
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
        svg: safeHtml(inlineSvg(inputs.renderSvg(lifecycleDot(l)), captionId)),
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
      }, { index: { kind: "concept", protocol: p.id, skip: ["dot"] } });
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
        extensions: Object.entries(p.extensions).map(([key, value]) => ({ key, html: safeHtml(genericHtml(value)) })),
        divergences: p.divergences.map((d) => ({ id: d.id, summaryHtml: inline(d.summary), href: divergenceHref(page, p.id, d.id) })),
        sections: p.sections.map((s) => ({ title: s.title, anchor: anchors.section(s.title), items: s.coveredBy.map((item) => ({ item, href: coverageHref(item) })) })),
        conformance: (inputs.conformance[p.id] ?? []).map((f) => ({ ...f, anchor: anchorId("conformance", f.file), descriptionHtml: inline(f.description), cases: f.cases.map((c) => ({ ...c, descriptionHtml: inline(c.description), tags: c.tags.join(", ") })) })),
        conformanceCount: (inputs.conformance[p.id] ?? []).reduce((n, f) => n + f.cases.length, 0),
        hasConformance: (inputs.conformance[p.id] ?? []).length > 0,
        signingHref: p.messages.some((m) => signedMessages.has(`${p.id}/${m.name}`)) ? root + sitePaths.signing : undefined,
        playgroundHref: inputs.playgrounds[p.id] === undefined ? undefined : root + sitePaths.playground(p.id),
        // Lists of names (each indexed on its own) and the coverage table stay out of the prose index.
      }, { nav: { group: "Protocols" }, index: { kind: "concept", protocol: p.id, skip: ["messages", "lifecycles", "constants", "routes", "conformance", "coverage"] } });
      search.push({ t: p.title, k: "protocol", p: p.id, u: page, d: summaryOf(p.summary) });
    }
  }
}
