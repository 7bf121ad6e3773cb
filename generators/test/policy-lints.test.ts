// The policy lints (generators/model/project.ts): rules of this repository, not of the spec format.
// Each is proven on the fixture broken in one place: reported at its file:line:col under its own id
// when spec/project.yaml switches it on (this repository's file switches on all four), and silent
// in a project that leaves it off (the default).
import { describe, expect, it } from "vitest";
import { formatSpecError } from "../cli/io.js";
import { POLICY_LINTS } from "../model/project.js";
import { loadModel } from "../pipeline.js";
import { connectorFixture, type Fixture } from "./fixture.js";

const PROTOCOL = "spec/agent-connector/protocol.yaml";
const RESUME = "spec/agent-connector/messages/ConnectorResume.yaml";

const CASES: { lint: string; breakIt: (f: Fixture) => void; expected: RegExp }[] = [
  {
    lint: "document-file-name",
    breakIt: (f) => f.edit(PROTOCOL, "document: 004_124a0e0179d8a60c.txt", "document: Agent Connector SDK.txt"),
    expected: /^spec\/agent-connector\/protocol\.yaml:4:1 \/document document must be a NNN_<16 hex>\.txt file name, not "Agent Connector SDK\.txt" \[document-file-name\]$/,
  },
  {
    lint: "document-file-name",
    breakIt: (f) => f.edit(RESUME, "{ document: 004_124a0e0179d8a60c.txt, section: Providers }", "{ document: sdk.pdf, section: Providers }"),
    expected: /^spec\/agent-connector\/messages\/ConnectorResume\.yaml:8:7 \/x-source\/0\/document document must be a NNN_<16 hex>\.txt file name or research\/<name>\.md, not "sdk\.pdf" \[document-file-name\]$/,
  },
  {
    lint: "x-source-required",
    breakIt: (f) => f.edit(RESUME, /x-source:\n(?: {2}.*\n)+/, ""),
    expected: /^spec\/agent-connector\/messages\/ConnectorResume\.yaml:1:1 \/ the message must carry x-source: .* \[x-source-required\]$/,
  },
  {
    lint: "x-invalid-examples-required",
    breakIt: (f) => f.edit(RESUME, /x-invalid-examples:\n(?: {2}.*\n)+/, ""),
    expected: /^spec\/agent-connector\/messages\/ConnectorResume\.yaml:1:1 \/ the message must carry x-invalid-examples: .* \[x-invalid-examples-required\]$/,
  },
  {
    lint: "section-coverage",
    breakIt: (f) => f.edit(PROTOCOL, "'message:ConnectorResume', ", ""),
    expected: /^spec\/agent-connector\/protocol\.yaml:\d+:1 \/sections message:ConnectorResume is not named by any section \[section-coverage\]$/,
  },
  {
    lint: "section-coverage",
    breakIt: (f) => f.edit(PROTOCOL, /\nsections:\n(?:[ -].*\n)+/, "\n"),
    expected: /^spec\/agent-connector\/protocol\.yaml:1:1 \/ protocol\.yaml must have sections: .* \[section-coverage\]$/,
  },
];

function errorsAfter(breakIt: (f: Fixture) => void, lintsOn: boolean): string[] {
  const fixture = connectorFixture();
  breakIt(fixture);
  if (!lintsOn) fixture.edit("spec/project.yaml", /\nlints:\n(?: {2}.*\n)+/, "\n");
  const result = loadModel(fixture.root);
  return result.ok ? [] : result.errors.map(formatSpecError);
}

describe("policy lints", () => {
  it("are the four this repository switches on, each off by default", () => {
    expect(POLICY_LINTS.map((l) => [l.id, l.defaultOn])).toEqual([
      ["document-file-name", false],
      ["x-source-required", false],
      ["x-invalid-examples-required", false],
      ["section-coverage", false],
    ]);
  });
  for (const c of CASES) {
    it(`${c.lint}: reported where it is broken when on (${c.expected.source.slice(1, 40)}…)`, () => {
      expect(errorsAfter(c.breakIt, true)).toEqual([expect.stringMatching(c.expected)]);
    });
    it(`${c.lint}: silent when the project leaves it off (${c.expected.source.slice(1, 40)}…)`, () => {
      expect(errorsAfter(c.breakIt, false)).toEqual([]);
    });
  }
});
