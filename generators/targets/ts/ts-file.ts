// One TypeScript module being emitted (protobuf-es's GeneratedFile is the model): the emitter
// prints the body and asks the file for every name that lives in another module; the file
// writes the import lines from those requests, with paths relative to itself. The module is
// written once, as TypeScript, and ships as the `.js` and `.d.ts` the TypeScript compiler derives
// from it (transpile.ts), so code and declarations cannot drift apart.
//
// An import no line of the body uses is an error when the file is rendered: the generated
// package never carries an unused import (ts-modules-compile.test.ts tests both, and compiles
// every emitted module with noUnusedLocals).
import { posix } from "node:path";
import { runtimeSymbol, type ContractId } from "../../emit/runtime-contract.js";
import type { OutputFile } from "../../model/types.js";
import { transpileTypeScript } from "./transpile.js";

interface Imported {
  /** The exported name in the other module ("*" for a namespace import). */
  readonly name: string;
  /** Whether the name is only used as a type (import type: nothing at run time). */
  typeOnly: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export class TsFile {
  /** Module path relative to the package root; ends with `.ts`. */
  readonly path: string;
  /** The spec files the module is generated from (OutputFile.sources). */
  readonly sources: readonly string[];
  private readonly leading: string[] = [];
  private readonly body: string[] = [];
  /** Module (package-root relative, `.js`) -> local name -> what it imports. Insertion ordered. */
  private readonly imports = new Map<string, Map<string, Imported>>();
  /**
   * Modules in the order their first value was requested: the order of the JS import lines, which
   * is the order a bundler concatenates modules in (and gzip sizes depend on it).
   */
  private readonly valueOrder: string[] = [];

  constructor(path: string, sources: readonly string[]) {
    if (!path.endsWith(".ts") || path.endsWith(".d.ts")) throw new Error(`TsFile: ${path} is not a TypeScript module path`);
    this.path = path;
    this.sources = sources;
  }

  /** A line comment on top of the module (why it exists), kept in both the `.js` and the `.d.ts`. */
  comment(...lines: string[]): void {
    this.leading.push(...lines.map((line) => `// ${line}`.trimEnd()));
  }

  /** Appends body text; each argument is one or more whole lines. */
  print(...lines: string[]): void {
    this.body.push(...lines);
  }

  /**
   * `name` exported by `module` (package-root relative, e.g. `runtime/validation.js`) as a value;
   * returns the local name to print (`as`, when given, renames it).
   */
  import(name: string, module: string, as: string = name): string {
    return this.request(name, module, as, false);
  }

  /** Like import, for a name used only as a type (`import type`). */
  importType(name: string, module: string, as: string = name): string {
    return this.request(name, module, as, true);
  }

  /** The whole of `module` as the namespace `as` (`import * as`). */
  importNamespace(module: string, as: string): string {
    return this.request("*", module, as, false);
  }

  /** A runtime contract function (generators/emit/runtime-contract.ts), from its runtime module. */
  runtime(id: ContractId): string {
    const symbol = runtimeSymbol("ts", id);
    return this.import(symbol.name, `runtime/${symbol.file.replace(/\.ts$/, ".js")}`);
  }

  /** A path from this module to `module` (package-root relative), as an import specifier. */
  relative(module: string): string {
    const path = posix.relative(posix.dirname(this.path), module);
    return path.startsWith(".") ? path : `./${path}`;
  }

  private request(name: string, module: string, as: string, typeOnly: boolean): string {
    if (!IDENTIFIER.test(as) || (name !== "*" && !IDENTIFIER.test(name))) throw new Error(`TsFile ${this.path}: cannot import ${JSON.stringify(name)} as ${JSON.stringify(as)}`);
    for (const [other, names] of this.imports) {
      const clash = names.get(as);
      if (clash !== undefined && (other !== module || clash.name !== name)) throw new Error(`TsFile ${this.path}: ${as} would name both ${clash.name} of ${other} and ${name} of ${module}`);
    }
    const names = this.imports.get(module) ?? new Map<string, Imported>();
    this.imports.set(module, names);
    const known = names.get(as);
    if (known === undefined) names.set(as, { name, typeOnly });
    else known.typeOnly &&= typeOnly;
    if (!typeOnly && !this.valueOrder.includes(module)) this.valueOrder.push(module);
    return as;
  }

  /** The module's TypeScript text. Throws when a requested import is not used by the body. */
  render(): string {
    const body = this.body.join("\n");
    const valueLines: string[] = [];
    const typeLines: string[] = [];
    for (const [module, names] of this.imports) {
      const specifier = JSON.stringify(this.relative(module));
      const entries = [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [local] of entries) {
        if (!new RegExp(`(?<![\\w$.])${local.replace(/\$/g, "\\$")}(?![\\w$])`).test(body)) throw new Error(`TsFile ${this.path}: imports ${local} from ${module} but never uses it`);
      }
      const spec = ([local, i]: [string, Imported]): string => (i.name === local ? local : `${i.name} as ${local}`);
      const namespace = entries.find(([, i]) => i.name === "*");
      const values = entries.filter(([, i]) => i.name !== "*" && !i.typeOnly).map(spec);
      const types = entries.filter(([, i]) => i.name !== "*" && i.typeOnly).map(spec);
      const at = this.valueOrder.indexOf(module);
      if (namespace !== undefined) valueLines[at] = `import * as ${namespace[0]} from ${specifier};`;
      if (values.length > 0) valueLines[at] = `${valueLines[at] === undefined ? "" : `${valueLines[at]}\n`}import { ${values.join(", ")} } from ${specifier};`;
      if (types.length > 0) typeLines.push(`import type { ${types.join(", ")} } from ${specifier};`);
    }
    const lines = [...valueLines.filter((line) => line !== undefined), ...typeLines];
    const head = [...this.leading, ...lines].join("\n");
    return `${head}${head === "" ? "" : "\n\n"}${body.trim()}\n`;
  }

  /** What ships for the module: its `.js` and `.d.ts`, each under the module's leading comment. */
  outputs(): OutputFile[] {
    const compiled = transpileTypeScript(posix.basename(this.path), this.render(), `generated/ts/${this.path} (emitted TypeScript)`);
    const leading = this.leading.length === 0 ? "" : this.leading.join("\n") + "\n";
    const base = this.path.replace(/\.ts$/, "");
    return [
      { path: `${base}.js`, contents: leading + stripLeading(compiled.js, this.leading), sources: [...this.sources] },
      { path: `${base}.d.ts`, contents: leading + stripLeading(compiled.dts, this.leading), sources: [...this.sources] },
    ];
  }
}

/** The compiler keeps the leading comment when the first import survives, drops it when it is elided. */
function stripLeading(text: string, leading: readonly string[]): string {
  const head = leading.join("\n") + "\n";
  return leading.length > 0 && text.startsWith(head) ? text.slice(head.length) : text;
}

/** Every module's `.js` and `.d.ts`, in the order given. */
export function shipModules(files: readonly TsFile[]): OutputFile[] {
  return files.flatMap((file) => file.outputs());
}
