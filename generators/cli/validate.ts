import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { formatErrors } from "../targets/ts/runtime/src/validation.js";
import { parseArgs, readInput, UsageError, type Command } from "./io.js";

interface Bindings {
  parseMessage(protocol: string, name: string, input: Uint8Array): { ok: true } | { ok: false; errors: Parameters<typeof formatErrors>[0] };
  listMessages(): { protocol: string; name: string }[];
}

export const validateCommand: Command = {
  usage: "validate <protocol> <Message> [file|-]",
  summary: "Strictly parse and validate one message with the generated validators.",
  help: `
Reads the file, or stdin when it is "-" or absent. Exit 0 when valid; exit 1 with one line per
error (instance path, keyword, message) when invalid; exit 2 for an unknown protocol or message
or an unreadable file.`,
  async run(args, io) {
    const { positionals } = parseArgs(args, {});
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const bindings = await loadBindings(io.root);
    if (!bindings.listMessages().some((m) => m.protocol === protocol && m.name === name)) {
      const known = bindings.listMessages().filter((m) => m.protocol === protocol).map((m) => m.name);
      throw new UsageError(known.length === 0 ? `unknown protocol ${protocol}` : `unknown message ${name}; ${protocol} has ${known.join(", ")}`);
    }
    const input = await readInput(file, io);
    const result = bindings.parseMessage(protocol, name, input);
    if (result.ok) {
      io.out(`valid ${protocol} ${name}`);
      return 0;
    }
    io.err(formatErrors(result.errors));
    return 1;
  },
};

async function loadBindings(root: string): Promise<Bindings> {
  const entry = `${root}/generated/ts/index.js`;
  if (!existsSync(entry)) throw new UsageError("generated/ts is missing: run `make` first");
  return (await import(pathToFileURL(entry).href)) as Bindings;
}
