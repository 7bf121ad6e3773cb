// Where each file the docs build reads comes from, so that `agent-contracts docs` works from an
// installed CLI for a user's own spec project as it does in a checkout (issue 17):
// - the site's own files (docs-site/templates, docs-site/assets, typedoc's compiler options in
//   generators/targets/docs/typedoc.tsconfig.json): from the project when it has them (a checkout
//   of agent-contracts), else from the installed package (package.json "files" ships them);
// - the spec (spec/), the bindings generated from it (generated/ts: the API reference and the
//   bindings' own error messages; the Maven coordinates come from spec/project.yaml) and the git
//   history (the spec changelog): from the project;
// - pages whose inputs only a project can have: docs-site/bench/*.md (the Performance page, which
//   `make bench` writes in a checkout of agent-contracts): from the project, when it has them;
// - docs-site/guides/*.md (hand-written guides to the bindings the CLI generates): the CLI's own
//   (package.json "files" ships them), plus the project's, which replace the CLI's of the same name.
// A page or a part of one left out for want of its inputs is named in a notice, never dropped
// silently: `agent-contracts docs` prints each on stderr (and says so in its --help).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_HOME } from "../../write/generator-home.mjs";

/** The Performance page's sources, in the order the page shows them. */
export const BENCH_PAGES = ["latest.md", "kotlin.md", "swift.md", "rust.md"] as const;

/**
 * The folder the site's templates and assets come from, for a build of `root`: the project when it
 * has both (a checkout of agent-contracts, or a project with its own), else the CLI's package.
 */
export function docsHome(root: string): string {
  const has = (path: string) => existsSync(join(root, "docs-site", path));
  return has("templates/layout.hbs") && has("assets") ? root : PACKAGE_HOME;
}

const TYPEDOC_OPTIONS = join("generators", "targets", "docs", "typedoc.tsconfig.json");

/** The entry points typedoc documents: the project's generated TS package (those that exist). */
export function typedocEntryPoints(root: string, protocols: string[]): string[] {
  const ts = join(root, "generated", "ts");
  return ["index.d.ts", ...protocols.map((p) => `${p}/index.d.ts`), "runtime/index.d.ts"].map((f) => join(ts, f)).filter((f) => existsSync(f));
}

/**
 * A tsconfig for typedoc over `root`'s generated/ts: the compiler options of typedoc.tsconfig.json
 * (the project's in a checkout, else the CLI's) with an absolute include, written to a temporary folder (a user's
 * project is read, never written, except for --out). The caller removes `dir`.
 */
export function typedocTsconfig(root: string): { dir: string; path: string } {
  const options = existsSync(join(root, TYPEDOC_OPTIONS)) ? join(root, TYPEDOC_OPTIONS) : join(PACKAGE_HOME, TYPEDOC_OPTIONS);
  const shipped = JSON.parse(readFileSync(options, "utf8")) as { compilerOptions: object };
  const dir = mkdtempSync(join(tmpdir(), "agent-contracts-typedoc-"));
  const path = join(dir, "tsconfig.json");
  writeFileSync(path, JSON.stringify({ compilerOptions: shipped.compilerOptions, include: [join(root, "generated", "ts", "**", "*.d.ts")] }, null, 2) + "\n");
  return { dir, path };
}

/** The one-line notices for what `root` lacks; each names the page or part left out and how to get it. */
export const notices = {
  noApi: (root: string) => `left out: the API reference (api/): ${join(root, "generated/ts")} has no index.d.ts; run \`agent-contracts generate\` in the project first`,
  noBindings: (root: string, why: string) => `left out: the bindings' own error messages on the message pages (each invalid example shows its expected error only): ${join(root, "generated/ts/index.js")} ${why}`,
  noBench: (root: string) => `left out: the Performance page (performance.html): ${join(root, "docs-site/bench")} has none of ${BENCH_PAGES.join(", ")} (\`make bench\` writes them in a checkout of agent-contracts)`,
  noCompatibility: (root: string) => `left out: the Compatibility page (guides/compatibility.html): ${join(root, "docs-site/compatibility")} has no *.json conformance result file (\`agent-contracts conformance <protocol> --url URL --report FILE\` writes one)`,
  noGuides: (root: string) => `left out: guide pages (guides/*.html): neither ${join(root, "docs-site/guides")} nor the CLI's package has a *.md file (put Markdown guides there to add them)`,
  noPlayground: (reason: string) => `left out: the playground pages (<protocol>/playground.html): ${reason}`,
  noChangelog: (reason: string) => `left out: the entries of the spec changelog (spec-changelog.html says why): ${reason}`,
};
