// The shared casing against a hand-written table: how a spec name splits into words and how each
// casing joins them (kebab-case, snake_case, camelCase and PascalCase in; camel, Pascal, SCREAMING out).
import { describe, expect, it } from "vitest";
import { assertDistinct, camel, capitalize, pascal, screamingSnake, words } from "./case.js";

describe("words", () => {
  it.each([
    ["idempotency_mode", ["idempotency", "mode"]],
    ["idempotency-mode", ["idempotency", "mode"]],
    ["IdempotencyMode", ["Idempotency", "Mode"]],
    ["requestId", ["request", "Id"]],
    ["aBcDeF", ["a", "Bc", "De", "F"]],
    ["x2Y", ["x2", "Y"]],
    ["sha256Sum", ["sha256", "Sum"]],
    ["HTTPServer", ["HTTP", "Server"]],
    ["getHTTPResponseCode", ["get", "HTTP", "Response", "Code"]],
    ["ABC", ["ABC"]],
    ["ABCDef", ["ABC", "Def"]],
    ["a.b c/d", ["a", "b", "c", "d"]],
    ["--lead__trail--", ["lead", "trail"]],
    ["", []],
    ["_", []],
  ])("%j -> %j", (name, expected) => expect(words(name)).toEqual(expected));
});

describe("casings", () => {
  const table: [(n: string) => string, string, string][] = [
    [capitalize, "", ""],
    [capitalize, "a", "A"],
    [capitalize, "abc", "Abc"],
    [capitalize, "aBC", "ABC"],
    [camel, "request_id", "requestId"],
    [camel, "agent-connector", "agentConnector"],
    [camel, "requestId", "requestId"],
    [camel, "Request_ID", "requestID"],
    [camel, "HTTPServer", "hTTPServer"],
    [camel, "one", "one"],
    [camel, "", ""],
    [pascal, "agent-connector", "AgentConnector"],
    [pascal, "request_id", "RequestId"],
    [pascal, "", ""],
    [screamingSnake, "ConnectorPackage", "CONNECTOR_PACKAGE"],
    [screamingSnake, "event-stream", "EVENT_STREAM"],
    [screamingSnake, "single", "SINGLE"],
    [screamingSnake, "", ""],
  ];
  it.each(table)("%o(%j) is %j", (spell, name, expected) => expect(spell(name)).toBe(expected));
});

describe("assertDistinct", () => {
  it("names both spec names and the spelling they share", () => {
    expect(() => assertDistinct("scope X", ["a-b", "c", "a_b"], camel)).toThrow(new Error("scope X: 'a-b' and 'a_b' both become 'aB'"));
  });
  it("accepts distinct spellings, and one name listed twice", () => {
    expect(() => assertDistinct("s", ["a", "b", "c"], camel)).not.toThrow();
    expect(() => assertDistinct("s", ["a", "a"], camel)).not.toThrow();
  });
  it("compares with every earlier name, not only the previous one", () => {
    expect(() => assertDistinct("s", ["x_y", "z", "w", "xY"], camel)).toThrow("s: 'x_y' and 'xY' both become 'xY'");
  });
});
