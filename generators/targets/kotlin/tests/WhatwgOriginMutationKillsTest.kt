package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * WhatwgUrl against Node's URL (the WHATWG URL Standard's reference-grade implementation the
 * TypeScript runtime uses): each input's `new URL(input).origin` as Node 20.20.2 printed it, FAIL
 * where Node threw, OPAQUE where the origin is "null". The inputs sit at the edges of the host
 * parser: IPv4 numbers in every radix at their limits, IPv6 compression and embedded IPv4, ports
 * around 65535 and the scheme defaults, percent-decoding, Punycode labels, forbidden code points.
 */
class WhatwgOriginMutationKillsTest {
    private val FAIL: String? = null
    private val OPAQUE: String? = null

    private val nodeOrigins: List<Pair<String, String?>> = listOf(
        "http://0x7f.1/" to "http://127.0.0.1",
        "http://0177.0.0.1/" to "http://127.0.0.1",
        "http://4294967295/" to "http://255.255.255.255",
        "http://4294967296/" to FAIL,
        "http://1.2.3.4.5/" to FAIL,
        "http://1.2.3.256/" to FAIL,
        "http://1.256.3.4/" to FAIL,
        "http://1.2.65535/" to "http://1.2.255.255",
        "http://1.2.65536/" to FAIL,
        "http://1.16777215/" to "http://1.255.255.255",
        "http://1.16777216/" to FAIL,
        "http://0x/" to "http://0.0.0.0",
        "http://0x.0x.0/" to "http://0.0.0.0",
        "http://00/" to "http://0.0.0.0",
        "http://1.2.3.4./" to "http://1.2.3.4",
        "http://1.2.3.4../" to "http://1.2.3.4..",
        "http://09/" to FAIL,
        "http://0xg/" to "http://0xg",
        "http://1.2.3.09/" to FAIL,
        "http://a.1/" to FAIL,
        "http://1.a/" to "http://1.a",
        "http://0X10/" to "http://0.0.0.16",
        "http://999999999999/" to FAIL,
        "http://255.255.255.255/" to "http://255.255.255.255",
        "http://256.0.0.0/" to FAIL,
        "http://0xffffffff/" to "http://255.255.255.255",
        "http://0x100000000/" to FAIL,
        "http://037777777777/" to "http://255.255.255.255",
        "http://040000000000/" to FAIL,
        "http://1.0x/" to "http://1.0.0.0",
        "http://0.0.0.0/" to "http://0.0.0.0",
        "http://1./" to "http://0.0.0.1",
        "http://[::]/" to "http://[::]",
        "http://[::1]/" to "http://[::1]",
        "http://[1::]/" to "http://[1::]",
        "http://[1:0:0:2::3]/" to "http://[1:0:0:2::3]",
        "http://[1:0:0:2:0:0:0:3]/" to "http://[1:0:0:2::3]",
        "http://[0:0:1:0:0:0:0:0]/" to "http://[0:0:1::]",
        "http://[1:2:3:4:5:6:7:8]/" to "http://[1:2:3:4:5:6:7:8]",
        "http://[1:2:3:4:5:6:7:8:9]/" to FAIL,
        "http://[1:2:3:4:5:6:7]/" to FAIL,
        "http://[::1.2.3.4]/" to "http://[::102:304]",
        "http://[::ffff:1.2.3.4]/" to "http://[::ffff:102:304]",
        "http://[1:2:3:4:5:6:1.2.3.4]/" to "http://[1:2:3:4:5:6:102:304]",
        "http://[1:2:3:4:5:6:7:1.2.3.4]/" to FAIL,
        "http://[::1.2.3]/" to FAIL,
        "http://[::1.2.3.4.5]/" to FAIL,
        "http://[::01.2.3.4]/" to FAIL,
        "http://[::1.2.3.256]/" to FAIL,
        "http://[:1]/" to FAIL,
        "http://[1:::2]/" to FAIL,
        "http://[1::2::3]/" to FAIL,
        "http://[12345::]/" to FAIL,
        "http://[1:]/" to FAIL,
        "http://[ABCD::EF]/" to "http://[abcd::ef]",
        "http://[0:0:0:0:0:0:0:0]/" to "http://[::]",
        "http://[1:0:1:0:1:0:1:0]/" to "http://[1:0:1:0:1:0:1:0]",
        "http://[1:0:0:1:0:0:1:1]/" to "http://[1::1:0:0:1:1]",
        "http://[::1.2.3.4x]/" to FAIL,
        "http://[1.2.3.4]/" to FAIL,
        "http://[::.1.2.3]/" to FAIL,
        "http://[0::0:0]/" to "http://[::]",
        "http://[1:2:3:4:5:6:7::]/" to "http://[1:2:3:4:5:6:7:0]",
        "http://[::2:3:4:5:6:7:8]/" to "http://[0:2:3:4:5:6:7:8]",
        "http://[1:2:3:4:5::7:8]/" to "http://[1:2:3:4:5:0:7:8]",
        "http://[1:0:0:0:5:0:0:0]/" to "http://[1::5:0:0:0]",
        "http://[0:1:0:0:0:1:0:0]/" to "http://[0:1::1:0:0]",
        "http://[::1:2.3.4.5]/" to "http://[::1:203:405]",
        "http://[::0.0.0.0]/" to "http://[::]",
        "http://[1:2:3:4:5:6:7:8::]/" to FAIL,
        "http://[::1]x/" to FAIL,
        "http://[::1/" to FAIL,
        "http://[fffff::]/" to FAIL,
        "http://[::ffff:255.255.255.255]/" to "http://[::ffff:ffff:ffff]",
        "http://[::1.2..3]/" to FAIL,
        "http://[::1.2.3.]/" to FAIL,
        "http://[1::2:]/" to FAIL,
        "http://a:80/" to "http://a",
        "http://a:080/" to "http://a",
        "http://a:65535/" to "http://a:65535",
        "http://a:65536/" to FAIL,
        "http://a:0/" to "http://a:0",
        "http://a:/" to "http://a",
        "https://a:443" to "https://a",
        "https://a:80" to "https://a:80",
        "ws://a:80" to "ws://a",
        "wss://a:443" to "wss://a",
        "wss://a:80" to "wss://a:80",
        "ftp://a:21" to "ftp://a",
        "ftp://a:22" to "ftp://a:22",
        "http://a:1a/" to FAIL,
        "http://a:000000000080/" to "http://a",
        "http://a:100000/" to FAIL,
        "http://a:00000/" to "http://a:0",
        "http://[::1]:80/" to "http://[::1]",
        "http://[::1]:8080/" to "http://[::1]:8080",
        "HTTP://A/" to "http://a",
        "h1+-.://x" to OPAQUE,
        "1http://a" to FAIL,
        "://a" to FAIL,
        "file:///x" to OPAQUE,
        "mailto:a@b" to OPAQUE,
        "http://u:p@a/" to "http://a",
        "http://@a/" to "http://a",
        "http://a@b@c/" to "http://c",
        "  http://a/  " to "http://a",
        "ht\u0009tp://a/" to "http://a",
        "http://a\u000A.b/" to "http://a.b",
        "http:a" to "http://a",
        "http:\\\\a\\b" to "http://a",
        "http:///a" to "http://a",
        "http://%41/" to "http://a",
        "http://a%/" to FAIL,
        "http://%zz/" to FAIL,
        "http://%4/" to FAIL,
        "http://a%41/" to "http://aa",
        "http://%31.%32.%33.%34/" to "http://1.2.3.4",
        "http://xn--/" to FAIL,
        "http://xn--a/" to FAIL,
        "http://xn--nxasmq6b/" to "http://xn--nxasmq6b",
        "http://xn--ls8h/" to "http://xn--ls8h",
        "http://m\u00FCnchen.de/" to "http://xn--mnchen-3ya.de",
        "http://xn--mnchen-3ya.de/" to "http://xn--mnchen-3ya.de",
        "http://xn--zz/" to FAIL,
        "http://xn--ab-/" to "http://xn--ab-",
        "http://xn--99zz/" to FAIL,
        "http://a<b/" to FAIL,
        "http://a^b/" to FAIL,
        "http://a|b/" to FAIL,
        "http://a b/" to FAIL,
        "http://a\u007Fb/" to FAIL,
        "http://a\u0001b/" to FAIL,
        "http://a#b/" to "http://a",
        "http://a?b" to "http://a",
        "http://a/b?c#d" to "http://a",
        "http:" to FAIL,
        "http://" to FAIL,
        "http://:80/" to FAIL,
        "http://a.b.c.d.e/" to "http://a.b.c.d.e",
        "http://.a/" to "http://.a",
        "http://a../" to "http://a..",
        "HtTpS://ExAmPlE.CoM:0443/x" to "https://example.com",
        "https://xn--bcher-kva.example/" to "https://xn--bcher-kva.example",
        "http://ab--c/" to "http://ab--c",
        "http://xn--abc-/" to "http://xn--abc-",
        "http://xn--a-ecp.ru/" to FAIL,
        "http://%61%6A%6a%4F%4f%7A%7a/" to "http://ajjoozz",
        "http://%3F/" to FAIL,
        "http://%6/" to FAIL,
        "http://%6/x" to FAIL,
        "http://a%6g/" to FAIL,
        "http://a%6:/" to FAIL,
        "http://a%6`/" to FAIL,
        "http://a%6@/" to FAIL,
        "http://a%6G/" to FAIL,
        "http://a%2/" to FAIL,
        "http://a%/" to FAIL,
        "http://%30x10/" to "http://0.0.0.16",
        "http://%41%/" to FAIL,
        "http://a%4" to FAIL,
        "http://a%41" to "http://aa",
        "http://%e2%82%ac/" to "http://xn--lzg",
        "http://%C3%BC/" to "http://xn--tda",
        "http://A%42c/" to "http://abc",
        "http://0x0a.0XA.012.10/" to "http://10.10.10.10",
        "http://0x1.0x2.0x3.0x4/" to "http://1.2.3.4",
        "http://1.2.3.4/" to "http://1.2.3.4",
        "http://1.2.3/" to "http://1.2.0.3",
        "http://1.2/" to "http://1.0.0.2",
        "http://16909060/" to "http://1.2.3.4",
        "http://0x01020304/" to "http://1.2.3.4",
        "http://0001.0002.0003.0004/" to "http://1.2.3.4",
        "http://1.2.3.0x100/" to FAIL,
        "http://1.2.0x10000/" to FAIL,
        "http://0xff.0xff.0xff.0xff/" to "http://255.255.255.255",
        "http://0xff.0xff.0xff.0x100/" to FAIL,
        "http://0x0ff.1/" to "http://255.0.0.1",
        "http://1.2.3.4.x/" to "http://1.2.3.4.x",
        "http://x.1.2.3.4/" to FAIL,
        "http://1.2.3.0x/" to "http://1.2.3.0",
        "http://1.2.3.4:8/" to "http://1.2.3.4:8",
        "http://Z/" to "http://z",
        "http://z/" to "http://z",
        "http://@/" to FAIL,
        "http://a:b@/" to FAIL,
        "ws://[::1]:443/" to "ws://[::1]:443",
        "wss://x:443" to "wss://x",
        "HTTPS://x" to "https://x",
        "a+b://x" to OPAQUE,
        "zz://x" to OPAQUE,
        "Ab1://x" to OPAQUE,
        "http://a.b-/" to "http://a.b-",
        "http://-a/" to "http://-a",
        "http://[0:0:0:0:0:0:1.2.3.4]/" to "http://[::102:304]",
        "http://[::1:2:3:4:5:1.2.3.4]/" to "http://[0:1:2:3:4:5:102:304]",
        "http://[1::1.2.3.4]/" to "http://[1::102:304]",
        "http://[1:2::3:4:1.2.3.4]/" to "http://[1:2::3:4:102:304]",
        "http://[::ffff:0.0.0.256]/" to FAIL,
        "http://[::255.255.255.255]/" to "http://[::ffff:ffff]",
        "http://[::1.2.3.04]/" to FAIL,
        "http://[::1.02.3.4]/" to FAIL,
        "http://[::1.2.3.4:5]/" to FAIL,
        "http://[f:F:a:A:9:0:ab:CD]/" to "http://[f:f:a:a:9:0:ab:cd]",
        "http://[g::]/" to FAIL,
        "http://[G::]/" to FAIL,
        "http://[::/]/" to FAIL,
        "http://[:::]/" to FAIL,
        "http://[1:0:0:0:0:0:0:0]/" to "http://[1::]",
        "http://[0:0:0:0:0:0:0:1]/" to "http://[::1]",
        "http://[1:0:0:0:0:0:0:1]/" to "http://[1::1]",
        "http://[0:0:1:1:0:0:0:1]/" to "http://[0:0:1:1::1]",
        "http://[1:1:0:0:1:1:0:0]/" to "http://[1:1::1:1:0:0]",
        "http://[0:1:1:1:1:1:1:0]/" to "http://[0:1:1:1:1:1:1:0]",
        "http://[1:0:1:1:1:1:1:1]/" to "http://[1:0:1:1:1:1:1:1]",
        "http://[::1:0:0:0]/" to "http://[::1:0:0:0]",
        "http://[1::2:0:0:0]/" to "http://[1::2:0:0:0]",
        "http://[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/" to "http://[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]",
        "http://[10000::]/" to FAIL,
        "http://[0ffff::]/" to FAIL,
        "http://xn--a-ecp/" to FAIL,
        "http://xn--ab-ba/" to FAIL,
        "http://xn--tda/" to "http://xn--tda",
        "http://xn--zz.com/" to FAIL,
        "http://a.xn--/" to FAIL,
        "http://XN--TDA/" to "http://xn--tda",
        "http://xn--9999999999a/" to FAIL,
        "http://xn--a-9/" to FAIL,
        "http://a.b.c.0x/" to FAIL,
        "http://0x.a/" to "http://0x.a",
        "http://a.0x/" to FAIL,
        "http://a.09/" to FAIL,
        "http://a.1./" to FAIL,
        "http://1..2/" to FAIL,
        "http://a..1/" to FAIL,
        "http://./" to "http://.",
        "http://../" to "http://..",
        "http://1.2.3.4.5./" to FAIL,
    )

