#!/usr/bin/env node
// Entry point of the agent-contracts CLI.
//
// Most commands run the compiled CLI (dist/cli/agent-contracts.mjs, built by
// generators/cli/build.mjs): plain JavaScript starts in a fraction of the time tsx takes. In a
// checkout (generators/ is next to bin/), the bundle is rebuilt first when any source it was built
// from changed, so it is never stale. An installed package ships the bundle and no sources.
//
// In a checkout, generate and docs run the bundle when it is current (make builds it first), else
// the generator from its TypeScript sources through tsx (never waiting for a bundle rebuild). A
// bare `generate` with nothing changed (make, editors, CI) is answered before either loads, by the
// no-op check in plain JavaScript (generators/write/input-files.mjs, the rules the TypeScript side
// uses too) over the project generators/cli/project.ts would pick. An installed package runs
// generate from the bundle (it ships the generator's templates, runtimes and copied data,
// generators/write/generator-home.mjs), and docs from the bundle too (it ships the site's templates
// and assets, and typedoc and Graphviz are dependencies: generators/targets/docs/project-files.ts).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
const home = fileURLToPath(new URL("..", import.meta.url));
const buildScript = `${home}generators/cli/build.mjs`;
const fromSource = argv[0] === "generate" || argv[0] === "docs";

function fail(message) {
  process.stderr.write(`agent-contracts: ${message}\n`);
  process.exitCode = 2;
}

/**
 * generators/cli/project.ts findSpecRoot without --spec: the nearest project at or above cwd
 * (spec/meta/ or spec/project.yaml, what `init` writes), else this checkout.
 */
function specRoot() {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "spec", "meta")) || existsSync(join(dir, "spec", "project.yaml"))) return dir;
    if (dirname(dir) === dir) return home;
  }
}

/** A compiled CLI built from the sources as they are now (build.mjs staleness); false when unsure. */
async function bundleIsCurrent() {
  if (!existsSync(buildScript)) return false;
  try {
    return (await (await import(buildScript)).staleness()) === undefined;
  } catch {
    return false;
  }
}

async function loadCli() {
  const checkout = existsSync(`${home}generators/cli/main.ts`);
  if (fromSource && checkout) {
    if (argv.length === 1 && argv[0] === "generate") {
      const { generationIsUpToDate } = await import("../generators/write/input-files.mjs");
      // The line generators/cli/generate.ts prints for the same case.
      if (generationIsUpToDate(specRoot())) return { main: async () => (process.stdout.write("generated/ is up to date (no input changed)\n"), 0), endQuietlyOnClosedPipe: () => {} };
    }
    // `make generate` and `make docs` compile the CLI first: run that bundle, built from these very
    // sources (it reads templates and data from this checkout, as the sources do), without tsx's
    // loader (about 0.7 s of CPU in a cold generate). A bundle older than a source is not waited for.
    if (await bundleIsCurrent()) return await import("../dist/cli/agent-contracts.mjs");
    try {
      const { register } = await import("tsx/esm/api");
      register();
    } catch {
      return undefined;
    }
    return await import("../generators/cli/main.ts");
  }
  if (existsSync(buildScript)) {
    const build = await import(buildScript);
    const reason = await build.staleness();
    if (reason !== undefined) {
      process.stderr.write(`agent-contracts: compiling the CLI (${reason})\n`);
      await build.buildCli();
    }
  }
  return await import("../dist/cli/agent-contracts.mjs");
}

try {
  const cli = await loadCli();
  if (cli === undefined) fail(`${argv[0]} runs the generator from its sources, which needs this checkout's development dependencies (npm ci)`);
  else {
    cli.endQuietlyOnClosedPipe();
    process.exitCode = await cli.main(argv);
  }
} catch (error) {
  // Nothing below main() may print a stack trace at a user (AGENT_CONTRACTS_DEBUG=1 shows it).
  fail(`cannot start: ${error?.code && !String(error.message).startsWith(error.code) ? `${error.code}: ` : ""}${error?.message ?? String(error)}`);
  if (process.env.AGENT_CONTRACTS_DEBUG === "1") process.stderr.write(`${error?.stack}\n`);
}
