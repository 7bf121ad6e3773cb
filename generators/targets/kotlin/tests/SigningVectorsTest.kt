package dev.agentcontracts.bindings

import dev.agentcontracts.agentconnector.AgentConnectorSigning
import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.agentservice.AgentServiceSigning
import dev.agentcontracts.runtime.ApprovalTokenResult
import dev.agentcontracts.runtime.AuditChain
import dev.agentcontracts.runtime.AuditChainDeclaration
import dev.agentcontracts.runtime.AuditHead
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.CanonicalJson
import dev.agentcontracts.runtime.ContentImport
import dev.agentcontracts.runtime.ContentImportResult
import dev.agentcontracts.runtime.HmacSha256V1
import dev.agentcontracts.runtime.HmacV1SignResult
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.string
import dev.agentcontracts.runtime.stringOrNull
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files

/**
 * The language-neutral security vectors of the spec, through the generated per-message functions
 * (whose declarations come from the spec's x- annotations): same verdicts and error codes as the
 * TypeScript runtime on every case.
 */
class SigningVectorsTest {
    @Test
    fun `hmac-sha256-v1 vectors verify with the declared error codes`() {
        val counter = CaseCounter("spec hmac-sha256-v1")
        val file = TestData.json("spec/agent-provider/vectors/hmac-sha256-v1.json").jsonObject
        val declarations = mapOf(
            "ActionProposal" to AgentProviderSigning.ACTION_PROPOSAL_SIGNATURE,
            "AgentTriggerRequest" to AgentProviderSigning.AGENT_TRIGGER_REQUEST_SIGNATURE,
        )
        for ((name, declared) in file.getValue("declarations").jsonObject) {
            val lines = declared.jsonObject.getValue("lines").jsonArray.map { it.jsonObject }
            val generated = declarations.getValue(name)
            assertEquals(lines.map { "${it.string("name")}=${it.string("field")}:${it.string("value")}:${it["default"]}" },
                generated.lines.map { "${it.name}=${it.field}:${it.value.wireName}:${it.default}" }, "$name lines")
            assertEquals(declared.jsonObject.string("signatureField"), generated.signatureField)
            assertEquals(declared.jsonObject.string("algorithmId"), generated.algorithmId)
        }
        for (case in file.getValue("cases").jsonArray.map { it.jsonObject }) {
            val label = case.string("name")
            val declaration = declarations.getValue(case.string("message_type"))
            val message = case.getValue("message").jsonObject
            val key = case.string("key_utf8").toByteArray()
            val verdict = HmacSha256V1.verify(declaration, message, key)?.code?.wireName ?: "valid"
            assertEquals(case.string("expect"), verdict, label)
            case.stringOrNull("expected_signing_input")?.let { assertEquals(it, HmacSha256V1.hmacV1SigningInput(declaration, message), label) }
            if (verdict == "valid") {
                // Re-signing the unsigned message gives the same signature.
                val unsigned = JsonObject(message - declaration.signatureField - declaration.algorithmField)
                val signed = HmacSha256V1.signHmacV1(declaration, unsigned, key) as HmacV1SignResult.Signed
                assertEquals(message.string(declaration.signatureField), signed.signature, label)
            }
            counter.count(case.string("expect"))
        }
        counter.finish()
    }

