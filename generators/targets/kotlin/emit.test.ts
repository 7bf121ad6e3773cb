import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import type { Model } from "../../model/types.js";
import { emitKotlinRuntime, emitKotlinTests, readKotlinSources } from "./emit-runtime.js";
import { emitKotlin, emitKotlinProject } from "./emit.js";
import { KOTLIN_TEST_DATA, SHARED_RESOURCES, emitKotlinTestData, readKotlinTestData } from "./emit-test-data.js";
import { camelCase, identifier, kdoc, protocolPackage, screamingSnake, stringLiteral } from "./kotlin-names.js";
import { kotlinDeclarations } from "./kotlin-types.js";

function model(): Model {
  const loaded = loadModel(REPO_ROOT);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
  return loaded.model;
}

describe("Kotlin names", () => {
  it("spells wire names the Kotlin way", () => {
    expect(camelCase("request_id")).toBe("requestId");
    expect(camelCase("packageId")).toBe("packageId");
    expect(screamingSnake("event-stream")).toBe("EVENT_STREAM");
    expect(screamingSnake("SourceUsed")).toBe("SOURCE_USED");
    expect(screamingSnake("2fa")).toBe("V_2FA");
    expect(identifier("object")).toBe("`object`");
    expect(identifier("type")).toBe("type");
  });

  it("escapes string templates and comment terminators", () => {
    expect(stringLiteral('a$b"\\\n')).toBe('"a\\$b\\"\\\\\\n"');
    expect(kdoc("ends */ early", "")).toEqual(["/** ends *&#47; early */"]);
  });
});

