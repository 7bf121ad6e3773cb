// The folder the command runs in counts when it holds any spec/ (one without meta/ can be compared);
// otherwise the project is found as every spec-reading command finds it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { findSpecRoot } from "./project.js";

export const breakingCommand: Command = {
  usage: "breaking --against <git-ref|dir> [--spec DIR] [--format text|json] [--witness] [--suggest-version]",
  summary: "Report every change between the spec and another version: breaking ones (SOURCE, WIRE, SECURITY, LIFECYCLE), compatible ones and documentation.",
  help: `
Options:
  --against REF|DIR  The version to compare with: a git revision (read with git archive, the working
                     tree is untouched) or a directory holding spec/ (or a spec folder itself).
  --spec DIR         The current version (default: the nearest project at or above the current
                     folder holding spec/, else the spec the CLI ships with).
  --format FORMAT    text (default): one "file:line:col pointer [RULE_ID] (severity) message" line
                     per change, severity breaking, compatible or documentation, and a summary;
                     json: {against, enforce, summary, findings, changes[, version]}.
  --suggest-version  Also print the version bump the changes call for: SemVer for
                     spec/project.yaml's version (breaking: major, other changes: minor,
                     documentation only: patch; below 1.0.0 one position lower), and a new wire
                     version in protocol.yaml for a protocol with a WIRE or LIFECYCLE break. Exit 1
                     when a version is lower than that.
  --witness          Under each WIRE finding, print an instance one side accepts and the other
                     rejects (checked with ajv on both schemas).
  --all              Also print findings in categories spec/breaking.yaml does not enforce.
  --list-rules       Print every rule: id, category, purpose.
Configuration: spec/breaking.yaml (breaking: enforce, exceptions, unstable, tolerantReaders).
Exit codes: 0 nothing breaks (compatible and documentation changes never fail), 1 something breaks
(or a spec file does not parse, or with --suggest-version a version is too low), 2 usage error.`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--witness", "--list-rules", "--all", "--suggest-version"], valued: ["--against", "--spec", "--format"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const report = await import("../breaking/report.js");
    if (flags.has("--list-rules")) {
      for (const line of report.rulesTable()) io.out(line);
      return 0;
    }
    const format = flags.get("--format") ?? "text";
    if (format !== "text" && format !== "json") throw new UsageError(`--format is text or json, not ${String(format)}`);
    const against = flags.get("--against");
    if (typeof against !== "string") throw new UsageError("--against <git-ref|dir> is required");
    const { openAgainst, fromDirectory, AgainstError } = await import("../breaking/against.js");
    const { compareRoots } = await import("../breaking/compare.js");
    const specDir = flags.get("--spec");
    let current: ReturnType<typeof fromDirectory> | undefined;
    let other: ReturnType<typeof openAgainst> | undefined;
    try {
      current = typeof specDir === "string" ? fromDirectory(specDir) : { root: existsSync(join(io.root, "spec")) ? io.root : findSpecRoot(io.root).root, label: "spec/", cleanup: () => {} };
      other = openAgainst(io.root, against);
      const result = compareRoots(other.root, current.root);
      if (result.errors.length > 0) {
        for (const e of result.errors) io.err(formatSpecError(e));
        return 1;
      }
      const { versionChecks, versionLines } = await import("../breaking/version.js");
      const versions = flags.has("--suggest-version") ? versionChecks(result.oldTree, result.newTree, result.findings, result.changes) : undefined;
      if (format === "json") io.out(JSON.stringify(report.jsonReport(result.findings, other.label, result.config.enforce, result.changes, versions), null, 2));
      else {
        for (const line of report.textReport(result.findings, other.label, { witness: flags.has("--witness"), all: flags.has("--all"), changes: result.changes })) io.out(line);
        for (const line of versionLines(versions ?? [])) io.out(line);
      }
      return result.findings.some((f) => f.status === "breaking") || versions?.some((v) => v.tooLow) ? 1 : 0;
    } catch (error) {
      if (error instanceof AgainstError) throw new UsageError(error.message);
      throw error;
    } finally {
      current?.cleanup();
      other?.cleanup();
    }
  },
};
