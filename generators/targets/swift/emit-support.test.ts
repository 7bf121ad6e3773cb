// The Swift emitter's shared helpers against hand-written expectations: Swift literals of JSON
// values (TSPL "Lexical Structure": Bool literals, integer and floating literals, string literals),
// the package layout SwiftPM reads (Package.swift template: target paths), and the text tidying.
import { describe, expect, it } from "vitest";
import { SOURCES, TESTS, article, jsonValueLiteral, render, swiftLiteral, tidy } from "./emit-support.js";

describe("Swift literals of JSON values", () => {
  it.each([
    ["a\"b", '"a\\"b"'],
    [true, "true"],
    [false, "false"],
    [0, "0"],
    [-12, "-12"],
    [1.5, "1.5"],
  ] as const)("swiftLiteral(%j) is %s", (value, swift) => expect(swiftLiteral(value)).toBe(swift));
  it.each([[null], [[1]], [{ a: 1 }]] as const)("refuses %j, which has no Swift scalar literal", (value) => {
    expect(() => swiftLiteral(value as never)).toThrow(`no Swift literal for ${JSON.stringify(value)}`);
  });

  it.each([
    ["x\n", '.string("x\\n")'],
    [true, ".bool(true)"],
    [false, ".bool(false)"],
    [3, ".number(3)"],
    // A valid Swift floating-point literal (exponent with a sign); 1e21 has no exact Int form.
    [1e21, ".number(1e+21)"],
    [-0.25, ".number(-0.25)"],
    [null, ".null"],
    [[], ".array([])"],
    [[1, "a", null], '.array([.number(1), .string("a"), .null])'],
    [{}, ".object(JSONObject(pairs: []))"],
    [{ b: [true], "a\"": { c: 2 } }, '.object(JSONObject(pairs: [("b", .array([.bool(true)])), ("a\\"", .object(JSONObject(pairs: [("c", .number(2))])))]))'],
  ] as const)("jsonValueLiteral(%j) is %s", (value, swift) => expect(jsonValueLiteral(value as never)).toBe(swift));
});

describe("text helpers", () => {
  it.each([
    ["Event", "an"],
    ["Install", "an"],
    ["Approval", "an"],
    ["Order", "an"],
    ["Update", "an"],
    ["Request", "a"],
    ["Yes", "a"],
    ["event", "a"],
    ["XEvent", "a"],
  ])("article(%s) is %s", (word, a) => expect(article(word)).toBe(a));

  it("drops blank lines after an opening brace and squeezes blank runs to one", () => {
    expect(tidy("struct A {\n\n\n    let x = 1\n}\n")).toBe("struct A {\n    let x = 1\n}\n");
    expect(tidy("a {\n  \n\t\nb")).toBe("a {\nb");
    expect(tidy("a\n\n\n\nb\n\nc\n")).toBe("a\n\nb\n\nc\n");
    expect(tidy("a\n \n  \nb")).toBe("a\n\nb");
    expect(tidy("a\n\nb")).toBe("a\n\nb");
    // One blank line stays as it is, spaces and all.
    expect(tidy("a\n  \nb")).toBe("a\n  \nb");
    expect(tidy("{\nx")).toBe("{\nx");
    expect(tidy("a {\n\nb {\n\n c")).toBe("a {\nb {\n c");
    expect(tidy("a\n\n\nb\n\n\nc")).toBe("a\n\nb\n\nc");
  });
});

describe("package layout", () => {
  it("puts sources and tests where Package.swift's targets look for them", () => {
    const manifest = render("Package.swift", { package: "AgentContracts", module: "AgentContracts" });
    expect(SOURCES).toBe("Sources/AgentContracts");
    expect(TESTS).toBe("Tests/AgentContractsTests");
    expect(manifest).toContain(`.target(name: "AgentContracts", path: "${SOURCES}")`);
    expect(manifest).toContain(`path: "${TESTS}"`);
  });
  it("renders values as they are (Swift, not HTML: no entity escaping)", () => {
    expect(render("README.md", { package: "P", module: "M", version: "1.0.0-<&\">", messageCount: 1, lifecycleCount: 2 })).toContain('Version 1.0.0-<&">');
  });
  it("fails on a missing context value instead of rendering it empty", () => {
    expect(() => render("README.md", { package: "P", module: "M", version: "1" })).toThrow(/messageCount/);
  });
});
