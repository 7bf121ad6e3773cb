package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * WhatwgUrl (the `whatwgUrl` rule and `urlOriginIn`'s origin) against web-platform-tests'
 * urltestdata.json (property-tests/vectors/wpt-url, commit and licence in its README): every
 * entry without a base whose scheme is http, https, ws, wss or ftp (296) gets WPT's verdict (the
 * parser fails exactly where WPT says `failure`) and WPT's origin (its `origin`, or for the few
 * entries that give none, `protocol` + `//` + `host`).
 */
class WhatwgUrlWptTest {
    private val special = setOf("http", "https", "ws", "wss", "ftp")

    /** The scheme as the URL parser reads it: after C0/space trimming and tab/newline removal. */
    private fun scheme(input: String): String? {
        val cleaned = input.trim { it <= ' ' }.filterNot { it == '\t' || it == '\n' || it == '\r' }
        return Regex("^([a-zA-Z][a-zA-Z0-9+.-]*):").find(cleaned)?.groupValues?.get(1)?.lowercase()
    }

    @Test
    fun `every special-scheme input without a base gets WPT's verdict and origin`() {
        val counter = CaseCounter("wpt urltestdata (special schemes, no base)")
        val wrong = ArrayList<String>()
        val entries = TestData.json("property-tests/vectors/wpt-url/urltestdata.json").jsonArray.filterIsInstance<JsonObject>()
        for (entry in entries) {
            if (entry["base"] !is JsonNull) continue
            val input = entry.string("input")
            if (scheme(input) !in special) continue
            val failure = entry["failure"]?.jsonPrimitive?.content == "true"
            val expected = if (failure) null else entry.stringOrNull("origin") ?: (entry.string("protocol") + "//" + entry.string("host"))
            val actual = try {
                WhatwgOrigin.of(input)
            } catch (e: Throwable) {
                "threw $e"
            }
            counter.count(if (failure) "failure" else "origin")
            if (actual != expected) wrong += "${jsonString(input)}: WPT ${expected ?: "failure"}, Kotlin ${actual ?: "failure"}"
        }
        counter.finish()
        assertEquals("", wrong.joinToString("\n"), "${wrong.size} of ${counter.total} differ from WPT")
        assertEquals(296, counter.total, "every special-scheme entry without a base is read")
    }

    private fun jsonString(text: String) = text.map { if (it.code < 0x20 || it.code > 0x7e) "\\u%04x".format(it.code) else "$it" }.joinToString("")

    /**
     * UTS 46 cases WPT's special-scheme entries do not reach (deviation characters, joiners, bidi):
     * the origins Node's URL (ICU's UTS 46) gives, which Python's idna 3.13 (uts46, nontransitional)
     * also gives for the hosts it accepts. java.net.IDN (IDNA 2003) would give fass and σσ.
     */
    @Test
    fun `UTS 46 nontransitional processing, joiners and bidi as Node's URL`() {
        val cases = listOf(
            "https://faß.ExAmPlE/" to "https://xn--fa-hia.example",
            "https://\u03c2\u03c3.example/" to "https://xn--3xac.example",
            "https://a\u200cb.example/" to null,
            "https://\u0628\u200c\u0628.example/" to "https://xn--ngba799q.example",
            "https://\u0915\u094d\u200d.example/" to "https://xn--11b6iy14e.example",
            "https://\u05d0a.example/" to null,
            "https://\u05d01.example/" to "https://xn--1-zhc.example",
            "https://a.\u05d0.example/" to "https://a.xn--4db.example",
        )
        for ((url, origin) in cases) assertEquals(origin, WhatwgOrigin.of(url), jsonString(url))
    }
}
