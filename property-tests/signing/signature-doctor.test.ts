// The signature doctor on messages the real Rust host and Android SDK signed: each that RFC 8785
// refuses names the dialects its signature was made with; each that verifies says verified. The
// expectations are hand-written from the real implementations' README table (doctor-expectations.json).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { main } from "../../generators/cli/main.js";
import type { Io } from "../../generators/cli/io.js";
import { javaBigDecimalToString, javaDoubleToString, parseLexical } from "../../generators/targets/ts/runtime/src/canonical-dialects.js";
import { readJson } from "./helpers.js";

const REPO = new URL("../..", import.meta.url).pathname;
const generated = (await import(`${REPO}generated/ts/index.js`)) as { agentProvider: Record<string, unknown> };
const doctor = generated.agentProvider;
type Expect = "verified" | { reason: string; diagnoses: string[] };
const { cases } = readJson("spec/agent-provider/vectors/signature-doctor.json") as { cases: { name: string; message_type: string; key_utf8: string; text: string; expect: Expect }[] };

describe("explain<Message>Signature on the real implementations' signed messages", () => {
  it("has every Rust-host and Android-SDK message, and two with a duplicated first member", () => expect(cases.length).toBe(68));
  for (const c of cases) {
    it(c.name, () => {
      const explain = doctor[`explain${c.message_type}Signature`] as (text: string, key: string) => { verified: boolean; reason?: { code: string }; diagnoses?: { divergence: string }[] };
      const result = explain(c.text, c.key_utf8);
      expect(result.verified ? "verified" : { reason: result.reason!.code, diagnoses: result.diagnoses!.map((d) => d.divergence) }).toEqual(c.expect);
    });
  }
});

describe("verify --explain", () => {
  const dir = mkdtempSync(`${tmpdir()}/doctor-`);
  const run = async (args: string[]): Promise<{ code: number; out: string }> => {
    const out: string[] = [];
    const io: Io = { out: (t) => out.push(t), err: (t) => out.push(t), root: REPO, readStdin: async () => Buffer.from("") };
    return { code: await main(args, io), out: out.join("\n") };
  };
  const file = (name: string, text: string): string => {
    writeFileSync(`${dir}/${name}`, text);
    return `${dir}/${name}`;
  };
  const byName = (part: string) => cases.find((c) => c.name.includes(part))!;

  it("a Rust-host 1e16 trigger: diagnosis with the first differing byte, and still exit 1", async () => {
    const c = byName("rust-host-signed-edge-cases #10:");
    const r = await run(["verify", "agent-provider", "AgentTriggerRequest", "--key-file", file("k10", c.key_utf8), "--explain", file("m10.json", c.text)]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("diagnosis: canonical-json-dialect-serde-json\n");
    expect(r.out).toContain("payload first differs at byte 6:");
    expect(r.out).toContain('RFC 8785: {"x":10000000000000000}');
    expect(r.out).toContain('dialect:  {"x":1e+16}');
  });
  it("a verified message says verified and exits 0", async () => {
    const c = byName("rust-host-signed-edge-cases #22:");
    const r = await run(["verify", "agent-provider", "AgentTriggerRequest", "--key-file", file("k22", c.key_utf8), "--explain", file("m22.json", c.text)]);
    expect(r).toEqual({ code: 0, out: "verified" });
  });
  it("when no dialect matches it says so and prints the RFC 8785 signing input", async () => {
    const c = byName("rust-host-signed-edge-cases #10:");
    const r = await run(["verify", "agent-provider", "AgentTriggerRequest", "--key-file", file("kx", "wrong-key"), "--explain", file("mx.json", c.text)]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("no recorded canonicalization dialect explains it");
    expect(r.out).toContain("  request_id=edge-trigger-10\n  provider_id=provider.app");
  });
  it("text that is not JSON is refused with its code, not a crash", async () => {
    const r = await run(["verify", "agent-provider", "ActionProposal", "--key-file", file("ky", "k"), "--explain", file("my.json", "{\"a\":")]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("not verified under RFC 8785: unexpected-end");
  });
});

describe("the dialect number writers against hand-written Java outputs", () => {
  // Double.toString and BigDecimal.toString as the JDK documents them.
  const doubles: [number, string][] = [[12, "12.0"], [-0, "-0.0"], [1e-6, "1.0E-6"], [1e21, "1.0E21"], [1e16, "1.0E16"], [0.001, "0.001"], [1234567.5, "1234567.5"], [1e7, "1.0E7"], [0.1, "0.1"]];
  for (const [x, text] of doubles) it(`Double.toString(${x}) = ${text}`, () => expect(javaDoubleToString(x)).toBe(text));
  const decimals: [string, string][] = [["0.000001", "0.000001"], ["1e21", "1E+21"], ["1E+21", "1E+21"], ["12.0", "12.0"], ["1e-7", "1E-7"], ["1.5e3", "1.5E+3"], ["-0.5", "-0.5"], ["100", "100"]];
  for (const [lexeme, text] of decimals) it(`new BigDecimal("${lexeme}").toString() = ${text}`, () => expect(javaBigDecimalToString(lexeme)).toBe(text));
  it("the lexical reader refuses what is not JSON instead of throwing", () => {
    for (const bad of ["", "{", "[1,]", '"\\x"', "01", "{\"a\" 1}", "[".repeat(100) + "]".repeat(100)]) expect(parseLexical(bad)).toBeNull();
  });
});
