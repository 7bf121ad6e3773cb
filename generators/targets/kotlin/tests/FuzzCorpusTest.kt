package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonException
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.ValidationError
import dev.agentcontracts.runtime.ValidationResult
import dev.agentcontracts.runtime.parseRfc3339
import dev.agentcontracts.runtime.string
import kotlinx.serialization.KSerializer
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.util.Base64

/**
 * The hostile-input corpus (property-tests/fuzz/corpus): every case must get the verdict the
 * TypeScript suite recorded, through the strict parser, the validator and the typed decode; an
 * exception of any kind is a failure of its own, reported with the case.
 */
class FuzzCorpusTest {
    private fun describe(error: ValidationError): String =
        if (error.keyword == "json") "json ${error.params["code"]}"
        else "${error.instancePath} ${error.keyword}${error.params["rule"]?.let { " $it" } ?: ""}"

    @Suppress("UNCHECKED_CAST")
    private fun validate(protocol: String, message: String, bytes: ByteArray): String {
        val validator = Protocols.validators[protocol] ?: return "no validator for $protocol"
        val serializer = Protocols.messages[protocol]?.get(message) as KSerializer<Any?>?
        if (serializer != null) {
            return when (val result = validator.parse(message, bytes, serializer)) {
                is ValidationResult.Valid -> "valid"
                is ValidationResult.Invalid -> describe(result.errors.first())
            }
        }
        val value = try {
            StrictJson.parse(bytes)
        } catch (error: StrictJsonException) {
            return "json ${error.code.wireName}"
        }
        return validator.errors(message, value).firstOrNull()?.let(::describe) ?: "valid"
    }

    private fun verdict(case: kotlinx.serialization.json.JsonObject): String {
        val bytes by lazy { Base64.getDecoder().decode(case.string("b64")) }
        return when (case.string("kind")) {
            "parse" -> try {
                StrictJson.parse(bytes)
                "ok"
            } catch (error: StrictJsonException) {
                error.code.wireName
            }
            "validate" -> validate(case.string("protocol"), case.string("message"), bytes)
            "rfc3339" -> parseRfc3339(case.string("text"))?.toString() ?: "null"
            else -> "unknown kind ${case.string("kind")}"
        }
    }

    @Test
    fun `every corpus case gets the TypeScript verdict, without an exception`() {
        val counter = CaseCounter("fuzz corpus")
        val mismatches = ArrayList<String>()
        for (file in listOf("strict-json", "validators", "reproducers", "rfc3339")) {
            for (case in TestData.cases("property-tests/fuzz/corpus/$file.json")) {
                val got = try {
                    verdict(case)
                } catch (error: Throwable) {
                    "exception ${error::class.simpleName}: ${error.message}"
                }
                if (got != case.string("expect")) mismatches += "$file ${case.string("name")}: got $got, expected ${case.string("expect")}"
                counter.count(file)
            }
        }
        counter.finish()
        assertEquals(emptyList<String>(), mismatches.take(20), "${mismatches.size} mismatches")
    }
}