    @Test
    fun `origins are Node's for every host form`() {
        val mismatches = nodeOrigins.filter { (input, origin) -> WhatwgOrigin.of(input) != origin }
            .map { (input, origin) -> "$input: Node $origin, Kotlin ${WhatwgOrigin.of(input)}" }
        assertEquals(emptyList<String>(), mismatches)
        assertEquals(nodeOrigins.count { it.second != null }, nodeOrigins.count { WhatwgUrl.parse(it.first) != null })
    }

    @Test
    fun `the origin and endpoint forms of the whatwgUrl rule`() {
        // origin: the text is exactly its own serialized https origin.
        assertTrue(WhatwgUrl.check("https://a", "origin"))
        assertTrue(WhatwgUrl.check("https://a:8443", "origin"))
        for (notOrigin in listOf("https://a/", "https://A", "https://a:443", "http://a", "https://u@a", "https://a?x", "wss://a")) assertFalse(WhatwgUrl.check(notOrigin, "origin"), notOrigin)
        // endpoint: https, no username or password, no query or fragment with content.
        for (endpoint in listOf("https://a/p", "https://a/p?", "https://a/p#", "https://a/p?#", "https://:@a/p", "https://@a/p")) assertTrue(WhatwgUrl.check(endpoint, "endpoint"), endpoint)
        for (notEndpoint in listOf("https://a/p?x", "https://a/p#x", "https://a/p#?x", "https://a/p?x#", "https://u@a/p", "https://:p@a/p", "http://a/p", "https://[::1/p")) {
            assertFalse(WhatwgUrl.check(notEndpoint, "endpoint"), notEndpoint)
        }
        assertEquals(WhatwgUrl("https", false, "a", 8443, hasQuery = true, hasFragment = true), WhatwgUrl.parse("https://u:p@a:8443/p?q#f"))
        assertEquals(listOf("a", "[::1]"), listOf("https://a:1/", "https://[::1]:1/").map { WhatwgUrl.parse(it)?.host })
        assertEquals(listOf(1, null, 0), listOf("https://a:1/", "https://a:443/", "https://a:0/").map { WhatwgUrl.parse(it)?.port })
        assertEquals(WhatwgUrl("https", true, "a", null, hasQuery = false, hasFragment = false), WhatwgUrl.parse("https://a:443/?#"))
    }

