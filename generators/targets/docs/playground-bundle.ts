// The playground pages' code: for each protocol, the project's generated TS bindings (generated/ts)
// bundled for the browser with esbuild, as an application would bundle them (the package resolved
// by name, so its `exports` and `sideEffects` decide what is kept), plus the CLI's error locator
// (generators/cli/locate.ts, shipped in the package). The bundle sets one global,
// `agentContractsPlayground`, which assets/playground.js drives. Everything runs in the reader's
// browser: nothing is sent anywhere, and the page stores nothing.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "../../model/types.js";
import { camel, screamingSnake } from "../../emit/case.js";
import { PACKAGE_HOME } from "../../write/generator-home.mjs";

/** The module each protocol's bundle is built from: what the page needs of the bindings, by their public names. */
export function playgroundEntry(model: Model, protocol: string, locatePath: string): string {
  const p = model.protocols.find((x) => x.id === protocol);
  if (p === undefined) throw new Error(`playground: no protocol ${protocol}`);
  const signed = p.messages.filter((m) => m.signature !== undefined).map((m) => m.name);
  const pkg = model.project.packages.npm;
  return [
    `import * as bindings from ${JSON.stringify(`${pkg}/${protocol}`)};`,
    `import { parseMessageAllErrors } from ${JSON.stringify(`${pkg}/all-errors`)};`,
    `import { canonicalize, parseStrictJson, hmacV1SigningInput } from ${JSON.stringify(pkg)};`,
    `import { locateErrors } from ${JSON.stringify(locatePath)};`,
    `globalThis.agentContractsPlayground = {`,
    `  protocol: ${JSON.stringify(protocol)},`,
    `  parseMessageAllErrors, canonicalize, parseStrictJson, hmacV1SigningInput, locateErrors,`,
    `  lifecycles: bindings.lifecycles,`,
    `  signing: {`,
    ...signed.map((name) => `    ${JSON.stringify(name)}: { declaration: bindings.${screamingSnake(name)}_SIGNATURE, compute: bindings.compute${name}Signature, verify: bindings.verify${name}Signature },`),
    `  },`,
    `};`,
    "",
  ].join("\n");
}

/** The lifecycle modules' export names, as the bindings spell them (`provider-proposal-handling` -> `providerProposalHandling`). */
export const lifecycleExport = camel;

/** Each protocol's browser bundle (minified IIFE), or a reason it could not be built. */
export async function playgroundBundles(root: string, model: Model): Promise<{ ok: true; bundles: Record<string, string> } | { ok: false; reason: string }> {
  const generated = join(root, "generated", "ts");
  if (!existsSync(join(generated, "package.json"))) return { ok: false, reason: `${generated} is missing; run \`agent-contracts generate\` in the project first` };
  const locatePath = join(PACKAGE_HOME, "generators", "cli", "locate.ts");
  let build: typeof import("esbuild").build;
  try {
    ({ build } = await import("esbuild"));
  } catch (error) {
    return { ok: false, reason: `esbuild does not load (${(error as Error).message.split("\n")[0]})` };
  }
  // A folder whose node_modules/<package> is the project's generated/ts, as in an application.
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-playground-"));
  try {
    const pkg = model.project.packages.npm;
    mkdirSync(join(work, "node_modules", ...pkg.split("/").slice(0, -1)), { recursive: true });
    symlinkSync(generated, join(work, "node_modules", ...pkg.split("/")));
    const bundles: Record<string, string> = {};
    for (const p of model.protocols) {
      const result = await build({
        stdin: { contents: playgroundEntry(model, p.id, locatePath), resolveDir: work, loader: "js", sourcefile: `playground-${p.id}.js` },
        absWorkingDir: work,
        // The bindings' own dependencies (ajv-formats, @noble/hashes): the project's, else the CLI's.
        nodePaths: [join(work, "node_modules"), join(root, "node_modules"), join(PACKAGE_HOME, "node_modules")],
        bundle: true,
        write: false,
        platform: "browser",
        format: "iife",
        minify: true,
        legalComments: "eof",
        target: "es2022",
        logLevel: "silent",
      });
      bundles[p.id] = result.outputFiles[0]!.text;
    }
    return { ok: true, bundles };
  } catch (error) {
    return { ok: false, reason: `the bindings do not bundle for the browser: ${(error as Error).message.split("\n").slice(0, 3).join(" ")}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
