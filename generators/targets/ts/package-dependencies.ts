// The generated package's dependencies follow from what its emitted modules import (issue 29), never
// from a hand-kept list: a package a module imports statically is a dependency; one loaded only
// when a feature is used (a dynamic `import("x")`, or the runtime's `requirePeer("x")` for a CommonJS
// driver) is an optional peer dependency, installed only by those who use that feature. The
// version range of each package the emitted code may import is declared here; an import of a
// package with no range is an error, so a new import cannot ship without its dependency.
import type { OutputFile } from "../../model/types.js";

/** The range the generated package asks for, per npm package its emitted code may import. */
export const TS_PACKAGE_VERSIONS: Readonly<Record<string, string>> = {
  "@noble/hashes": "^1.8.0",
  "ajv-formats": "^3.0.1",
  "better-sqlite3": "^12.0.0",
  pg: "^8.0.0",
  redis: "^5.0.0 || ^6.0.0",
};

const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|^\s*import\s+"([^"]+)"/gm;
const LOADED_WHEN_USED = /\b(?:import|requirePeer)\(\s*"([^"]+)"\s*\)/g;

/**
 * `@scope/name/sub.js` → `@scope/name`, `name/sub.js` → `name`; undefined for a relative path, a
 * `node:` built-in or one of the package's own `#` imports (package.json `imports`).
 */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:") || specifier.startsWith("#")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The packages the emitted JavaScript modules import: statically, and only when a feature is used. */
export function importedPackages(files: readonly OutputFile[]): { required: string[]; optional: string[] } {
  const required = new Set<string>();
  const optional = new Set<string>();
  for (const file of files) {
    if (!file.path.endsWith(".js")) continue;
    for (const m of file.contents.matchAll(STATIC_IMPORT)) {
      const name = packageOf(m[1] ?? m[2]!);
      if (name !== undefined) required.add(name);
    }
    for (const m of file.contents.matchAll(LOADED_WHEN_USED)) {
      const name = packageOf(m[1]!);
      if (name !== undefined) optional.add(name);
    }
  }
  for (const name of required) optional.delete(name);
  return { required: [...required].sort(), optional: [...optional].sort() };
}

/** package.json's dependency fields for the emitted files. */
export function packageDependencies(files: readonly OutputFile[]): {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: true }>;
} {
  const { required, optional } = importedPackages(files);
  const range = (name: string): string => {
    const version = TS_PACKAGE_VERSIONS[name];
    if (version === undefined) throw new Error(`TypeScript: generated code imports ${name}, which has no version range in generators/targets/ts/package-dependencies.ts`);
    return version;
  };
  return {
    dependencies: Object.fromEntries(required.map((n) => [n, range(n)])),
    peerDependencies: Object.fromEntries(optional.map((n) => [n, range(n)])),
    peerDependenciesMeta: Object.fromEntries(optional.map((n) => [n, { optional: true as const }])),
  };
}
