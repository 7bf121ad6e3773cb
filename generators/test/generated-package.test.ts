// The generated package must import under plain Node ESM (no TypeScript loader, no bundler) and
// type-check for a consumer.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./fixture.js";

describe("generated/ts as an npm package", () => {
  it("imports under plain node and validates", () => {
    const script = `import * as b from "./generated/ts/index.js";
const ok = b.validateMessage("agent-connector", "HttpJsonResponse", { text: "hi" }).ok;
const bad = b.parseMessage("agent-connector", "HttpJsonResponse", '{"text":1}');
console.log(JSON.stringify({ ok, bad: bad.errors[0].instancePath, count: b.listMessages().length }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
    const parsed = JSON.parse(out) as { ok: boolean; bad: string; count: number };
    expect(parsed.ok).toBe(true);
    expect(parsed.bad).toBe("/text");
    expect(parsed.count).toBeGreaterThan(7);
  });
  it("its declarations type-check for a consumer", () => {
    const consumer = `${REPO_ROOT}/generated/ts/.consumer-check-${process.pid}.ts`;
    const source = `import { agentConnector } from "./index.js";
const r = agentConnector.parseConnectorPackage("{}");
if (r.ok) { const id: string = r.value.packageId; void id; } else { const p: string = r.errors[0]!.instancePath; void p; }
`;
    writeFileSync(consumer, source);
    try {
      execFileSync(process.execPath, [`${REPO_ROOT}/node_modules/typescript/bin/tsc`, "--ignoreConfig", "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--skipLibCheck", "false", "--types", "node", consumer], { cwd: REPO_ROOT, encoding: "utf8" });
    } finally {
      rmSync(consumer);
    }
  });
});
