package dev.agentcontracts.runtime

import dev.agentcontracts.agentconnector.AgentConnectorSigning
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The Agent Connector rule kinds on the vectors the TypeScript and Swift suites read: noSecrets
 * (secret-text.json), whatwgUrl and urlOriginIn (whatwg-urls.json), and Meldwork's own verdicts on
 * 320 field values (property-tests/vectors/real-implementations), where a difference must be a
 * recorded divergence.
 */
class ConnectorRulesTest {
    @Test
    fun `noSecrets gives the host filter's verdict`() {
        val counter = CaseCounter("secret-text")
        for (case in TestData.cases("spec/agent-connector/vectors/secret-text.json")) {
            val text = case.string("text")
            assertEquals(case.getValue("secret").jsonPrimitive.boolean, SecretText.contains(text), "${case.string("name")} ${text.take(60)}")
            counter.count(case.string("shape"))
        }
        assertEquals("too-long", SecretText.find("a".repeat(SecretText.MAX_UNITS + 1)))
        counter.finish()
    }

    @Test
    fun `adversarial repetitions scan without blowing up`() {
        for (part in listOf("sk-", "Basic a", "-----BEGIN ", "a.", "token", "\"token", "https://a:", "Bearer ", "AIza", "AKIA")) {
            SecretText.contains(part.repeat(SecretText.MAX_UNITS / part.length))
        }
    }

    @Test
    fun `whatwgUrl and the origin follow the WHATWG URL parser`() {
        val counter = CaseCounter("whatwg-urls")
        for (case in TestData.cases("spec/agent-connector/vectors/whatwg-urls.json")) {
            val url = case.string("url")
            assertEquals(case.getValue("origin").jsonPrimitive.boolean, WhatwgUrl.check(url, "origin"), "origin form: $url")
            assertEquals(case.getValue("endpoint").jsonPrimitive.boolean, WhatwgUrl.check(url, "endpoint"), "endpoint form: $url")
            val expected = case.getValue("originOf").let { if (it is JsonNull) null else it.jsonPrimitive.content }
            assertEquals(expected, WhatwgOrigin.of(url), "origin of $url")
            counter.count("url")
        }
        counter.finish()
    }

    @Test
    fun `every Meldwork field-value verdict is matched or a recorded divergence`() {
        val counter = CaseCounter("meldwork-verdicts")
        // Meldwork's own verdicts include values with a lone surrogate, which the strict parser refuses.
        val file = String(TestData.bytes("property-tests/vectors/real-implementations/meldwork-connector/field-value-verdicts.json"), Charsets.UTF_8)
        val records = Json.parseToJsonElement(file).jsonArray
        assertEquals(320, records.size)
        for (element in records) {
            val record = element.jsonObject
            val bytes = record.string("text").toByteArray(Charsets.UTF_8)
            val result = if (record.string("type") == "ConnectorManifest") AgentConnectorSigning.importConnectorManifest(bytes) else AgentConnectorSigning.importConnectorPackage(bytes)
            val meldAccepts = record.string("meld") == "accept"
            val label = "${record.string("type")} ${record.string("field")} = ${record.string("value").take(60)}"
            if (hasLoneSurrogateEscape(record.string("text"))) {
                // Divergence lone-surrogate-in-text (ConnectorManifest.yaml): refused as I-JSON.
                assertTrue(meldAccepts, label)
                assertTrue(result is ContentImportResult.Failed && result.jsonError == "lone-surrogate", "$label: $result")
                counter.count("divergence")
                continue
            }
            assertEquals(meldAccepts, result is ContentImport.Imported<*>, "$label: $result")
            if (result is ContentImportResult.Failed) assertEquals(ContentImportErrorCode.SCHEMA_INVALID, result.code, label)
            counter.count(if (meldAccepts) "accept" else "refuse")
        }
        counter.finish()
        assertEquals(3, counter.countOf("divergence"))
    }

    /** The JSON text holds a \\uD800-\\uDFFF escape that is not half of a pair. */
    private fun hasLoneSurrogateEscape(json: String): Boolean {
        var i = 0
        var pendingHigh = false
        while (i < json.length) {
            if (json[i] != '\\') { if (pendingHigh) return true; i++; continue }
            if (json.getOrNull(i + 1) != 'u' || i + 6 > json.length) { if (pendingHigh) return true; i += 2; continue }
            val unit = json.substring(i + 2, i + 6).toIntOrNull(16) ?: return false
            when {
                unit in 0xD800..0xDBFF -> { if (pendingHigh) return true; pendingHigh = true }
                unit in 0xDC00..0xDFFF -> { if (!pendingHigh) return true; pendingHigh = false }
                else -> if (pendingHigh) return true
            }
            i += 6
        }
        return pendingHigh
    }
}
