// One enum openness rule in every language (issue 29): a string enum is open (a value this version
// does not know is kept and written back) unless the spec marks it x-closed-enum (then it is
// refused). The expected verdicts are this table, written by hand from the spec's markers (grep
// x-closed-enum spec/: ChatMessage.yaml's role and IntermediateStep.yaml's type), never from the
// shape model or an emitter; the test reads the committed generated/ output of every typed target.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./fixture.js";

type Verdict = "open" | "closed";

/** Every string enum a message of this repository's spec declares: its Kotlin and Swift names, and the verdict. */
const ENUMS: { kotlin: string; swift: string; verdict: Verdict }[] = [
  { kotlin: "agentconnector.CredentialSlotType", swift: "AgentConnector.CredentialSlotType", verdict: "open" },
  { kotlin: "agentconnector.CredentialsMode", swift: "AgentConnector.Credentials.Mode", verdict: "open" },
  { kotlin: "agentconnector.EventType", swift: "AgentConnector.EventType", verdict: "open" },
  { kotlin: "agentconnector.InputType", swift: "AgentConnector.InputType", verdict: "open" },
  { kotlin: "agentconnector.InvocationIdempotencyMode", swift: "AgentConnector.Invocation.IdempotencyMode", verdict: "open" },
  { kotlin: "agentconnector.PermissionMode", swift: "AgentConnector.PermissionMode", verdict: "open" },
  { kotlin: "agentconnector.PermissionResumeStatus", swift: "AgentConnector.PermissionResume.Status", verdict: "open" },
  { kotlin: "agentconnector.TransitionEntryAction", swift: "AgentConnector.TransitionEntry.Action", verdict: "open" },
  { kotlin: "agentconnector.TransportProtocol", swift: "AgentConnector.TransportProtocol", verdict: "open" },
  { kotlin: "agentconnector.TransportType", swift: "AgentConnector.TransportType", verdict: "open" },
  { kotlin: "agentprovider.ActionResultStatus", swift: "AgentProvider.ActionResult.Status", verdict: "open" },
  { kotlin: "agentprovider.ActionRisk", swift: "AgentProvider.ActionRisk", verdict: "open" },
  { kotlin: "agentprovider.AgentInstallResultStatus", swift: "AgentProvider.AgentInstallResult.Status", verdict: "open" },
  { kotlin: "agentprovider.ConfirmationPolicy", swift: "AgentProvider.ConfirmationPolicy", verdict: "open" },
  { kotlin: "agentprovider.ExecutionMode", swift: "AgentProvider.ExecutionMode", verdict: "open" },
  { kotlin: "agentprovider.TriggerAcknowledgementStatus", swift: "AgentProvider.TriggerAcknowledgement.Status", verdict: "open" },
  { kotlin: "agentservice.ChatMessageRole", swift: "AgentService.ChatMessage.Role", verdict: "closed" },
  { kotlin: "agentservice.IntermediateStepType", swift: "AgentService.IntermediateStep.TypeValue", verdict: "closed" },
  { kotlin: "agentservice.OutputGuardrailDecisionOutcome", swift: "AgentService.OutputGuardrailDecision.Outcome", verdict: "open" },
  { kotlin: "agentservice.ScreenedInputDecisionDecisionSource", swift: "AgentService.ScreenedInputDecision.DecisionSource", verdict: "open" },
  { kotlin: "agentservice.ScreenedInputDecisionOutcome", swift: "AgentService.ScreenedInputDecision.Outcome", verdict: "open" },
  { kotlin: "providerintegration.DisconnectCompletedLiveChannel", swift: "ProviderIntegration.DisconnectCompleted.LiveChannel", verdict: "open" },
  { kotlin: "providerintegration.DisconnectIncompleteFailedStepsItem", swift: "ProviderIntegration.DisconnectIncomplete.FailedStep", verdict: "open" },
  { kotlin: "providerintegration.Permission", swift: "ProviderIntegration.Permission", verdict: "open" },
];

const KOTLIN_MAIN = `${REPO_ROOT}/generated/kotlin/src/main/kotlin/dev/agentcontracts`;

function kotlinPackageSource(pkg: string): string {
  return readdirSync(`${KOTLIN_MAIN}/${pkg}`)
    .filter((f) => f.endsWith(".kt"))
    .map((f) => readFileSync(`${KOTLIN_MAIN}/${pkg}/${f}`, "utf8"))
    .join("\n");
}

/** The verdict the Kotlin declaration implements: a sealed class with an Unknown case keeps, an enum class refuses. */
function kotlinVerdict(qualified: string): Verdict | "missing" {
  const [pkg, name] = qualified.split(".") as [string, string];
  const source = kotlinPackageSource(pkg);
  const sealed = new RegExp(`^sealed class ${name}\\(\\n[^]*?^    class Unknown\\(wireValue: String\\) : ${name}\\(wireValue\\)$`, "m").test(source);
  const enumClass = new RegExp(`^enum class ${name} \\{$`, "m").test(source);
  if (sealed === enumClass) return "missing";
  return sealed ? "open" : "closed";
}

describe("enum openness follows x-closed-enum in every language", () => {
  it("Kotlin: an open enum is a sealed class keeping unknown values, a closed one an enum class", () => {
    const actual = ENUMS.map((e) => ({ name: e.kotlin, verdict: kotlinVerdict(e.kotlin) }));
    expect(actual).toEqual(ENUMS.map((e) => ({ name: e.kotlin, verdict: e.verdict })));
  });

  it("Kotlin: EnumOpennessTest checks every enum with the table's verdict, and no other", () => {
    const test = readFileSync(`${REPO_ROOT}/generated/kotlin/src/test/kotlin/dev/agentcontracts/bindings/EnumOpennessTest.kt`, "utf8");
    const checked = [...test.matchAll(/^ {8}check(Open|Closed)\(dev\.agentcontracts\.([\w.]+)\.serializer\(\)/gm)].map((m) => ({ name: m[2]!, verdict: m[1] === "Open" ? "open" : "closed" }));
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect(checked.sort(byName)).toEqual(ENUMS.map((e) => ({ name: e.kotlin, verdict: e.verdict })).sort(byName));
  });

  it("Swift: EnumTests checks every enum with the table's verdict, and no other", () => {
    const test = readFileSync(`${REPO_ROOT}/generated/swift/Tests/AgentContractsTests/EnumTests.swift`, "utf8");
    const checked = [...test.matchAll(/^ {8}try check(Open|Closed)\(([\w.]+)\.self/gm)].map((m) => ({ name: m[2]!, verdict: m[1] === "Open" ? "open" : "closed" }));
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect(checked.sort(byName)).toEqual(ENUMS.map((e) => ({ name: e.swift, verdict: e.verdict })).sort(byName));
  });
});
