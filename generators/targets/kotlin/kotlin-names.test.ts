// The Kotlin namer against a hand-written table of spec names and the Kotlin they must become.
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
    [screamingSnake, "HTTPServer", "HTTP_SERVER"],
    [identifier, "when", "`when`"],
    [identifier, "object", "`object`"],
    [identifier, "type", "type"],
    [identifier, "value", "value"],
    [protocolPackage, "agent-connector", "dev.agentcontracts.agentconnector"],
    [stringLiteral, 'a"b$c\\', '"a\\"b\\$c\\\\"'],
    [stringLiteral, "line\nnext\u0001", '"line\\nnext\\u0001"'],
  ];
  it.each(table)("%o(%s) is %s", (spell, input, expected) => {
    expect(spell(input)).toBe(expected);
  });

  it("refuses names without letters or digits", () => {
    expect(() => camelCase("--")).toThrow(/no letters or digits/);
    expect(() => screamingSnake("_")).toThrow(/no letters or digits/);
  });

  it("refuses two wire names that become one Kotlin name", () => {
    expect(() => checkDistinct("class Demo", ["request_id", "requestId"], camelCase)).toThrow(/'request_id' and 'requestId' both become 'requestId'/);
    expect(() => checkDistinct("enum Mode", ["not-started", "not_started"], screamingSnake)).toThrow(/both become 'NOT_STARTED'/);
    expect(() => checkDistinct("class Demo", ["a", "b"], camelCase)).not.toThrow();
  });

  it("keeps KDoc closed when the text holds */", () => {
    expect(kdoc("ends */ early", "")).toEqual(["/** ends *&#47; early */"]);
  });
});
