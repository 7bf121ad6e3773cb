// The docs build: everything emitDocsSite needs that is not in the model (templates, assets,
// vectors, the schema files' text, the bindings' own error messages, optional bench and
// conformance data), WASM Graphviz for the diagrams, typedoc for api/, then the files on disk.
// Run with `agent-contracts docs [--out DIR]` (make docs) or `npx tsx generators/targets/docs/build.ts`.
// Which of those files come from the project and which from the CLI's package: project-files.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { parse as parseYaml } from "yaml";
import { loadModel } from "../../pipeline.js";
import type { JsonValue, Model, SpecError } from "../../model/types.js";
import { emitDocsSite, type ConformanceFile, type DocsInputs, type SiteFile } from "./emit.js";
import { COMPATIBILITY_GUIDE, compatibilityMarkdown } from "./compatibility.js";
import { readReportFile, type ConformanceReport } from "../../conformance/report.js";
import { BENCH_PAGES, docsHome, notices as notice, typedocEntryPoints, typedocTsconfig } from "./project-files.js";
import { PACKAGE_HOME } from "../../write/generator-home.mjs";
import { playgroundBundles } from "./playground-bundle.js";

/** Written into the output folder so a later build knows it may replace the folder. */
export const DIST_MARKER = ".agent-contracts-docs";

export interface DocsBuildResult {
  ok: true;
  outDir: string;
  files: number;
  apiFiles: number;
  timings: Record<string, number>;
  /** One line per page or part of a page left out because the project lacks its inputs (project-files.ts). */
  notices: string[];
}

export type DocsBuildOutcome = DocsBuildResult | { ok: false; errors: SpecError[] };

export async function buildDocs(root: string, outDir: string, options: { api?: boolean } = {}): Promise<DocsBuildOutcome> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    timings[name] = Math.round(now - t);
    t = now;
  };
  const loaded = loadModel(root);
  if (!loaded.ok) return loaded;
  const { model } = loaded;
  lap("model");

  const out = resolve(root, outDir);
  prepareOutDir(out);

  const notices: string[] = [];
  let apiFiles = 0;
  let apiLinks: Record<string, string> = {};
  if (options.api !== false) {
    if (typedocEntryPoints(root, []).length === 0) notices.push(notice.noApi(root));
    else {
      const api = await runTypedoc(root, model, join(out, "api"));
      apiFiles = api.files;
      apiLinks = api.links;
    }
  }
  lap("typedoc");

  const inputs = await collectInputs(root, model, apiLinks, notices);
  lap("inputs");
  // The changelog runs `breaking` over the spec's git history: here, not in collectInputs, which tests share.
  const files = emitDocsSite(model, { ...inputs, breaking: await breakingInputs(root, notices) });
  lap("render");
  writeSite(out, files);
  lap("write");
  return { ok: true, outDir: out, files: files.length, apiFiles, timings, notices };
}

/** docs-site/compatibility/*.json in name order; a file that is not a conformance report stops the build, naming it. */
function readCompatibilityReports(root: string): { file: string; report: ConformanceReport }[] {
  const dir = join(root, "docs-site", "compatibility");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: `docs-site/compatibility/${f}`, report: readReportFile(join(dir, f), `docs-site/compatibility/${f}`) }));
}

