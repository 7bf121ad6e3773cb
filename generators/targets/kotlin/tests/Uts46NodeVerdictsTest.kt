package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * Hosts at the edges of UTS 46 processing (Uts46.kt) and of the host parser's percent-decoding
 * (WhatwgOrigin.kt), each with `new URL(input).origin` as Node 20.20.2 printed it (its URL parser
 * is ada 2.9.2, Unicode 17.0; FAIL where Node threw): a host that ends in a short percent escape,
 * NUL through UTS 46, ZWNJ/ZWJ after a virama, between joining letters (with transparent marks
 * between) and elsewhere (RFC 5892 CONTEXTJ), right-to-left labels with European and Arabic digits
 * and a trailing mark (RFC 5893), Punycode labels that are empty, invalid, not ASCII, decode to a
 * disallowed or unnormalized label, and mapped, ignored and disallowed code points; percent-escapes at
 * the ends of the hex digit ranges and IPv6 and IPv4 forms next to the parser's bounds; a last
 * label of digits that is no IPv4 number; C0 controls and spaces around the input.
 *
 * Left out, because Kotlin and Node disagree on them (reported to the project, not decided here):
 * a left-to-right label holding a right-to-left letter ("aא", "1א", "א.abא"), a label starting
 * with a digit or ending in other than L/EN in a bidi name ("א.1abc", "א.a!"), an Arabic-digit
 * label ("١", "abc.١", "ü.١", "۱ب"), which Kotlin refuses by RFC 5893 as UTS 46's CheckBidi reads it
 * and Node accepts; and "xn--xn--a-", which Kotlin refuses (its decoded label starts with "xn--")
 * and Node keeps.
 */
class Uts46NodeVerdictsTest {
    private val FAIL: String? = null

