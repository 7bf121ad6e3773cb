// Where the commands that read messages (validate, sign, verify, id, the signature doctor) get a
// protocol's functions: the spec of `--spec DIR`, or the project found from the current folder,
// built at run time (spec-bindings.ts); the bindings shipped with the CLI only when there is
// neither, or when the project found is the CLI's own spec (those bindings were generated from it).
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import { knownProtocols } from "./names.js";
import { CLI_HOME, findSpecRoot, loadShippedBindings, loadShippedProtocol } from "./project.js";

export interface MessageSource {
  /** The protocol's module (parse<Name>, validate<Name>, compute<Name>Signature, …); a usage error naming the known ones when there is none. */
  protocol(id: string): Promise<Record<string, unknown>>;
  listMessages(): Promise<{ protocol: string; name: string }[]>;
  parseMessageAllErrors(protocol: string, name: string, input: Uint8Array, options: { maxErrors: number }): Promise<unknown>;
}

/** The `--spec DIR` option the message commands share, as their help states it. */
export const SPEC_OPTION_HELP = `  --spec DIR   The spec project whose messages to read (the folder holding spec/, or spec/
               itself); default: the nearest one at or above the current folder, else the
               protocols this CLI ships with. Built when the command runs and cached
               (AGENT_CONTRACTS_CACHE_DIR, else $XDG_CACHE_HOME/agent-contracts, else
               ~/.cache/agent-contracts): a run after the spec or the CLI changed builds again.`;

export async function messageSource(io: Io, specFlag: string | true | undefined): Promise<MessageSource> {
  const { root, source } = findSpecRoot(io.root, specFlag);
  if (source === "shipped" || root === CLI_HOME) return shipped();
  const { specBindings } = await import("./spec-bindings.js");
  const bindings = await specBindings(root, { warn: io.err });
  return {
    protocol: async (id) => bindings.protocol(id) ?? unknownProtocol(id, bindings.listMessages(), root),
    listMessages: async () => bindings.listMessages(),
    parseMessageAllErrors: async (protocol, name, input, options) => bindings.parseMessageAllErrors(protocol, name, input, options),
  };
}

function shipped(): MessageSource {
  const listMessages = async () => (await loadShippedBindings<{ listMessages(): { protocol: string; name: string }[] }>()).listMessages();
  return {
    protocol: async (id) => (await loadShippedProtocol(id)) ?? unknownProtocol(id, await listMessages(), undefined),
    listMessages,
    parseMessageAllErrors: async (protocol, name, input, options) =>
      (await loadShippedBindings<{ parseMessageAllErrors(p: string, n: string, i: Uint8Array, o: { maxErrors: number }): unknown }>("all-errors.js")).parseMessageAllErrors(protocol, name, input, options),
  };
}

function unknownProtocol(id: string, messages: { protocol: string; name: string }[], root: string | undefined): never {
  throw new UsageError(`unknown protocol ${id}${root === undefined ? "" : ` in the spec at ${root}`}; known: ${knownProtocols(messages).join(", ")}`);
}
