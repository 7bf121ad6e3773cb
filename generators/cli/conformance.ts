import { readFileSync } from "node:fs";
// Only the defaults are imported up front (for --help); the kit loads when the command runs.
import { DEFAULT_LIMITS } from "../conformance/failures.js";
import { parseArgs, UsageError, type Command } from "./io.js";
import type { Bindings } from "../conformance/case-run.js";
import { CLI_HOME, cliVersion, findSpecRoot } from "./project.js";
import { formatReport, parseReportFormat, printReport, type TestResult } from "./report-formats.js";

/** The numeric options and the RunOptions field each sets. */
const NUMERIC = { "--timeout": "timeoutMs", "--deadline": "deadlineMs", "--max-body-bytes": "maxBodyBytes", "--max-event-bytes": "maxEventBytes" } as const;

export const conformanceCommand: Command = {
  usage: "conformance <protocol> --url URL [--key-file F] [--spec DIR]",
  summary: "Run the spec's conformance cases against a live implementation.",
  help: `
Runs the cases of spec/<protocol>/conformance/ against the implementation at --url and prints one
line per case ("pass", "FAIL" with the first failed expectation, or "skip" when the case needs
another server state), then "N passed, N failed". Exit 0 when every case run passed, 1 when any
failed, 2 for a usage error or an invalid case file.

The kit only talks to the host and port of --url: case paths are appended to its path verbatim,
redirects are never followed and no other host is contacted. Nothing is refused: the URL may be
any host you are allowed to test. It does not trust the server: every case ends by its deadline,
every body and every SSE event is capped, the connection is closed on every way out of a step, and
credentials the server echoes back (Bearer tokens, the --key-file key, Authorization and Cookie
values) are redacted from failure lines. A FAIL line names its failure code: expectation-failed,
deadline-exceeded, idle-timeout, body-too-large, sse-event-too-large, connection-error or
internal-error.

Options:
  --url URL             base URL of the implementation under test (http or https)
  --key-file F          file holding the credential (service key, connector secret, ...);
                        surrounding whitespace is trimmed; default: the suite's test value
  --tags a,b            run only cases carrying one of these tags
  --case id,id          run only these cases
  --server-state S      the configuration the server was started in (listed by --list); cases that
                        need another state are skipped; default: the suite's default state
  --timeout MS          longest silence: before the response head, connect included, and between
                        body chunks (default ${DEFAULT_LIMITS.timeoutMs})
  --deadline MS         longest a case may take, every step and wait included (default ${DEFAULT_LIMITS.deadlineMs})
  --max-body-bytes N    largest body, and largest event stream, read per request (default ${DEFAULT_LIMITS.maxBodyBytes})
  --max-event-bytes N   largest SSE event (block), terminated or not, so every line too (default ${DEFAULT_LIMITS.maxEventBytes})
  --list                list the cases (id, tags, title) without running them
  --format F            text (default); github: the text lines, then one ::error annotation per
                        failed case at its case file; sarif or junit: the case lines go to stderr
                        and stdout is a SARIF 2.1.0 log / JUnit XML (a test suite per case file);
                        the exit code is the same
  --report FILE         also write the results as JSON (the compatibility page of the docs site is
                        built from such files: docs-site/compatibility/*.json)
  --implementation N    the name the report gives the implementation (default: the --url host)
  --implementation-version V   its version in the report (default: "unknown")
  --spec DIR            the spec whose cases to run (default: the nearest project at or above the
                        current folder holding spec/, else the spec the CLI ships with)
Protocols with cases: agent-service, agent-connector, provider-integration. For agent-connector
--url is a connector endpoint (the http-json provider is its client); the client-side cases
(role: client) script an endpoint and check a client module, so they run in-process in
property-tests/conformance, not from this command.`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--list"], valued: ["--spec", "--url", "--key-file", "--tags", "--case", "--server-state", "--format", "--report", "--implementation", "--implementation-version", ...Object.keys(NUMERIC)] });
    const format = parseReportFormat(flags.get("--format"));
    const reportFile = flags.get("--report");
    if (reportFile === true) throw new UsageError("--report needs a file");
    if (positionals.length !== 1) throw new UsageError("expected exactly one <protocol>");
    const protocol = positionals[0]!;
    const { conformanceProtocols, formatLoadError, loadSuite } = await import("../conformance/load.js");
    const { formatResult, formatSummary, loadBindings, runSuite, selectCases } = await import("../conformance/runner.js");
    const { root } = findSpecRoot(io.root, flags.get("--spec"));
    const known = conformanceProtocols(root);
    if (!known.includes(protocol)) throw new UsageError(`no conformance cases for ${protocol}; known: ${known.join(", ")}`);
    // Frames are validated against the spec the cases come from: a project's own spec is built
    // now (spec-bindings.ts); the CLI's own spec has the bindings generated from it.
    let bindings: Bindings;
    if (root === CLI_HOME) {
      try {
        bindings = await loadBindings(CLI_HOME);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    } else {
      const spec = await (await import("./spec-bindings.js")).specBindings(root, { warn: io.err });
      bindings = {
        listMessages: () => spec.listMessages(),
        parseMessage: (p, name, input) => {
          const parse = spec.protocol(p)?.[`parse${name}`];
          if (typeof parse !== "function") throw new Error(`the spec at ${root} has no message ${p} ${name}`);
          return (parse as (input: string | Uint8Array) => ReturnType<Bindings["parseMessage"]>)(input);
        },
      };
    }
    const loaded = loadSuite(root, protocol, (p) => bindings.listMessages().filter((m) => m.protocol === p).map((m) => m.name));
    if (!loaded.ok) {
      io.err(loaded.errors.map(formatLoadError).join("\n"));
      return 2;
    }
    const suite = loaded.suite;
    const list = (v: string | true | undefined): string[] | undefined => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined);
    const tags = list(flags.get("--tags"));
    for (const t of tags ?? []) if (!(t in suite.suite.tags)) throw new UsageError(`unknown tag ${t}; known: ${Object.keys(suite.suite.tags).join(", ")}`);
    const only = list(flags.get("--case"));
    for (const id of only ?? []) if (!suite.cases.some((c) => c.id === id) && !suite.clientCases.some((c) => c.id === id)) throw new UsageError(`unknown case ${id}`);
    const serverState = flags.get("--server-state");
    if (typeof serverState === "string" && !(serverState in suite.suite.serverStates)) {
      throw new UsageError(`unknown server state ${serverState}; known: ${Object.keys(suite.suite.serverStates).join(", ")}`);
    }
    if (flags.has("--list")) {
      io.out(`server states: ${Object.keys(suite.suite.serverStates).map((s) => (s === suite.suite.defaultServerState ? `${s} (default)` : s)).join(", ")}`);
      for (const c of selectCases(suite, tags, only)) io.out(`${c.id} [${c.tags.join(",")}]${c.serverStates ? ` (${c.serverStates.join("|")})` : ""} — ${c.title}`);
      for (const c of suite.clientCases.filter((x) => (!tags || x.tags.some((t) => tags.includes(t))) && (!only || only.includes(x.id)))) {
        io.out(`${c.id} [${c.tags.join(",")}] (client case, run in-process by property-tests) — ${c.title}`);
      }
      return 0;
    }
    const url = flags.get("--url");
    if (typeof url !== "string") throw new UsageError("--url is required");
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--url ${url} is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError("--url must be http or https");
    if (parsed.search !== "" || parsed.hash !== "" || parsed.username !== "") throw new UsageError("--url must not carry a query, fragment or user info");
    let key: string | undefined;
    const keyFile = flags.get("--key-file");
    if (typeof keyFile === "string") {
      try {
        key = readFileSync(keyFile, "utf8").trim();
      } catch (error) {
        throw new UsageError(`cannot read ${keyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
    const limits: Record<string, number> = {};
    for (const [flag, field] of Object.entries(NUMERIC)) {
      const raw = flags.get(flag);
      if (typeof raw !== "string") continue;
      const n = Number(raw);
      if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer`);
      limits[field] = n;
    }
    const implementation = flags.get("--implementation");
    const implementationVersion = flags.get("--implementation-version");
    for (const [flag, v] of [["--implementation", implementation], ["--implementation-version", implementationVersion]] as const) {
      if (v === true || (typeof v === "string" && !/^[\x20-\x7e]{1,100}$/.test(v))) throw new UsageError(`${flag} must be 1 to 100 printable ASCII characters`);
    }
    // With a document on stdout (sarif, junit), the case lines go to stderr.
    const line = format === "sarif" || format === "junit" ? io.err : io.out;
    const summary = await runSuite(suite, {
      root,
      url,
      key,
      tags,
      only,
      serverState: typeof serverState === "string" ? serverState : undefined,
      ...limits,
      bindings,
      onResult: (r) => line(formatResult(r)),
    });
    line(formatSummary(summary));
    if (format !== "text") {
      const fileOf = new Map(suite.cases.map((c) => [c.id, c.file]));
      const tests: TestResult[] = summary.results.map((r) => {
        const file = fileOf.get(r.id);
        return { suite: `${protocol}/${r.group}`, name: r.id, status: r.status, message: r.detail, code: r.code, file, line: file === undefined ? undefined : caseLine(root, file, r.id), timeMs: r.ms };
      });
      printReport(io, formatReport(format, { kind: "tests", subject: `conformance ${protocol}`, tests }, { name: "agent-contracts", version: cliVersion() }));
    }
    if (typeof reportFile === "string") {
      const { conformanceReport, writeReportFile } = await import("../conformance/report.js");
      const report = conformanceReport(suite, summary, {
        implementation: typeof implementation === "string" ? implementation : parsed.host,
        implementationVersion: typeof implementationVersion === "string" ? implementationVersion : "unknown",
        serverState: typeof serverState === "string" ? serverState : suite.suite.defaultServerState,
        specVersion: await specVersionOf(root),
      });
      try {
        writeReportFile(reportFile, report, io.root);
      } catch (error) {
        throw new UsageError(`cannot write --report ${reportFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
    return summary.failed > 0 ? 1 : 0;
  },
};

/** spec/project.yaml's project.version, for the report ("unknown" when it cannot be read). */
async function specVersionOf(root: string): Promise<string> {
  const { readSpecFile } = await import("../load/spec-file.js");
  const read = readSpecFile(root, "spec/project.yaml");
  const version = read.ok ? (read.spec.value as { project?: { version?: unknown } }).project?.version : undefined;
  return typeof version === "string" ? version : "unknown";
}

const caseFileLines = new Map<string, string[]>();

/** The line of `- id: <id>` in a case file (read once; the loader already checked it), for annotations. */
function caseLine(root: string, file: string, id: string): number | undefined {
  let lines = caseFileLines.get(file);
  if (lines === undefined) {
    try {
      lines = readFileSync(`${root}/${file}`, "utf8").split("\n");
    } catch {
      lines = [];
    }
    caseFileLines.set(file, lines);
  }
  const index = lines.findIndex((l) => new RegExp(`^\\s*-\\s*id:\\s*['"]?${id.replace(/[-]/g, "\\-")}['"]?\\s*$`).test(l));
  return index < 0 ? undefined : index + 1;
}
