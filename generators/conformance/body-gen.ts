// bodyGen: request (and scripted reply) bodies too large to write in a case file, built from a
// template so their size is exact.
import type { Json } from "./types.js";

/** bodyGen: the template with the string at `pointer` set to `unit` repeated; with `bytes`, exactly that many UTF-8 bytes in all. */
export function generateBody(template: Json, gen: { pointer: string; unit?: string; repeat?: number; bytes?: number; cycle?: Json[]; count?: number }): Buffer {
  const put = (value: Json): string => {
    const copy = JSON.parse(JSON.stringify(template)) as Json;
    const tokens = gen.pointer.slice(1).split("/");
    let cur = copy as Record<string, Json> | Json[];
    for (const t of tokens.slice(0, -1)) cur = (cur as Record<string, Json>)[t] as Record<string, Json>;
    (cur as Record<string, Json>)[tokens[tokens.length - 1]!] = value;
    return JSON.stringify(copy);
  };
  if (gen.cycle !== undefined) return Buffer.from(put(Array.from({ length: gen.count ?? 0 }, (_, i) => gen.cycle![i % gen.cycle!.length]!)), "utf8");
  const unit = gen.unit ?? "x";
  const set = (n: number): string => put(unit.repeat(n));
  if (gen.repeat !== undefined) return Buffer.from(set(gen.repeat), "utf8");
  const target = gen.bytes!;
  const unitBytes = Buffer.byteLength(JSON.stringify(unit).slice(1, -1), "utf8");
  const empty = Buffer.byteLength(set(0), "utf8");
  const n = Math.floor((target - empty) / unitBytes);
  let text = set(Math.max(0, n));
  // Top up with ASCII "x" units when the unit does not divide the remainder.
  const missing = target - Buffer.byteLength(text, "utf8");
  if (missing > 0) {
    const copy = JSON.parse(text) as Json;
    const tokens = gen.pointer.slice(1).split("/");
    let cur = copy as Record<string, Json>;
    for (const t of tokens.slice(0, -1)) cur = cur[t] as Record<string, Json>;
    const last = tokens[tokens.length - 1]!;
    cur[last] = (cur[last] as string) + "x".repeat(missing);
    text = JSON.stringify(copy);
  }
  const out = Buffer.from(text, "utf8");
  if (out.length !== target) throw new Error(`bodyGen cannot make exactly ${target} bytes`);
  return out;
}
