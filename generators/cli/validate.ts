import type { ValidationError } from "../targets/ts/runtime/src/validation.js";
import { parseArgs, readInput, UsageError, type Command } from "./io.js";
import { formatLocatedErrors, locateErrors } from "./locate.js";
import { cliVersion } from "./project.js";
import { formatReport, parseReportFormat, printReport } from "./report-formats.js";
import { checkMessageName } from "./names.js";
import { messageSource, SPEC_OPTION_HELP } from "./message-source.js";

type AllErrorsResult = { ok: true } | { ok: false; errors: ValidationError[]; truncated: boolean };

export const validateCommand: Command = {
  usage: "validate <protocol> <Message> [--all-errors [--max-errors N]] [--format F] [--spec DIR] [file|-]",
  summary: "Strictly parse and validate one message with the generated validators.",
  help: `
Reads the file, or stdin when it is "-" or absent. Exit 0 when valid; exit 1 when invalid, with
one line per error: file:line:column, the JSON pointer of the value, what is wrong
(\`proposal.json:3:7 /nonce: must match pattern …\`; \`<stdin>\` for stdin). Exit 2 for an
unknown protocol or message or an unreadable file.

Options:
  --all-errors      Report every error, not only the first (validators compiled with ajv's
                    allErrors; a JSON syntax error still stops the parse where it is).
  --max-errors N    With --all-errors: print at most N errors (default 100), then how many
                    more there were.
  --format F        text (default), or on stdout: github (one ::error annotation per error at
                    file:line:col), sarif (a SARIF 2.1.0 log), junit (JUnit XML: one test case,
                    failed with every error, or passed); the exit code is the same.
${SPEC_OPTION_HELP}`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--all-errors"], valued: ["--max-errors", "--spec", "--format"] });
    const format = parseReportFormat(flags.get("--format"));
    const maxErrors = maxErrorsOf(flags);
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const source = await messageSource(io, flags.get("--spec"));
    const parse = (await source.protocol(protocol))[`parse${name}`];
    if (typeof parse !== "function" || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
      // The message list only on this error path: it names what exists.
      checkMessageName(await source.listMessages(), protocol, name);
    }
    const input = await readInput(file, io);
    const result =
      maxErrors === undefined
        ? (parse as (input: Uint8Array) => { ok: true } | { ok: false; errors: ValidationError[] })(input)
        : ((await source.parseMessageAllErrors(protocol, name, input, { maxErrors })) as AllErrorsResult);
    const shown = file === undefined || file === "-" ? "<stdin>" : file;
    if (format !== "text") {
      const errors = (result.ok ? [] : locateErrors(new TextDecoder().decode(input), result.errors)).map((e) => ({ ...e, text: e.json ? `invalid JSON: ${e.message}` : e.message }));
      const tool = { name: "agent-contracts", version: cliVersion() };
      const report =
        format === "junit"
          ? formatReport(format, { kind: "tests", subject: "validate", tests: [{ suite: `${protocol} ${name}`, name: shown, status: result.ok ? "pass" : "fail", file: shown, code: "invalid", message: errors.map((e) => `${shown}:${e.line}:${e.column} ${e.text}`).join("\n") || undefined }] }, tool)
          : formatReport(format, { kind: "findings", subject: "validate", findings: errors.map((e) => ({ file: shown, line: e.line, column: e.column, ruleId: e.keyword, level: "error" as const, message: e.text })) }, tool);
      printReport(io, report);
      return result.ok ? 0 : 1;
    }
    if (result.ok) {
      io.out(`valid ${protocol} ${name}`);
      return 0;
    }
    io.err(formatLocatedErrors(shown, input, result.errors));
    if ("truncated" in result && result.truncated) io.err(`more errors not shown (--max-errors ${maxErrors})`);
    return 1;
  },
};


/** undefined without --all-errors; else the limit (default 100). */
function maxErrorsOf(flags: Map<string, string | true>): number | undefined {
  const raw = flags.get("--max-errors");
  if (!flags.has("--all-errors")) {
    if (raw !== undefined) throw new UsageError("--max-errors needs --all-errors");
    return undefined;
  }
  if (raw === undefined) return 100;
  const n = Number(raw);
  if (typeof raw !== "string" || !/^[1-9][0-9]*$/.test(raw) || !Number.isSafeInteger(n)) throw new UsageError("--max-errors must be a positive integer");
  return n;
}
