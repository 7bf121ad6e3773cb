import type { Lifecycle } from "../model/lifecycle.js";
import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";

export const lifecycleCommand: Command = {
  usage: "lifecycle <protocol> <name> [--json]",
  summary: "Print a lifecycle's states, events and transitions.",
  help: `
Options:
  --json    Print the machine as JSON: {name, protocol, initial, states, events, guards, transitions}.`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--json"] });
    if (positionals.length !== 2) throw new UsageError("expected <protocol> <name>");
    const [protocolId, name] = positionals as [string, string];
    const { loadModel } = await import("../pipeline.js");
    const result = loadModel(io.root);
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      return 1;
    }
    const protocol = result.model.protocols.find((p) => p.id === protocolId);
    if (!protocol) throw new UsageError(`unknown protocol ${protocolId}`);
    const lifecycle = (protocol.lifecycles as Lifecycle[]).find((l) => l.name === name);
    if (!lifecycle) throw new UsageError(`unknown lifecycle ${name}; ${protocolId} has ${(protocol.lifecycles as Lifecycle[]).map((l) => l.name).join(", ") || "none"}`);
    const { location: _location, ...machine } = lifecycle as Lifecycle & { location: unknown };
    if (flags.has("--json")) {
      io.out(JSON.stringify(machine, null, 2));
      return 0;
    }
    io.out(`${protocolId} ${lifecycle.name}: initial ${lifecycle.initial}`);
    for (const t of lifecycle.transitions) io.out(`  ${t.from} --${t.event}${t.guards.length > 0 ? ` [${t.guards.map((g) => (g.negated ? "not " : "") + g.guard).join(" and ")}]` : ""}--> ${t.to}`);
    return 0;
  },
};
