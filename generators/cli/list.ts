import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";

export const listCommand: Command = {
  usage: "list [--json]",
  summary: "List the protocols with their messages and lifecycles.",
  help: `
Options:
  --json    Print {protocols: [{id, title, version, messages: [...], lifecycles: [...]}]}.`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--json"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const { loadModel } = await import("../pipeline.js");
    const result = loadModel(io.root);
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      return 1;
    }
    const protocols = result.model.protocols.map((p) => ({
      id: p.id,
      title: p.title,
      version: p.version,
      messages: p.messages.map((m) => m.name),
      lifecycles: p.lifecycles.map((l) => (l as { name: string }).name),
    }));
    if (flags.has("--json")) {
      io.out(JSON.stringify({ protocols }, null, 2));
      return 0;
    }
    for (const p of protocols) {
      io.out(`${p.id} (${p.title}, version ${p.version})`);
      io.out(`  messages:   ${p.messages.join(", ") || "-"}`);
      io.out(`  lifecycles: ${p.lifecycles.join(", ") || "-"}`);
    }
    return 0;
  },
};
