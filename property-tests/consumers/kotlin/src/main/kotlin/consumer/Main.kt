// A consumer of the Kotlin bindings, written from docs-site/guides/kotlin.md only. Every expected
// value comes from the spec's vectors (read from the spec folder given on the command line) or
// from the protocol documents' rules, never from running the bindings.
//
// Usage: Main <first|second> <spec dir> <sqlite file>. The first run checks everything and records
// the trigger; the second (a new JVM on the same file) must see it rejected as replayed.
package consumer

import dev.agentcontracts.agentconnector.AgentConnectorSigning
import dev.agentcontracts.agentconnector.ConnectorPackage
import dev.agentcontracts.agentconnector.lifecycles.TrustLifecycle
import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.agentprovider.AgentProviderValidators
import dev.agentcontracts.agentprovider.AgentTriggerRequest
import dev.agentcontracts.agentprovider.UnsignedAgentTriggerRequest
import dev.agentcontracts.runtime.HmacV1ErrorCode
import dev.agentcontracts.runtime.HmacV1Verification
import dev.agentcontracts.runtime.Outcome
import dev.agentcontracts.runtime.RefusalReason
import dev.agentcontracts.runtime.ReplayDecision
import dev.agentcontracts.runtime.ReplayRejectCode
import dev.agentcontracts.runtime.SqliteReplayStore
import dev.agentcontracts.runtime.ValidationResult
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.put
import java.io.File
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset
import kotlin.system.exitProcess

private var failures = 0

private fun check(what: String, ok: Boolean, detail: () -> String = { "" }) {
    if (ok) println("ok   $what") else {
        failures++
        println("FAIL $what ${detail()}")
    }
}

private fun readJson(file: File): JsonObject = Json.parseToJsonElement(file.readText()).jsonObject

private fun cases(file: File): List<JsonObject> = readJson(file).getValue("cases").jsonArray.map { it.jsonObject }

private fun JsonObject.text(field: String): String = getValue(field).jsonPrimitive.content

/** The vectors' trigger "rust_core_trigger_accept", written as typed values (as the guide shows). */
private fun unsignedTrigger() = UnsignedAgentTriggerRequest(
    protocolVersion = 2, requestId = "trigger-1", providerId = "provider", agentId = "provider.agent",
    message = "Desk button pressed.", source = "virtual_sensor", eventType = "button_pressed",
    payload = buildJsonObject { put("button", "desk") },
    createdAt = "2026-05-27T00:00:00Z", expiresAt = "2030-01-01T00:00:00Z",
    nonce = "nonce-trigger", idempotencyKey = "trigger-1", hostInstanceId = "host-instance-1",
)

// Within the spec's maxLifetimeSeconds (one day) of the trigger's expiry, after its creation.
private val clock: Clock = Clock.fixed(Instant.parse("2029-12-31T12:00:00Z"), ZoneOffset.UTC)

fun main(args: Array<String>) {
    require(args.size == 3) { "usage: Main <first|second> <spec dir> <sqlite file>" }
    val (mode, specDir, dbPath) = args
    val signingVectors = File(specDir, "agent-provider/vectors/hmac-sha256-v1.json")
    val secret = "secret-1".toByteArray()
    val trigger = AgentProviderSigning.signAgentTriggerRequest(unsignedTrigger(), secret)
    if (mode == "first") {
        checkValidation(signingVectors)
        checkSigning(signingVectors, trigger, secret)
        checkLifecycle()
        checkPackageIds(File(specDir, "agent-connector/vectors/content-ids.json"))
    }
    SqliteReplayStore(dbPath).use { store ->
        val guard = AgentProviderSigning.createAgentTriggerRequestReplayGuard(store, clock)
        val decision = runBlocking { guard.admit(trigger) }
        if (mode == "first") {
            check("replay: the first admission is recorded", decision == ReplayDecision.Admitted) { "$decision" }
        } else {
            check("replay: after a restart the same trigger is replayed", (decision as? ReplayDecision.Rejected)?.code == ReplayRejectCode.REPLAYED) { "$decision" }
            val fresh = AgentProviderSigning.signAgentTriggerRequest(unsignedTrigger().copy(requestId = "trigger-2"), secret)
            check("replay: another request id is admitted", runBlocking { guard.admit(fresh) } == ReplayDecision.Admitted)
        }
    }
    println(if (failures == 0) "consumer: $mode run passed" else "consumer: $mode run had $failures failures")
    exitProcess(if (failures == 0) 0 else 1)
}

