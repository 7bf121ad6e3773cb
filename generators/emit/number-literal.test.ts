// Numbers at the edges (issue 31): the load stage refuses, by value and target, a number some
// target cannot hold exactly (lint number-exact), and the shared helper writes the exact literal of
// every number it admits. Expectations: IEEE 754 facts (2^53 + 1 is no double; 2^63 is one but
// no Int64), the Kotlin and Swift literal grammars, written out by hand.
import { describe, expect, it } from "vitest";
import { loadModel } from "../pipeline.js";
import { connectorFixture } from "../test/fixture.js";
import { MAX_SHARED_INTEGER, numberLiteral } from "./number-literal.js";

const PROTOCOL = "spec/agent-connector/protocol.yaml";

describe("number-exact: constants at 2^63, 2^53 + 1 and 1e300", () => {
  it("are refused at their line, naming the value and what each target would make of it", () => {
    const fixture = connectorFixture();
    fixture.edit(
      PROTOCOL,
      "      - { name: LOCAL_ECHO,",
      "      - { name: TWO_63, value: 9223372036854775808, description: x }\n      - { name: TWO_53_PLUS_1, value: 9007199254740993, description: x }\n      - { name: BIG_FLOAT, value: 1.0e300, description: x }\n      - { name: LOCAL_ECHO,",
    );
    const result = loadModel(fixture.root);
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors.filter((e) => e.lint === "number-exact");
    expect(errors.map((e) => [e.file, e.line, e.pointer])).toEqual([
      [PROTOCOL, 24, "/constants/0/items/0/value"],
      [PROTOCOL, 25, "/constants/0/items/1/value"],
      [PROTOCOL, 26, "/constants/0/items/2/value"],
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      "9223372036854775808 is an integer beyond +-9007199254740991 (2^53 - 1): TypeScript's number cannot tell it from its neighbours, and it exceeds Kotlin's Long and Swift's Int64 (2^63 - 1)",
      "9007199254740993 is not exactly representable as a double (TypeScript's number, and any target reading the schema as JSON): it would be read as 9007199254740992",
      "1.0e300 is an integer beyond +-9007199254740991 (2^53 - 1): TypeScript's number cannot tell it from its neighbours, and it exceeds Kotlin's Long and Swift's Int64 (2^63 - 1)",
    ]);
  });

  it("a schema const, bound or example is held to the same rule", () => {
    const fixture = connectorFixture();
    fixture.edit("spec/agent-connector/messages/HttpJsonResponse.yaml", "maxLength: 8192", "maxLength: 9007199254740992");
    const result = loadModel(fixture.root);
    expect(result.ok ? [] : result.errors.map((e) => [e.lint, e.pointer])).toEqual([["number-exact", "/properties/sessionRef/maxLength"]]);
  });
});

describe("numberLiteral: the exact literal per target", () => {
  it("writes integers with every digit, in the smallest type that holds them", () => {
    expect(numberLiteral(2 ** 31 - 1, "kotlin")).toEqual({ type: "Int", literal: "2147483647" });
    expect(numberLiteral(2 ** 31, "kotlin")).toEqual({ type: "Long", literal: "2147483648L" });
    expect(numberLiteral(-MAX_SHARED_INTEGER, "kotlin")).toEqual({ type: "Long", literal: "-9007199254740991L" });
    expect(numberLiteral(MAX_SHARED_INTEGER, "swift")).toEqual({ type: "Int", literal: "9007199254740991" });
    expect(numberLiteral(MAX_SHARED_INTEGER, "ts")).toEqual({ type: "number", literal: "9007199254740991" });
    expect(numberLiteral(-0, "ts")).toEqual({ type: "number", literal: "0" });
  });
  it("writes fractions as Double literals that read back as the same double", () => {
    expect(numberLiteral(12.5, "kotlin")).toEqual({ type: "Double", literal: "12.5" });
    expect(numberLiteral(1e-7, "swift")).toEqual({ type: "Double", literal: "1e-7" });
    expect(numberLiteral(0.1, "ts")).toEqual({ type: "number", literal: "0.1" });
  });
  it("throws for a number outside what every target holds, instead of writing a nearby one", () => {
    expect(() => numberLiteral(2 ** 63, "kotlin")).toThrow(/^9223372036854776000 is an integer beyond/);
    expect(() => numberLiteral(1e300, "ts")).toThrow(/lint number-exact should have refused it/);
    expect(() => numberLiteral(MAX_SHARED_INTEGER + 1, "swift")).toThrow(/integer beyond/);
  });
});
