// Nothing in generators/ knows a protocol by name: what a target does for a protocol follows from
// the spec (its messages, declarations, vectors), never from its id or a message name. This test
// reads every protocol id and message name of spec/ and fails when one appears in generator code:
// TypeScript, templates, shell scripts. Tests, fixtures and the hand-written test suites are left
// out (they test this repository's protocols on purpose), so are the hand-written runtimes (they
// implement features some protocols declare, such as the audit chain, and cite their spec files),
// and comment lines (an example in a comment generates nothing).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pascal } from "../emit/case.js";
import { REPO_ROOT } from "./fixture.js";

/**
 * Where a protocol's name still appears outside this reach, each with why. The list is
 * exact: a new appearance fails the test, and so does one listed here that is gone (delete its line).
 */
const KNOWN: { file: string; name: string; why: string }[] = [
  ...["agent-service", "agent-connector", "provider-integration"].map((name) => ({
    file: "generators/cli/conformance.ts",
    name,
    why: "the conformance command's --help lists the protocols that have cases (the CLI is not this issue's)",
  })),
  ...["agent-service", "provider-integration", "agent-connector"].map((name) => ({
    file: "generators/cli/mock.ts",
    name,
    why: "the mock command's --help lists the protocols it has built-in behaviours for",
  })),
  ...([
    ["generators/mock/agent-service.ts", ["agentService", "ErrorBody", "VersionInfo", "IntermediateStep", "AnswerChunk", "InputGuardrailDecision", "OutputGuardrailDecision", "InteractionRequired"]],
    ["generators/mock/connector-endpoint.ts", ["agentConnector", "HttpJsonRequest", "HttpJsonResponse"]],
    ["generators/mock/provider-endpoint.ts", ["providerIntegration", "NotificationAcceptance", "NotificationEvent"]],
    ["generators/mock/server.ts", ["agent-service", "provider-integration", "agent-connector"]],
    ["generators/mock/scenario.ts", ["agent-service"]],
  ] as const).flatMap(([file, names]) =>
    names.map((name) => ({
      file,
      name,
      why: "the mock's built-in behaviours implement this repository's protocols (the conformance kit's reference servers); another spec's protocol gets its routes answered from the spec (generic-routes.ts names none)",
    })),
  ),
  ...["agentConnector", "HttpJsonRequest"].map((name) => ({
    file: "generators/conformance/http-json-client.ts",
    name,
    why: "the conformance kit's client role drives the connector http-json provider through its TS bindings",
  })),
  ...["agent-connector", "agent-provider"].map((name) => ({
    file: "generators/targets/kotlin/emit-test-data.ts",
    name,
    why: "outside data folders are named after their source (property-tests/vectors/<source>), and the JUnit suites read them",
  })),
  ...["agent-connector", "agent-provider"].map((name) => ({
    file: "generators/write/input-files.mjs",
    name,
    why: "the same outside data folders, hashed as generator inputs (generators/write/ is another helper's)",
  })),
  { file: "generators/targets/swift/toolchain/swift-test.sh", name: "agent-connector", why: "the Swift consumer's fixture is compared with the outside vector it copies" },
  ...["AgentProvider", "ActionProposal", "AgentService", "HttpJsonRequest"].map((name) => ({
    file: "generators/targets/swift/templates/README.md.hbs",
    name,
    why: "the Swift package README's examples name this repository's messages; they should come from the model",
  })),
];

function specNames(): string[] {
  const ids = readdirSync(`${REPO_ROOT}/spec`).filter((d) => statSync(`${REPO_ROOT}/spec/${d}`).isDirectory() && readdirSync(`${REPO_ROOT}/spec/${d}`).includes("protocol.yaml"));
  const messages = ids.flatMap((id) => readdirSync(`${REPO_ROOT}/spec/${id}/messages`).map((f) => f.replace(/\.yaml$/, "")));
  // A protocol id as the targets spell it: agent-provider, AgentProvider, agentProvider, agentprovider.
  const idForms = ids.flatMap((id) => [id, pascal(id), pascal(id).charAt(0).toLowerCase() + pascal(id).slice(1), id.replaceAll("-", "")]);
  return [...new Set([...idForms, ...messages])];
}

function* codeFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(`${REPO_ROOT}/${dir}`, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === "fixtures" || entry.name === "runtime" || path === "generators/test" || path === "generators/targets/kotlin/tests") continue;
      yield* codeFiles(path);
    } else if (/\.(ts|mts|mjs|hbs|sh)$/.test(entry.name) && !/\.(test|typetest)\.ts$/.test(entry.name) && !/Tests\.swift\.hbs$/.test(entry.name)) {
      yield path;
    }
  }
}

const COMMENT = /^\s*(\/\/|\/\*|\*|#|\{\{!)/;

function appearances(names: readonly string[]): { file: string; name: string; line: number }[] {
  const pattern = new RegExp(`(?<![A-Za-z0-9_])(${names.map((n) => n.replace(/[-]/g, "\\-")).join("|")})(?![A-Za-z0-9_])`, "g");
  const found: { file: string; name: string; line: number }[] = [];
  for (const file of codeFiles("generators")) {
    readFileSync(`${REPO_ROOT}/${file}`, "utf8").split("\n").forEach((text, index) => {
      if (COMMENT.test(text)) return;
      for (const match of text.matchAll(pattern)) found.push({ file, name: match[1]!, line: index + 1 });
    });
  }
  return found;
}

describe("generators/ names no protocol of the spec", () => {
  const names = specNames();

  it("reads the names to look for from spec/", () => {
    // Four protocols, each in four spellings, and their messages: a spec that moved would make this empty.
    expect(names.length).toBeGreaterThan(60);
  });

  it("finds a protocol id or message name nowhere but where KNOWN says why", () => {
    const found = appearances(names);
    const key = (a: { file: string; name: string }) => `${a.file} ${a.name}`;
    const known = new Set(KNOWN.map(key));
    const unexplained = found.filter((a) => !known.has(key(a))).map((a) => `${a.file}:${a.line} ${a.name}`);
    expect(unexplained).toEqual([]);
    const gone = KNOWN.filter((k) => !found.some((a) => key(a) === key(k))).map(key);
    expect(gone, "KNOWN lists a name that no longer appears: delete its line").toEqual([]);
  });

  it("would catch a protocol-id branch in an emitter", () => {
    // The scan itself, on a line as an emitter special case would write it.
    const pattern = new RegExp(`(?<![A-Za-z0-9_])(${names.map((n) => n.replace(/[-]/g, "\\-")).join("|")})(?![A-Za-z0-9_])`);
    expect(pattern.test('  if (protocol.id === "agent-provider") {')).toBe(true);
    expect(pattern.test("    XCTAssertEqual(AgentProvider.ActionProposal.explainSignature(")).toBe(true);
    expect(pattern.test('  if (protocol.id === "doorbell") {')).toBe(false);
    expect(COMMENT.test('  if (protocol.id === "agent-provider") {')).toBe(false);
  });
});
