import type { ValidationError } from "../targets/ts/runtime/src/validation.js";
import { parseArgs, readInput, UsageError, type Command } from "./io.js";
import { formatLocatedErrors } from "./locate.js";
import { checkMessageName } from "./names.js";
import { loadShippedBindings } from "./project.js";

interface Bindings {
  parseMessage(protocol: string, name: string, input: Uint8Array): { ok: true } | { ok: false; errors: ValidationError[] };
  listMessages(): { protocol: string; name: string }[];
}

export const validateCommand: Command = {
  usage: "validate <protocol> <Message> [file|-]",
  summary: "Strictly parse and validate one message with the generated validators.",
  help: `
Reads the file, or stdin when it is "-" or absent. Exit 0 when valid; exit 1 when invalid, with
one line per error: file:line:column, the JSON pointer of the value, what is wrong
(\`proposal.json:3:7 /nonce: must match pattern …\`; \`<stdin>\` for stdin). Exit 2 for an
unknown protocol or message or an unreadable file.`,
  async run(args, io) {
    const { positionals } = parseArgs(args, {});
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const bindings = await loadShippedBindings<Bindings>();
    checkMessageName(bindings.listMessages(), protocol, name);
    const input = await readInput(file, io);
    const result = bindings.parseMessage(protocol, name, input);
    if (result.ok) {
      io.out(`valid ${protocol} ${name}`);
      return 0;
    }
    io.err(formatLocatedErrors(file === undefined || file === "-" ? "<stdin>" : file, input, result.errors));
    return 1;
  },
};

