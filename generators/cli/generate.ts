import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { DriftReport } from "../write/write-outputs.js";
import { formatSpecError, parseArgs, UsageError, type Command, type Io } from "./io.js";
import { findSpecRoot, isCheckout } from "./project.js";
import { useBatchTiering } from "./batch-tiering.js";
import { POLICY_LINTS } from "../model/project.js";

export const generateCommand: Command = {
  usage: "generate [--check] [--spec DIR] [--out DIR]",
  summary: "Check the spec and regenerate generated/ (with --check: fail if generated/ is out of date).",
  help: `
Options:
  --check   Write nothing; exit 1 naming every changed spec/generator file and every
            generated file that differs from a fresh generation.
  --spec DIR  The project to generate: the folder holding spec/ (with project.yaml or meta/), or spec/ itself
              (default: the nearest one at or above the current folder, else the CLI's own).
              Output goes into that project: generated/ beside spec/, and each lifecycle's
              paths suite beside it in spec/. A checkout of agent-contracts uses its own
              generators/; any other project the installed CLI's.
  --out DIR   The folder that receives what the project would (DIR/generated/, and the paths
              suites under DIR/spec/), relative to the current folder; default: the project.

Spec errors are printed as file:line:col JSON-pointer message [lint] and exit 1.

Policy lints: a repository's rules rather than the spec format's; each is off unless
spec/project.yaml switches it on (lints: { <id>: true }):
${POLICY_LINTS.map((l) => `  ${l.id.padEnd(28)} ${l.defaultOn ? "on " : "off"} by default: ${l.summary}`).join("\n")}`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--check"], valued: ["--spec", "--out"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const { root, source } = findSpecRoot(io.root, flags.get("--spec"));
    // No project found: an installed CLI would otherwise write into its own package folder.
    if (source === "shipped" && !isCheckout(root)) throw new UsageError(`no spec project at or above ${io.root} (a folder whose spec/ has project.yaml or meta/): pass --spec DIR, or make one with agent-contracts init`);
    // --out is the user's path, from the folder they stand in (as docs --out).
    const outFlag = flags.get("--out");
    const out = typeof outFlag === "string" ? resolve(io.root, outFlag) : root;
    if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${String(outFlag)}: not a folder`);
    if (!flags.has("--check")) {
      // Nothing changed since the manifest was written: skip loading and emitting entirely.
      const { generationIsUpToDate } = await import("../write/inputs.js");
      if (generationIsUpToDate(root, out)) {
        io.out("generated/ is up to date (no input changed)");
        return 0;
      }
    }
    useBatchTiering();
    const { build, check, write } = await import("../pipeline.js");
    const result = await build(root);
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      io.err(`${result.errors.length} spec error(s)`);
      return 1;
    }
    const { OutputLinkError, OutsideOutputRootError } = await import("../write/output-links.js");
    try {
      return flags.has("--check") ? checkOutputs(check(out, result.rendered, result.owned), result.rendered.size, io) : writeOutputs(write(out, result.rendered, result.owned), result.rendered.size, io);
    } catch (error) {
      if (error instanceof OutputLinkError) {
        for (const line of error.lines()) io.err(line);
        io.err(`${error.links.length} symbolic link(s) where generation writes: nothing was written or removed`);
        return 1;
      }
      if (error instanceof OutsideOutputRootError) {
        io.err(error.message);
        return 1;
      }
      throw error;
    }
  },
};

function checkOutputs(drift: DriftReport, total: number, io: Io): number {
  if (drift.staleOutputs.length === 0 && drift.orphans.length === 0 && drift.changedInputs.length === 0) {
    io.out(`generated/ is up to date (${total} files)`);
    return 0;
  }
  for (const path of drift.changedInputs) io.err(`changed since the last generation: ${path}`);
  for (const path of drift.staleOutputs) io.err(`out of date: ${path}`);
  for (const path of drift.orphans) io.err(`no longer generated: ${path}`);
  io.err("generated/ differs from the spec: run `make` and commit the result");
  return 1;
}

function writeOutputs({ written, removed }: { written: string[]; removed: string[] }, total: number, io: Io): number {
  io.out(`${written.length} file(s) written, ${removed.length} removed, ${total - written.length} unchanged`);
  return 0;
}
