// The rule-pointer lint reads x-rules pointers as RFC 6901 does (section 4: "~1" is "/", "~0" is
// "~"), as every runtime's rule evaluator does. Hand-written schemas; the expectations are the
// RFC's own examples of escaped tokens.
import { describe, expect, it } from "vitest";
import { parseSpecText } from "../load/spec-file.js";
import type { SpecError } from "../model/types.js";
import { lintRulePointers } from "./lints.js";

function lint(rules: object[]): string[] {
  const schema = {
    $id: "https://example.invalid/M.json",
    type: "object",
    properties: {
      "c*/d": { type: "integer" },
      "m~n": { type: "integer" },
      a: { type: "object", properties: { b: { type: "object", properties: { a: { type: "integer" } } } } },
      u: { oneOf: [{ type: "object", properties: { x: { type: "object", properties: { x: { type: "integer" } } } } }, { type: "string" }] },
      constructor: { type: "integer" },
    },
    "x-rules": rules,
  };
  const parsed = parseSpecText("spec/p/messages/M.yaml", JSON.stringify(schema));
  if (!parsed.ok) throw new Error("fixture does not parse");
  const errors: SpecError[] = [];
  lintRulePointers(parsed.spec, new Map(), errors);
  return errors.map((e) => `${e.pointer} ${e.message}`);
}

describe("x-rules pointers (RFC 6901)", () => {
  it("accepts escaped tokens: /c*~1d names the property c*/d, /m~0n names m~n", () => {
    expect(lint([{ left: "/c*~1d", right: "/m~0n" }])).toEqual([]);
  });
  it("refuses the unescaped spelling, which names c* then d", () => {
    expect(lint([{ left: "/c*/d", right: "/m~n" }])).toEqual(["/x-rules/0/left /c*/d is not a property path of this message", "/x-rules/0/right /m~n is not a JSON pointer (RFC 6901: it starts with \"/\", and \"~\" is written \"~0\", \"/\" inside a name \"~1\")"]);
    expect(lint([{ left: "c*~1d" }])[0]).toMatch(/^\/x-rules\/0\/left c\*~1d is not a JSON pointer/);
  });
  it("follows a repeated name and union branches to the right token", () => {
    expect(lint([{ left: "/a/b/a", right: "/u/x/x" }])).toEqual([]);
    expect(lint([{ left: "/a/b/b", right: "/u/x/y" }])).toEqual(["/x-rules/0/left /a/b/b is not a property path of this message", "/x-rules/0/right /u/x/y is not a property path of this message"]);
  });
  it("a name Object.prototype has is a property only when the schema declares it", () => {
    expect(lint([{ left: "/constructor", right: "/toString" }])).toEqual(["/x-rules/0/right /toString is not a property path of this message"]);
  });
});
