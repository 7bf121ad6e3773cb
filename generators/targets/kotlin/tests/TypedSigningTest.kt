package dev.agentcontracts.bindings

import dev.agentcontracts.agentconnector.AgentConnectorSigning
import dev.agentcontracts.agentconnector.ConnectorPackage
import dev.agentcontracts.agentprovider.ActionProposal
import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.agentprovider.AgentTriggerRequest
import dev.agentcontracts.agentprovider.UnsignedActionProposal
import dev.agentcontracts.agentprovider.UnsignedAgentTriggerRequest
import dev.agentcontracts.agentservice.AgentServiceSigning
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.ContentImport
import dev.agentcontracts.runtime.HmacV1ErrorCode
import dev.agentcontracts.runtime.HmacV1Exception
import dev.agentcontracts.runtime.HmacV1Verification
import dev.agentcontracts.runtime.InMemoryReplayStore
import dev.agentcontracts.runtime.RecordOutcome
import dev.agentcontracts.runtime.ReplayDecision
import dev.agentcontracts.runtime.ReplayRejectCode
import dev.agentcontracts.runtime.ReplayStore
import dev.agentcontracts.runtime.ReplayTimeFormat
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.string
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.SerializationException
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset

/**
 * The typed surface: Unsigned<Message> → sign<Message> → verify<Message>, the generated replay
 * guard factories and typed imports. Expected signatures and ids are the spec's vectors (which
 * come from outside implementations and Python's hmac), never this code's output.
 */
class TypedSigningTest {
    private val vectors = TestData.json("spec/agent-provider/vectors/hmac-sha256-v1.json").jsonObject
    private val cases = vectors.getValue("cases").jsonArray.map { it.jsonObject }

    private fun unsignedJson(message: JsonObject) = JsonObject(message - "signature" - "signature_algorithm")

    @Test
    fun `typed signing gives the vectors' signatures and verifies them`() {
        val counter = CaseCounter("typed signing")
        for (case in cases.filter { it.string("expect") == "valid" && "expected_signature" in it }) {
            val label = case.string("name")
            val key = case.string("key_utf8").toByteArray()
            val message = case.getValue("message").jsonObject
            val expected = case.string("expected_signature")
            // A vector signed over a value the schema refuses (arguments: null) has no typed form.
            val signature = try { when (case.string("message_type")) {
                "AgentTriggerRequest" -> {
                    val unsigned = Json.decodeFromJsonElement(UnsignedAgentTriggerRequest.serializer(), unsignedJson(message))
                    val signed: AgentTriggerRequest = AgentProviderSigning.signAgentTriggerRequest(unsigned, key)
                    assertEquals(HmacV1Verification.Verified(signed), AgentProviderSigning.verifyAgentTriggerRequest(signed, key), label)
                    val tampered = signed.copy(message = signed.message + "!")
                    assertEquals(HmacV1ErrorCode.SIGNATURE_MISMATCH, rejection(AgentProviderSigning.verifyAgentTriggerRequest(tampered, key)), label)
                    assertEquals(HmacV1ErrorCode.SIGNATURE_MISMATCH, rejection(AgentProviderSigning.verifyAgentTriggerRequest(signed, "other-secret".toByteArray())), label)
                    signed.signature
                }
                else -> {
                    val unsigned = Json.decodeFromJsonElement(UnsignedActionProposal.serializer(), unsignedJson(message))
                    val signed: ActionProposal = AgentProviderSigning.signActionProposal(unsigned, key)
                    assertTrue(AgentProviderSigning.verifyActionProposal(signed, key) is HmacV1Verification.Verified, label)
                    signed.signature
                }
            } } catch (_: SerializationException) {
                counter.count("not typed")
                continue
            }
            assertEquals(expected, signature, label)
            counter.count(case.string("message_type"))
        }
        counter.finish()
        assertTrue(counter.countOf("AgentTriggerRequest") > 0 && counter.countOf("ActionProposal") > 0)
    }

