// What every command gets: output streams, the repository root and stdin, so tests can run
// commands in-process without touching the real console.
import { readFileSync } from "node:fs";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  root: string;
  readStdin(): Promise<Buffer>;
}

export interface Command {
  usage: string;
  summary: string;
  help?: string;
  run(args: string[], io: Io): Promise<number>;
}

/** A mistake in how the command was called: exit 2 with the usage line. */
export class UsageError extends Error {}

/** Splits args into flags (--name or --name value for those in `valued`) and positionals; unknown flags are usage errors. */
export function parseArgs(args: readonly string[], known: { flags?: string[]; valued?: string[] }): { flags: Map<string, string | true>; positionals: string[] } {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("--")) {
      const [name, inline] = arg.split("=", 2) as [string, string | undefined];
      if (known.valued?.includes(name)) {
        const value = inline ?? args[++i];
        if (value === undefined) throw new UsageError(`${name} needs a value`);
        flags.set(name, value);
      } else if (known.flags?.includes(name) && inline === undefined) flags.set(name, true);
      else throw new UsageError(`unknown option ${arg}`);
    } else positionals.push(arg);
  }
  return { flags, positionals };
}

/** Reads a file argument, or stdin for "-" or no argument. I/O failures are usage errors (exit 2). */
export async function readInput(path: string | undefined, io: Io): Promise<Buffer> {
  if (path === undefined || path === "-") return io.readStdin();
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export function formatSpecError(e: { file: string; line: number; column: number; pointer: string; message: string; lint: string }): string {
  return `${e.file}:${e.line}:${e.column} ${e.pointer === "" ? "/" : e.pointer} ${e.message} [${e.lint}]`;
}
