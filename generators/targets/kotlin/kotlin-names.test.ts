// The Kotlin namer against hand-written tables: spec names and the Kotlin they must become, the
// keyword lists of kotlinlang.org/docs/keyword-reference.html, and the string escapes of
// kotlinlang.org/docs/strings.html / characters.html (\t \b \n \r \' \" \\ \$ and \uXXXX).
import { describe, expect, it } from "vitest";
import { camelCase, checkDistinct, identifier, kdoc, pascalCase, protocolPackage, screamingSnake, stringLiteral } from "./kotlin-names.js";

describe("Kotlin names", () => {
  const table: [spell: (n: string) => string, input: string, expected: string][] = [
    [camelCase, "request_id", "requestId"],
    [camelCase, "requestId", "requestId"],
    [camelCase, "x-trace-id", "xTraceId"],
    [pascalCase, "idempotency_mode", "IdempotencyMode"],
    [pascalCase, "agent-connector", "AgentConnector"],
    [screamingSnake, "event-stream", "EVENT_STREAM"],
    [screamingSnake, "SourceUsed", "SOURCE_USED"],
    [screamingSnake, "not_started", "NOT_STARTED"],
    [screamingSnake, "2xx", "V_2XX"],
    [screamingSnake, "x2", "X2"],
    [screamingSnake, "HTTPServer", "HTTP_SERVER"],
    [identifier, "when", "`when`"],
    [identifier, "object", "`object`"],
    [identifier, "type", "type"],
    [identifier, "value", "value"],
    [identifier, "2fa", "`2fa`"],
    [identifier, "fa2", "fa2"],
    [protocolPackage, "agent-connector", "dev.agentcontracts.agentconnector"],
    [protocolPackage, "a2a", "dev.agentcontracts.a2a"],
    [stringLiteral, 'a"b$c\\', '"a\\"b\\$c\\\\"'],
    [stringLiteral, "line\nnext\u0001", '"line\\nnext\\u0001"'],
  ];
  it.each(table)("%o(%s) is %s", (spell, input, expected) => {
    expect(spell(input)).toBe(expected);
  });

  it("refuses names without letters or digits", () => {
    expect(() => camelCase("--")).toThrow("'--' has no letters or digits to name a Kotlin property");
    expect(() => screamingSnake("_")).toThrow("'_' has no letters or digits to name an enum constant");
  });

  it("refuses two wire names that become one Kotlin name", () => {
    expect(() => checkDistinct("class Demo", ["request_id", "requestId"], camelCase)).toThrow("Kotlin class Demo: 'request_id' and 'requestId' both become 'requestId'");
    expect(() => checkDistinct("enum Mode", ["not-started", "not_started"], screamingSnake)).toThrow(/both become 'NOT_STARTED'/);
    expect(() => checkDistinct("class Demo", ["a", "b"], camelCase)).not.toThrow();
  });

  it("refuses a protocol id that gives no Kotlin package segment", () => {
    // Hard keywords cannot be a package segment without backticks; nor can a leading digit.
    expect(() => protocolPackage("in")).toThrow("Kotlin: protocol 'in' gives no valid package name segment ('in')");
    expect(() => protocolPackage("-2-hub")).toThrow(/protocol '-2-hub' gives no valid package name segment \('2hub'\)/);
    expect(() => protocolPackage("--")).toThrow(/\(''\)/);
    expect(protocolPackage("in-box")).toBe("dev.agentcontracts.inbox");
  });
});

// kotlinlang.org/docs/keyword-reference.html, "Hard keywords" (the identifier-shaped ones; `as?`,
// `!in`, `!is` are operators). These cannot name a property without backticks.
const HARD = [
  "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
  "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var",
  "when", "while",
];
// Same page: soft keywords, modifier keywords and special identifiers are valid property names.
const NOT_HARD = [
  "by", "catch", "constructor", "delegate", "dynamic", "field", "file", "finally", "get", "import", "init", "param",
  "property", "receiver", "set", "setparam", "value", "where", "abstract", "actual", "annotation", "companion", "const",
  "crossinline", "data", "enum", "expect", "external", "final", "infix", "inline", "inner", "internal", "lateinit",
  "noinline", "open", "operator", "out", "override", "private", "protected", "public", "reified", "sealed", "suspend",
  "tailrec", "vararg", "it", "type", "When", "values",
];

