// The contract every target implements (protoc-gen-es's createEcmaScriptPlugin is the model): a
// declaration the pipeline loops over, so the pipeline knows no target's files, folders or header
// rule. Adding a target is one folder holding a `target.ts` and one line in registry.ts.
import type { SchemaSupport } from "../check/keywords.js";
import type { Model, OutputFile } from "../model/types.js";

/**
 * A language's naming service (quicktype's Namer, smithy's SymbolProvider): how spec names become
 * that language's names, in one place, so an emitter asks and never computes a name itself.
 */
export interface Naming {
  /** A type (class, struct, enum, union) from a schema title or message name. */
  type(title: string): string;
  /** A record member from its wire name. */
  member(wireName: string): string;
  /** An enum case from its wire value. */
  enumCase(value: string): string;
  /** A protocol constant (protocol.yaml `constants`) from its SCREAMING_SNAKE name. */
  constant(name: string): string;
  /** The file, relative to outDir, that holds a protocol's type of that name. */
  file(protocolId: string, typeName: string): string;
}

export interface Target<Inputs = unknown> {
  /** Short name, as `agent-contracts list --targets` prints it. */
  readonly id: string;
  readonly summary: string;
  /** Folder, relative to the repository root, that emit()'s paths are relative to ("" = the root). */
  readonly outDir: string;
  /** Folders, relative to the root, this target owns entirely: a file there it did not emit is stale. */
  readonly owns: readonly string[];
  /** The target's naming service, for a target that writes types of a language. */
  readonly naming?: Naming;
  /** Whether the writer puts the "do not edit" header on a file (path relative to outDir). */
  header(path: string): boolean;
  /**
   * The header's comment syntax per file-name ending (".kt", ".toml"); the longest matching
   * ending wins. Default: COMMENT_SYNTAX below. A header on a file type with no entry is an error.
   */
  readonly comments?: Readonly<Record<string, CommentSyntax>>;
  /**
   * The only place a target reads the disk or runs an asynchronous tool: hand-written runtime
   * sources, case files, compiler output. Whatever emit needs beyond the model comes from here.
   */
  inputs(root: string, model: Model): Inputs | Promise<Inputs>;
  /** Pure and synchronous: the same model and inputs give the same files, and nothing is written. */
  emit(model: Model, inputs: Inputs): OutputFile[];
  /**
   * The JSON Schema keywords and formats the target's runtime enforces, one list each (its
   * schema-support.ts); `generate` refuses a spec using one that a registered target lacks.
   * Absent for a target that validates no messages (coverage, paths).
   */
  readonly schemaSupport?: SchemaSupport;
}

/** Identity with inference, so a target's Inputs type flows from inputs() to emit(). */
export function defineTarget<Inputs>(target: Target<Inputs>): Target<Inputs> {
  return target;
}

/** JSON carries no comment syntax: every text output but JSON gets the header. */
export function notJson(path: string): boolean {
  return !path.endsWith(".json");
}

/** How a file type writes the one-line header comment: `open text` (a line comment) or `open text close` (a block). */
export interface CommentSyntax {
  readonly open: string;
  readonly close?: string;
}

const SLASHES: CommentSyntax = { open: "//" };
const HASH: CommentSyntax = { open: "#" };
const MARKUP: CommentSyntax = { open: "<!--", close: "-->" };

/**
 * The comment syntax of common file types, by file-name ending: what a target declares as its
 * `comments` unless it states its own. A file type missing here gets no guessed syntax: the
 * pipeline refuses to put a header on it (commentSyntaxFor).
 */
export const COMMENT_SYNTAX: Readonly<Record<string, CommentSyntax>> = {
  ".ts": SLASHES,
  ".js": SLASHES,
  ".mjs": SLASHES,
  ".kt": SLASHES,
  ".kts": SLASHES,
  ".swift": SLASHES,
  ".java": SLASHES,
  ".md": MARKUP,
  ".html": MARKUP,
  ".xml": MARKUP,
  ".toml": HASH,
  ".py": HASH,
  ".yaml": HASH,
  ".yml": HASH,
  ".sh": HASH,
  ".properties": HASH,
};

/**
 * The header's comment syntax for `path` (relative to outDir), or undefined when the target puts
 * no header on it. Throws when the target wants a header on a file type it declares no syntax for.
 */
export function commentSyntaxFor(target: Pick<Target, "id" | "header" | "comments">, path: string): CommentSyntax | undefined {
  if (!target.header(path)) return undefined;
  const table = target.comments ?? COMMENT_SYNTAX;
  const ending = Object.keys(table)
    .filter((end) => path.endsWith(end))
    .sort((a, b) => b.length - a.length)[0];
  if (ending === undefined) throw new Error(`target ${target.id} puts a header on ${path} but declares no comment syntax for its file type (Target.comments)`);
  return table[ending];
}