/** Everything emitDocsSite needs besides the model; what `root` lacks is added to `notices`. */
export async function collectInputs(root: string, model: Model, apiLinks: Record<string, string>, notices: string[] = []): Promise<DocsInputs> {
  const home = docsHome(root);
  const { Graphviz } = await import("@hpcc-js/wasm-graphviz");
  const graphviz = await Graphviz.load();
  const markdown = await loadMarkdown(notices);
  // The TypeScript results, then the Kotlin and Swift pages `make bench` writes beside them.
  const benchPages = BENCH_PAGES.map((name) => join(root, "docs-site/bench", name)).filter((path) => existsSync(path));
  if (benchPages.length === 0) notices.push(notice.noBench(root));
  const guides = guideFiles(root);
  if (guides.length === 0) notices.push(notice.noGuides(root));
  const compatibility = compatibilityMarkdown(readCompatibilityReports(root));
  if (compatibility === undefined) notices.push(notice.noCompatibility(root));
  else guides.push({ name: COMPATIBILITY_GUIDE, title: "Compatibility", markdown: compatibility });
  guides.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    templates: readFolder(join(home, "docs-site/templates"), ".hbs"),
    assets: readFolder(join(home, "docs-site/assets"), ""),
    renderSvg: (dot) => graphviz.dot(dot, "svg"),
    renderMarkdown: markdown,
    vectors: readVectors(root, model),
    sources: Object.fromEntries(model.protocols.flatMap((p) => p.messages.map((m) => [m.location.file, readFileSync(join(root, m.location.file), "utf8")]))),
    apiLinks,
    bindingErrors: await bindingErrors(root, model, notices),
    bench: benchPages.length > 0 ? benchPages.map((path) => readFileSync(path, "utf8")).join("\n") : undefined,
    guides,
    changelog: await changelogInput(root, notices),
    conformance: readConformance(root, model),
    algorithmNotes: algorithmNotes(root),
    kotlin: kotlinCoordinates(model),
    searchLibrary: searchLibrary(),
    playgrounds: await playgrounds(root, model, notices),
  };
}

/** The changelog from releases.json and the release bundles; a project whose releases cannot be read gets a notice, not a page. */
async function changelogInput(root: string, notices: string[]): Promise<string | undefined> {
  const { changelogMarkdown, specChangelogFromReleases, ChangelogError } = await import("../../breaking/changelog.js");
  const { ReleaseError } = await import("../../breaking/release.mjs");
  try {
    return changelogMarkdown(specChangelogFromReleases(root));
  } catch (error) {
    if (!(error instanceof ChangelogError) && !(error instanceof ReleaseError)) throw error;
    notices.push(`left out: the changelog page: ${error.message}`);
    return undefined;
  }
}

/** The breaking-change pages, from the project's git history (the page says when there is none). */
async function breakingInputs(root: string, notices: string[]): Promise<DocsInputs["breaking"]> {
  const { breakingBodies, specChangelog } = await import("./spec-changelog.js");
  const changelog = specChangelog(root);
  if (!changelog.available) notices.push(notice.noChangelog(changelog.reason));
  return breakingBodies(changelog);
}

/**
 * The guides: the CLI's own (docs-site/guides of its package: how to use what it generates, which
 * the packed tarball ships), then the project's; a project's guide replaces the CLI's of the same
 * name. In a checkout of agent-contracts both are the same folder.
 */
