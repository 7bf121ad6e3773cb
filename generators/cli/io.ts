// What every command gets: output streams, the folder it runs in and stdin, so tests can run
// commands in-process without touching the real console.
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { DEFAULT_MAX_JSON_BYTES } from "../targets/ts/runtime/src/strict-json.js";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** The folder the command runs in (the process's cwd): where spec-reading commands start looking for a project (project.ts). */
  root: string;
  /** Stdin, read only up to `maxBytes` + 1 bytes: one byte past the limit is enough to refuse it. */
  readStdin(maxBytes: number): Promise<Buffer>;
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

/**
 * The most any command reads from a file or stdin: the strict parser's own limit, so nothing the
 * parser would accept is refused, and reading stops as soon as the input is known to be too large
 * (the rest is never read: a 500 MB pipe costs 4 MiB, not 500 MB).
 */
export const MAX_INPUT_BYTES = DEFAULT_MAX_JSON_BYTES;

/** The input is larger than the limit: exit 1 with the parser's code, too-large. */
export class InputTooLarge extends Error {
  readonly code = "too-large";
  constructor(readonly maxBytes: number) {
    super(`input is larger than ${maxBytes} bytes (reading stopped there)`);
  }
}

/** Reads a stream until it ends or holds `maxBytes` + 1 bytes, then stops reading (and closes it). */
export async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const c = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer);
    const room = maxBytes + 1 - size;
    if (c.length >= room) {
      chunks.push(c.subarray(0, room));
      size += room;
      break; // leaving the loop destroys the stream: nothing more is read
    }
    chunks.push(c);
    size += c.length;
  }
  return Buffer.concat(chunks, size);
}

/** Reads a file in pieces, never more than `maxBytes` + 1 bytes (also for /dev/zero or a FIFO). */
async function readFileLimited(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    while (size <= maxBytes) {
      const piece = Buffer.alloc(Math.min(1 << 16, maxBytes + 1 - size));
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      if (bytesRead === 0) break;
      chunks.push(piece.subarray(0, bytesRead));
      size += bytesRead;
    }
    return Buffer.concat(chunks, size);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a file argument, or stdin for "-" or no argument, stopping one byte past `maxBytes`.
 * I/O failures are usage errors (exit 2); a larger input is InputTooLarge (exit 1).
 */
export async function readInput(path: string | undefined, io: Io, maxBytes: number = MAX_INPUT_BYTES): Promise<Buffer> {
  let input: Buffer;
  if (path === undefined || path === "-") input = await io.readStdin(maxBytes);
  else {
    try {
      input = await readFileLimited(path, maxBytes);
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (input.length > maxBytes) throw new InputTooLarge(maxBytes);
  return input;
}

export function formatSpecError(e: { file: string; line: number; column: number; pointer: string; message: string; lint: string }): string {
  return `${e.file}:${e.line}:${e.column} ${e.pointer === "" ? "/" : e.pointer} ${e.message} [${e.lint}]`;
}
