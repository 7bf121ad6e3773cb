package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/**
 * More edges of WhatwgUrl, each with Node 20's verdict: `new URL(input).origin` (FAIL where it
 * threw), TypeScript's checkHttpsUrl rule (generators/targets/ts/runtime/src/whatwg-url.ts: https,
 * no credentials, `url.search === "" && url.hash === ""` for an endpoint) evaluated on Node's URL,
 * and RFC 3492 decodings from Node's built-in `punycode` module. The inputs sit on the digit
 * ranges the parser tests ('0' and '9' in ports, percent escapes, IPv4 numbers and Punycode
 * digits), on U+0080, on the empty query and fragment, and on the Punycode bias thresholds.
 */
class WhatwgOriginEdgeKillsTest {
    private val FAIL: String? = null

    private val nodeOrigins: List<Pair<String, String?>> = listOf(
        "http://a:9/" to "http://a:9",
        "http://a:90/" to "http://a:90",
        "http://a:0/" to "http://a:0",
        "http://%30/" to "http://0.0.0.0",
        "http://%39/" to "http://0.0.0.9",
        "http://a%39b/" to "http://a9b",
        "http://a%30b/" to "http://a0b",
        "http://%41%42/" to "http://ab",
        "http://a%4/" to FAIL,
        "http://a%/" to FAIL,
        "http://%C2%80/" to FAIL,
        "http://\u0080/" to FAIL,
        "http://09/" to FAIL,
        "http://9/" to "http://0.0.0.9",
        "http://0.9/" to "http://0.0.0.9",
        "http://19/" to "http://0.0.0.19",
        "http://a.09/" to FAIL,
        "http://a.9/" to FAIL,
        "http://a.0/" to FAIL,
        "http://0x9/" to "http://0.0.0.9",
        "http://0xa/" to "http://0.0.0.10",
        "http://0xF/" to "http://0.0.0.15",
        "http://07/" to "http://0.0.0.7",
        "http://[::1.2.3.9]/" to "http://[::102:309]",
        "http://[::1.2.3.0]/" to "http://[::102:300]",
        "http://[::9.9.9.9]/" to "http://[::909:909]",
        "http://[::1.2.3:4]/" to FAIL,
        "http://[::1.2.3/4]/" to FAIL,
        "http://[:]/" to FAIL,
        "http://[1:2:3:4:5:6:7::]/" to "http://[1:2:3:4:5:6:7:0]",
        "http://[::2:3:4:5:6:7:8]/" to "http://[0:2:3:4:5:6:7:8]",
        "http://[1::3:4:5:6:7:8]/" to "http://[1:0:3:4:5:6:7:8]",
        "http://xn--9ca/" to "http://xn--9ca",
        "http://xn--0ca/" to "http://xn--0ca",
        "http://xn--faade-zra/" to "http://xn--faade-zra",
        "http://xn--FAADE-ZRA/" to "http://xn--faade-zra",
        "http://xn--jalapeo-9za/" to "http://xn--jalapeo-9za",
        "http://xn--aca/" to FAIL,
        "http://xn--/" to FAIL,
        "http://xn--fiq228c/" to "http://xn--fiq228c",
        "http://\u4e2d\u6587/" to "http://xn--fiq228c",
        "http://xn--mnchen-3ya/" to "http://xn--mnchen-3ya",
        "http://xn--abcde-fsa789yzd3i/" to "http://xn--abcde-fsa789yzd3i",
        // A ':' where a digit is expected: the port, an embedded IPv4 part, a Punycode digit.
        "http://a:1:2/" to FAIL,
        "http://[::1.2.3.4:]/" to FAIL,
        "http://[1:2:3:4:5:6:1.2.3.4.5]/" to FAIL,
        // '{' is allowed in a domain but is no Punycode digit.
        "http://a{b/" to "http://a{b",
        "http://xn--{ca/" to FAIL,
        // Leading and trailing C0 controls and spaces are trimmed.
        "http://a.example/ " to "http://a.example",
        "  http://a.example/" to "http://a.example",
        "\u0001http://a.example/\u0001 " to "http://a.example",
    )

    @Test
    fun `origins as Node's URL gives them`() {
        val wrong = nodeOrigins.filter { (input, origin) -> WhatwgOrigin.of(input) != origin }
            .map { (input, origin) -> "$input: Node ${origin ?: "FAIL"}, Kotlin ${WhatwgOrigin.of(input) ?: "FAIL"}" }
        assertEquals("", wrong.joinToString("\n"))
    }

    private val checks: List<Triple<String, String, Boolean>> = listOf(
        Triple("https://a.example/#", "endpoint", true),
        Triple("https://a.example#", "endpoint", true),
        Triple("https://a.example/?", "endpoint", true),
        Triple("https://a.example/?#", "endpoint", true),
        Triple("https://a.example/#x", "endpoint", false),
        Triple("https://a.example/?x", "endpoint", false),
        Triple("https://a.example/??", "endpoint", false),
        Triple("https://a.example/##", "endpoint", false),
        Triple("https://a.example/#?", "endpoint", false),
        Triple("https://a.example#x", "endpoint", false),
        Triple("https://:@a.example/", "endpoint", true),
        Triple("https://u@a.example/", "endpoint", false),
        Triple("https://:p@a.example/", "endpoint", false),
        Triple("https://a.example:443", "origin", false),
        Triple("https://a.example:8443", "origin", true),
        Triple("http://a.example", "origin", false),
    )

    @Test
    fun `https URL forms as TypeScript's checkHttpsUrl decides them on Node's URL`() {
        val wrong = checks.filter { (text, form, ok) -> WhatwgUrl.check(text, form) != ok }.map { "${it.first} ${it.second}: Node ${it.third}" }
        assertEquals("", wrong.joinToString("\n"))
    }

    @Test
    fun `Punycode decodings as Node's punycode module gives them`() {
        val pairs = listOf(
            "zca" to "\u00df", "9ca" to "\u00e9", "0ca" to "\u00e0", "mnchen-3ya" to "m\u00fcnchen",
            // 中文: the second digit of the first delta sits at k == bias (t is tmin there).
            "fiq228c" to "\u4e2d\u6587",
            // adapt() sees a scaled delta of exactly 455 before the last code point.
            "abcde-fsa789yzd3i" to "abcde\u1077\u00e9\u4e00",
        )
        for ((encoded, decoded) in pairs) assertEquals(decoded, Punycode.decode(encoded), encoded)
        // 2047 basic code points then U+10007F: the first delta is exactly 2^31 - 1, the largest allowed.
        val basic = "a".repeat(2047)
        assertEquals(basic + String(Character.toChars(0x10007F)), Punycode.decode("$basic-w416146o"))
        // One delta to U+10FFFF decodes; one more is past the last code point (Node: "Invalid code point 1114112").
        assertEquals(String(Character.toChars(0x10FFFF)), Punycode.decode("dn32g"))
        assertNull(Punycode.decode("en32g"))
    }
}
