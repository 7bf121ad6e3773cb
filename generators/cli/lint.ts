// `agent-contracts lint`: the checks `generate` runs before it writes (meta-schemas, lints, policy
// lints, examples), without writing, in a format CI renders.
import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { cliVersion, findSpecRoot } from "./project.js";
import { useBatchTiering } from "./batch-tiering.js";
import { formatReport, parseReportFormat, printReport, type Finding } from "./report-formats.js";

export const lintCommand: Command = {
  usage: "lint [--spec DIR] [--format text|github|sarif|junit]",
  summary: "Check the spec (what generate checks) without writing; findings in a CI format.",
  help: `
Loads and checks the spec as generate does and writes nothing. Exit 0 when it has no error, 1
when it has (each printed), 2 for a usage error.

Options:
  --format F   text (default): file:line:col JSON-pointer message [lint], one per line
               github: GitHub Actions annotations (::error file=…,line=…,col=…,title=<lint>::…)
               sarif:  a SARIF 2.1.0 log on stdout (upload it to code scanning)
               junit:  JUnit XML on stdout, one failed test case per finding
  --spec DIR   the project (default: the nearest folder at or above the current one holding
               spec/, else the spec the CLI ships with)`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--spec", "--format"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const format = parseReportFormat(flags.get("--format"));
    const { root } = findSpecRoot(io.root, flags.get("--spec"));
    useBatchTiering();
    const { loadModel, schemaSupportOf } = await import("../pipeline.js");
    // The registered targets' keyword support too, as generate checks it (lint target-keywords).
    const { TARGETS } = await import("../targets/registry.js");
    const loaded = loadModel(root, { targets: schemaSupportOf(TARGETS) });
    const errors = loaded.ok ? [] : loaded.errors;
    if (format === "text") {
      for (const e of errors) io.err(formatSpecError(e));
      io.err(errors.length === 0 ? "no spec errors" : `${errors.length} spec error(s)`);
    } else {
      const findings: Finding[] = errors.map((e) => ({ file: e.file, line: e.line, column: e.column, ruleId: e.lint, level: "error", message: `${e.pointer === "" ? "/" : e.pointer} ${e.message}` }));
      printReport(io, formatReport(format, { kind: "findings", subject: "lint", findings }, { name: "agent-contracts", version: cliVersion() }));
    }
    return errors.length === 0 ? 0 : 1;
  },
};