describe("Kotlin keywords", () => {
  it.each(HARD)("hard keyword %s is backticked", (word) => expect(identifier(word)).toBe(`\`${word}\``));
  it.each(NOT_HARD)("%s is no hard keyword and stays bare", (word) => expect(identifier(word)).toBe(word));
});

describe("Kotlin string literals", () => {
  const table: [string, string][] = [
    ["", '""'],
    ["plain", '"plain"'],
    ["$name and ${x}", '"\\$name and \\${x}"'],
    ["tab\there\rcr", '"tab\\there\\rcr"'],
    ["\u0000", '"\\u0000"'],
    ["\b", '"\\u0008"'],
    ["\u001f", '"\\u001f"'],
    [" ~", '" ~"'],
    ["\u007f", '"\\u007f"'],
    ["\u0080\u009f", '"\\u0080\\u009f"'],
    ["\u00a0é", '"\u00a0é"'],
    ["'single'", "\"'single'\""],
    ["😀", '"😀"'],
    // A lone surrogate written raw would become U+FFFD in the UTF-8 file; \uD800 keeps it.
    ["\ud800", '"\\ud800"'],
    ["a\udfffb", '"a\\udfffb"'],
    ["\ud7ff\ue000", '"\ud7ff\ue000"'],
  ];
  it.each(table)("stringLiteral(%j) is %s", (value, kotlin) => expect(stringLiteral(value)).toBe(kotlin));
});

describe("KDoc", () => {
  it("writes nothing for no text", () => {
    expect(kdoc(undefined, "")).toEqual([]);
    expect(kdoc(" \n\t ", "    ")).toEqual([]);
  });
  it("keeps one line as /** text */ with whitespace collapsed", () => {
    expect(kdoc("  one\n two\tthree  ", "    ")).toEqual(["    /** one two three */"]);
  });
  it("keeps KDoc closed when the text holds */", () => {
    expect(kdoc("ends */ early", "")).toEqual(["/** ends *&#47; early */"]);
    expect(kdoc("accept: */*", "")).toEqual(["/** accept: *&#47;* */"]);
  });
  it("opens no nested comment when the text holds /* (Kotlin block comments nest)", () => {
    expect(kdoc("image/* types", "")).toEqual(["/** image/&#42; types */"]);
    expect(kdoc("a /*/ b", "")).toEqual(["/** a /&#42;&#47; b */"]);
  });
  it("wraps so that indent + ' * ' + line stays within the width", () => {
    // width 20, indent 2: a line holds 15 characters.
    expect(kdoc("aaaaaaa bbbbbbb", "  ", 20)).toEqual(["  /** aaaaaaa bbbbbbb */"]);
    expect(kdoc("aaaaaaa bbbbbbbb", "  ", 20)).toEqual(["  /**", "   * aaaaaaa", "   * bbbbbbbb", "   */"]);
    expect(kdoc("aaa bbb ccc ddd eee", "", 11)).toEqual(["/**", " * aaa bbb", " * ccc ddd", " * eee", " */"]);
    const words = Array.from({ length: 30 }, (_, i) => `w${String(i).padStart(2, "0")}`).join(" ");
    // Default width 100 with indent 4: 93 characters a line, 23 words of 3 letters and a space.
    const lines = kdoc(words, "    ");
    expect(lines.length).toBe(4);
    expect(lines[1]).toBe(`     * ${words.slice(0, 23 * 4 - 1)}`);
  });
  it("never splits a word longer than the width", () => {
    const long = "x".repeat(30);
    expect(kdoc(`a ${long} b`, "", 10)).toEqual(["/**", " * a", ` * ${long}`, " * b", " */"]);
    // First word too long: no empty line before it.
    expect(kdoc(long, "", 10)).toEqual([`/** ${long} */`]);
    expect(kdoc(`${long} b`, "", 10)).toEqual(["/**", ` * ${long}`, " * b", " */"]);
  });
});
