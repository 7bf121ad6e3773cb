// What the loader checks before it reads a spec file (issue 31): a spec project may arrive as
// someone else's repository or tarball. A symbolic link that leads outside spec/ is never read
// through (`spec/common/leak.yaml -> ~/.kube/config` would otherwise be embedded in the generated
// packages); a link from inside spec/ to a file inside it may stay, and is read resolved. Sizes
// and the file count are checked with lstat/stat before a byte is read, so an oversize file is
// refused at once with no memory spent on it; nesting depth is checked on the YAML library's
// concrete syntax tree, before the document (and every recursive stage after it) is built.
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { sep } from "node:path";
import { Composer, Parser, YAMLParseError, type CST, type Document, type DocumentOptions, type LineCounter, type ParseOptions, type SchemaOptions } from "yaml";
import type { SpecError } from "../model/types.js";
import { MAX_SPEC_DEPTH, MAX_SPEC_FILE_BYTES, MAX_SPEC_FILES, MAX_SPEC_TOTAL_BYTES } from "./spec-limits.mjs";

export { MAX_SPEC_DEPTH, MAX_SPEC_FILE_BYTES, MAX_SPEC_FILES, MAX_SPEC_TOTAL_BYTES };

/** What one load has read so far: every read through readSpecFile with the same budget counts against the totals. */
export interface SpecReadBudget {
  files: number;
  bytes: number;
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
}

export function specReadBudget(maxFiles = MAX_SPEC_FILES, maxTotalBytes = MAX_SPEC_TOTAL_BYTES): SpecReadBudget {
  return { files: 0, bytes: 0, maxFiles, maxTotalBytes };
}

const error = (file: string, message: string, lint: string): SpecError => ({ file, line: 1, column: 1, pointer: "", message, lint });
const MIB = 1024 * 1024;
const size = (bytes: number) => (bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${bytes} bytes`);

/**
 * Where `rel` (a root-relative path under spec/) really is, or an error naming the first link on
 * the way that leads outside spec/ and where it leads. Works for folders too.
 */
export function resolveInsideSpec(root: string, rel: string): { ok: true; real: string } | { ok: false; error: SpecError } {
  let specRoot: string;
  try {
    specRoot = realpathSync(`${root}/spec`);
  } catch (e) {
    return { ok: false, error: error(rel, `cannot read the spec folder: ${(e as Error).message}`, "io") };
  }
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const part = parts.slice(0, i).join("/");
    const full = `${root}/${part}`;
    let linked: string | undefined;
    try {
      linked = lstatSync(full).isSymbolicLink() ? readlinkSync(full) : undefined;
    } catch {
      break; // missing: the read below reports it
    }
    if (linked === undefined || part === "spec") continue;
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      return { ok: false, error: error(rel, `${part} is a symbolic link to ${linked}, which does not exist`, "spec-link") };
    }
    if (!inside(specRoot, real)) {
      return { ok: false, error: error(rel, `${part} is a symbolic link to ${linked}, which leads outside spec/ (to ${real}); the loader never reads through it: copy the file into spec/ instead`, "spec-link") };
    }
  }
  try {
    const real = realpathSync(`${root}/${rel}`);
    if (!inside(specRoot, real)) return { ok: false, error: error(rel, `resolves to ${real}, outside spec/; the loader never reads outside it`, "spec-link") };
    return { ok: true, real };
  } catch (e) {
    return { ok: false, error: error(rel, `cannot read file: ${(e as Error).message}`, "io") };
  }
}

/** Both real paths (realpathSync). */
function inside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(`${dir}${sep}`);
}

/** Checks `real` (resolved by resolveInsideSpec) is a regular file within the per-file and the budget's limits, and charges the budget. */
export function admitSpecFile(rel: string, real: string, budget: SpecReadBudget, maxFileBytes = MAX_SPEC_FILE_BYTES): SpecError | undefined {
  const stat = statSync(real);
  if (!stat.isFile()) return error(rel, "not a regular file (a device, pipe or socket): a spec file must be a file", "spec-file-type");
  if (stat.size > maxFileBytes) return error(rel, `${size(stat.size)}: over the limit of ${size(maxFileBytes)} for one spec file (not read)`, "spec-file-too-large");
  if (budget.files + 1 > budget.maxFiles) return error(rel, `more than ${budget.maxFiles} spec files: over the limit on the number of files one load reads (not read)`, "spec-too-many-files");
  if (budget.bytes + stat.size > budget.maxTotalBytes) return error(rel, `spec files together over the limit of ${size(budget.maxTotalBytes)} (${size(budget.bytes + stat.size)} with this one; not read)`, "spec-total-too-large");
  budget.files += 1;
  budget.bytes += stat.size;
  return undefined;
}

/**
 * Parses YAML (or JSON) in two steps: the concrete syntax tree (the YAML library's Parser, which
 * keeps its own stack), then the document (its Composer, which recurses). Between them the tree's
 * nesting is measured without recursion; a file nested deeper than `maxDepth` is refused with
 * the offset where the limit was crossed, before a document is built.
 */
export function parseWithDepthLimit(
  text: string,
  lineCounter: LineCounter,
  options: ParseOptions & DocumentOptions & SchemaOptions,
  maxDepth = MAX_SPEC_DEPTH,
): { doc: Document.Parsed } | { tooDeep: number } {
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const offset = deepestOffset(tokens, maxDepth);
  if (offset !== undefined) return { tooDeep: offset };
  // As the library's parseDocument: the first document, and an error when the source holds more.
  const [doc, second] = new Composer(options).compose(tokens, true, text.length);
  if (second !== undefined) doc!.errors.push(new YAMLParseError([second.range[0], second.range[1]], "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
  return { doc: doc as Document.Parsed };
}

/** The offset of the first collection nested deeper than maxDepth, or undefined. */
function deepestOffset(tokens: readonly CST.Token[], maxDepth: number): number | undefined {
  const stack: { token: CST.Token | undefined; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (token === undefined) continue;
    switch (token.type) {
      case "document":
        stack.push({ token: token.value, depth });
        break;
      case "block-map":
      case "block-seq":
      case "flow-collection": {
        const inner = depth + 1;
        if (inner > maxDepth) return token.offset;
        for (const item of token.items) {
          const pair = item as { key?: CST.Token | null; value?: CST.Token };
          if (pair.key) stack.push({ token: pair.key, depth: inner });
          stack.push({ token: pair.value, depth: inner });
        }
        break;
      }
      default:
        break; // scalars, comments, directives: no children
    }
  }
  return undefined;
}