    @Test
    fun `content ids compute and verify`() {
        val counter = CaseCounter("spec content-ids")
        val file = TestData.json("spec/agent-connector/vectors/content-ids.json").jsonObject
        val declarations = mapOf(
            "ConnectorManifest" to AgentConnectorSigning.CONNECTOR_MANIFEST_CONTENT_ADDRESS,
            "ConnectorPackage" to AgentConnectorSigning.CONNECTOR_PACKAGE_CONTENT_ADDRESS,
        )
        for ((name, declared) in file.getValue("declarations").jsonObject) {
            val d = declared.jsonObject
            val generated = declarations.getValue(name)
            assertEquals(listOf(d.string("idField"), d.string("prefix"), d["maxCanonicalBytes"]?.jsonPrimitive?.long?.toInt(), d["canonicalInput"]?.jsonPrimitive?.content == "true"),
                listOf(generated.idField, generated.prefix, generated.maxCanonicalBytes, generated.canonicalInput), "$name declaration")
        }
        for (case in file.getValue("cases").jsonArray.map { it.jsonObject }) {
            val label = case.string("name")
            val record = case.getValue("record").jsonObject
            val expected = case.string("expected_id")
            // The JSON overloads (computeXId also takes the typed record).
            val manifest = case.string("message_type") == "ConnectorManifest"
            val compute = { r: JsonObject -> if (manifest) AgentConnectorSigning.computeConnectorManifestId(r) else AgentConnectorSigning.computeConnectorPackageId(r) }
            val verify = { r: JsonObject -> if (manifest) AgentConnectorSigning.verifyConnectorManifestId(r) else AgentConnectorSigning.verifyConnectorPackageId(r) }
            val idField = declarations.getValue(case.string("message_type")).idField
            assertEquals(expected, compute(record), label)
            assertTrue(verify(record), label)
            val forged = expected.dropLast(1) + if (expected.last() == '0') "1" else "0"
            assertFalse(verify(JsonObject(record + (idField to JsonPrimitive(forged)))), label)
            counter.count(case.string("message_type"))
        }
        counter.finish()
    }

    @Test
    fun `reference connector records import with the reference verdicts`() {
        val counter = CaseCounter("connector record import")
        val codes = mapOf(
            "json-invalid" to "AGENT_CONNECTOR_PACKAGE_JSON_INVALID",
            "schema-invalid" to "AGENT_CONNECTOR_PACKAGE_SCHEMA_INVALID",
            "id-mismatch" to "AGENT_CONNECTOR_PACKAGE_ID_MISMATCH",
            "not-canonical" to "AGENT_CONNECTOR_PACKAGE_JSON_NOT_CANONICAL",
        )
        val root = "property-tests/vectors/agent-connector/generated"
        for ((name, expected) in TestData.json("$root/valid/EXPECTED.json").jsonObject) {
            val bytes = Files.readAllBytes(TestData.path("$root/valid/$name"))
            val result = if (name.endsWith(".package.json")) AgentConnectorSigning.importConnectorPackage(bytes) else AgentConnectorSigning.importConnectorManifest(bytes)
            val id = expected.jsonObject.stringOrNull("packageId") ?: expected.jsonObject.string("manifestId")
            assertEquals(ContentImport.Imported::class, result::class, "valid/$name: $result")
            assertEquals(id, (result as ContentImport.Imported<*>).id, "valid/$name")
            counter.count("valid")
        }
        for ((name, expected) in TestData.json("$root/invalid/EXPECTED.json").jsonObject) {
            val result = AgentConnectorSigning.importConnectorPackage(Files.readAllBytes(TestData.path("$root/invalid/$name")))
            val code = (result as? ContentImportResult.Failed)?.code?.wireName?.let(codes::getValue) ?: "OK"
            assertEquals(expected.jsonPrimitive.content, code, "invalid/$name")
            counter.count("invalid ${(result as ContentImportResult.Failed).code.wireName}")
        }
        counter.finish()
    }

    @Test
    fun `audit chains verify against their stored head`() {
        val counter = CaseCounter("spec audit-chain")
        val file = TestData.json("spec/agent-connector/vectors/audit-chain.json").jsonObject
        val declared = file.getValue("declaration").jsonObject
        val declaration = AuditChainDeclaration.CONNECTOR
        assertEquals(
            listOf(declared.string("idField"), declared.string("prefix"), declared.string("previousField"), declared.string("sequenceField"), declared.string("genesisPrevious")),
            listOf(declaration.idField, declaration.prefix, declaration.previousField, declaration.sequenceField, declaration.genesisPrevious),
        )
        // The generated content address of AuditLogEntry names the same id field and prefix.
        assertEquals(declaration.idField, AgentConnectorSigning.AUDIT_LOG_ENTRY_CONTENT_ADDRESS.idField)
        assertEquals(declaration.prefix, AgentConnectorSigning.AUDIT_LOG_ENTRY_CONTENT_ADDRESS.prefix)
        for (case in file.getValue("cases").jsonArray.map { it.jsonObject }) {
            val head = case["head"]
            val expectedHead = if (head == null || head is JsonNull) null else AuditHead(head.jsonObject.getValue("sequence").jsonPrimitive.long, head.jsonObject.string("eventId"))
            val error = AuditChain.verifyAuditChain(declaration, case.getValue("entries").jsonArray, expectedHead, checkHead = head != null)
            assertEquals(case.string("expect"), error?.code?.wireName ?: "valid", case.string("name"))
            counter.count(case.string("expect"))
        }
        counter.finish()
    }