    @Test
    fun `verify names the vectors' error codes on typed messages`() {
        val counter = CaseCounter("typed verify rejections")
        for (case in cases.filter { it.string("expect") != "valid" && it.string("message_type") == "AgentTriggerRequest" }) {
            // Cases whose message has no typed form (a missing or mistyped member) are the JSON API's.
            val typed = try {
                Json.decodeFromJsonElement(AgentTriggerRequest.serializer(), case.getValue("message").jsonObject)
            } catch (_: SerializationException) {
                counter.count("not typed")
                continue
            }
            val code = rejection(AgentProviderSigning.verifyAgentTriggerRequest(typed, case.string("key_utf8").toByteArray()))
            assertEquals(case.string("expect"), code?.wireName, case.string("name"))
            counter.count(case.string("expect"))
        }
        counter.finish()
        assertTrue(counter.countOf("signature-mismatch") > 0, "a signature-mismatch case was checked")
    }

    @Test
    fun `the JSON verify names success too, and an empty secret is a typed error`() {
        val case = cases.first { it.string("expect") == "valid" && it.string("message_type") == "AgentTriggerRequest" }
        val message = case.getValue("message").jsonObject
        assertEquals(HmacV1Verification.Verified(message), AgentProviderSigning.verifyAgentTriggerRequestSignature(message, case.string("key_utf8").toByteArray()))
        val unsigned = Json.decodeFromJsonElement(UnsignedAgentTriggerRequest.serializer(), unsignedJson(message))
        val error = assertThrows(HmacV1Exception::class.java) { AgentProviderSigning.signAgentTriggerRequest(unsigned, ByteArray(0)) }
        assertEquals(HmacV1ErrorCode.KEY_MISSING, error.error.code)
    }

    private fun rejection(result: HmacV1Verification<*>): HmacV1ErrorCode? = (result as? HmacV1Verification.Rejected)?.error?.code

    /** A clock fixed at [at]. */
    private fun clockAt(at: String): Clock = Clock.fixed(Instant.parse(at), ZoneOffset.UTC)

    @Test
    fun `the generated replay declaration is the spec's and the guard admits a typed trigger once`() = runBlocking {
        val spec = vectors.getValue("replay").jsonObject.getValue("AgentTriggerRequest").jsonObject
        val d = AgentProviderSigning.AGENT_TRIGGER_REQUEST_REPLAY
        assertEquals(spec.getValue("keyFields").jsonArray.map { it.jsonPrimitive.content }, d.keyFields)
        assertEquals(spec.getValue("scopeFields").jsonArray.map { it.jsonPrimitive.content }, d.scopeFields)
        assertEquals(spec.string("expiresAtField"), d.expiresAtField)
        assertEquals(spec.string("notBeforeField"), d.notBeforeField)
        assertEquals(spec.getValue("skewSeconds").jsonPrimitive.long, d.skewSeconds)
        assertEquals(spec.getValue("maxLifetimeSeconds").jsonPrimitive.long, d.maxLifetimeSeconds)

        val case = cases.first { it.string("expect") == "valid" && it.string("message_type") == "AgentTriggerRequest" }
        val trigger = Json.decodeFromJsonElement(AgentTriggerRequest.serializer(), case.getValue("message").jsonObject)
        // The vector expires 2030-01-01T00:00:00Z; the spec accepts at most a day (plus skew) of remaining lifetime.
        val guard = AgentProviderSigning.createAgentTriggerRequestReplayGuard(InMemoryReplayStore(), clockAt("2029-12-31T12:00:00Z"))
        assertEquals(ReplayDecision.Admitted, guard.admit(trigger))
        assertEquals(ReplayRejectCode.REPLAYED, (guard.admit(trigger) as ReplayDecision.Rejected).code)
        assertEquals(ReplayRejectCode.REPLAYED, (guard.admitJson(case.getValue("message").jsonObject) as ReplayDecision.Rejected).code)
        val other = trigger.copy(requestId = "trigger-2", expiresAt = "2029-12-31T11:59:59Z")
        assertEquals(ReplayRejectCode.EXPIRED, (guard.admit(other) as ReplayDecision.Rejected).code)
        val early = trigger.copy(requestId = "trigger-3")
        val tooLong = AgentProviderSigning.createAgentTriggerRequestReplayGuard(InMemoryReplayStore(), clockAt("2026-05-27T00:01:00Z")).admit(early)
        assertEquals(ReplayRejectCode.LIFETIME_EXCEEDED, (tooLong as ReplayDecision.Rejected).code, "maxLifetimeSeconds is the spec's day")
    }

