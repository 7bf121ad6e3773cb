#!/usr/bin/env node
// Entry point of the agent-contracts CLI. The generator is TypeScript, run through tsx's loader.
//
// `generate` with nothing changed is the common case (make, editors, CI), and loading tsx plus the
// generator costs several times the check itself. So a bare `generate` first runs the no-op check
// in plain JavaScript (generators/write/input-files.mjs, the same rules the TypeScript side uses)
// and only falls through to the full CLI when something did change.
const argv = process.argv.slice(2);
let done = false;
if (argv.length === 1 && argv[0] === "generate") {
  const { generationIsUpToDate } = await import("../generators/write/input-files.mjs");
  if (generationIsUpToDate(process.cwd())) {
    // The line generators/cli/generate.ts prints for the same case.
    process.stdout.write("generated/ is up to date (no input changed)\n");
    process.exitCode = 0;
    done = true;
  }
}
if (!done) {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import("../generators/cli/main.ts");
  process.exitCode = await main(argv);
}
