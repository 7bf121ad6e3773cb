// The YAML library reports a repeated key as "Map keys must be unique" at the second key, without
// the key or where it sits. On that error path only, the file is parsed again with repeats
// allowed and every map is walked, so the error names the key and its JSON pointer.
import { isMap, isScalar, isSeq, parseDocument, type LineCounter, type Node } from "yaml";
import type { SpecError } from "../model/types.js";
import { joinPointer } from "./spec-file.js";

export function duplicateKeyErrors(file: string, text: string, lineCounter: LineCounter): SpecError[] {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, version: "1.2", schema: "core" });
  const errors: SpecError[] = [];
  const walk = (node: Node | null | undefined, pointer: string): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const name = isScalar(key) ? String(key.value) : undefined;
        if (name !== undefined && seen.has(name)) {
          const pos = lineCounter.linePos(key?.range?.[0] ?? 0);
          errors.push({ file, line: pos.line, column: pos.col, pointer: joinPointer(pointer, name), message: `duplicate key ${JSON.stringify(name)}: the value is given twice in this map`, lint: "syntax" });
        }
        if (name !== undefined) seen.add(name);
        walk(pair.value as Node, name === undefined ? pointer : joinPointer(pointer, name));
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, joinPointer(pointer, i)));
  };
  walk(doc.contents, "");
  return errors;
}
