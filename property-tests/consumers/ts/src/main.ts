// A consumer of @agent-contracts/bindings, written from the package README.
import { readFileSync } from "node:fs";
import { agentConnector, agentProvider, formatErrors, parseMessage, SigningError } from "@agent-contracts/bindings";
import { SqliteReplayStore } from "@agent-contracts/bindings/runtime/replay-sqlite";

const secret = "secret-1";

// The README's trigger, as a typed value: the compiler checks every field.
const unsigned: agentProvider.UnsignedAgentTriggerRequest = {
  protocol_version: 2,
  request_id: "trigger-1",
  provider_id: "provider",
  agent_id: "provider.agent",
  message: "Desk button pressed.",
  source: "virtual_sensor",
  event_type: "button_pressed",
  payload: { button: "desk" },
  created_at: "2026-05-27T00:00:00Z",
  expires_at: "2030-01-01T00:00:00Z",
  nonce: "nonce-trigger",
  idempotency_key: "trigger-1",
  host_instance_id: "host-instance-1",
};

// The trigger is valid until 2030-01-01 and a receiver accepts at most one day ahead: a fixed
// clock half a day before expiry keeps this program's verdicts independent of today's date.
const clock = (): number => Date.parse("2029-12-31T12:00:00Z");

function check(proposalFile: string, packageFile: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};

  // Parse and validate an ActionProposal, by function and by name.
  const text = readFileSync(proposalFile, "utf8");
  const parsed = agentProvider.parseActionProposal(text);
  if (!parsed.ok) throw new Error(formatErrors(parsed.errors));
  const proposal: agentProvider.ActionProposal = parsed.value;
  out.proposalRisk = proposal.risk;
  const byName = parseMessage("agent-provider", "ActionProposal", text);
  out.proposalByName = byName.ok ? byName.value.request_id : "invalid";
  const { request_id: _removed, ...withoutId } = proposal;
  const invalid = agentProvider.validateActionProposal(withoutId);
  out.invalidProposal = invalid.ok ? "valid" : invalid.errors.map((e) => `${e.instancePath}:${e.keyword}`);

  // Sign and verify the trigger.
  const signed: agentProvider.AgentTriggerRequest = agentProvider.signAgentTriggerRequest(unsigned, secret);
  out.signature = signed.signature;
  out.algorithm = signed.signature_algorithm;
  const verified = agentProvider.verifyAgentTriggerRequest(JSON.stringify(signed), secret);
  out.verified = verified.ok ? verified.message.request_id : verified.error.code;
  const tampered = agentProvider.verifyAgentTriggerRequest({ ...signed, message: "Door opened." }, secret);
  out.tampered = tampered.ok ? "accepted" : tampered.error.code;
  const wrongKey = agentProvider.verifyAgentTriggerRequest(signed, "secret-2");
  out.wrongKey = wrongKey.ok ? "accepted" : wrongKey.error.code;
  try {
    agentProvider.signAgentTriggerRequest(unsigned, "");
    out.emptyKey = "signed";
  } catch (error) {
    out.emptyKey = error instanceof SigningError ? error.code : "other error";
  }

  // Step the trust lifecycle.
  const trust = agentConnector.lifecycles.trust;
  const steps: unknown[] = [];
  let state: agentConnector.lifecycles.trust.TrustState = trust.initialState;
  for (const event of ["approve", "install", "revoke", "disable"] as const) {
    const step = trust.transition(state, event);
    steps.push(step.ok ? [event, step.state, step.effects] : [event, "refused", step.refusal]);
    state = step.state;
  }
  const removed = trust.transition(state, "remove", { inUse: false });
  steps.push(removed.ok ? ["remove", removed.state, removed.effects] : ["remove", "refused", removed.refusal]);
  out.trust = steps;
  out.removedIsTerminal = trust.isTerminal(removed.state);

  // Import a content-addressed package and compute its id.
  const imported = agentConnector.importConnectorPackage(readFileSync(packageFile));
  if (!imported.ok) throw new Error(`${imported.error.code}: ${imported.error.message}`);
  out.packageId = imported.id;
  out.computedId = agentConnector.computeConnectorPackageId(imported.record);
  out.manifestId = imported.record.manifest.manifestId;
  const forged = agentConnector.importConnectorPackage(JSON.stringify({ ...imported.record, packageId: `connector-package-${"0".repeat(64)}` }));
  out.forged = forged.ok ? "accepted" : forged.error.code;
  return out;
}

async function admit(db: string, hold: boolean): Promise<void> {
  const signed = agentProvider.signAgentTriggerRequest(unsigned, secret);
  const verified = agentProvider.verifyAgentTriggerRequest(signed, secret);
  if (!verified.ok) throw new Error(verified.error.code);
  const store = new SqliteReplayStore(db);
  const guard = agentProvider.createAgentTriggerRequestReplayGuard(store, clock);
  const decision = await guard.admit(verified.message);
  console.log(JSON.stringify(decision.ok ? { admitted: true } : { admitted: false, code: decision.error.code }));
  if (hold) {
    // Never closes the store: the test kills this process, as a crash would.
    setInterval(() => undefined, 60_000);
    return;
  }
  await store.close();
}

const [command, first, second] = process.argv.slice(2);
if (command === "check" && first !== undefined && second !== undefined) console.log(JSON.stringify(check(first, second)));
else if (command === "admit" && first !== undefined) await admit(first, second === "--hold");
else {
  console.error("usage: main.js check <proposal.json> <package.json> | admit <db> [--hold]");
  process.exitCode = 2;
}
