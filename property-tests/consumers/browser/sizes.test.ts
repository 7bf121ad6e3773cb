// The size budgets of issue 33, measured as an application's bundler would (sizes.ts): every
// message's parse ≤ 12 KB gzip (the schema checks generated as code, generators/targets/ts/
// emit-schema-code.ts, brought ConnectorManifest and ConnectorPackage under it), every lifecycle step ≤ 4 KB, verifying each signed message ≤ 15 KB,
// and the whole root no larger than before the package was split (ROOT_BEFORE). Sizes, not speed.
import { describe, expect, it } from "vitest";
import { loadModel } from "../../../generators/pipeline.js";
import { ROOT } from "./bundle.js";
import { measure, parseCase, ROOT_BEFORE, ROOT_CASE, stepCase, verifyCase, type Measured } from "./sizes.js";

const loaded = loadModel(ROOT);
if (!loaded.ok) throw new Error("spec has errors");
const protocols = loaded.model.protocols;

function withinBudget(m: Measured): void {
  if (m.budgetGzip !== undefined) expect(m.gzipBytes, `${m.label}: ${m.gzipBytes} gzip bytes`).toBeLessThanOrEqual(m.budgetGzip);
  if (m.budgetBytes !== undefined) expect(m.bytes, `${m.label}: ${m.bytes} bytes`).toBeLessThanOrEqual(m.budgetBytes);
}

describe("bundle size budgets (esbuild, browser, minified, gzip -9)", () => {
  for (const p of protocols) {
    it(`${p.id}: each message's parse ≤ 12 KB`, async () => {
      for (const m of p.messages) withinBudget(await measure(parseCase(p.id, m.name)));
    }, 120_000);
    if (p.lifecycles.length > 0) {
      it(`${p.id}: each lifecycle's step ≤ 4 KB`, async () => {
        for (const l of p.lifecycles) withinBudget(await measure(stepCase(p.id, l.name)));
      }, 120_000);
    }
    const signed = p.messages.filter((m) => m.signature !== undefined);
    if (signed.length > 0) {
      it(`${p.id}: verifying each signed message ≤ 15 KB`, async () => {
        for (const m of signed) withinBudget(await measure(verifyCase(p.id, m.name)));
      }, 120_000);
    }
  }
  it("the whole root is no larger than before the split (the prototype-key checks of issue 32 included)", async () => {
    const root = await measure(ROOT_CASE);
    withinBudget(root);
    expect(root.gzipBytes).toBeLessThanOrEqual(ROOT_BEFORE.withRequiredModules.gzip);
  }, 120_000);
  it("can fail: a parse that pulls every protocol's messages is over budget", async () => {
    // The root's by-name registry reaches every message of every protocol: what the per-message split avoids.
    const whole = await measure({ label: "parseMessage registry", source: `import { parseMessage } from "@agent-contracts/bindings/registry";\nexport const run = (t) => parseMessage("agent-provider", "ActionProposal", t);\n`, budgetGzip: 12 * 1024 });
    expect(whole.gzipBytes).toBeGreaterThan(12 * 1024);
  }, 120_000);
});