    @Test
    fun `punycode decodes as Node's punycode module, RFC 3492 section 7_1 samples among them`() {
        // node:punycode's encode of each string (the RFC's own sample outputs for the first twelve), and its decode
        // verdicts on malformed labels (null where it throws: bad digit, overflow, non-basic code point before '-').
        val pairs = listOf(
            "ihqwcrb4cv8a8dqg056pqjye" to "\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587",
            "ihqwctvzc91f659drss3x8bo0yb" to "\u4ED6\u5011\u7232\u4EC0\u9EBD\u4E0D\u8AAA\u4E2D\u6587",
            "b1abfaaepdrnnbgefbaDotcwatmq2g4l" to "\u043F\u043E\u0447\u0435\u043C\u0443\u0436\u0435\u043E\u043D\u0438\u043D\u0435\u0433\u043E\u0432\u043E\u0440\u044F\u0442\u043F\u043E\u0440\u0443\u0441\u0441\u043A\u0438",
            "PorqunopuedensimplementehablarenEspaol-fmd56a" to "Porqu\u00E9nopuedensimplementehablarenEspa\u00F1ol",
            "3B-ww4c5e180e575a65lsy2b" to "3\u5E74B\u7D44\u91D1\u516B\u5148\u751F",
            "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n" to "\u5B89\u5BA4\u5948\u7F8E\u6075-with-SUPER-MONKEYS",
            "Hello-Another-Way--fc4qua05auwb3674vfr0b" to "Hello-Another-Way-\u305D\u308C\u305E\u308C\u306E\u5834\u6240",
            "2-u9tlzr9756bt3uc0v" to "\u3072\u3068\u3064\u5C4B\u6839\u306E\u4E0B2",
            "MajiKoi5-783gue6qz075azm5e" to "Maji\u3067Koi\u3059\u308B5\u79D2\u524D",
            "de-jg4avhby1noc0d" to "\u30D1\u30D5\u30A3\u30FCde\u30EB\u30F3\u30D0",
            "d9juau41awczczp" to "\u305D\u306E\u30B9\u30D4\u30FC\u30C9\u3067",
            "-> \$1.00 <--" to "-> \$1.00 <-",
            "egbpdaj6bu4bxfgehfvwxn" to "\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F",
            "tda" to "\u00FC", "bcher-kva" to "b\u00FCcher", "mnchen-3ya" to "m\u00FCnchen", "ls8h" to "\uD83D\uDCA9", "dn32g" to "\uDBFF\uDFFF",
            "ab-ba" to "a\u0080b", "wda" to "\u00FF", "xda" to "\u0100", "ZZ-yka" to "ZZ\u00FC", "ab-" to "ab", "e28haa" to "\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00",
            "0fa" to "\u0149", "a" to "\u0080", "ba" to "\u0081", "aaaaaaaaaaa" to "\u0080".repeat(11), "acb" to "\u0082\u0080\u0081",
        )
        for ((encoded, decoded) in pairs) assertEquals(decoded, Punycode.decode(encoded), encoded)
        for (bad in listOf("zz", "99zz", "-a", "9999999999a", "\u00FC-a", "abc-\u00FC", "a-9", "99999", "z9z9z9z9z9z9", "-", "a-b-c", "0", "4")) assertNull(Punycode.decode(bad), bad)
    }

    @Test
    fun `input longer than MAX_UNITS is refused before parsing`() {
        val head = "https://a/"
        assertEquals("https://a", WhatwgOrigin.of(head + "x".repeat(WhatwgUrl.MAX_UNITS - head.length)))
        assertNull(WhatwgOrigin.of(head + "x".repeat(WhatwgUrl.MAX_UNITS - head.length + 1)))
    }
}
