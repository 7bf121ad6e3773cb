// Import tracking for generated Kotlin: a template lists every import its declarations may need,
// and this pass keeps only those the file's code uses, so no generated file imports a symbol it
// never names (39 of 51 message files did). "Uses" means the simple name (or its `as` alias)
// appears as a word in a line that is neither an import, the package line nor a comment.

const COMMENT_LINE = /^\s*(\/\/|\/\*\*?|\*)/;

/** The simple name an import brings into scope: `a.b.C` → `C`, `a.b.C as D` → `D`. */
export function importedName(line: string): string {
  const path = line.replace(/^import\s+/, "").trim();
  const alias = / as (\w+)$/.exec(path);
  return alias !== null ? alias[1]! : path.slice(path.lastIndexOf(".") + 1);
}

/** The file's code lines: no imports, package line or comment lines. */
function codeOf(lines: readonly string[]): string {
  return lines.filter((l) => !/^(import|package)\s/.test(l) && !COMMENT_LINE.test(l)).join("\n");
}

/** The imports of a Kotlin source that its code never names (a star import names nothing to look for, so it counts as used). */
export function unusedImports(source: string): string[] {
  const lines = source.split("\n");
  const code = codeOf(lines);
  return lines
    .filter((l) => /^import\s/.test(l) && !l.trim().endsWith(".*") && !new RegExp(`\\b${importedName(l)}\\b`).test(code))
    .map((l) => l.replace(/^import\s+/, "").trim());
}

/** The source without the imports its code never names. */
export function dropUnusedImports(source: string): string {
  const unused = new Set(unusedImports(source));
  return source
    .split("\n")
    .filter((l) => !(/^import\s/.test(l) && unused.has(l.replace(/^import\s+/, "").trim())))
    .join("\n");
}