    private val nodeOrigins: List<Pair<String, String?>> = listOf(
        "http://a%4/" to FAIL,
        "http://a%/" to FAIL,
        "http://a%41/" to "http://aa",
        "http://\u00fc%00x/" to FAIL,
        "http://\u00fc\u0000x/" to FAIL,
        "http://\u0915\u094d\u200c\u0915/" to "http://xn--11ba1ow90g",
        "http://\u0915\u094d\u200d\u0915/" to "http://xn--11ba1o090g",
        "http://\u0915\u200d\u0915/" to FAIL,
        "http://\u0915\u200c\u0915/" to FAIL,
        "http://\u0628\u200c\u0628/" to "http://xn--ngba799q",
        "http://\u0628\u200c/" to FAIL,
        "http://\u200c\u0628/" to FAIL,
        "http://\u0628\u064b\u200c\u064b\u0628/" to "http://xn--ngba8ha8704a",
        "http://\u0628\u064b\u200c\u064b/" to FAIL,
        "http://\u0627\u200c\u0628/" to FAIL,
        "http://\u0628\u200c\u0627/" to "http://xn--mgbb899q",
        "http://a\u200cb/" to FAIL,
        "http://\u200d/" to FAIL,
        "http://\u200c/" to FAIL,
        "http://\u05d0\u05d1/" to "http://xn--4dbc",
        "http://\u05d0a/" to FAIL,
        "http://\u05d01/" to "http://xn--1-zhc",
        "http://\u05d0\u0661/" to "http://xn--4db40a",
        "http://\u05d01\u0661/" to FAIL,
        "http://\u05d0\u05b0/" to "http://xn--7cb7d",
        "http://\u05b0\u05d0/" to FAIL,
        "http://\u0628\u0661/" to "http://xn--ngb8i",
        "http://\u0628\u06f1/" to "http://xn--ngb61b",
        "http://\u0628\u0661\u06f1/" to FAIL,
        "http://\u05d0-\u05d1/" to "http://xn----zhce",
        "http://\u05d0.abc/" to "http://xn--4db.abc",
        "http://\u05d0.abc1/" to "http://xn--4db.abc1",
        "http://\u05d0.a\u0300/" to "http://xn--4db.xn--0ca",
        "http://\u05d0.a1/" to "http://xn--4db.a1",
        "http://\u05d0..b/" to "http://xn--4db..b",
        "http://xn--ls8h/" to "http://xn--ls8h",
        "http://xn--/" to FAIL,
        "http://xn--a/" to FAIL,
        "http://xn--zca/" to "http://xn--zca",
        "http://xn--Zca/" to "http://xn--zca",
        "http://xn--a-ecp.ru/" to FAIL,
        "http://xn--ab-/" to "http://xn--ab-",
        "http://xn--\u00fc/" to FAIL,
        "http://xn--ss-/" to "http://xn--ss-",
        "http://xn--A-/" to "http://xn--a-",
        "http://xn--1ug/" to FAIL,
        "http://xn--0ug/" to FAIL,
        "http://xn--5a/" to FAIL,
        "http://xn--a-0fa/" to "http://xn--a-0fa",
        "http://xn--80a/" to "http://xn--80a",
        "http://xn--a-9ub/" to "http://xn--a-9ub",
        "http://xn--u-ccb/" to FAIL,
        "http://xn--zz/" to FAIL,
        "http://xn--99999999999/" to FAIL,
        "http://xn--a.b\u00fc/" to FAIL,
        "http://\u0300a/" to FAIL,
        "http://a\u0300/" to "http://xn--0ca",
        "http://\u00fc\u0300/" to "http://xn--7ja",
        "http://u\u0308/" to "http://xn--tda",
        "http://\u00df/" to "http://xn--zca",
        "http://\u00c4/" to "http://xn--4ca",
        "http://\ufb01/" to "http://fi",
        "http://a\u00adb\u00fc/" to "http://xn--ab-yka",
        "http://\u00fc.xn--a/" to FAIL,
        "http://\u2488/" to FAIL,
        "http://\ud800/" to FAIL,
        "http://\u0080/" to FAIL,
        "http://\u00a0\u00fc/" to FAIL,
        "http://\u00fc\u3002a/" to "http://xn--tda.a",
        "http://\uff21\u00fc/" to "http://xn--a-eha",
        "http://\u00fc\u2024a/" to FAIL,
        "http://a\u200b\u00fc/" to "http://xn--a-eha",
        "http://\u0378\u00fc/" to FAIL,
        "http://\u00fc%2e/" to "http://xn--tda.",
        "http://\u00fc%2ea/" to "http://xn--tda.a",
        "http://\u00fc.\u05d0/" to "http://xn--tda.xn--4db",
        // Percent-escapes at each end of the hex digit ranges, IPv6 pieces around an embedded IPv4 and
        // compression at either end, and IPv4 numbers next to U+007F and fullwidth digits.
        "http://a%30%39/" to "http://a09",
        "http://a%61%66%41%46/" to "http://aafaf",
        "http://a%2f/" to FAIL,
        "http://a%60/" to "http://a`",
        "http://a%67/" to "http://ag",
        "http://a%40b/" to FAIL,
        "http://a%47/" to "http://ag",
        "http://a%3A/" to FAIL,
        "http://a%2F/" to FAIL,
        "http://[1:2:3:4:5:6:1.2.3.4.5]/" to FAIL,
        "http://[1::2]/" to "http://[1::2]",
        "http://[1:2::3:4]/" to "http://[1:2::3:4]",
        "http://[::1:2:3:4:5:6:7]/" to "http://[0:1:2:3:4:5:6:7]",
        "http://[1:2:3:4:5:6:7::]/" to "http://[1:2:3:4:5:6:7:0]",
        "http://[1:2:3:4:5::1.2.3.4]/" to "http://[1:2:3:4:5:0:102:304]",
        "http://[1:2:3:4:5:6:7:1.2.3.4]/" to FAIL,
        "http://1.2.3.\u007f/" to FAIL,
        "http://0x7f\u007f/" to FAIL,
        "http://\uff10x7f/" to "http://0.0.0.127",
        // Punycode encodings where the threshold t meets k == bias, or a digit q equals t.
        "http://\u00a1/" to "http://xn--7a",
        "http://a\u00a1/" to "http://xn--a-6ba",
        // IPv4 parts in IPv6 that start with 0 and with 9.
        "http://[::0.9.0.9]/" to "http://[::9:9]",
        "http://[::9.0.9.0]/" to "http://[::900:900]",
        // A last label of ASCII digits that is no IPv4 number ("09", "08": not octal) still ends in a
        // number, so the host is refused; a percent-escaped digit at either end of 0-9 is one.
        "http://a.09/" to FAIL,
        "http://a.08/" to FAIL,
        "http://%30/" to "http://0.0.0.0",
        "http://%39/" to "http://0.0.0.9",
        // C0 controls and spaces trimmed from either end, and an input of nothing else.
        " http://a/" to "http://a",
        "\u0000 http://a/ \u001f" to "http://a",
        "\u001fhttp://b\u0000" to "http://b",
        "  " to FAIL,
        "\u0001" to FAIL,
    )

    @Test
    fun `hosts at the edges of UTS 46 get Node's origin`() {
        val kotlin = { input: String -> runCatching { WhatwgOrigin.of(input) }.getOrElse { "threw $it" } }
        val mismatches = nodeOrigins.filter { (input, origin) -> kotlin(input) != origin }
            .map { (input, origin) -> "$input: Node $origin, Kotlin ${kotlin(input)}" }
        assertEquals(emptyList<String>(), mismatches)
    }
}
