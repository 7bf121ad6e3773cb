// The folder the command runs in counts when it holds any spec/ (one without meta/ can be compared);
// otherwise the project is found as every spec-reading command finds it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { findSpecRoot } from "./project.js";

export const breakingCommand: Command = {
  usage: "breaking --against <git-ref|dir|package> [--spec DIR] [--format text|json|github|sarif] [--witness] [--suggest-version]",
  summary: "Report every change between the spec and another version: breaking ones (SOURCE, WIRE, SECURITY, LIFECYCLE), compatible ones and documentation.",
  help: `
Options:
  --against WHAT     The version to compare with: a git revision (read with git archive, the working
                     tree is untouched; in a shallow clone a missing one is fetched at depth 1 from
                     origin), a directory holding spec/ (or a spec folder itself), or a published
                     package carrying its spec bundle: an npm tarball (.tgz), an installed package
                     folder (node_modules/<name>, a Swift package), a Kotlin jar, or a bundle .json.
  --write-bundle F   Write the --against version's spec bundle to F (releases/<version>.spec.json
                     records a release) instead of comparing.
  --spec DIR         The current version (default: the nearest project at or above the current
                     folder holding spec/, else the spec the CLI ships with).
  --format FORMAT    text (default): one "file:line:col pointer [RULE_ID] (severity) message" line
                     per change, severity breaking, compatible or documentation, and a summary;
                     json: {against, enforce, summary, findings, changes[, version]};
                     github: GitHub Actions annotations (breaking: ::error, the rest ::notice);
                     sarif: a SARIF 2.1.0 log (breaking: error, the rest note). Exit codes stay.
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
    const { flags, positionals } = parseArgs(args, { flags: ["--witness", "--list-rules", "--all", "--suggest-version"], valued: ["--against", "--spec", "--format", "--write-bundle"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const report = await import("../breaking/report.js");
    if (flags.has("--list-rules")) {
      for (const line of report.rulesTable()) io.out(line);
      return 0;
    }
    const format = flags.get("--format") ?? "text";
    if (!["text", "json", "github", "sarif"].includes(String(format))) throw new UsageError(`--format is text, json, github or sarif, not ${String(format)}`);
    const against = flags.get("--against");
    if (typeof against !== "string") throw new UsageError("--against <git-ref|dir|package> is required");
    const { openAgainst, fromDirectory, AgainstError } = await import("../breaking/against.js");
    const { compareRoots } = await import("../breaking/compare.js");
    const specDir = flags.get("--spec");
    let current: ReturnType<typeof fromDirectory> | undefined;
    let other: ReturnType<typeof openAgainst> | undefined;
    try {
      current = typeof specDir === "string" ? fromDirectory(specDir) : { root: existsSync(join(io.root, "spec")) ? io.root : findSpecRoot(io.root).root, label: "spec/", cleanup: () => {} };
      other = openAgainst(io.root, against, io.err);
      const writeBundle = flags.get("--write-bundle");
      if (typeof writeBundle === "string") {
        const { bundleOf, serializeBundle } = await import("../breaking/bundle.js");
        const { loadTree } = await import("../breaking/tree.js");
        const { projectVersion } = await import("../breaking/version.js");
        const { writeFileSync } = await import("node:fs");
        const { resolve } = await import("node:path");
        writeFileSync(resolve(io.root, writeBundle), serializeBundle(bundleOf(other.root, projectVersion(loadTree(other.root)))));
        io.out(`breaking: wrote the spec bundle of ${other.label} to ${writeBundle}`);
        return 0;
      }
      const result = compareRoots(other.root, current.root);
      if (result.errors.length > 0) {
        for (const e of result.errors) io.err(formatSpecError(e));
        return 1;
      }
      const { versionChecks, versionLines } = await import("../breaking/version.js");
      const versions = flags.has("--suggest-version") ? versionChecks(result.oldTree, result.newTree, result.findings, result.changes) : undefined;
      if (format === "github" || format === "sarif") {
        const ci = await import("../breaking/ci-formats.js");
        const { GENERATOR_VERSION } = await import("../pipeline.js");
        const { printReport } = await import("./report-formats.js");
        printReport(io, ci.breakingReport(format, result.findings, result.changes, GENERATOR_VERSION.replace(/^agent-contracts /, "")));
        // The version check is not a place in a file: it goes to stderr, as text, in these formats.
        for (const line of versionLines(versions ?? [])) io.err(line);
      } else if (format === "json") io.out(JSON.stringify(report.jsonReport(result.findings, other.label, result.config.enforce, result.changes, versions), null, 2));
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
