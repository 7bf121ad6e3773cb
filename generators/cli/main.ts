// agent-contracts: the command line. Exit codes: 0 success, 1 the input (spec or message) is
// invalid or generated/ is out of date, 2 a usage or I/O error.
import { commands } from "./commands.js";
import { InputTooLarge, readLimited, UsageError, type Command, type Io } from "./io.js";
import { cliVersion } from "./project.js";

const USAGE = `agent-contracts — spec-first bindings for the agent protocols

Usage: agent-contracts <command> [options]
       agent-contracts --version | -V

Commands:
${Object.values(commands)
  .map((c) => `  ${c.usage.padEnd(52)} ${c.summary}`)
  .join("\n")}

Run "agent-contracts <command> --help" for a command's options.
Exit codes: 0 ok, 1 invalid input or out-of-date output, 2 usage or I/O error.`;

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.out(cliVersion());
    return 0;
  }
  const command: Command | undefined = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.err(`agent-contracts: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`Usage: agent-contracts ${command.usage}\n\n${command.summary}\n${command.help ?? ""}`.trimEnd());
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`agent-contracts ${name}: ${error.message}\nUsage: agent-contracts ${command.usage}`);
      return 2;
    }
    if (error instanceof InputTooLarge) {
      io.err(`agent-contracts ${name}: ${error.code}: ${error.message}`);
      return 1;
    }
    // An installed CLI carries the runtime dependencies only; what the generator needs is missing.
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
      io.err(`agent-contracts ${name}: this needs the generator's dependencies, which only a checkout has (git clone, then npm ci): ${(error as Error).message.split("\n")[0]}`);
      return 2;
    }
    // A bug or an environment failure: one line a person can report, never a stack trace
    // (AGENT_CONTRACTS_DEBUG=1 shows it).
    io.err(`agent-contracts ${name}: internal error: ${describe(error)}`);
    if (process.env["AGENT_CONTRACTS_DEBUG"] === "1" && error instanceof Error && error.stack) io.err(error.stack);
    return 2;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined || error.message.startsWith(code) ? error.message : `${code}: ${error.message}`;
}

/**
 * Output to a closed pipe (\`agent-contracts list | head -1\`) ends the process quietly: the reader
 * has all it wanted. Any other stream error is reported in one line.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      process.exit(2);
    });
  }
}

function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text + "\n"),
    err: (text) => process.stderr.write(text + "\n"),
    root: process.cwd(),
    readStdin: (maxBytes) => readLimited(process.stdin, maxBytes),
  };
}