private fun checkValidation(vectors: File) {
    val proposal = cases(vectors).first { it.text("message_type") == "ActionProposal" && it.text("expect") == "valid" && it.text("name") == "ios_provider_sdk_proposal" }
    val message = proposal.getValue("message").jsonObject
    when (val result = AgentProviderValidators.parseActionProposal(message.toString().toByteArray())) {
        is ValidationResult.Valid -> check("validate: the vectors' ActionProposal parses", result.value.requestId == message.text("request_id")) { "${result.value}" }
        is ValidationResult.Invalid -> check("validate: the vectors' ActionProposal parses", false) { "${result.errors}" }
    }
    // The protocol requires a nonce on every proposal.
    val noNonce = JsonObject(message - "nonce")
    val refused = AgentProviderValidators.parseActionProposal(noNonce.toString().toByteArray())
    check("validate: a proposal without nonce is refused as required", refused is ValidationResult.Invalid && refused.errors.first().keyword == "required" && "nonce" in refused.errors.first().message) { "$refused" }
    val broken = AgentProviderValidators.parseActionProposal("{\"request_id\": \"a\", \"request_id\": \"b\"}".toByteArray())
    check("validate: duplicate keys are refused", broken is ValidationResult.Invalid) { "$broken" }
}

private fun checkSigning(vectors: File, trigger: AgentTriggerRequest, secret: ByteArray) {
    val expected = cases(vectors).first { it.text("name") == "rust_core_trigger_accept" }.text("expected_signature")
    check("sign: the typed trigger gets the vectors' signature", trigger.signature == expected) { "${trigger.signature} != $expected" }
    check("verify: the signed trigger verifies", AgentProviderSigning.verifyAgentTriggerRequest(trigger, secret) == HmacV1Verification.Verified(trigger))
    val forged = trigger.copy(message = "Open the front door.")
    val rejected = AgentProviderSigning.verifyAgentTriggerRequest(forged, secret)
    check("verify: a changed message is a signature mismatch", (rejected as? HmacV1Verification.Rejected)?.error?.code == HmacV1ErrorCode.SIGNATURE_MISMATCH) { "$rejected" }
}

/** spec/agent-connector/lifecycles/trust.machine.yaml: approve from imported; revoke not from installed. */
private fun checkLifecycle() {
    val approved = TrustLifecycle.transition(TrustLifecycle.State.IMPORTED, TrustLifecycle.Event.APPROVE)
    check("lifecycle: imported --approve--> approved", approved is Outcome.Moved && approved.to == TrustLifecycle.State.APPROVED) { "$approved" }
    val installed = TrustLifecycle.transition(TrustLifecycle.State.APPROVED, TrustLifecycle.Event.INSTALL)
    check("lifecycle: approved --install--> installed", installed is Outcome.Moved && installed.to == TrustLifecycle.State.INSTALLED) { "$installed" }
    val revoke = TrustLifecycle.transition(TrustLifecycle.State.INSTALLED, TrustLifecycle.Event.REVOKE)
    check("lifecycle: installed refuses revoke", revoke is Outcome.Refused && revoke.reason == RefusalReason.EVENT_NOT_ALLOWED) { "$revoke" }
}

private fun checkPackageIds(vectors: File) {
    var seen = 0
    for (case in cases(vectors).filter { it.text("message_type") == "ConnectorPackage" }) {
        val record = Json.decodeFromJsonElement(ConnectorPackage.serializer(), case.getValue("record"))
        val id = AgentConnectorSigning.computeConnectorPackageId(record)
        check("package id: ${case.text("name")}", id == case.text("expected_id")) { "$id" }
        seen++
    }
    check("package id: the vectors hold packages", seen > 0)
}