    /** Stores that answer FULL or cannot answer: the guard refuses (fail closed), with its code. */
    @Test
    fun `a full or failing store refuses the message`() = runBlocking {
        val case = cases.first { it.string("expect") == "valid" && it.string("message_type") == "AgentTriggerRequest" }
        val trigger = Json.decodeFromJsonElement(AgentTriggerRequest.serializer(), case.getValue("message").jsonObject)
        class Answering(val answer: RecordOutcome?) : ReplayStore {
            override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome =
                answer ?: throw java.io.IOException("connection refused by redis://user:secret@db")
            override suspend fun evictExpired(nowMs: Long) = 0
            override suspend fun size() = 0
        }
        val at = clockAt("2029-12-31T12:00:00Z")
        val full = AgentProviderSigning.createAgentTriggerRequestReplayGuard(Answering(RecordOutcome.FULL), at).admit(trigger)
        assertEquals(ReplayRejectCode.CAPACITY_EXCEEDED, (full as ReplayDecision.Rejected).code)
        val down = AgentProviderSigning.createAgentTriggerRequestReplayGuard(Answering(null), at).admit(trigger)
        assertEquals(ReplayRejectCode.STORE_UNAVAILABLE, (down as ReplayDecision.Rejected).code)
        assertTrue("secret" !in down.message, "the store's error text never reaches the decision: ${down.message}")
    }

    /** ApprovalTokenClaims' x-replay keeps unix-seconds times; exp is inclusive (the token's exp == now passes). */
    @Test
    fun `unix-seconds replay declarations`() = runBlocking {
        val d = AgentServiceSigning.APPROVAL_TOKEN_CLAIMS_REPLAY
        assertEquals(ReplayTimeFormat.UNIX_SECONDS, d.timeFormat)
        val claims = buildJsonObject {
            put("nonce", "n-1")
            put("exp", 1_800_000_000L)
        }
        // Table: (clock seconds, expected). exp itself passes; one second later is expired.
        val store = InMemoryReplayStore()
        val at = { s: Long -> Clock.fixed(Instant.ofEpochSecond(s), ZoneOffset.UTC) }
        val guard = { s: Long -> AgentServiceSigning.createApprovalTokenClaimsReplayGuard(store, at(s)) }
        assertEquals(ReplayDecision.Admitted, guard(1_800_000_000L).admitJson(claims))
        assertEquals(ReplayRejectCode.REPLAYED, (guard(1_799_999_999L).admitJson(claims) as ReplayDecision.Rejected).code)
        val late = JsonObject(claims + ("nonce" to JsonPrimitive("n-2")))
        assertEquals(ReplayRejectCode.EXPIRED, (guard(1_800_000_001L).admitJson(late) as ReplayDecision.Rejected).code)
        val text = JsonObject(claims + ("exp" to JsonPrimitive("1800000000")))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, (guard(1_799_999_000L).admitJson(text) as ReplayDecision.Rejected).code)
    }

    /** importX returns the typed record; its id is the reference parser's (EXPECTED.json). */
    @Test
    fun `typed import of the reference connector packages`() {
        val root = "property-tests/vectors/agent-connector/generated/valid"
        val counter = CaseCounter("typed import")
        for ((name, expected) in TestData.json("$root/EXPECTED.json").jsonObject) {
            if (!name.endsWith(".package.json")) continue
            val result = AgentConnectorSigning.importConnectorPackage(Files.readAllBytes(TestData.path("$root/$name")))
            if (result !is ContentImport.Imported) error("$name: $result")
            val record: ConnectorPackage = result.record
            val id = expected.jsonObject.getValue("packageId").jsonPrimitive.content
            assertEquals(id, record.packageId, name)
            assertEquals(id, AgentConnectorSigning.computeConnectorPackageId(record), name)
            counter.count("package")
        }
        counter.finish()
    }
}
