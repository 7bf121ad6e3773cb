// The TypeScript namer against a hand-written table of spec names and the identifiers they must
// become, plus the names it must refuse: ECMA-262 (2022) §12.7.2 ReservedWord, the words strict
// mode code reserves (§12.7.2 note: implements, interface, let, package, private, protected,
// public, static, yield), and `eval`/`arguments`, which strict code may not bind (§13.1.1).
import { describe, expect, it } from "vitest";
import { checkTsNames, lifecycleNamespace, lifecycleTypePrefix, protocolNamespace, rulesConstant } from "./naming.js";

describe("TypeScript names", () => {
  const table: [spell: (n: string) => string, input: string, expected: string][] = [
    [protocolNamespace, "agent-connector", "agentConnector"],
    [protocolNamespace, "provider-integration", "providerIntegration"],
    [protocolNamespace, "agent2-hub", "agent2Hub"],
    [rulesConstant, "ConnectorPackage", "CONNECTOR_PACKAGE_RULES"],
    [rulesConstant, "WorkflowRequest", "WORKFLOW_REQUEST_RULES"],
    [rulesConstant, "HTTPJsonResponse", "HTTP_JSON_RESPONSE_RULES"],
    [lifecycleNamespace, "proposal-record", "proposalRecord"],
    [lifecycleNamespace, "trust", "trust"],
    [lifecycleNamespace, "fa2", "fa2"],
    [lifecycleTypePrefix, "install-handshake", "InstallHandshake"],
    [lifecycleTypePrefix, "request_admission", "RequestAdmission"],
  ];
  it.each(table)("%o(%s) is %s", (spell, input, expected) => {
    expect(spell(input)).toBe(expected);
  });

  const RESERVED = [
    "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
    "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new",
    "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
    "yield", "implements", "interface", "let", "package", "private", "protected", "public", "static",
    "eval", "arguments",
  ];
  it.each(RESERVED)("refuses a protocol whose namespace would be the reserved word %s", (id) => {
    expect(() => protocolNamespace(id)).toThrow(`TypeScript: protocol '${id}' becomes the reserved word '${id}'`);
  });
  it.each(RESERVED)("refuses a lifecycle whose namespace would be the reserved word %s", (name) => {
    expect(() => lifecycleNamespace(name)).toThrow(`TypeScript: lifecycle '${name}' becomes the reserved word '${name}'`);
  });
  // Contextual words (async, of, get, set, from, as, type) and globals are valid binding names.
  it.each([["async"], ["of"], ["get"], ["set"], ["from"], ["as"], ["type"], ["undefined"], ["class1"]])("accepts %s, which no strict module reserves", (word) => {
    expect(lifecycleNamespace(word)).toBe(word);
  });

  it("refuses a name that gives no identifier", () => {
    expect(() => lifecycleNamespace("2fa")).toThrow("TypeScript: lifecycle '2fa' gives no valid identifier ('2fa')");
    expect(() => protocolNamespace("--")).toThrow("TypeScript: protocol '--' gives no valid identifier ('')");
  });

  it("refuses two names of one scope that spell the same", () => {
    expect(() => checkTsNames([{ id: "p", lifecycles: [{ name: "proposal-record" }, { name: "proposal_record" }] }])).toThrow("TypeScript p/lifecycles: 'proposal-record' and 'proposal_record' both become 'proposalRecord'");
    expect(() => checkTsNames([{ id: "agent-hub", lifecycles: [] }, { id: "agent_hub", lifecycles: [] }])).toThrow("TypeScript root index: 'agent-hub' and 'agent_hub' both become 'agentHub'");
    expect(() => checkTsNames([{ id: "a", lifecycles: [{ name: "x" }] }, { id: "b", lifecycles: [{ name: "x" }] }])).not.toThrow();
    // The second protocol's lifecycles are checked too, not only the first's.
    expect(() => checkTsNames([{ id: "a", lifecycles: [] }, { id: "b", lifecycles: [{ name: "x-y" }, { name: "xY" }] }])).toThrow(/TypeScript b\/lifecycles/);
    expect(() => checkTsNames([{ id: "class", lifecycles: [] }])).toThrow(/reserved word 'class'/);
    expect(() => checkTsNames([{ id: "a", lifecycles: [{ name: "new" }] }])).toThrow(/lifecycle 'new'/);
  });
});
