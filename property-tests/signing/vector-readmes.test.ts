// The READMEs under property-tests/vectors name only files that exist, and do not claim that
// computed vectors came from upstream implementations.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const VECTORS = join(ROOT, "property-tests/vectors");
// Copied byte for byte from upstream; it describes upstream's own tree.
const VERBATIM = new Set(["jcs/testdata/README.md"]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}
const readmes = files(VECTORS).filter((f) => f.endsWith("README.md") && !VERBATIM.has(relative(VECTORS, f)));

/** A `*` in the last segment matches any run of characters. */
function matches(dir: string, pattern: string): boolean {
  if (!pattern.includes("*")) return existsSync(join(dir, pattern));
  const folder = join(dir, dirname(pattern));
  if (!existsSync(folder)) return false;
  const re = new RegExp(`^${pattern.split("/").at(-1)!.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return readdirSync(folder).some((f) => re.test(f));
}

describe.each(readmes.map((r) => [relative(VECTORS, r), r] as const))("%s", (_label, readme) => {
  const dir = dirname(readme);
  const text = readFileSync(readme, "utf8");
  const tokens = [...text.matchAll(/`([^`\s]+\.(?:json|jsonl|txt|gz|md|yaml))`/g)].map((m) => m[1]!);
  const local = new Set(readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory()));
  const everything = files(dir).map((f) => relative(dir, f));

  it("every local file it names exists", () => {
    for (const token of tokens) {
      const first = token.split("/")[0]!;
      if (token.startsWith("../") || local.has(first)) expect(matches(dir, token), token).toBe(true);
      // A bare file name is somewhere under this folder; anything else is a path in an upstream repository.
      else if (!token.includes("/")) expect(everything.some((f) => f === token || f.endsWith(`/${token}`)) || matches(dir, token), token).toBe(true);
    }
  });

  it("names every file beside it", () => {
    for (const f of readdirSync(dir)) {
      if (f === "README.md" || statSync(join(dir, f)).isDirectory()) continue;
      expect(text.includes(f), `${f} is not described`).toBe(true);
    }
  });
});

it("no README claims the computed vectors were produced by upstream implementations", () => {
  for (const readme of readmes) expect(readFileSync(readme, "utf8"), readme).not.toMatch(/produced by the upstream implementations/i);
  expect(readFileSync(join(VECTORS, "agent-provider/README.md"), "utf8")).toMatch(/not produced by any upstream implementation/);
});
