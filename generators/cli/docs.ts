import { resolve } from "node:path";
import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { generatorRoot } from "./project.js";

export const docsCommand: Command = {
  usage: "docs [--out DIR] [--spec DIR]",
  summary: "Build the documentation site (pages, diagrams, search index, API reference).",
  help: `
Renders every protocol, message and lifecycle page from the spec, the lifecycle diagrams (WASM
Graphviz), the offline search index and the typedoc API reference of generated/ts. The site uses
relative links only: serve DIR from any base path or static file server.

Options:
  --out DIR   Output folder, relative to the current folder (default: the project's
              docs-site/dist). It is replaced; a non-empty folder the docs build did not write
              is refused.
  --spec DIR  The project to document: a checkout of agent-contracts (default: the nearest one at or
              above the current folder, else the CLI's own).`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--out", "--spec"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    // --out is the user's path, from the folder they stand in; the default is the project's own.
    const outFlag = flags.get("--out");
    const out = typeof outFlag === "string" ? resolve(io.root, outFlag) : "docs-site/dist";
    let result;
    try {
      const { buildDocs } = await import("../targets/docs/build.js");
      result = await buildDocs(generatorRoot(io.root, flags.get("--spec"), "docs"), out);
    } catch (error) {
      io.err(`agent-contracts docs: ${(error as Error).message}`);
      return 2;
    }
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      return 1;
    }
    const total = Object.values(result.timings).reduce((a, b) => a + b, 0);
    io.out(`docs: ${result.files} files and ${result.apiFiles} API reference files in ${result.outDir} (${(total / 1000).toFixed(1)} s: ${Object.entries(result.timings).map(([k, v]) => `${k} ${v} ms`).join(", ")})`);
    return 0;
  },
};
