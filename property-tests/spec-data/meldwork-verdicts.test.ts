// Meldwork defines what the Agent Connector SDK accepts: every field value it was run on gets
// its verdict here, or the spec records the difference as a divergence with its reason.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importConnectorManifest, importConnectorPackage } from "../../generated/ts/agent-connector/signing.js";
import { loadSpec } from "../../generators/load/load-spec.js";

interface Verdict {
  type: "ConnectorManifest" | "ConnectorPackage";
  field: string;
  value: string;
  meld: string;
  text: string;
}

const FILE = "property-tests/vectors/real-implementations/meldwork-connector/field-value-verdicts.json";
const verdicts = JSON.parse(readFileSync(FILE, "utf8")) as Verdict[];

/**
 * Values where the project keeps a different verdict, by the divergence id that says why. Found
 * from the record's bytes (a \uD800-\uDFFF escape that is not half of a pair), as the Kotlin and
 * Swift suites do, since their strict readers cannot hold such a value.
 */
function divergenceFor(v: Verdict): string | undefined {
  const escapes = [...v.text.matchAll(/\\(u[0-9a-fA-F]{4}|.)/g)].map((m) => ({ at: m.index, unit: m[1]!.length === 5 ? parseInt(m[1]!.slice(1), 16) : -1 }));
  for (let i = 0; i < escapes.length; i++) {
    const u = escapes[i]!.unit;
    const high = u >= 0xd800 && u <= 0xdbff;
    const next = escapes[i + 1];
    if (high && next !== undefined && next.at === escapes[i]!.at + 6 && next.unit >= 0xdc00 && next.unit <= 0xdfff) { i++; continue; }
    if (high || (u >= 0xdc00 && u <= 0xdfff)) return "lone-surrogate-in-text";
  }
  return undefined;
}

function projectVerdict(v: Verdict): { accepted: boolean; code?: string; jsonError?: string } {
  const result = v.type === "ConnectorManifest" ? importConnectorManifest(v.text) : importConnectorPackage(v.text);
  return result.ok ? { accepted: true } : { accepted: false, code: result.error.code, jsonError: result.error.jsonError };
}

describe("Meldwork's field-value verdicts (real-implementations/meldwork-connector)", () => {
  it("the copy holds all 320 records, 3 of them a recorded divergence", () => {
    expect(verdicts).toHaveLength(320);
    expect(verdicts.filter((v) => divergenceFor(v) !== undefined)).toHaveLength(3);
  });

  const recorded = new Set<string>();
  it("every divergence the test relies on is recorded in the spec", () => {
    const { spec } = loadSpec(".");
    const ids = spec.protocols.filter((p) => p.id === "agent-connector").flatMap((p) => p.messageFiles)
      .flatMap((f) => ((f.value as Record<string, unknown>)["x-divergences"] as { id: string }[] | undefined) ?? []).map((d) => d.id);
    for (const id of recorded) expect(ids).toContain(id);
  });

  verdicts.forEach((v, i) => {
    const divergence = divergenceFor(v);
    if (divergence !== undefined) recorded.add(divergence);
    it(`#${i} ${v.type} ${v.field} = ${JSON.stringify(v.value).slice(0, 60)} -> ${v.meld}${divergence ? ` (divergence ${divergence})` : ""}`, () => {
      const ours = projectVerdict(v);
      if (divergence === "lone-surrogate-in-text") {
        // I-JSON: the project refuses the bytes before any schema is looked at.
        expect(v.meld).toBe("accept");
        expect(ours).toMatchObject({ accepted: false, code: "json-invalid", jsonError: "lone-surrogate" });
        return;
      }
      expect(ours.accepted ? "accept" : "refuse").toBe(v.meld === "accept" ? "accept" : "refuse");
      // Meldwork refuses every one of these values in its schema stage, as the project does.
      if (!ours.accepted) expect(ours.code).toBe("schema-invalid");
    });
  });
});
