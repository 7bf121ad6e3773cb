// ajv's standalone code declares a schema object as a constant (`const schema52 = {...};`) when
// its code reads part of it: an error's `allowedValues` (`schema52.properties.kind.enum`), or the
// `properties` object whose keys `additionalProperties` looks up with hasOwnProperty. It declares
// the whole schema, x-rules, x-content-address and every nested subschema included, and a bundler
// cannot drop what an object literal holds: one message's parse carried each schema it reaches
// (about 6 KB minified for ConnectorManifest). Each constant is cut down to the members the code
// reads; a `properties` object read only by hasOwnProperty keeps its keys, each with the value 0.
// A constant read any other way (passed whole, or a member it does not have) is kept whole.
import type { JsonValue } from "../../model/types.js";

/** What the code reads of one value: all of it, only its keys (hasOwnProperty), or some members. */
interface Need {
  whole: boolean;
  keys: boolean;
  members: Map<string, Need>;
}

const newNeed = (): Need => ({ whole: false, keys: false, members: new Map() });
const DECLARATION = /^const (schema\d+) = (.*);$/gm;

export function pruneSchemaConstants(code: string): string {
  const hasOwn = /^const (func\d+) = Object\.prototype\.hasOwnProperty;$/m.exec(code)?.[1];
  const declared = new Map<string, string>();
  for (const m of code.matchAll(DECLARATION)) declared.set(m[1]!, m[2]!);
  if (declared.size === 0) return code;
  const needs = new Map<string, Need>([...declared.keys()].map((name) => [name, newNeed()]));
  // Every use: the name, then a chain of `.member` and `[index]` accesses.
  const use = /(?<![\w$.])(schema\d+)((?:\.[A-Za-z_$][\w$]*|\[\d+\])*)(?=([^\w$]|$))/g;
  for (const m of code.matchAll(use)) {
    const need = needs.get(m[1]!);
    if (need === undefined) continue;
    // The declaration itself is no use.
    if (code.slice(m.index - "const ".length, m.index) === "const " && code.startsWith(" = ", m.index + m[0].length)) continue;
    const path = [...m[2]!.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]/g)].map((p) => p[1] ?? p[2]!);
    const keysOnly = hasOwn !== undefined && code.startsWith(`${hasOwn}.call(`, m.index - `${hasOwn}.call(`.length) && code.startsWith(", ", m.index + m[0].length);
    let at = need;
    for (const segment of path) {
      let next = at.members.get(segment);
      if (next === undefined) at.members.set(segment, (next = newNeed()));
      at = next;
    }
    if (keysOnly) at.keys = true;
    else at.whole = true;
  }
  return code.replace(DECLARATION, (line, name: string, literal: string) => {
    const need = needs.get(name)!;
    if (need.whole) return line;
    return `const ${name} = ${JSON.stringify(prune(JSON.parse(literal) as JsonValue, need))};`;
  });
}

function prune(value: JsonValue, need: Need): JsonValue {
  if (need.whole || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    if (need.keys || [...need.members.keys()].some((k) => !/^\d+$/.test(k) || Number(k) >= value.length)) return value;
    return value.map((item, i) => (need.members.has(String(i)) ? prune(item, need.members.get(String(i))!) : null));
  }
  if ([...need.members.keys()].some((k) => !Object.hasOwn(value, k))) return value;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    const member = need.members.get(key);
    // defineProperty: a member named "__proto__" stays a member.
    if (member !== undefined) Object.defineProperty(out, key, { value: prune(value[key]!, member), enumerable: true, writable: true, configurable: true });
    else if (need.keys) Object.defineProperty(out, key, { value: 0, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
