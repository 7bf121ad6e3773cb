// readJsonObjectStrings against ECMAScript's own JSON.parse, the grammar it states it follows: the
// same verdict on every text, and the same string-valued top-level members. A hand-written table of
// grammar edges, then generated JSON and damaged JSON. The only difference by design is the depth
// bound (512), checked on its own.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readJsonObjectStrings } from "../../generators/targets/ts/runtime/src/lenient-json.js";

/** What JSON.parse says: undefined unless an object, else its string members, sorted. */
function oracle(text: string): [string, string][] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return Object.entries(value as Record<string, unknown>)
    .filter((e): e is [string, string] => typeof e[1] === "string")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
function ours(text: string): [string, string][] | undefined {
  const m = readJsonObjectStrings(text);
  return m === undefined ? undefined : [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const TABLE = [
  '{}', ' {} ', '\t\r\n{\t\r\n}\t\r\n', '{ }', '{"a":"b"}', '{ "a" : "b" , "c" : "d" }', '{"a":"b",}', '{,}', '{"a"}', '{"a":}', '{"a" "b"}',
  '{"a":"b"', '{"a":"b"}x', '{"a":"b"}}', '[]', '"s"', '1', 'null', '', ' ', '{"a":"b"} {}', '{a:"b"}', "{'a':'b'}",
  '{"a":"x","a":"y"}', '{"a":"x","a":1}', '{"a":1,"a":"y"}', '{"__proto__":"p"}', '{"a":"\\ud800"}', '{"\\ud83d\\ude00":"\\u00e9"}',
  '{"a":"\\"\\\\\\/\\b\\f\\n\\r\\t"}', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\u12G4"}', '{"a":"\\uABCD\\uabcd"}', '{"a":"tab\there"}', '{"a":"\u0001"}', '{"a":"\u007f\u0080"}',
  '{"n":0}', '{"n":-0}', '{"n":01}', '{"n":-}', '{"n":1.}', '{"n":.5}', '{"n":1.5e+10}', '{"n":1E-2}', '{"n":1e}', '{"n":1e+}', '{"n":-12.30e5}', '{"n":+1}', '{"n":0x1}', '{"n":9}', '{"n":1.2.3}', '{"n":1e5e5}', '{"n":-01}', '{"n":2-1}',
  '{"t":true,"f":false,"z":null}', '{"t":tru}', '{"t":nul}', '{"t":True}', '{"t":truex}', '{"t":true1}',
  '{"o":{"a":"inner"},"s":"outer"}', '{"o":{"a":}}', '{"o":{}}', '{"o":{"a":"b",}}', '{"l":[]}', '{"l":[ ]}', '{"l":[1,"2",[3],{"a":4}]}', '{"l":[1,]}', '{"l":[,1]}', '{"l":[1 2]}', '{"l":[1}', '{"l":[}',
  '{"a":"b"\n,\n"c":"d"}', '{"a":"b"/**/}', '{"a":"b"}\u00a0', '\ufeff{}', '{"a":[{"b":[{"c":"d"}]}],"e":"f"}', '{"s":"a\\u0000b"}',
];

describe("readJsonObjectStrings = JSON.parse's string members", () => {
  for (const text of TABLE) it(JSON.stringify(text), () => expect(ours(text)).toEqual(oracle(text)));
  it("generated JSON objects", () => {
    const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
    fc.assert(fc.property(object, fc.integer({ min: 0, max: 3 }), (value, indent) => {
      const text = JSON.stringify(value, null, indent);
      expect(ours(text)).toEqual(oracle(text));
    }), { numRuns: 300 });
  });
  it("damaged JSON: one character deleted, doubled or replaced", () => {
    const object = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 });
    fc.assert(fc.property(object, fc.nat(), fc.constantFrom("", "x", ",", ":", '"', "\\", "{", "}", "[", "]", "-", ".", "e", "0", " ", "\u0001"), (value, at, ch) => {
      const text = JSON.stringify(value);
      const i = at % text.length;
      for (const damaged of [text.slice(0, i) + text.slice(i + 1), text.slice(0, i) + text[i] + text.slice(i), text.slice(0, i) + ch + text.slice(i + 1)]) {
        expect(ours(damaged), damaged).toEqual(oracle(damaged));
      }
    }), { numRuns: 400 });
  });
});

describe("the depth bound", () => {
  it("512 nested containers inside the object are read; deeper is refused (JSON.parse has no bound)", () => {
    const nest = (n: number, open: string, close: string) => `{"a":${open.repeat(n)}${close.repeat(n)},"s":"v"}`;
    expect(ours(nest(512, "[", "]"))).toEqual([["s", "v"]]);
    expect(ours(nest(514, "[", "]"))).toBeUndefined();
    const objects = (n: number) => `{"s":"v","a":${'{"b":'.repeat(n)}1${"}".repeat(n)}}`;
    expect(ours(objects(511))).toEqual([["s", "v"]]);
    expect(ours(objects(520))).toBeUndefined();
  });
});

describe("near misses JSON.parse refuses", () => {
  // A bad escape right before the character that would close the name or value, and a
  // non-u escape before four hex digits: each must make the whole text no object.
  const texts = ['{"\\::"v"}', '{"\\q":"v"}', '{"a":"\\:}', '{"a":"\\q"}', '{"a":"\\x0041"}', '{"a":"\\z1234","b":"c"}'];
  for (const text of texts) it(JSON.stringify(text), () => expect(ours(text)).toEqual(oracle(text)));
  it("the bound is at 512 nested objects inside the member: 512 are read, 513 are not", () => {
    const objects = (n: number) => `{"s":"v","a":${'{"b":'.repeat(n)}1${"}".repeat(n)}}`;
    expect(ours(objects(512))).toEqual([["s", "v"]]);
    expect(ours(objects(513))).toBeUndefined();
  });
});
