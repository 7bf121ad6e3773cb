// Every pattern of the spec is linear-time by recheck's verdict (nothing is timed), and the two
// patterns the security review found super-linear are refused by the same detector, so this test
// can fail. The 251 KB manifest that blocked `agent-contracts id` for 73 s is refused by maxLength
// before any pattern sees its text.
import { describe, expect, it } from "vitest";
import { validateConnectorManifest } from "../../generated/ts/agent-connector/messages.js";
import { importConnectorManifest } from "../../generated/ts/agent-connector/signing.js";
import { loadSpec } from "../../generators/load/load-spec.js";
import { patternsOf, regexVerdict } from "../../generators/check/regex-lint.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";
import { loadModel } from "../../generators/pipeline.js";

const { spec } = loadSpec(REPO_ROOT);
const files = [...spec.common, ...spec.protocols.flatMap((p) => p.messageFiles)];
const patterns = files.flatMap((f) => patternsOf(f).map((p) => ({ ...p, file: f.file })));

describe("linear-time patterns", () => {
  it("finds the spec's patterns", () => {
    expect(patterns.length).toBeGreaterThan(40);
  });
  for (const source of [...new Set(patterns.map((p) => p.source))]) {
    it(`recheck: linear ${source.slice(0, 60)}`, () => {
      expect(regexVerdict(source)).toMatchObject({ linear: true });
    });
  }
  it("refuses the review's two super-linear patterns", () => {
    const oldUrlCredentials = "(?:[A-Za-z][A-Za-z0-9+.-]*://[^/\\s:@]+:[^/\\s@]+@)";
    const oldSingleLineId = "^[^\\n]*\\S[^\\n]*$";
    expect(regexVerdict(oldUrlCredentials)).toMatchObject({ linear: false, complexity: "2nd degree polynomial" });
    expect(regexVerdict(oldSingleLineId)).toMatchObject({ linear: false, complexity: "2nd degree polynomial" });
  });
});

describe("length before patterns", () => {
  const model = loadModel(REPO_ROOT);
  if (!model.ok) throw new Error("spec has errors");
  const manifest = model.model.protocols.find((p) => p.id === "agent-connector")!.messages.find((m) => m.name === "ConnectorManifest")!;
  const example = manifest.examples[0] as Record<string, unknown>;

  it("a 251 KB description is refused by maxLength, not by the secret filter", () => {
    const result = validateConnectorManifest({ ...example, description: "A".repeat(251_000) });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ instancePath: "/description", keyword: "maxLength" });
  });
  it("`agent-contracts id` on the 251 KB manifest (73 s before the fix) refuses it as schema-invalid", () => {
    const result = importConnectorManifest(JSON.stringify({ ...example, description: "A".repeat(251_000) }));
    expect(result.ok ? "imported" : result.error.code).toBe("schema-invalid");
  });
  it("a 40k-character label of scheme characters is refused by maxLength", () => {
    const result = validateConnectorManifest({ ...example, label: "a+b-".repeat(10_000) });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ instancePath: "/label", keyword: "maxLength" });
  });
  it("the secret filter still catches URL credentials after a scheme that starts with a digit", () => {
    for (const text of ["see https://user:pw@example.com", "x1abc://u:p@h", "ftp://a:b@c"]) {
      const result = validateConnectorManifest({ ...example, label: text });
      // The secret filter is the noSecrets rule (Meldwork's redaction shapes), not a pattern.
      expect(result.ok ? "valid" : `${result.errors[0]!.keyword}:${String(result.errors[0]!.params["kind"])}`).toBe("x-rule:noSecrets");
    }
    expect(validateConnectorManifest({ ...example, label: "https://example.com/a:b" }).ok).toBe(true);
  });
});
