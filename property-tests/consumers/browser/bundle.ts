// Bundles code that imports @agent-contracts/bindings the way an application's bundler would:
// esbuild resolves the package by name from a node_modules folder (a link to generated/ts), so its
// package.json `exports` conditions and `sideEffects: false` decide what is kept. Used by the browser
// consumer, the size budgets (property-tests/consumers/browser/sizes.ts) and `make bench`.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";

export const ROOT = resolve(import.meta.dirname, "../../..");

export interface Bundled {
  code: string;
  /** Minified bytes. */
  bytes: number;
  /** gzip (level 9) of the minified bytes. */
  gzipBytes: number;
  /** Every input file that reached the output, relative to the repository (package files as generated/ts/…). */
  inputs: string[];
}

export interface BundleOptions {
  platform: "browser" | "node";
  format?: "esm" | "iife";
  globalName?: string;
  minify?: boolean;
}

// Any `node:` import on the way to a browser bundle is an error that names the importer, instead
// of esbuild's generic resolution failure.
const noNodeBuiltins: Plugin = {
  name: "no-node-builtins",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ errors: [{ text: `${args.importer} imports ${args.path}, a Node built-in, on a browser path` }] }));
  },
};

let workDir: string | undefined;

/** A folder whose node_modules/@agent-contracts/bindings is generated/ts (created once per process). */
function consumerDir(): string {
  if (workDir === undefined) {
    workDir = mkdtempSync(join(tmpdir(), "bindings-bundle-"));
    mkdirSync(join(workDir, "node_modules/@agent-contracts"), { recursive: true });
    symlinkSync(join(ROOT, "generated/ts"), join(workDir, "node_modules/@agent-contracts/bindings"));
    process.once("exit", () => rmSync(workDir!, { recursive: true, force: true }));
  }
  return workDir;
}

/** Bundles `source` (module text importing the package) or the file at `entry`. */
export async function bundle(input: { source: string } | { entry: string }, options: BundleOptions): Promise<Bundled> {
  const dir = consumerDir();
  const result = await build({
    ...("source" in input ? { stdin: { contents: input.source, resolveDir: dir, loader: "ts" as const } } : { entryPoints: [input.entry] }),
    // The package from the consumer folder; anything else (the bench's anchors) from the repository's.
    nodePaths: [join(dir, "node_modules"), join(ROOT, "node_modules")],
    bundle: true,
    write: false,
    minify: options.minify ?? true,
    format: options.format ?? "esm",
    ...(options.globalName !== undefined ? { globalName: options.globalName } : {}),
    platform: options.platform,
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    plugins: options.platform === "browser" ? [noNodeBuiltins] : [],
  });
  const code = result.outputFiles[0]!.text;
  const inputs = Object.keys(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]!]!.inputs).map((path) => path.replace(/^.*?generated\/ts\//, "generated/ts/"));
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length, inputs };
}
