// The same consumer and vectors as browser.test.ts in Bun and Deno. Both ship as npm packages whose
// platform binary is itself an npm package (bun -> @oven/bun-linux-x64, deno -> @deno/linux-x64-glibc),
// so they come from the npm registry like every other dependency: installed once, install scripts
// off, into node_modules/.cache/agent-contracts/js-runtimes (kept between runs, never committed).
// The consumer is the esbuild browser bundle as an ES module; each runtime imports it with the
// inputs as a JSON module and prints the answers, which must be the spec's expected answers.
// Where the registry cannot be reached the suite prints one line and skips, unless
// AGENT_CONTRACTS_REQUIRE_RUNTIMES=1 (set by .ci/run), where that is a failure.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle, ROOT } from "./bundle.js";
import type { Answer } from "./src/run-vectors.js";
import { bySuite, readVectors, type Vectors } from "./vectors.js";

const RUNTIMES = {
  bun: { pkg: "bun@1.4.4", binary: "node_modules/@oven/bun-linux-x64/bin/bun", args: (main: string) => ["run", main] },
  deno: { pkg: "deno@2.9.6", binary: "node_modules/@deno/linux-x64-glibc/deno", args: (main: string) => ["run", "--no-prompt", "--no-config", main] },
} as const;
type Runtime = keyof typeof RUNTIMES;

const REQUIRE = process.env["AGENT_CONTRACTS_REQUIRE_RUNTIMES"] === "1";
const HOME = join(ROOT, "node_modules/.cache/agent-contracts/js-runtimes");

/** The runtime's binary, installed from the npm registry when missing; undefined (with why) when it cannot be. */
function install(runtime: Runtime): { binary?: string; why?: string } {
  const spec = RUNTIMES[runtime];
  const dir = join(HOME, spec.pkg);
  const binary = join(dir, spec.binary);
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `js-runtime-${runtime}`, private: true }));
    try {
      execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline", spec.pkg], { cwd: dir, stdio: "pipe", timeout: 300_000 });
    } catch (error) {
      return { why: `npm install ${spec.pkg} failed: ${String((error as { stderr?: unknown }).stderr ?? error).split("\n")[0]}` };
    }
  }
  if (!existsSync(binary)) return { why: `${spec.pkg} installed no ${spec.binary} (not linux-x64?)` };
  return { binary };
}

let vectors: Vectors;
let temp = "";
const answers: Partial<Record<Runtime, Answer[]>> = {};
const skipped: Partial<Record<Runtime, string>> = {};

beforeAll(async () => {
  vectors = readVectors();
  temp = mkdtempSync(join(tmpdir(), "js-runtimes-"));
  const consumer = await bundle({ entry: join(import.meta.dirname, "src/run-vectors.ts") }, { platform: "browser", format: "esm", minify: true });
  writeFileSync(join(temp, "consumer.mjs"), consumer.code);
  writeFileSync(join(temp, "input.json"), JSON.stringify(vectors.input));
  writeFileSync(join(temp, "main.mjs"), `import { runVectors } from "./consumer.mjs";\nimport input from "./input.json" with { type: "json" };\nconsole.log(JSON.stringify(runVectors(input)));\n`);
  for (const runtime of Object.keys(RUNTIMES) as Runtime[]) {
    const { binary, why } = install(runtime);
    if (binary === undefined) {
      if (REQUIRE) throw new Error(`${runtime}: ${why}`);
      skipped[runtime] = why;
      console.log(`${runtime} consumer skipped: ${why}`);
      continue;
    }
    const out = execFileSync(binary, RUNTIMES[runtime].args(join(temp, "main.mjs")), { cwd: temp, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 120_000, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
    answers[runtime] = JSON.parse(out) as Answer[];
  }
}, 900_000);

afterAll(() => {
  if (temp !== "") rmSync(temp, { recursive: true, force: true });
});

describe.each(Object.keys(RUNTIMES) as Runtime[])("the package in %s", (runtime) => {
  it("gives every vector's, lifecycle path's and example's expected answer", (context) => {
    if (skipped[runtime] !== undefined) return context.skip();
    const expected = bySuite(vectors.expected);
    const actual = bySuite(answers[runtime]!);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const suite of Object.keys(expected)) expect(actual[suite], `${runtime}: ${suite}`).toEqual(expected[suite]);
  });
});
