import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { findSpecRoot } from "./project.js";
import { specSummary } from "./spec-summary.js";

export const lifecycleCommand: Command = {
  usage: "lifecycle <protocol> <name> [--json] [--spec DIR]",
  summary: "Print a lifecycle's states, events and transitions.",
  help: `
Options:
  --json      Print the machine as JSON: {name, protocol, initial, states, events, guards, transitions}.
  --spec DIR  The spec to read: a project folder holding spec/, or spec/ itself (default: the
              nearest such folder at or above the current one, else the spec the CLI ships with).`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--json"], valued: ["--spec"] });
    if (positionals.length !== 2) throw new UsageError("expected <protocol> <name>");
    const [protocolId, name] = positionals as [string, string];
    const result = await specSummary(findSpecRoot(io.root, flags.get("--spec")).root);
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      return 1;
    }
    const protocol = result.summary.protocols.find((p) => p.id === protocolId);
    if (!protocol) throw new UsageError(`unknown protocol ${protocolId}; known: ${result.summary.protocols.map((p) => p.id).join(", ")}`);
    const lifecycle = protocol.lifecycles.find((l) => l.name === name);
    if (!lifecycle) throw new UsageError(`unknown lifecycle ${name}; ${protocolId} has ${protocol.lifecycles.map((l) => l.name).join(", ") || "none"}`);
    if (flags.has("--json")) {
      io.out(JSON.stringify(lifecycle, null, 2));
      return 0;
    }
    io.out(`${protocolId} ${lifecycle.name}: initial ${lifecycle.initial}`);
    for (const t of lifecycle.transitions) io.out(`  ${t.from} --${t.event}${t.guards.length > 0 ? ` [${t.guards.map((g) => (g.negated ? "not " : "") + g.guard).join(" and ")}]` : ""}--> ${t.to}`);
    return 0;
  },
};
