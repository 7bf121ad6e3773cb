// The shared cases' sources (cases.ts): the hostile validate cases derived for any project
// (hostile-cases.ts) give, on this repository, exactly the fuzz corpus's cases and verdicts, which
// property-tests/fuzz/oracle.test.ts checks against an independent oracle; and a project other
// than this repository gets the generator's strict JSON, RFC 3339 and hostile-byte cases, but no
// case naming a message it does not have.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { pathsFiles } from "../../generators/lifecycles/paths.js";
import { loadModel } from "../../generators/pipeline.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";
import { sharedCases } from "./cases.js";
import { hostileCases } from "./hostile-cases.js";

const modelOf = (root: string) => {
  const result = loadModel(root);
  if (!result.ok) throw new Error(result.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("\n"));
  return result.model;
};
const kinds = (ids: readonly string[]) => new Set(ids.map((id) => id.split(" ")[0]));

describe("shared cases", () => {
  it("the hostile patterns on this repository's messages are the fuzz corpus's validate cases, verdicts included", () => {
    const corpus = JSON.parse(readFileSync(join(REPO_ROOT, "property-tests/fuzz/corpus/validators.json"), "utf8")) as { cases: { name: string; protocol: string; message: string; b64: string; expect: string }[] };
    const derived = hostileCases(modelOf(REPO_ROOT));
    expect(derived.length).toBe(corpus.cases.length);
    expect(derived).toEqual(corpus.cases.map(({ name, protocol, message, b64, expect }) => ({ name, protocol, message, b64, expect })));
  });

  it("this repository: the corpus's validate cases, no derived ones", () => {
    const ids = sharedCases(REPO_ROOT, modelOf(REPO_ROOT), REPO_ROOT).cases.map((c) => c.id);
    expect([...kinds(ids)]).toEqual(expect.arrayContaining(["strict-json", "fuzz-parse", "fuzz-rfc3339", "fuzz-validate", "fuzz-reproducer"]));
    expect(kinds(ids).has("hostile")).toBe(false);
  });

  it("this repository: every approval-token vector is a case of the message it is written for, with the vector's verdict", () => {
    const vectors = JSON.parse(readFileSync(join(REPO_ROOT, "spec/agent-service/vectors/approval-token.json"), "utf8")) as { cases: { name: string; token: string; expect: string; bindings?: object }[] };
    const { cases, expected } = sharedCases(REPO_ROOT, modelOf(REPO_ROOT), REPO_ROOT);
    const tokens = cases.filter((c) => c.kind === "approval-token");
    expect(tokens.map((c) => [c.id, expected.get(c.id)])).toEqual(vectors.cases.map((v) => [`approval-token agent-service/ApprovalTokenClaims ${v.name}`, v.expect]));
    expect(tokens.map((c) => ("bindings" in c ? c.bindings : undefined))).toEqual(vectors.cases.map((v) => v.bindings));
    expect(new Set(vectors.cases.map((v) => v.expect)).size).toBeGreaterThan(10);
  });

  it("approval-token vectors written for another declaration than the message's give no case", () => {
    const model = modelOf(REPO_ROOT);
    const changed = { ...model, protocols: model.protocols.map((p) => ({ ...p, messages: p.messages.map((m) => (m.approvalToken === undefined ? m : { ...m, approvalToken: { ...m.approvalToken, maxLifetimeSeconds: 60 } })) })) };
    expect(sharedCases(REPO_ROOT, changed, REPO_ROOT).cases.filter((c) => c.kind === "approval-token")).toEqual([]);
  });

  it.each(["clinic-queue", "parcel-lockers"])("examples/%s: the generator's hostile-input cases and its own messages' hostile cases, none of this repository's", (name) => {
    // A copy with the lifecycle paths suites `generate` writes beside the spec.
    const root = mkdtempSync(join(tmpdir(), `agent-contracts-cases-${name}-`));
    cpSync(join(REPO_ROOT, "examples", name, "spec"), join(root, "spec"), { recursive: true });
    const model = modelOf(root);
    for (const file of pathsFiles(model.protocols.flatMap((p) => p.lifecycles))) {
      mkdirSync(dirname(join(root, file.path)), { recursive: true });
      writeFileSync(join(root, file.path), file.contents);
    }
    const { cases } = sharedCases(root, model, REPO_ROOT);
    rmSync(root, { recursive: true, force: true });
    const ids = cases.map((c) => c.id);
    expect([...kinds(ids)]).toEqual(expect.arrayContaining(["strict-json", "fuzz-parse", "fuzz-rfc3339", "hostile"]));
    expect(kinds(ids).has("fuzz-validate") || kinds(ids).has("fuzz-reproducer")).toBe(false);
    const own = new Set(model.protocols.map((p) => p.id));
    const foreign = cases.filter((c) => "protocol" in c && !own.has(c.protocol)).map((c) => c.id);
    expect(foreign).toEqual([]);
    // Every message with an object example gets the patterns (8 per member, up to 6 members, a BOM and a duplicate key).
    const withExample = model.protocols.flatMap((p) => p.messages).filter((m) => typeof m.examples[0] === "object" && m.examples[0] !== null && !Array.isArray(m.examples[0]));
    expect(new Set(cases.filter((c) => c.id.startsWith("hostile ") && c.kind === "parse-validate").map((c) => (c as { message: string }).message))).toEqual(new Set(withExample.map((m) => m.name)));
  });
});