    // The vectors' tokens themselves are answered by the shared-case driver (SharedCaseDriver.kt,
    // kind approval-token), whose verdicts property-tests/drivers/drivers.test.ts compares with the
    // vectors' in every language; here only that the generated declaration is the vectors' one.
    @Test
    fun `the approval-token vectors are written for the generated declaration`() {
        val file = TestData.json("spec/agent-service/vectors/approval-token.json").jsonObject
        val declared = file.getValue("declaration").jsonObject
        val declaration = AgentServiceSigning.APPROVAL_TOKEN_CLAIMS_TOKEN
        assertEquals(
            declared.mapValues { it.value.jsonPrimitive.long },
            mapOf(
                "version" to declaration.version.toLong(), "maxLifetimeSeconds" to declaration.maxLifetimeSeconds,
                "clockSkewSeconds" to declaration.clockSkewSeconds, "minTtlSeconds" to declaration.minTtlSeconds,
                "maxTtlSeconds" to declaration.maxTtlSeconds, "defaultTtlSeconds" to declaration.defaultTtlSeconds,
                "minSecretBytes" to declaration.minSecretBytes.toLong(),
            ),
        )
    }

    @Test
    fun `a minted approval token decodes to its claims`() {
        val secret = "a-test-secret-of-at-least-24-characters".toByteArray()
        val input = dev.agentcontracts.runtime.MintApprovalInput("set_ticket_priority", "TKT-1", "actor", "req-1", choice = "high", expectedChoice = "medium")
        val minted = AgentServiceSigning.mintApprovalTokenClaimsToken(input, secret, nowMs = 1_700_000_000_000) as ApprovalTokenResult.Valid
        val decoded = AgentServiceSigning.decodeApprovalTokenClaimsToken(minted.token, secret, nowMs = 1_700_000_000_000) as ApprovalTokenResult.Valid
        assertEquals(minted.claims, decoded.claims)
        assertTrue(decoded.claims.overrideRequested)
        assertEquals(CanonicalJson.canonicalize(JsonObject(emptyMap())), CanonicalJson.canonicalize(decoded.claims.payload))
        val refused = AgentServiceSigning.mintApprovalTokenClaimsToken(input, secret, nowMs = 0, ttlSeconds = 5)
        assertEquals("mint-ttl-out-of-range", (refused as ApprovalTokenResult.Failed).code.wireName)
    }

    @Test
    fun `an empty or short approval secret is refused by mint and verify`() {
        val input = dev.agentcontracts.runtime.MintApprovalInput("a", "r", "u", "q")
        fun code(r: ApprovalTokenResult) = (r as? ApprovalTokenResult.Failed)?.code?.wireName ?: "valid"
        assertEquals("key-missing", code(AgentServiceSigning.mintApprovalTokenClaimsToken(input, ByteArray(0), nowMs = 1_700_000_000_000)))
        assertEquals("key-too-short", code(AgentServiceSigning.mintApprovalTokenClaimsToken(input, ByteArray(31) { 107 }, nowMs = 1_700_000_000_000)))
        val minted = AgentServiceSigning.mintApprovalTokenClaimsToken(input, ByteArray(32) { 107 }, nowMs = 1_700_000_000_000) as ApprovalTokenResult.Valid
        val bindings = dev.agentcontracts.runtime.ApprovalBindings("a", "r", "q", null)
        assertEquals("valid", code(AgentServiceSigning.verifyApprovalTokenClaimsToken(minted.token, ByteArray(32) { 107 }, bindings, nowMs = 1_700_000_000_000)))
        assertEquals("key-missing", code(AgentServiceSigning.verifyApprovalTokenClaimsToken(minted.token, ByteArray(0), bindings, nowMs = 1_700_000_000_000)))
        assertEquals("key-too-short", code(AgentServiceSigning.decodeApprovalTokenClaimsToken(minted.token, ByteArray(16) { 107 }, nowMs = 1_700_000_000_000)))
    }
}
