// What an application pays in bundle bytes for one job done with the bindings, measured as its
// bundler would (bundle.ts: esbuild, --platform=browser, minified, gzip level 9), with the budgets
// of issue 33. sizes.test.ts holds the budgets; `make bench` prints the table beside anchors that
// do the same job another way.
import { bundle } from "./bundle.js";

export interface SizeCase {
  /** What the job is, as the table shows it. */
  label: string;
  /** A module that does the job (imports the package by name) and keeps its result alive. */
  source: string;
  /** Budget on the gzip bytes, when the job has one. */
  budgetGzip?: number;
  /** Budget on the minified bytes, when the job has one. */
  budgetBytes?: number;
}

const KB = 1024;

// The whole package root as `main` produced it before this work (commit bc71d93, esbuild 0.28.2
// --bundle --minify --platform=node, since --platform=browser could not resolve node:crypto;
// gzip as here, zlib level 9): 594,269 bytes, 93,882 gzip. That bundle left out what its
// validators require()d at run time (ajv/dist/runtime/ucs2length, ajv/dist/runtime/equal with
// fast-deep-equal, ajv-formats' formats: 9,531 bytes, 2,862 gzip bundled alone) and node:crypto;
// with those modules the same root is 603,800 bytes, 96,657 gzip. The budget: no more minified
// bytes than that Node bundle, no more gzip bytes than it with the modules it loads.
export const ROOT_BEFORE = { bytes: 594_269, gzip: 93_882, withRequiredModules: { bytes: 603_800, gzip: 96_657 } } as const;

/** Each message of each protocol: `parse<Name>` imported from its protocol's subpath. */
export function parseCase(protocol: string, message: string): SizeCase {
  return {
    label: `parse${message} (@agent-contracts/bindings/${protocol})`,
    source: `import { parse${message} } from "@agent-contracts/bindings/${protocol}";\nexport const run = (text) => parse${message}(text);\n`,
    budgetGzip: 12 * KB,
  };
}

/** One lifecycle's `transition`, from its protocol's `lifecycles` namespace. */
export function stepCase(protocol: string, lifecycle: string): SizeCase {
  const name = lifecycle.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  return {
    label: `lifecycles.${name}.transition (@agent-contracts/bindings/${protocol})`,
    source: `import { lifecycles } from "@agent-contracts/bindings/${protocol}";\nexport const run = (state, event, guards) => lifecycles.${name}.transition(state, event, guards);\n`,
    budgetGzip: 4 * KB,
  };
}

/** Verifying one signed message (signature in constant time, then schema): `verify<Name>`. */
export function verifyCase(protocol: string, message: string): SizeCase {
  return {
    label: `verify${message} (@agent-contracts/bindings/${protocol})`,
    source: `import { verify${message} } from "@agent-contracts/bindings/${protocol}";\nexport const run = (input, key) => verify${message}(input, key);\n`,
    budgetGzip: 15 * KB,
  };
}

export const ROOT_CASE: SizeCase = {
  label: "the whole root (export * from @agent-contracts/bindings)",
  source: `export * from "@agent-contracts/bindings";\n`,
  budgetGzip: ROOT_BEFORE.withRequiredModules.gzip,
  budgetBytes: ROOT_BEFORE.bytes,
};

/** A root namespace reached through the root: esbuild keeps that whole protocol (no budget; the README says to import the subpath). */
export const ROOT_NAMESPACE_CASE: SizeCase = {
  label: "agentProvider.parseActionProposal (root namespace)",
  source: `import { agentProvider } from "@agent-contracts/bindings";\nexport const run = (text) => agentProvider.parseActionProposal(text);\n`,
};

export interface Measured {
  label: string;
  bytes: number;
  gzipBytes: number;
  budgetGzip?: number;
  budgetBytes?: number;
}

export async function measure(c: SizeCase): Promise<Measured> {
  const out = await bundle({ source: c.source }, { platform: "browser" });
  return { label: c.label, bytes: out.bytes, gzipBytes: out.gzipBytes, ...(c.budgetGzip !== undefined ? { budgetGzip: c.budgetGzip } : {}), ...(c.budgetBytes !== undefined ? { budgetBytes: c.budgetBytes } : {}) };
}
