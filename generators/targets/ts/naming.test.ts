// The TypeScript namer against a hand-written table of spec names and the identifiers they must
// become, plus the names it must refuse.
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
    [lifecycleTypePrefix, "install-handshake", "InstallHandshake"],
    [lifecycleTypePrefix, "request_admission", "RequestAdmission"],
  ];
  it.each(table)("%o(%s) is %s", (spell, input, expected) => {
    expect(spell(input)).toBe(expected);
  });

  it.each([["default"], ["class"], ["await"]])("refuses a protocol whose namespace would be the reserved word %s", (id) => {
    expect(() => protocolNamespace(id)).toThrow(/reserved word/);
  });

  it("refuses a name that starts with a digit", () => {
    expect(() => lifecycleNamespace("2fa")).toThrow(/no valid identifier/);
  });

  it("refuses two names of one scope that spell the same", () => {
    expect(() => checkTsNames([{ id: "p", lifecycles: [{ name: "proposal-record" }, { name: "proposal_record" }] }])).toThrow(/'proposal-record' and 'proposal_record' both become 'proposalRecord'/);
    expect(() => checkTsNames([{ id: "agent-hub", lifecycles: [] }, { id: "agent_hub", lifecycles: [] }])).toThrow(/root index/);
    expect(() => checkTsNames([{ id: "a", lifecycles: [{ name: "x" }] }, { id: "b", lifecycles: [{ name: "x" }] }])).not.toThrow();
  });
});
