package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * LenientJsonObject against ECMAScript JSON.parse, the grammar it states it follows: the verdicts
 * Node recorded in property-tests/oracle-vectors/lenient-json/verdicts.json (a hand-written table of
 * grammar edges, generated objects in every whitespace, escape and number form, and those damaged
 * one character at a time; its README says how), which the TS reader is held to as well. Then the
 * depth bound, the one difference by design (JSON.parse has none), counted by hand.
 */
class LenientJsonMutationKillsTest {
    private val vectors = "property-tests/oracle-vectors/lenient-json/verdicts.json"

    // Read with kotlinx.serialization, not StrictJson: the expected members hold lone surrogates
    // (JSON.parse keeps "\ud800" as one UTF-16 unit), which the strict I-JSON reader refuses by design.
    private val cases: List<JsonObject> =
        Json.parseToJsonElement(String(TestData.bytes(vectors), Charsets.UTF_8)).jsonObject.getValue("cases").jsonArray.map { it.jsonObject }

    private fun quoted(text: String) = JsonPrimitive(text).toString()

    @Test
    fun `every text gets the verdict JSON_parse recorded`() {
        val counter = CaseCounter("lenient-json")
        val wrong = mutableListOf<String>()
        for (case in cases) {
            val text = case.string("text")
            val expected = (case["members"] as? JsonArray)?.associate { it.jsonArray[0].jsonPrimitive.content to it.jsonArray[1].jsonPrimitive.content }
            counter.count(case.string("kind") + if (expected == null) " refused" else " object")
            // A throw is a wrong verdict too: bad input must be refused, never crash the filter.
            val got = try {
                LenientJsonObject.strings(text)
            } catch (e: Exception) {
                wrong += "${quoted(text)}: threw $e"
                continue
            }
            if (got != expected) wrong += "${quoted(text)}: JSON.parse gives ${expected?.let { quoted(it.toString()) }}, got ${got?.let { quoted(it.toString()) }}"
        }
        assertEquals(emptyList<String>(), wrong.take(15), "${wrong.size} of ${cases.size} texts disagree with JSON.parse")
        for (kind in listOf("table", "damaged")) for (verdict in listOf("refused", "object")) {
            assertTrue(counter.countOf("$kind $verdict") > 0, "no $kind case is $verdict")
        }
        counter.finish()
    }

    // Containers inside the top-level object: `{"s":"v","a":` + n nested ones + `}`.
    private fun arrays(n: Int) = "{\"s\":\"v\",\"a\":" + "[".repeat(n) + "]".repeat(n) + "}"
    private fun objects(n: Int, innermost: String = "{}") = "{\"s\":\"v\",\"a\":" + "{\"b\":".repeat(n - 1) + innermost + "}".repeat(n - 1) + "}"
    private fun mixed(pairs: Int) = "{\"s\":\"v\",\"a\":" + "[{\"b\":".repeat(pairs) + "1" + "}]".repeat(pairs) + "}"
    private val read = mapOf("s" to "v")

    @Test
    fun `512 nested containers inside the object are read, the 513th is refused`() {
        assertEquals(read, LenientJsonObject.strings(arrays(512)))
        assertNull(LenientJsonObject.strings(arrays(513)))
        assertEquals(read, LenientJsonObject.strings(objects(512)))
        assertNull(LenientJsonObject.strings(objects(513)))
        // A scalar inside the 512th container is not a container: it does not count.
        assertEquals(read, LenientJsonObject.strings(objects(512, "{\"b\":1}")))
        assertEquals(read, LenientJsonObject.strings(objects(512, "{\"b\":\"deep\"}")))
        assertEquals(read, LenientJsonObject.strings(objects(512, "[1]")))
        assertNull(LenientJsonObject.strings(objects(512, "[[]]")))
        assertNull(LenientJsonObject.strings(objects(512, "{\"b\":{}}")))
        assertEquals(read, LenientJsonObject.strings(mixed(256)))
        assertNull(LenientJsonObject.strings(mixed(256).replace("1", "[1]")))
        assertNull(LenientJsonObject.strings(mixed(257)))
        // Far past the bound: refused, no StackOverflowError.
        assertNull(LenientJsonObject.strings(arrays(100_000)))
        assertNull(LenientJsonObject.strings(objects(100_000)))
    }
}