function guideFiles(root: string): DocsInputs["guides"] {
  const read = (home: string) => (existsSync(join(home, "docs-site/guides")) ? readFolder(join(home, "docs-site/guides"), ".md") : {});
  const merged = { ...read(PACKAGE_HOME), ...read(root) };
  return Object.keys(merged)
    .sort()
    .map((name) => ({ name, title: /^# (.+)$/m.exec(merged[name]!)?.[1] ?? name, markdown: merged[name]! }));
}

function readFolder(dir: string, ext: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(ext) || statSync(join(dir, name)).isDirectory()) continue;
    out[ext === "" ? name : name.slice(0, -ext.length)] = readFileSync(join(dir, name), "utf8");
  }
  return out;
}

function readVectors(root: string, model: Model): DocsInputs["vectors"] {
  const out: DocsInputs["vectors"] = {};
  for (const id of ["common", ...model.protocols.map((p) => p.id)]) {
    const dir = join(root, "spec", id, "vectors");
    if (!existsSync(dir)) continue;
    out[id] = {};
    for (const name of readdirSync(dir).sort()) if (name.endsWith(".json")) out[id]![name] = JSON.parse(readFileSync(join(dir, name), "utf8")) as JsonValue;
  }
  return out;
}

/** spec/<protocol>/conformance/: each JSON or YAML file and the names of its cases, if it has any. */
function readConformance(root: string, model: Model): Record<string, ConformanceFile[]> {
  const out: Record<string, ConformanceFile[]> = {};
  for (const p of model.protocols) {
    const dir = join(root, "spec", p.id, "conformance");
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    const files: ConformanceFile[] = [];
    const walk = (rel: string): void => {
      for (const name of readdirSync(join(dir, rel)).sort()) {
        const relName = rel === "" ? name : `${rel}/${name}`;
        if (statSync(join(dir, relName)).isDirectory()) {
          walk(relName);
          continue;
        }
        if (!/\.(json|ya?ml)$/.test(name)) continue;
        let doc: unknown;
        try {
          const text = readFileSync(join(dir, relName), "utf8");
          doc = name.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
        } catch {
          doc = undefined;
        }
        const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
        const top = record(doc);
        const head = record(top.suite ?? top);
        const list = Array.isArray(doc) ? doc : Array.isArray(top.cases) ? top.cases : [];
        const text = (v: unknown) => (typeof v === "string" ? v : undefined);
        const cases = list.map(record).map((c, i) => ({
          id: String(c.id ?? c.name ?? `case ${i + 1}`),
          title: text(c.title),
          description: text(c.description),
          tags: Array.isArray(c.tags) ? c.tags.map(String) : [],
        }));
        files.push({ file: `spec/${p.id}/conformance/${relName}`, title: text(head.title), description: text(head.description), cases });
      }
    };
    walk("");
    files.sort((a, b) => Number(b.file.endsWith("/suite.yaml")) - Number(a.file.endsWith("/suite.yaml")));
    if (files.length > 0) out[p.id] = files;
  }
  return out;
}

/** The meta-schemas' own words for each algorithm, shown above its worked vectors. */
function algorithmNotes(root: string): Record<string, string> {
  // A project made by `init` has no spec/meta: its meta-schemas are the CLI's (load/load-spec.ts).
  const metaRoot = existsSync(join(root, "spec/meta")) ? root : PACKAGE_HOME;
  const read = (file: string): { $defs?: Record<string, { description?: string }> } => JSON.parse(readFileSync(join(metaRoot, "spec/meta", file), "utf8"));
  const signing = read("signing.schema.json").$defs ?? {};
  const message = read("message.schema.json").$defs ?? {};
  const notes: Record<string, string> = {};
  const put = (name: string, text: string | undefined) => {
    if (text) notes[name] = text;
  };
  put("hmac-sha256-v1", signing.Signature?.description);
  put("approval token", signing.ApprovalToken?.description);
  put("content address", message.ContentAddress?.description);
  put("replay", signing.Replay?.description);
  return notes;
}

/** The playground bundles; when they cannot be built the pages are left out, with a notice. */
async function playgrounds(root: string, model: Model, notices: string[]): Promise<DocsInputs["playgrounds"]> {
  const built = await playgroundBundles(root, model);
  if (!built.ok) {
    notices.push(notice.noPlayground(built.reason));
    return {};
  }
  return built.bundles;
}

/** MiniSearch's browser build and licence, from the installed npm package (a dependency of the CLI). */
function searchLibrary(): DocsInputs["searchLibrary"] {
  const home = resolve(dirname(createRequire(import.meta.url).resolve("minisearch")), "../..");
  return { code: readFileSync(join(home, "dist/umd/index.js"), "utf8"), license: readFileSync(join(home, "LICENSE.txt"), "utf8") };
}

/** The Kotlin bindings' Maven coordinates: spec/project.yaml's, which the generated pom.xml also carries. */
function kotlinCoordinates(model: Model): DocsInputs["kotlin"] {
  const { groupId, artifactId } = model.project.packages.maven;
  return { groupId, artifactId, version: model.version };
}

/** What the generated TS bindings say about each invalid example: the message the reader will see. */
async function bindingErrors(root: string, model: Model, notices: string[]): Promise<DocsInputs["bindingErrors"]> {
  const out: DocsInputs["bindingErrors"] = {};
  const entry = join(root, "generated/ts/index.js");
  if (!existsSync(entry)) {
    notices.push(notice.noBindings(root, "is missing; run `agent-contracts generate` in the project first"));
    return out;
  }
  let validateMessage: (protocol: string, name: string, value: unknown) => { ok: boolean; errors?: { instancePath: string; keyword: string; message: string }[] };
  try {
    ({ validateMessage } = (await import(pathToFileURL(entry).href)) as { validateMessage: typeof validateMessage });
  } catch (error) {
    // Typically its dependencies (ajv) are not installed where the project sits.
    notices.push(notice.noBindings(root, `does not load (${(error as Error).message.split("\n")[0]}); install the bindings' dependencies (npm install ajv ajv-formats in the project)`));
    return out;
  }
  for (const p of model.protocols) {
    for (const m of p.messages) {
      m.invalidExamples.forEach((example, i) => {
        try {
          const result = validateMessage(p.id, m.name, example.instance);
          const first = result.ok ? undefined : result.errors?.[0];
          if (first) out[`${p.id}/${m.name}/${i}`] = { instancePath: first.instancePath, keyword: first.keyword, message: first.message };
        } catch {
          // A message the bindings do not know yet: show the expected error only.
        }
      });
    }
  }
  return out;
}

async function loadMarkdown(notices: string[]): Promise<(markdown: string) => string> {
  try {
    const specifier = "markdown-it";
    const mod = (await import(specifier)) as { default: new (options: object) => { render(text: string): string } };
    const md = new mod.default({ html: false, linkify: false, typographer: false });
    return (text) => md.render(text);
  } catch {
    notices.push("left out: Markdown formatting of the guide and Performance pages (markdown-it does not load; they show the Markdown text)");
    const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return (text) => `<pre>${escape(text)}</pre>`;
  }
}

/** typedoc over the project's generated/ts into `dir`; returns "<protocol>/<Type>" -> page path under api/. */
async function runTypedoc(root: string, model: Model, dir: string): Promise<{ files: number; links: Record<string, string> }> {
  const { Application, LogLevel } = await import("typedoc");
  const tsconfig = typedocTsconfig(root);
  try {
    const app = await Application.bootstrapWithPlugins({
      entryPoints: typedocEntryPoints(root, model.protocols.map((p) => p.id)),
      tsconfig: tsconfig.path,
      skipErrorChecking: true,
      disableSources: true,
      readme: "none",
      name: model.project.packages.npm,
      githubPages: false,
      logLevel: LogLevel.Warn,
      validation: { notExported: false, invalidLink: false, rewrittenLink: false },
    });
    const project = await app.convert();
    if (!project) throw new Error("typedoc could not convert generated/ts");
    await app.generateDocs(project, dir);
  } finally {
    rmSync(tsconfig.dir, { recursive: true, force: true });
  }
  const links: Record<string, string> = {};
  for (const p of model.protocols) {
    for (const m of p.messages) {
      for (const folder of ["interfaces", "types", "classes", "variables"]) {
        const rel = `${folder}/${p.id}.${m.name}.html`;
        if (existsSync(join(dir, rel))) {
          links[`${p.id}/${m.name}`] = rel;
          break;
        }
      }
    }
  }
  return { files: countFiles(dir), links };
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir)) n += statSync(join(dir, name)).isDirectory() ? countFiles(join(dir, name)) : 1;
  return n;
}

/** Empties the output folder, refusing one that holds files this build did not write. */
function prepareOutDir(out: string): void {
  if (existsSync(out)) {
    const entries = readdirSync(out);
    if (entries.length > 0 && !entries.includes(DIST_MARKER)) {
      throw new Error(`${out} is not empty and was not written by the docs build; refusing to replace it`);
    }
    rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, DIST_MARKER), "Built by agent-contracts docs; the whole folder is replaced on every build.\n");
}

function writeSite(out: string, files: SiteFile[]): void {
  for (const file of files) {
    const path = join(out, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
}

// `npx tsx generators/targets/docs/build.ts [outDir]`
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), "../../..");
  const result = await buildDocs(root, process.argv[2] ?? "docs-site/dist");
  if (!result.ok) {
    for (const e of result.errors) console.error(`${e.file}:${e.line}:${e.column} ${e.pointer} ${e.message} [${e.lint}]`);
    process.exitCode = 1;
  } else {
    console.log(`docs: ${result.files} files + ${result.apiFiles} API files in ${result.outDir} (${JSON.stringify(result.timings)})`);
  }
}
