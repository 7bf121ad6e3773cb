// Records ECMAScript JSON.parse's verdict on JSON-like texts, the oracle the lenient readers
// (TS lenient-json.ts, Kotlin LenientJson.kt) state they follow: null unless the text parses to an
// object, else that object's string-valued members. Inputs: a hand-written table of grammar edges,
// generated objects written with every whitespace, escape and number form, and those texts damaged
// one character at a time. A seeded generator, so a rerun writes the same file.
// Run: node property-tests/oracle-vectors/lenient-json/make-verdicts.mjs
import { writeFileSync } from "node:fs";

/** JSON.parse's answer: null, or the string-valued members sorted by key (UTF-16 code-unit order). */
export function verdict(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.entries(value).filter(([, v]) => typeof v === "string").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// Grammar edges, each named for the rule it pins; the readers' own quirks named where they matter.
const TABLE = [
  // the whole text: one object, JSON whitespace (space, tab, LF, CR) only around it
  "{}", " {}", "{} ", "\t\r\n{\t\r\n}\t\r\n", "", " ", "[]", '"s"', "1", "null", "true", '{"a":"b"} {}', '{"a":"b"}x', '{"a":"b"}}',
  "\ufeff{}", "{}\u00a0", "\u000b{}", "{}\u000c", "\u2028{}", "x{}", "{",
  // members, commas, colons and the whitespace beside each
  "{ }", '{"a":"b"}', '{ "a":"b"}', '{"a" :"b"}', '{"a": "b"}', '{"a":"b" }', '{"a":"b", "c":"d"}', '{"a":"b" ,"c":"d"}',
  '{ "a" : "b" , "c" : "d" }', '{"a":"b"\n,\n"c":"d"}', '{"a":"b",}', '{,}', '{"a"}', '{"a":}', '{"a" "b"}', '{"a":"b"', '{"a":"b",',
  '{"a":"b" "c":"d"}', '{"a":"b";"c":"d"}', '{a:"b"}', "{'a':'b'}", '{"a":"b"/**/}', '{"a"::"b"}', '{:"b"}',
  // duplicate members: the last one wins, a later non-string removes the key
  '{"a":"x","a":"y"}', '{"a":"x","a":1}', '{"a":1,"a":"y"}', '{"a":"x","a":1,"a":"z"}', '{"a":"x","a":{},"b":"c"}', '{"__proto__":"p"}',
  '{"alg":"HS256","typ":"JWT"}', '{"alg":"","enc":" "}',
  // strings: short escapes, \u in every digit and letter range, surrogates, control characters
  '{"a":"\\"\\\\\\/\\b\\f\\n\\r\\t"}', '{"a":"\\n"}', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\u12G4"}', '{"a":"\\uABCD\\uabcd"}',
  '{"a":"\\u0030\\u0039\\u00aa\\u00ff\\u00AA\\u00FF"}', '{"a":"\\u0123\\u4567\\u89ab\\ucdef\\u89AB\\uCDEF"}',
  '{"a":"\\u00/0"}', '{"a":"\\u00:0"}', '{"a":"\\u00`0"}', '{"a":"\\u00g0"}', '{"a":"\\u00@0"}', '{"a":"\\u00G0"}',
  '{"a":"\\u/000"}', '{"a":"\\u0:00"}', '{"a":"\\u00f`"}', '{"a":"\\u000g"}', '{"a":"\\U0041"}', '{"a":"\\u+041"}', '{"a":"\\u-041"}', '{"a":"\\u 041"}',
  '{"a":"\\ud800"}', '{"a":"\\udfff"}', '{"a":"\\ud83d\\ude00"}', '{"\\ud83d\\ude00":"\\u00e9"}', '{"\\ud800":"k"}', '{"a":"\\u0000"}', '{"s":"a\\u0000b"}',
  '{"a":"tab\there"}', '{"a":"\u0001"}', '{"a":"\u001f"}', '{"a":" "}', '{"a":"b c"}', '{"a":"\u007f\u0080"}', '{"a":"\u2028\u2029"}',
  '{"a":"\ud83d\ude00"}', '{"a":"é€"}', '{"é":"€"}', '{"":""}', '{"a":"b\\', '{"a":"b', '{"a', '{"a":"\\', '{"a":"\\u', '{"a":"\\u004', '{"a":"\\u0041',
  // a broken string followed by text that would make a valid rest: the reader must stop at the break
  '{"a":"\\x,"b":"c"}', '{"a":"\\u,"b":"c"}', '{"a":"\\u}', '{"a":"\\u"}', '{"a":"\\u0"}', '{"a":"\\u00"}', '{"a":"\\u000"}',
  '{"a":"x\t,"b":"c"}', '{"a":"x\n}', '{"a":"x\r,"b":"c"}', '{"\\x":"b"}', '{"k\t":"v"}',
  // numbers: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, every digit at each place
  '{"n":0}', '{"n":-0}', '{"n":9}', '{"n":10}', '{"n":19}', '{"n":90}', '{"n":1234567890}', '{"n":-1}', '{"n":-9}',
  '{"n":01}', '{"n":00}', '{"n":-01}', '{"n":-}', '{"n":--1}', '{"n":-a}', '{"n":1.}', '{"n":.5}', '{"n":1.0}', '{"n":1.9}', '{"n":1.50}', '{"n":0.0}', '{"n":-0.5}',
  '{"n":1.5e+10}', '{"n":1E-2}', '{"n":1e}', '{"n":1e+}', '{"n":1e-}', '{"n":1e0}', '{"n":1e9}', '{"n":1e55}', '{"n":1E+09}', '{"n":0e0}', '{"n":-12.30e5}',
  '{"n":+1}', '{"n":0x1}', '{"n":1.2.3}', '{"n":1e5e5}', '{"n":2-1}', '{"n":1 }', '{"n":1,"s":"v"}', '{"n":1.5,"s":"v"}', '{"n":1e5,"s":"v"}',
  '{"n":1/}', '{"n":1:}', '{"n":Infinity}', '{"n":NaN}', '{"n":1.e5}', '{"n":1e.5}',
  // literals
  '{"t":true,"f":false,"z":null}', '{"t":tru}', '{"t":nul}', '{"t":fals}', '{"t":True}', '{"t":truex}', '{"t":true1}', '{"t":nulll}', '{"t":true}',
  '{"t":false}', '{"t":null}', '{"t":t}',
  // nested objects and arrays
  '{"o":{"a":"inner"},"s":"outer"}', '{"o":{"a":}}', '{"o":{"a":}', '{"o":{}}', '{"o":{ }}', '{"o":{"a":"b",}}', '{"o":{"a":"b"}', '{"o":{"\\x,"a":"b"}',
  '{"l":[]}', '{"l":[ ]}', '{"l":[1]}', '{"l":[ 1]}', '{"l":[1 ]}', '{"l":[1, 2]}', '{"l":[1,2,3]}', '{"l":["a"]}', '{"l":[1,"2",[3],{"a":4}]}',
  '{"l":[1,]}', '{"l":[,1]}', '{"l":[1 2]}', '{"l":[1}', '{"l":[1}}', '{"l":[}', '{"l":[', '{"l":[1', '{"l":[1:,"a":"b"}', '{"l":["\\x,"a":"b"}',
  '{"l":["\\x]}', '{"l":[tru]}', '{"l":[[]]}', '{"l":[[],[[]]]}', '{"l":[{}]}', '{"l":[{"a":"b"}],"s":"t"}', '{"a":[{"b":[{"c":"d"}]}],"e":"f"}',
  '{"l":[1]]}', '{"l":]}', '{"o":}}', '{"o":{}}}',
];

// A seeded generator (mulberry32), so the file is reproducible.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(16);
const int = (n) => Math.floor(random() * n);
const pick = (list) => list[int(list.length)];

const ws = () => Array.from({ length: pick([0, 0, 0, 1, 2]) }, () => pick([" ", "\t", "\n", "\r"])).join("");
const SHORT = { '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const UNITS = ["a", "z", " ", '"', "\\", "/", "\b", "\f", "\n", "\r", "\t", "\u0000", "\u001f", "\u007f", "é", "\u2028", "€", "0", "9", "A", "F", "g", "\ud800", "\udfff"];
function hex(code) {
  const h = code.toString(16).padStart(4, "0");
  return [...h].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join("");
}
function writeUnit(u) {
  const code = u.charCodeAt(0);
  const literal = code >= 0x20 && u !== '"' && u !== "\\" && (code < 0xd800 || code > 0xdfff);
  const r = random();
  if (r < 0.3) return `\\u${hex(code)}`;
  if (r < 0.6 && SHORT[u] !== undefined) return SHORT[u];
  return literal ? u : SHORT[u] ?? `\\u${hex(code)}`;
}
function str() {
  const n = pick([0, 1, 2, 3, 5]);
  let out = "";
  for (let k = 0; k < n; k++) {
    if (random() < 0.1) out += random() < 0.5 ? "\ud83d\ude00" : `\\u${hex(0xd83d)}\\u${hex(0xde00)}`;
    else out += writeUnit(pick(UNITS));
  }
  return `"${out}"`;
}
function digits(min) {
  let d = "";
  for (let k = 0, n = min + int(3); k < n; k++) d += String(int(10));
  return d;
}
function num() {
  let n = random() < 0.3 ? "-" : "";
  n += random() < 0.25 ? "0" : String(1 + int(9)) + digits(0);
  if (random() < 0.4) n += "." + digits(1);
  if (random() < 0.4) n += pick(["e", "E"]) + pick(["", "+", "-"]) + digits(1);
  return n;
}
const KEYS = ['"a"', '"b"', '"alg"', '"enc"', '""', '"\\u0061"', '"\\ud800"', '"é"'];
function value(depth) {
  const r = random();
  if (r < 0.4) return str();
  if (r < 0.6) return num();
  if (r < 0.7) return pick(["true", "false", "null"]);
  if (depth >= 3) return str();
  if (r < 0.85) return object(depth + 1);
  const items = Array.from({ length: int(4) }, () => ws() + value(depth + 1) + ws());
  return items.length === 0 ? `[${ws()}]` : `[${items.join(",")}]`;
}
function object(depth) {
  const members = Array.from({ length: int(5) }, () => `${ws()}${pick(KEYS)}${ws()}:${ws()}${value(depth)}${ws()}`);
  return members.length === 0 ? `{${ws()}}` : `{${members.join(",")}}`;
}

const DAMAGE = ["", "x", ",", ":", '"', "\\", "{", "}", "[", "]", "-", "+", ".", "e", "E", "0", "9", " ", "\t", "\u0001", "\u001f", "u", "/", "\u00a0", "\u000b"];
function damaged(text) {
  const i = int(text.length);
  switch (int(4)) {
    case 0: return text.slice(0, i) + text.slice(i + 1);
    case 1: return text.slice(0, i) + text[i] + text.slice(i);
    case 2: return text.slice(0, i) + pick(DAMAGE) + text.slice(i + 1);
    default: return text.slice(0, i);
  }
}

export function buildCases() {
  const cases = [];
  const seen = new Set();
  const add = (kind, text) => {
    if (seen.has(text)) return;
    seen.add(text);
    cases.push({ kind, text, members: verdict(text) });
  };
  for (const text of TABLE) add("table", text);
  const generated = [];
  while (generated.length < 500) {
    const text = ws() + object(0) + ws();
    generated.push(text);
    add("generated", text);
  }
  for (let k = 0; k < 1500; k++) add("damaged", damaged(pick(generated)));
  return cases;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cases = buildCases();
  const file = {
    about: "JSON.parse verdicts (Node " + process.versions.node + ", V8 " + process.versions.v8 + ") written by make-verdicts.mjs beside this file; see README.md",
    cases,
  };
  const out = new URL("verdicts.json", import.meta.url);
  // One case a line, and ASCII only (every other code unit as \uXXXX): invisible characters such as
  // U+FEFF or U+2028 stay visible in review, and the file survives any text pipeline.
  const ascii = JSON.stringify(file).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  writeFileSync(out, ascii.replace(/\{"kind"/g, '\n{"kind"') + "\n");
  const objects = cases.filter((c) => c.members !== null).length;
  console.log(`${cases.length} cases (${objects} objects, ${cases.length - objects} refused) -> ${out.pathname}`);
}
