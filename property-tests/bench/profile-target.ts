// Runs one benchmarked operation in a tight loop for a few seconds, to be profiled:
//   node --cpu-prof --cpu-prof-dir=DIR --import tsx property-tests/bench/profile-target.ts <target> [seconds]
//   node --import tsx property-tests/bench/profile-summary.ts DIR/<file>.cpuprofile
import { canonicalize } from "../../generated/ts/runtime/canonical-json.js";
import { parseStrictJson } from "../../generated/ts/runtime/strict-json.js";
import { MemoryReplayStore } from "../../generated/ts/runtime/replay-guard.js";
import { SqliteReplayStore } from "../../generated/ts/runtime/replay-sqlite.js";
import { agentConnector, agentProvider, agentService } from "../../generated/ts/index.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytes, clone, connectorPackage, invalidProposal, large, proposal, signedTrigger, workflowRequest } from "./fixtures.js";

const scope = JSON.stringify(["provider", "host-instance-1"]);
let n = 0;
const cleanups: (() => void)[] = [];
const targets: Record<string, () => () => unknown> = {
  "validate-connector": () => () => agentConnector.validateConnectorPackage(connectorPackage),
  "validate-workflow": () => () => agentService.validateWorkflowRequest(workflowRequest),
  "validate-proposal-invalid": () => () => agentProvider.validateActionProposal(invalidProposal),
  "canonicalize-small": () => () => canonicalize(proposal),
  "canonicalize-medium": () => () => canonicalize(connectorPackage),
  "canonicalize-large": () => () => canonicalize(large),
  "parse-small": () => () => parseStrictJson(bytes.small),
  "parse-large": () => () => parseStrictJson(bytes.large),
  "verify-trigger": () => {
    const message = clone(signedTrigger.signed_object);
    return () => agentProvider.verifyAgentTriggerRequestSignature(message as never, signedTrigger.secret_utf8);
  },
  "replay-memory": () => {
    const store = new MemoryReplayStore(50_000_000, 50_000_000);
    const now = Date.now();
    return () => store.checkAndRecordNow(scope, `k${n++}`, now + 600_000, now);
  },
  "replay-sqlite": () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-contracts-prof-"));
    const store = new SqliteReplayStore(join(dir, "r.sqlite"), { maxEntriesPerScope: 1_000_000 });
    cleanups.push(() => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return () => store.checkAndRecordNow(scope, `k${n++}`, Date.now() + 600_000, Date.now());
  },
};

const name = process.argv[2] ?? "";
const make = targets[name];
if (make === undefined) throw new Error(`targets: ${Object.keys(targets).join(", ")}`);
const fn = make();
const seconds = Number(process.argv[3] ?? 3);
const end = performance.now() + seconds * 1000;
let calls = 0;
let sink: unknown;
while (performance.now() < end) {
  for (let i = 0; i < 100; i++) sink = fn();
  calls += 100;
}
for (const c of cleanups) c();
console.log(`${name}: ${calls} calls in ${seconds} s (${((calls / seconds) | 0).toLocaleString()} ops/s)`, typeof sink);