describe("emitKotlin", () => {
  const files = emitKotlin(model());
  const file = (path: string): string => files.find((f) => f.path === path)?.contents ?? "";

  // Determinism across processes is property-tests/determinism.
  it("stays inside the Maven layout", () => {
    for (const f of files) expect(f.path).toMatch(/^src\/(main\/kotlin\/dev\/agentcontracts|main\/resources\/dev\/agentcontracts\/schemas|test\/resources\/(examples|lifecycles|validation-cases)|test\/kotlin\/dev\/agentcontracts\/bindings)\//);
  });

  it("writes wire constants as const vals, typed by value", () => {
    const constants = file("src/main/kotlin/dev/agentcontracts/agentconnector/Constants.kt");
    expect(constants).toContain("object Limits {");
    expect(constants).toContain("const val MAX_PACKAGE_BYTES: Int = 524288");
    expect(constants).toContain('const val LOCAL_ECHO: String = "sdk.local-echo.v1"');
  });

  it("turns oneOf + discriminator into a sealed interface whose serializer reads the tag", () => {
    const resume = file("src/main/kotlin/dev/agentcontracts/agentconnector/ConnectorResume.kt");
    expect(resume).toContain("sealed interface ConnectorResume");
    expect(resume).toContain('"input" -> InputResume.serializer()');
    expect(resume).toContain(") : ConnectorResume {");
    const audit = file("src/main/kotlin/dev/agentcontracts/agentconnector/AuditLogEntry.kt");
    expect(audit).toContain('"approved", "installed", "disabled", "revoked", "removed" -> TransitionEntry.serializer()');
  });

  it("keeps snake_case wire names, camelCase properties and nullability only where the schema allows", () => {
    const proposal = file("src/main/kotlin/dev/agentcontracts/agentprovider/ActionProposal.kt");
    expect(proposal).toContain('@SerialName("request_id")\n    val requestId: String,');
    // Optional const: absent on unsigned proposals, so not written by default.
    expect(proposal).toContain("val signatureAlgorithm: String? = null,");
    const request = file("src/main/kotlin/dev/agentcontracts/agentconnector/HttpJsonRequest.kt");
    expect(request).toContain("val sessionRef: String?,"); // required but nullable: no default
  });

  it("emits every protocol's schemas without annotations, and its x-rules as Kotlin values", () => {
    const schemas = JSON.parse(file("src/main/resources/dev/agentcontracts/schemas/agent-service.json")) as { $id: string }[];
    expect(schemas.map((s) => s.$id)).toContain("https://agent-contracts.dev/schemas/common/types.json");
    expect(JSON.stringify(schemas)).not.toMatch(/"(examples|x-[a-z-]+)":/);
    const validators = file("src/main/kotlin/dev/agentcontracts/agentconnector/AgentConnectorValidators.kt");
    expect(validators).toContain('CrossFieldRule.UrlOriginIn(id = "endpoint-origin-declared"');
    expect(validators).toContain("fun parseConnectorPackage(bytes: ByteArray): ValidationResult<ConnectorPackage>");
    expect(file("src/main/kotlin/dev/agentcontracts/Protocols.kt")).toContain('"agent-service" to AgentServiceValidators.validator,');
  });

  it("ships the runtime and its suites beside the bindings", () => {
    const runtime = emitKotlinRuntime(readKotlinSources(REPO_ROOT, "runtime"));
    expect(runtime.map((f) => f.path)).toContain("src/main/kotlin/dev/agentcontracts/runtime/CanonicalJson.kt");
    const packages = new Set(model().protocols.map((p) => protocolPackage(p.id)));
    const data = new Set(["spec/common/vectors/jcs.json"]);
    const tests = emitKotlinTests(readKotlinSources(REPO_ROOT, "tests"), packages, data);
    expect(tests.map((f) => f.path)).toContain("src/test/kotlin/dev/agentcontracts/bindings/ExamplesRoundTripTest.kt");
    expect(tests.map((f) => f.path)).toContain("src/test/kotlin/dev/agentcontracts/bindings/SharedCaseDriver.kt");
    expect(() => emitKotlinTests([{ name: "X.kt", text: "package other\n" }], packages, data)).toThrow(/generators\/targets\/kotlin\/tests\/X.kt/);
  });

  it("leaves out a suite that names a protocol package or spec vector file the spec lacks", () => {
    const suite = (name: string, body: string) => ({ name, text: `package dev.agentcontracts.bindings\n${body}\n` });
    const tests = [
      suite("Generic.kt", "import dev.agentcontracts.Protocols\nimport dev.agentcontracts.runtime.StrictJson"),
      suite("Typed.kt", "import dev.agentcontracts.doorbell.DoorbellSigning"),
      suite("Vectors.kt", 'val f = TestData.json("spec/doorbell/vectors/ring.json")'),
    ];
    const kept = (packages: string[], data: string[]) => emitKotlinTests(tests, new Set(packages), new Set(data)).map((f) => f.path.split("/").pop());
    expect(kept([], [])).toEqual(["Generic.kt"]);
    expect(kept(["dev.agentcontracts.doorbell"], [])).toEqual(["Generic.kt", "Typed.kt"]);
    expect(kept(["dev.agentcontracts.doorbell"], ["spec/doorbell/vectors/ring.json"])).toEqual(["Generic.kt", "Typed.kt", "Vectors.kt"]);
  });

  it("keys an anyOf by a boolean const (agent-service ExecuteApprovalResult)", () => {
    const result = file("src/main/kotlin/dev/agentcontracts/agentservice/ExecuteApprovalResult.kt");
    expect(result).toContain("sealed interface ExecuteApprovalResult");
    expect(result).toContain("?.takeUnless { it.isString }?.booleanOrNull");
    expect(result).toContain("true -> ExecuteApplied.serializer()");
    expect(result).toContain("val ok: Boolean = false");
  });

  it("names the schema location of a shape it cannot type", () => {
    const m = model();
    const service = m.protocols.find((p) => p.id === "agent-service")!;
    const broken = structuredClone(service);
    const message = broken.messages.find((x) => x.name === "ExecuteApprovalResult")!;
    (message.schema["anyOf"] as { properties: { ok: { const: unknown } } }[])[1]!.properties.ok.const = true;
    expect(() => kotlinDeclarations(m, broken, broken.messages)).toThrow(/ExecuteApprovalResult/);
  });

  it("emits a lifecycle object per machine and the signing functions", () => {
    const trust = file("src/main/kotlin/dev/agentcontracts/agentconnector/lifecycles/TrustLifecycle.kt");
    expect(trust).toContain("object TrustLifecycle {");
    expect(trust).toContain('IMPORTED("imported"),');
    expect(trust).toContain("rule(State.IMPORTED, Event.APPROVE, State.APPROVED, emptyList(), listOf(Effect.AUDIT_APPROVED)),");
    // The paths suites are the shared-case driver's (property-tests/drivers), not a Kotlin resource.
    expect(files.some((f) => f.path.startsWith("src/test/resources/lifecycles/"))).toBe(false);
    const signing = file("src/main/kotlin/dev/agentcontracts/agentprovider/AgentProviderSigning.kt");
    expect(signing).toContain('HmacV1Line("arguments_sha256", "arguments", HmacV1Line.Value.SHA256_JCS_BASE64_STD_NOPAD),');
    expect(file("src/main/kotlin/dev/agentcontracts/agentconnector/AgentConnectorSigning.kt")).toContain("?.let(::verifyConnectorManifestId) == true");
    expect(file("src/main/kotlin/dev/agentcontracts/agentservice/AgentServiceSigning.kt")).toContain("fun verifyApprovalTokenClaimsToken(");
  });

  it("gives each signed message an Unsigned class and typed sign/verify, and each x-replay message a guard factory", () => {
    const trigger = file("src/main/kotlin/dev/agentcontracts/agentprovider/AgentTriggerRequest.kt");
    const unsigned = trigger.slice(trigger.indexOf("data class UnsignedAgentTriggerRequest("));
    expect(unsigned).toContain("val requestId: String,");
    expect(unsigned).not.toMatch(/val signature(Algorithm)?\b/);
    const signing = file("src/main/kotlin/dev/agentcontracts/agentprovider/AgentProviderSigning.kt");
    expect(signing).toContain("fun signAgentTriggerRequest(unsigned: UnsignedAgentTriggerRequest, secret: ByteArray): AgentTriggerRequest =");
    expect(signing).toContain("fun verifyAgentTriggerRequest(message: AgentTriggerRequest, secret: ByteArray): HmacV1Verification<AgentTriggerRequest> =");
    expect(signing).not.toMatch(/HmacV1Error\?/);
    expect(signing).toContain("fun createAgentTriggerRequestReplayGuard(store: ReplayStore, clock: Clock = Clock.systemUTC()): TypedReplayGuard<AgentTriggerRequest> =");
    expect(signing).toContain('keyFields = listOf("request_id"),');
    const service = file("src/main/kotlin/dev/agentcontracts/agentservice/AgentServiceSigning.kt");
    expect(service).toContain("timeFormat = ReplayTimeFormat.UNIX_SECONDS,");
    const connector = file("src/main/kotlin/dev/agentcontracts/agentconnector/AgentConnectorSigning.kt");
    expect(connector).toContain("fun importConnectorPackage(bytes: ByteArray): ContentImport<ConnectorPackage> =");
  });

  it("writes pom.xml and the README with the spec's one project version", () => {
    const m = { ...model(), version: "7.8.9-rc.1" };
    const [pom, readme] = emitKotlinProject(m);
    expect(pom!.path).toBe("pom.xml");
    expect(pom!.contents).toMatch(/<artifactId>agent-contracts-bindings<\/artifactId>\s*<version>7\.8\.9-rc\.1<\/version>/);
    expect(pom!.contents.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!--\n  Generated by agent-contracts')).toBe(true);
    expect(pom!.contents).toContain("<id>mutation</id>");
    expect(pom!.contents).not.toContain("agentContracts.repoRoot");
    expect(readme!.contents).toContain("mvn install -DskipTests");
    expect(readme!.contents).toContain("<version>7.8.9-rc.1</version>");
  });

  it("copies every file the JUnit suites read into the test resources, byte for byte", () => {
    const data = readKotlinTestData(REPO_ROOT, model());
    const out = emitKotlinTestData(data);
    expect(out.every((f) => f.path.startsWith(`${SHARED_RESOURCES}/`))).toBe(true);
    // Every repository path a suite names is copied (TestData.json/cases/bytes/path "...").
    const suites = readKotlinSources(REPO_ROOT, "tests").map((s) => s.text).join("\n");
    const named = [...suites.matchAll(/TestData\.(?:json|cases|bytes|path)\("((?:spec|property-tests)\/[^"$]+)"/g)].map((x) => x[1]!);
    expect(named.length).toBeGreaterThan(10);
    for (const path of named) expect(out.some((f) => f.path === `${SHARED_RESOURCES}/${path}` || f.path.startsWith(`${SHARED_RESOURCES}/${path}/`)), path).toBe(true);
    expect(KOTLIN_TEST_DATA.length).toBeGreaterThan(0);
  });
});
