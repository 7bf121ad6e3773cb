// The docs emitter without a browser: which pages exist, that every link is relative and lands on
// a file and an id that exist, that spec text is escaped, that output is deterministic, and the
// static server the browser test and `make docs-serve` use.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, posix, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { collectInputs } from "../../generators/targets/docs/build.js";
import { lifecycleDot } from "../../generators/targets/docs/dot.js";
import { emitDocsSite, type DocsInputs, type SiteFile } from "../../generators/targets/docs/emit.js";
import { escapeHtml, prose } from "../../generators/targets/docs/html.js";
import { anchorId, rootOf, sitePaths } from "../../generators/targets/docs/paths.js";
import { startStaticServer } from "../../generators/targets/docs/serve.js";
import { projectFacts } from "../../generators/targets/docs/pages-site.js";
import { workedVectors } from "../../generators/targets/docs/signing-view.js";
import type { Lifecycle } from "../../generators/model/lifecycle.js";
import { RUNTIME_CONTRACT } from "../../generators/emit/runtime-contract.js";
import type { Model } from "../../generators/model/types.js";
import { loadModel } from "../../generators/pipeline.js";

const ROOT = resolve(import.meta.dirname, "../..");
let model: Model;
let inputs: DocsInputs;
let site: SiteFile[];
let byPath: Map<string, string>;

