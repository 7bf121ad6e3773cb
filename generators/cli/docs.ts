import { resolve } from "node:path";
import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { findSpecRoot, isCheckout } from "./project.js";
import { useBatchTiering } from "./batch-tiering.js";

export const docsCommand: Command = {
  usage: "docs [--out DIR] [--spec DIR]",
  summary: "Build the documentation site (pages, diagrams, search index, API reference).",
  help: `
Renders every protocol, message and lifecycle page from the spec, the lifecycle diagrams (WASM
Graphviz), the offline search index (MiniSearch), a playground page per protocol and the typedoc
API reference of the project's generated/ts.
The site uses relative links only: serve DIR from any base path or static file server.

Options:
  --out DIR   Output folder, relative to the current folder (default: the project's
              docs-site/dist). It is replaced; a non-empty folder the docs build did not write
              is refused.
  --spec DIR  The project to document: the folder holding spec/ (with project.yaml or meta/), or spec/ itself
              (default: the nearest one at or above the current folder, else the CLI's own).

Any spec project works, a checkout of agent-contracts or not: the templates and assets come from
the project when it has docs-site/templates, else from this CLI. What only some projects have is
read from the project when it is there and otherwise left out, with one line on stderr per part
left out ("docs: left out: ..."):
  generated/ts          the API reference (api/), the bindings' own error messages on the
                        message pages and the playground pages (the bindings bundled for the
                        browser): run \`agent-contracts generate\` first (and install ajv and
                        ajv-formats where the project sits, for the error messages)
  docs-site/bench/*.md  the Performance page (latest.md, kotlin.md, swift.md, rust.md:
                        \`make bench\` in a checkout of agent-contracts writes them)
  docs-site/guides/*.md hand-written guide pages, besides the guides this CLI ships (a
                        project's guide replaces the CLI's of the same name)
  docs-site/compatibility/*.json  the Compatibility page: conformance result files
                        (\`conformance --report FILE\`) side by side
  git history of spec/  the spec changelog's entries (the page says why they are missing)`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--out", "--spec"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    // --out is the user's path, from the folder they stand in; the default is the project's own.
    const outFlag = flags.get("--out");
    const out = typeof outFlag === "string" ? resolve(io.root, outFlag) : "docs-site/dist";
    const { root, source } = findSpecRoot(io.root, flags.get("--spec"));
    // No project found: an installed CLI would otherwise write into its own package folder.
    if (source === "shipped" && !isCheckout(root)) throw new UsageError(`no spec project at or above ${io.root} (a folder whose spec/ has project.yaml or meta/): pass --spec DIR, or make one with agent-contracts init`);
    let result;
    try {
      useBatchTiering();
      const { buildDocs } = await import("../targets/docs/build.js");
      result = await buildDocs(root, out);
    } catch (error) {
      io.err(`agent-contracts docs: ${(error as Error).message}`);
      return 2;
    }
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      return 1;
    }
    for (const notice of result.notices) io.err(`docs: ${notice}`);
    const total = Object.values(result.timings).reduce((a, b) => a + b, 0);
    io.out(`docs: ${result.files} files and ${result.apiFiles} API reference files in ${result.outDir} (${(total / 1000).toFixed(1)} s: ${Object.entries(result.timings).map(([k, v]) => `${k} ${v} ms`).join(", ")})`);
    return 0;
  },
};
