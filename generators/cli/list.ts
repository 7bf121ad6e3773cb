import { formatSpecError, parseArgs, UsageError, type Command } from "./io.js";
import { findSpecRoot } from "./project.js";
import { specSummary } from "./spec-summary.js";

export const listCommand: Command = {
  usage: "list [--json] [--targets] [--spec DIR]",
  summary: "List the protocols with their messages and lifecycles, or the generation targets.",
  help: `
Options:
  --json      Print {protocols: [{id, title, version, messages: [...], lifecycles: [...]}]}
              (with --targets: {targets: [{id, summary, outDir, owns: [...]}]}).
  --targets   List the targets generate runs (generators/targets/registry.ts), in order.
  --spec DIR  The spec to read: a project folder holding spec/, or spec/ itself (default: the
              nearest such folder at or above the current one, else the spec the CLI ships with).`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--json", "--targets"], valued: ["--spec"] });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (flags.has("--targets")) {
      const { TARGETS } = await import("../targets/registry.js");
      const targets = TARGETS.map((t) => ({ id: t.id, summary: t.summary, outDir: t.outDir === "" ? "." : t.outDir, owns: [...t.owns] }));
      if (flags.has("--json")) io.out(JSON.stringify({ targets }, null, 2));
      else for (const t of targets) io.out(`${t.id.padEnd(9)} ${t.outDir.padEnd(17)} ${t.summary}`);
      return 0;
    }
    const result = await specSummary(findSpecRoot(io.root, flags.get("--spec")).root);
    if (!result.ok) {
      for (const e of result.errors) io.err(formatSpecError(e));
      return 1;
    }
    const protocols = result.summary.protocols.map((p) => ({ ...p, lifecycles: p.lifecycles.map((l) => l.name) }));
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