const decode = (s: string) => s.replace(/&#x3D;/g, "=").replace(/&#61;/g, "=").replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#x27;/g, "'");

beforeAll(async () => {
  const loaded = loadModel(ROOT);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
  model = loaded.model;
  // A stand-in API map, as typedoc would give it, so the message pages link into api/.
  const apiLinks: Record<string, string> = {};
  for (const p of model.protocols) for (const m of p.messages) apiLinks[`${p.id}/${m.name}`] = `interfaces/${p.id}.${m.name}.html`;
  inputs = await collectInputs(ROOT, model, apiLinks);
  site = emitDocsSite(model, inputs);
  byPath = new Map(site.map((f) => [f.path, f.contents]));
});

describe("emitDocsSite", () => {
  it("renders the breaking-change pages with the site layout and lists them in every page's navigation", async () => {
    const { breakingBodies } = await import("../../generators/targets/docs/spec-changelog.js");
    const withBreaking = new Map(emitDocsSite(model, { ...inputs, breaking: breakingBodies({ available: false, reason: "no history here" }) }).map((f) => [f.path, f.contents]));
    expect(withBreaking.get(sitePaths.breakingRules)).toContain('id="WIRE_PATTERN_CHANGED"');
    expect(withBreaking.get(sitePaths.specChangelog)).toContain("no history here");
    for (const [path, html] of withBreaking) {
      if (!path.endsWith(".html")) continue;
      expect(html, path).toContain(`href="${rootOf(path)}${sitePaths.breakingRules}"`);
      expect(html, path).toContain(`href="${rootOf(path)}${sitePaths.specChangelog}"`);
    }
    expect(byPath.has(sitePaths.specChangelog)).toBe(false); // without the input, neither page nor link
  });

  it("writes a page for every protocol, message and lifecycle, plus the site pages", () => {
    for (const p of model.protocols) {
      expect(byPath.has(sitePaths.protocol(p.id))).toBe(true);
      for (const m of p.messages) expect(byPath.has(sitePaths.message(p.id, m.name)), m.name).toBe(true);
      for (const l of p.lifecycles as Lifecycle[]) expect(byPath.has(sitePaths.lifecycle(p.id, l.name)), l.name).toBe(true);
    }
    for (const page of [sitePaths.home, sitePaths.common, sitePaths.signing, sitePaths.interop, sitePaths.search, sitePaths.searchIndex, "assets/site.css", "assets/search.js"]) {
      expect(byPath.has(page), page).toBe(true);
    }
    expect(site.every((f) => !f.path.startsWith("/") && !f.path.includes(".."))).toBe(true);
  });

  it("has a hostile-input page with one row per input class of the security review (issue 15)", () => {
    const page = byPath.get(sitePaths.limits) ?? "";
    const rows = [...page.matchAll(/<tr><td>([^<]+)<\/td>/g)].map((m) => m[1]);
    for (const inputClass of ["Malformed JSON", "Byte order mark", "Invalid UTF-8", "Surrogates", "Duplicate keys", "Huge numbers", "Deep nesting", "50 MB inputs"]) {
      expect(rows, inputClass).toContain(inputClass);
    }
    // The hostile servers of the review, one row per failure the conformance kit reports.
    for (const code of ["idle-timeout", "deadline-exceeded", "body-too-large", "sse-event-too-large", "expectation-failed", "connection-error", "[redacted]"]) expect(page, code).toContain(code);
    expect(rows.filter((r) => r?.startsWith("Hostile servers: ")).length).toBe(7);
    expect(page).toContain("too-deep");
    expect(page).not.toMatch(/TODO|TBD/);
    expect(byPath.get(sitePaths.signing)).toContain("integers-beyond-2-53");
  });

  it("has a Runtime contract page: the parity table, one row per contract function and its symbol in each language", () => {
    const page = byPath.get(sitePaths.runtime) ?? "";
    const rows = [...page.matchAll(/<tr><td><code>([^<]+)<\/code><\/td>(.*?)<\/tr>/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(rows.map(([name]) => name)).toEqual(RUNTIME_CONTRACT.map((e) => e.name));
    // Written by hand from the four runtimes' sources.
    const canonicalize = rows.find(([name]) => name === "canonicalize")![1];
    for (const name of ["<code>canonicalize</code>", "<code>CanonicalJson.canonicalize</code>", "<code>CanonicalJSON.canonicalize</code>"]) expect(canonicalize).toContain(name);
    expect(rows.find(([name]) => name === "appendAuditEntry")![1]).toContain("<code>AuditChain.appendAuditEntry</code>");
    expect(rows.find(([name]) => name === "mintApprovalToken")![1]).toContain('<td class="gap">—</td>');
    expect(page.match(/class="gap"/g)?.length ?? 0).toBe(RUNTIME_CONTRACT.flatMap((e) => [e.ts, e.kotlin, e.swift, e.rust]).filter((s) => s === null).length);
  });

  it("links only relatively, to files and ids that exist", () => {
    const ids = new Map<string, Set<string>>();
    for (const [path, html] of byPath) if (path.endsWith(".html")) ids.set(path, new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1]!))));
    const problems: string[] = [];
    let links = 0;
    for (const [path, html] of byPath) {
      if (!path.endsWith(".html")) continue;
      for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
        const raw = decode(match[1]!);
        links++;
        if (raw.startsWith("data:")) continue;
        if (/^(\/|[a-z][a-z0-9+.-]*:)/i.test(raw)) {
          problems.push(`${path}: absolute link ${raw}`);
          continue;
        }
        const [target = "", fragment = ""] = raw.split("#");
        const file = target === "" ? path : posix.normalize(posix.join(posix.dirname(path), target.split("?")[0]!));
        if (file.startsWith("api/")) continue; // typedoc output, checked by the browser test
        if (!byPath.has(file)) problems.push(`${path}: ${raw} -> missing ${file}`);
        else if (fragment !== "" && !ids.get(file)?.has(fragment)) problems.push(`${path}: ${raw} -> no id ${fragment} in ${file}`);
      }
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(2000);
  });

  it("every page has one h1, a lang, a title, a main landmark and unique ids", () => {
    for (const [path, html] of byPath) {
      if (!path.endsWith(".html")) continue;
      expect(html.match(/<h1[\s>]/g)?.length, path).toBe(1);
      expect(html).toContain('<html lang="en">');
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toContain('<main id="main"');
      const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
      const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
      expect(dupes, path).toEqual([]);
    }
  });

  it("escapes everything that comes from the spec", () => {
    const evil = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
    const m2 = structuredClone(model);
    const p = m2.protocols[0]!;
    p.summary = evil;
    p.messages[0]!.description = evil;
    p.constants[0]!.items[0]!.value = evil;
    p.constants[0]!.items[0]!.description = evil;
    const firstProps = p.messages.find((m) => m.schema.properties)!.schema.properties as Record<string, Record<string, unknown>>;
    firstProps[Object.keys(firstProps)[0]!]!.description = evil;
    (p.lifecycles as Lifecycle[])[0]!.states[0]!.description = evil;
    p.messages[0]!.examples = [{ note: evil }];
    const out = emitDocsSite(m2, inputs);
    for (const f of out) {
      if (!f.path.endsWith(".html")) continue;
      expect(f.contents, f.path).not.toContain("<script>alert");
      expect(f.contents, f.path).not.toContain("<img src=x");
    }
    const home = out.find((f) => f.path === sitePaths.home)!.contents;
    expect(home).toContain("&lt;script&gt;alert(");
    const index = out.find((f) => f.path === sitePaths.searchIndex)!.contents;
    expect(() => JSON.parse(index)).not.toThrow();
  });

  it("is deterministic", () => {
    const again = emitDocsSite(model, inputs);
    expect(again.map((f) => f.path)).toEqual(site.map((f) => f.path));
    for (let i = 0; i < site.length; i++) expect(again[i]!.contents === site[i]!.contents, site[i]!.path).toBe(true);
  });

  it("indexes messages, fields, lifecycles, constants, guide and concept sections for search", () => {
    // MiniSearch's serialized index keeps each entry's stored fields by its short id.
    const file = JSON.parse(byPath.get(sitePaths.searchIndex)!) as { index: { storedFields: Record<string, { t: string; k: string; p: string; u: string }> } };
    const index = Object.values(file.index.storedFields);
    const kinds = new Set(index.map((e) => e.k));
    for (const k of ["message", "field", "lifecycle", "constant", "guide", "concept"]) expect(kinds.has(k), k).toBe(true);
    expect(index).toContainEqual(expect.objectContaining({ t: "When a signature does not verify", k: "concept", u: "signing.html#verification-errors" }));
    expect(index).toContainEqual(expect.objectContaining({ t: "ActionProposal", k: "message", u: "agent-provider/messages/ActionProposal.html" }));
    expect(index.some((e) => e.t === "ActionProposal.request_id" && e.k === "field")).toBe(true);
    expect(index.some((e) => e.t === "AndroidIntentActions.HANDLE_PROPOSAL" && e.k === "constant")).toBe(true);
  });

  it("the search index is the same whatever the changelog's git-derived entries are (a copy without history builds the same index)", () => {
    const indexWith = (changelog: string) => emitDocsSite(model, { ...inputs, breaking: { rules: "<h2 id=\"r\">Rules</h2><p>a rule</p>", changelog } }).find((f) => f.path === sitePaths.searchIndex)!.contents;
    const withHistory = indexWith('<h2 id="c1">2026-12-01 abc123 spec: request_id capped</h2><p>WIRE finding</p>');
    expect(withHistory).toBe(indexWith("<p>git history is not available here</p>"));
    expect(withHistory).toContain("Spec changelog");
  });

  it("the signing page lists every hmac-sha256-v1 error code of the TS runtime, in its order", () => {
    const source = readFileSync(join(ROOT, "generators/targets/ts/runtime/src/signing-hmac-v1.ts"), "utf8");
    const codes = [.../export type HmacV1ErrorCode =([^;]+);/.exec(source)![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    const page = byPath.get(sitePaths.signing)!;
    const table = page.slice(page.indexOf('id="verification-errors"'), page.indexOf('id="replay"'));
    expect([...table.matchAll(/<th scope="row"><code>([^<]+)<\/code>/g)].map((m) => m[1])).toEqual(codes);
    expect(codes.length).toBeGreaterThan(5);
  });

  it("guides get spec/project.yaml's facts; an unknown one is an error naming the guide", () => {
    expect(projectFacts("v{{project.version}} of {{ project.packages.maven.artifactId }}", model.project, "g.md")).toBe(`v${model.project.version} of ${model.project.packages.maven.artifactId}`);
    expect(() => projectFacts("{{project.colour}}", model.project, "docs-site/guides/x.md")).toThrow("docs-site/guides/x.md: {{project.colour}} is not a text value of spec/project.yaml's project identity");
    expect(() => projectFacts("{{project.packages}}", model.project, "g.md")).toThrow("g.md: {{project.packages}}");
    expect(byPath.get(sitePaths.guide("kotlin"))).not.toContain("{{project");
  });

  it("shows the coverage table, routes and the API link", () => {
    const provider = byPath.get(sitePaths.protocol("agent-provider"))!;
    expect(provider).toContain('class="coverage"');
    expect(provider).toContain("agent.provider.action.HANDLE_PROPOSAL");
    for (const p of model.protocols) {
      // Every "kind:ref" a section is covered by resolves to a link.
      expect(byPath.get(sitePaths.protocol(p.id))!, p.id).not.toMatch(/<li><code>[^<]*<\/code><\/li>/);
    }
    const service = byPath.get(sitePaths.protocol("agent-service"))!;
    expect(service).toMatch(/<code>POST \/v1\/workflow\/full<\/code>/);
    const proposal = byPath.get(sitePaths.message("agent-provider", "ActionProposal"))!;
    expect(proposal).toContain('href="../../api/interfaces/agent-provider.ActionProposal.html"');
    expect(proposal).toContain("dev.agentcontracts.agentprovider.ActionProposal");
    expect(proposal).toContain("AgentContracts.AgentProvider.ActionProposal");
    // The names the snippets use are the ones the Kotlin and Swift emitters really wrote.
    const kotlin = readFileSync(`${ROOT}/generated/kotlin/src/main/kotlin/dev/agentcontracts/agentprovider/AgentProviderValidators.kt`, "utf8");
    expect(kotlin).toContain("package dev.agentcontracts.agentprovider");
    expect(kotlin).toContain("fun parseActionProposal(bytes: ByteArray)");
    const swift = readFileSync(`${ROOT}/generated/swift/Sources/AgentContracts/AgentProvider/AgentProviderMessages.swift`, "utf8");
    expect(swift).toMatch(/extension AgentProvider \{[\s\S]*struct ActionProposal\b/);
  });

  it("lists every divergence the spec records on the interoperability page", () => {
    const interop = byPath.get(sitePaths.interop)!;
    for (const p of model.protocols) {
      for (const d of p.divergences) expect(interop, d.id).toContain(`<code>${escapeHtml(d.id)}</code>`);
      for (const m of p.messages) for (const d of m.divergences) expect(interop, d.id).toContain(`<code>${escapeHtml(d.id)}</code>`);
      for (const l of p.lifecycles as Lifecycle[]) for (const d of l.divergences) expect(interop, d.id).toContain(`<code>${escapeHtml(d.id)}</code>`);
    }
  });
});

describe("optional inputs", () => {
  it("adds a performance page when docs-site/bench/latest.md exists, and lists conformance cases", () => {
    const out = emitDocsSite(model, {
      ...inputs,
      bench: "# Bench\n\n| op | ops/s |\n|---|---|\n| validate | 100 |\n\n<script>alert(1)</script>\n",
      conformance: { "agent-provider": [{ file: "spec/agent-provider/conformance/cases.yaml", title: "Cases", cases: [{ id: "case-<1>", title: "A case", tags: ["x"] }] }] },
    });
    const perf = out.find((f) => f.path === sitePaths.performance)?.contents ?? "";
    expect(perf).toContain("<table>");
    expect(perf).not.toContain("<script>alert");
    expect(out.find((f) => f.path === sitePaths.home)!.contents).toContain('href="performance.html"');
    const provider = out.find((f) => f.path === sitePaths.protocol("agent-provider"))!.contents;
    expect(provider).toContain('id="conformance"');
    expect(provider).toContain("case-&lt;1&gt;");
    // Without them: no page, no link.
    const without = emitDocsSite(model, { ...inputs, bench: undefined, conformance: {} });
    expect(without.some((f) => f.path === sitePaths.performance)).toBe(false);
    expect(without.find((f) => f.path === sitePaths.home)!.contents).not.toContain("performance.html");
    expect(without.find((f) => f.path === sitePaths.protocol("agent-provider"))!.contents).not.toContain('id="conformance"');
  });
});

describe("worked signing vectors", () => {
  it("reproduce every published signature, token and id", () => {
    const all = model.protocols.flatMap((p) => workedVectors(p, inputs.vectors[p.id] ?? {}));
    const names = all.map((v) => `${v.message}:${v.algorithm}`);
    expect(names).toEqual(expect.arrayContaining(["ActionProposal:hmac-sha256-v1", "AgentTriggerRequest:hmac-sha256-v1", "ApprovalTokenClaims:approval token", "ConnectorManifest:content address", "ConnectorPackage:content address", "AuditLogEntry:content address"]));
    const proposal = all.find((v) => v.message === "ActionProposal")!;
    expect(proposal.steps.map((s) => s.title)).toEqual(expect.arrayContaining([expect.stringMatching(/^Canonical bytes/), expect.stringMatching(/^Signing input/), expect.stringMatching(/^Signature/)]));
  });
});

describe("helpers", () => {
  it("turn spec prose into escaped HTML with code spans", () => {
    expect(prose("a `<b>` c\n\nd & e")).toBe("<p>a <code>&lt;b&gt;</code> c</p><p>d &amp; e</p>");
  });

  it("make distinct, valid ids and relative roots", () => {
    expect(anchorId("f", "a.b")).not.toBe(anchorId("f", "a-b"));
    expect(anchorId("x", "zh-CN", "a b")).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(rootOf("index.html")).toBe("");
    expect(rootOf("agent-provider/messages/X.html")).toBe("../../");
  });

  it("draw every state and transition of a lifecycle in DOT", () => {
    for (const p of model.protocols) {
      for (const l of p.lifecycles as Lifecycle[]) {
        const dot = lifecycleDot(l);
        for (const s of l.states) expect(dot).toContain(`"${s.name}" [label="${s.name}"`);
        expect(dot.match(/ -> /g)?.length).toBe(l.transitions.length + 1);
      }
    }
  });
});

describe("static server", () => {
  it("serves under the base path only, with folder index and no way out of the folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-serve-"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "index.html"), "<h1>home</h1>");
    writeFileSync(join(dir, "sub", "index.html"), "<h1>sub</h1>");
    const server = await startStaticServer(dir, { base: "/a/b" });
    const get = (path: string) =>
      new Promise<{ status: number; location?: string; body: string }>((ok, fail) => {
        const url = new URL(server.url);
        const req = request({ host: url.hostname, port: url.port, path, method: "GET" }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => ok({ status: res.statusCode ?? 0, location: res.headers.location, body }));
        });
        req.on("error", fail);
        req.end();
      });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a\/b\/$/);
      expect((await get("/a/b/")).body).toContain("home");
      expect((await get("/a/b/sub/")).body).toContain("sub");
      expect((await get("/a/b/sub")).location).toBe("/a/b/sub/");
      expect((await get("/a/b")).location).toBe("/a/b/");
      expect((await get("/index.html")).status).toBe(404);
      expect((await get("/a/b/missing.html")).status).toBe(404);
      expect((await get("/a/b/%2e%2e/%2e%2e/etc/passwd")).status).toBe(404);
      expect((await get("/a/b/..%2f..%2fetc%2fpasswd")).status).toBe(404);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
