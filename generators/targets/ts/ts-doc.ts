// JSDoc text of the TypeScript target: spec prose inside `/** ... */` comments of generated/ts.
// A `*/` in the prose would end the comment early, so it is written `*\/` (which JSDoc shows as
// `*/`); JavaScript block comments do not nest, so `/*` needs nothing.

/** Prose on one comment line: whitespace runs (line breaks included) become one space. */
export function jsdocText(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\*\//g, "*\\/").trim();
}

/** A JSDoc block wrapped at 100 columns: one line `/** text *\/` when it fits, else ` * ` lines. */
export function jsdocBlock(text: string, indent = ""): string {
  const words = text.replace(/\*\//g, "*\\/").split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line !== "" && indent.length + 3 + line.length + 1 + w.length > 100) {
      lines.push(line);
      line = w;
    } else line = line === "" ? w : `${line} ${w}`;
  }
  if (line !== "") lines.push(line);
  if (lines.length === 1 && indent.length + 7 + lines[0]!.length <= 100) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join("")}${indent} */\n`;
}
