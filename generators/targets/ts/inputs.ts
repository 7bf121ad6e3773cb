// The TypeScript target's inputs stage: everything emit.ts needs besides the model, computed with
// I/O and asynchronous tools so that emitTypeScript stays pure and synchronous:
// the hand-written runtime (runtime/src/*.ts), transpiled to JS and declarations, and the licence.
// (Each protocol's types.d.ts is rendered from the shape model by ts-types.ts, in emit.)
import { readdirSync, readFileSync } from "node:fs";
import type { Model } from "../../model/types.js";
import { generatorHome } from "../../write/generator-home.mjs";
import { transpileTypeScript } from "./transpile.js";

/** A hand-written runtime file, e.g. `rules.ts`, and what ships for it. */
export interface TranspiledRuntime {
  name: string;
  js: string;
  dts: string;
}

export interface TsInputs {
  runtime: TranspiledRuntime[];
  /** The Apache-2.0 text shipped as generated/ts/LICENSE (package-files/README.md names its source). */
  license: string;
}

export async function readTsInputs(root: string, model: Model): Promise<TsInputs> {
  const home = generatorHome(root);
  const license = readFileSync(`${home}/generators/targets/ts/package-files/LICENSE`, "utf8");
  return { runtime: readRuntime(home).map((source) => ({ name: source.name, ...transpileRuntime(source) })), license };
}

interface RuntimeSource {
  name: string;
  text: string;
}

function readRuntime(root: string): RuntimeSource[] {
  const dir = `${root}/generators/targets/ts/runtime/src`;
  return readdirSync(dir)
    .filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

function transpileRuntime(source: RuntimeSource): { js: string; dts: string } {
  return transpileTypeScript(source.name, source.text, `generators/targets/ts/runtime/src/${source.name}`);
}
