package dev.agentcontracts.runtime

import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import java.util.Base64
import java.util.Random

/**
 * SecretText against independent oracles (the Kotlin twin of
 * property-tests/runtime/secret-text.mutation-kills.test.ts): ECMAScript's definition of \s
 * (ECMA-262 WhiteSpace and LineTerminator) read from Java's Unicode tables, java.util.Base64 and
 * RFC 4648's alphabets for the canonical decoder, the stage each real-filter verdict of
 * spec/agent-connector/vectors/secret-text.json probes, and hand-written boundary tables written
 * from each shape's rule (AWS: AKIA + 16 of [A-Z0-9]; Google: AIza + 35 of [A-Za-z0-9_-]; key
 * prefixes: a separator and 12 or more key characters ending at a word boundary; JOSE: chains of
 * non-empty [A-Za-z0-9_-] segments joined by single dots, taken five, else three, at a time).
 */
class SecretTextMutationKillsTest {
    private fun table(rows: List<Pair<String, String?>>) {
        for ((text, shape) in rows) assertEquals(shape, SecretText.find(text), "find(\"${text.take(80)}\")")
    }

    private val b64url = Base64.getUrlEncoder().withoutPadding()
    private fun joseSegment(json: String) = b64url.encodeToString(json.toByteArray(Charsets.UTF_8))

    @Test
    fun `isJsSpace is ECMAScript's WhiteSpace and LineTerminator on every UTF-16 code unit`() {
        // ECMA-262: WhiteSpace = TAB, VT, FF, ZWNBSP (U+FEFF) and every Zs code point; LineTerminator = LF, CR, LS, PS.
        val listed = setOf(0x09, 0x0b, 0x0c, 0xfeff, 0x0a, 0x0d, 0x2028, 0x2029)
        val wrong = (0..0xffff).filter { c -> SecretText.isJsSpace(c) != (c in listed || Character.getType(c) == Character.SPACE_SEPARATOR.toInt()) }
        assertEquals(emptyList<Int>(), wrong.map { "%04x".format(it) })
        assertFalse(SecretText.isJsSpace(-1))
        // Zs is 0020, 00A0, 1680, 2000-200A, 202F, 205F, 3000 (Unicode 15): written out so a JDK table change shows.
        for (c in listOf(0x20, 0xa0, 0x1680, 0x2000, 0x2005, 0x200a, 0x202f, 0x205f, 0x3000)) assertEquals(true, SecretText.isJsSpace(c), "%04x".format(c))
        for (c in listOf(0x1f, 0x21, 0x9f, 0xa1, 0x167f, 0x1681, 0x1fff, 0x200b, 0x2027, 0x202a, 0x202e, 0x2030, 0x205e, 0x2060, 0x2fff, 0x3001, 0xfefe, 0xffff)) {
            assertEquals(false, SecretText.isJsSpace(c), "%04x".format(c))
        }
    }

    @Test
    fun `find names the stage that fires first`() {
        for (case in TestData.cases("spec/agent-connector/vectors/secret-text.json")) {
            val text = case.string("text")
            val secret = case.getValue("secret").jsonPrimitive.boolean
            assertEquals(if (secret) case.string("shape") else null, SecretText.find(text), "${case.string("name")} ${text.take(60)}")
        }
        // Each text holds two shapes; the earlier one in the filter's order is named.
        table(
            listOf(
                "Bearer abc -----BEGIN PRIVATE KEY----- x -----END PRIVATE KEY-----" to "private-key",
                "Basic dXNlcjpwYXNz Bearer abc" to "bearer",
                "sk-abcdefghijklmnop Basic dXNlcjpwYXNz" to "basic",
                "AKIAABCDEFGHIJKLMNOP sk-abcdefghijklmnop" to "api-key-prefix",
                "AIzaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA AKIAABCDEFGHIJKLMNOP" to "aws-access-key",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc AIzaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" to "google-api-key",
                "https://u:p@h eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc" to "jose",
                "token=x https://u:p@h" to "url-credentials",
                "token=x" to "assignment",
                "nothing here" to null,
            ),
        )
    }

    @Test
    fun `the length limit is inclusive`() {
        assertEquals(65536, SecretText.MAX_UNITS)
        assertNull(SecretText.find("a".repeat(65536)))
        assertEquals("too-long", SecretText.find("a".repeat(65537)))
    }

    @Test
    fun `decodeCanonicalBase64 decodes what java util Base64 encodes, in its own alphabet only`() {
        val random = Random(16)
        val std = Base64.getEncoder().withoutPadding()
        repeat(400) {
            val bytes = ByteArray(1 + random.nextInt(40)).also(random::nextBytes)
            for (url in listOf(false, true)) {
                val text = (if (url) b64url else std).encodeToString(bytes)
                assertArrayEquals(bytes, SecretText.decodeCanonicalBase64(text, url), text)
                val other = (if (url) std else b64url).encodeToString(bytes)
                if (other.any { it in "+/-_" }) assertNull(SecretText.decodeCanonicalBase64(other, url), "$other in the other alphabet")
            }
        }
    }

    @Test
    fun `every alphabet character maps to its value (RFC 4648 tables 1 and 2)`() {
        val std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        for (url in listOf(false, true)) {
            val alphabet = if (url) std.replace('+', '-').replace('/', '_') else std
            for (v in 0 until 64) {
                // v then three zeros: three bytes, the first holding v's six bits.
                val expected = byteArrayOf((v shl 2).toByte(), 0, 0)
                assertArrayEquals(expected, SecretText.decodeCanonicalBase64("${alphabet[v]}AAA", url), "$url ${alphabet[v]}")
            }
        }
        // Every other code unit of ASCII and Latin-1 (the neighbours of each range included) is refused.
        for (c in 0..0xff) {
            for (url in listOf(false, true)) {
                val alphabet = if (url) std.replace('+', '-').replace('/', '_') else std
                if (c.toChar() !in alphabet) assertNull(SecretText.decodeCanonicalBase64("${c.toChar()}AAA", url), "%02x url=$url".format(c))
            }
        }
    }

    @Test
    fun `decodeCanonicalBase64 refuses non-canonical text`() {
        fun bytes(vararg b: Int) = ByteArray(b.size) { b[it].toByte() }
        assertArrayEquals(bytes(0x61, 0x3a), SecretText.decodeCanonicalBase64("YTo", false))
        assertNull(SecretText.decodeCanonicalBase64("YTp", false), "leftover bits 01")
        assertNull(SecretText.decodeCanonicalBase64("YR", false), "leftover bits 0001")
        assertArrayEquals(bytes(0x61), SecretText.decodeCanonicalBase64("YQ", false))
        assertNull(SecretText.decodeCanonicalBase64("YWJjZ", false), "5 characters")
        // 4n+1 characters are impossible even when the last one's bits are zero (RFC 4648 § 4: a final quantum is 8 or 16 bits).
        assertNull(SecretText.decodeCanonicalBase64("YWJjA", false), "5 characters, zero leftover bits")
        assertNull(SecretText.decodeCanonicalBase64("A", false))
        assertNull(SecretText.decodeCanonicalBase64("Y", false))
        assertNull(SecretText.decodeCanonicalBase64("", false))
        assertNull(SecretText.decodeCanonicalBase64("YQ==", false))
        assertNull(SecretText.decodeCanonicalBase64("Y Q", false))
        assertNull(SecretText.decodeCanonicalBase64("YW@j", false))
        assertArrayEquals(bytes(0, 0, 0), SecretText.decodeCanonicalBase64("AAAA", false))
        // The length limit is inclusive: 65536 characters decode to 49152 bytes, 65540 are refused.
        assertArrayEquals(ByteArray(49152), SecretText.decodeCanonicalBase64("A".repeat(65536), false))
        assertNull(SecretText.decodeCanonicalBase64("A".repeat(65540), false))
    }

    @Test
    fun `bearer - a word-initial bearer, whitespace, then a token character`() {
        for (sp in listOf(0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff)) {
            assertEquals("bearer", SecretText.find("Bearer${sp.toChar()}x"), "%04x".format(sp))
        }
        // A token starts with [A-Za-z0-9._~+/=-]; every other ASCII character is no token.
        val tokenStart = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/=-"
        for (c in 0x21..0x7e) assertEquals(if (c.toChar() in tokenStart) "bearer" else null, SecretText.find("Bearer ${c.toChar()}"), "Bearer ${c.toChar()}")
        table(
            listOf(
                "Bearer \u200bx" to null,
                "Bearer !" to null,
                "Bearer " to null,
                "Bearer" to null,
                "Bearerx" to null,
                "_Bearer x" to null,
                "9Bearer x" to null,
                "-Bearer x" to "bearer",
                "xBearer y Bearer z" to "bearer",
                "Bearer \t x" to "bearer",
            ),
        )
    }

    @Test
    fun `basic - basic, spaces or tabs, canonical base64 with at most two pads that decodes to a colon`() {
        table(
            listOf(
                "Basic YTpi" to "basic",
                "BASIC YTpi" to "basic",
                "Basic  \t YTpi" to "basic",
                "Basic YTo=" to "basic",
                "Basic YTo" to "basic",
                // "a:b:" is four bytes: base64 with two pads, the most the shape allows.
                "Basic YTpiOg==" to "basic",
                "Basic YTpiOg===" to null,
                "Basic YTp" to null,
                "Basic YTo===" to null,
                "Basic YTpi+" to null,
                "xBasic YTpi" to null,
                "Basic !YTpi" to null,
                "Basic\nYTpi" to null,
                "Basic" to null,
                "Basic " to null,
                "Basic bm9jb2xvbg Basic YTpi" to "basic",
            ),
        )
    }

    @Test
    fun `API key prefixes - word-initial prefix, dash or underscore, 12 or more key characters up to a word boundary`() {
        for (p in listOf("sk", "rk", "pk", "ghp", "github_pat", "xoxb", "xoxa", "xoxp", "xoxr", "xoxs", "xox")) {
            for (sep in listOf("-", "_")) {
                assertEquals("api-key-prefix", SecretText.find("$p$sep${"a".repeat(12)}"), p + sep)
                assertNull(SecretText.find("$p$sep${"a".repeat(11)}"), p + sep)
                assertEquals("api-key-prefix", SecretText.find("${p.uppercase()}$sep${"A".repeat(12)}"), p + sep)
            }
        }
        table(
            listOf(
                "sk.abcdefghijklmnop" to null,
                "xsk-abcdefghijklmnop" to null,
                "1sk-abcdefghijklmnop" to null,
                "(sk-abcdefghijklmnop)" to "api-key-prefix",
                "sk-abcdefghijk--" to null,
                "sk-abcdefghijkl--" to "api-key-prefix",
                "sk-ab.cdefghijklmnop" to null,
                "sk-------------a" to "api-key-prefix",
                "sk-----------a" to null,
                "aa sk-x sk-abcdefghijklmnop" to "api-key-prefix",
                "xo sk" to null,
                // Runs of dashes alone, at the start of the text: no prefix, no word boundary inside.
                "--" to null,
                "-- sk" to null,
            ),
        )
    }

    @Test
    fun `AWS - AKIA and exactly 16 of A-Z 0-9, at word boundaries`() {
        table(
            listOf(
                "AKIA0123456789ABCDEF" to "aws-access-key",
                "AKIA9876543210ZYXWVU" to "aws-access-key",
                "AKIA0123456789ABCDE" to null,
                "AKIA0123456789ABCDEF0" to null,
                "AKIA0123456789ABCDEf" to null,
                "AKIA0123456789ABCDE_" to null,
                "xAKIA0123456789ABCDEF" to null,
                "_AKIA0123456789ABCDEF" to null,
                "-AKIA0123456789ABCDEF-" to "aws-access-key",
                "AKIAx AKIA0123456789ABCDEF" to "aws-access-key",
                "AKIA0123456789ABCDEZ9" to null,
            ),
        )
    }

    @Test
    fun `Google - AIza and exactly 35 key characters, not inside a longer run`() {
        val body = "0123456789abcdefghijABCDEFGHIJ_-xyz"
        assertEquals(35, body.length)
        table(
            listOf(
                "AIza$body" to "google-api-key",
                "AIza${body.drop(1)}" to null,
                "AIza${body}Q" to null,
                "-AIza$body" to null,
                "_AIza$body" to null,
                "0AIza$body" to null,
                ".AIza$body." to "google-api-key",
                "AIza AIza$body" to "google-api-key",
            ),
        )
    }

    @Test
    fun `URL credentials - a scheme with a letter, colon slash slash, a user, a colon, a password, an at sign`() {
        table(
            listOf(
                "https://u:p@h" to "url-credentials",
                "a1+.-://u:p@h" to "url-credentials",
                "+a://u:p@h" to "url-credentials",
                "12+.-://u:p@h" to null,
                "://u:p@h" to null,
                // The scheme must touch "://": a letter before a space does not count.
                "x ://u:p@h" to null,
                "x+ ://u:p@h" to null,
                "x,://u:p@h" to null,
                // A "://" without a scheme does not stop the scan.
                "://x https://u:p@h" to "url-credentials",
                "https://u/x:p@h" to null,
                "https://u:p/x@h" to null,
                "https://u@x:p@h" to null,
                "https://u:p" to null,
                "https://:p@h" to null,
                "https://u:@h" to null,
                "https://u:p\u00a0@h" to null,
                "https://x https://u:p@h" to "url-credentials",
                "https://u:p:q@h" to "url-credentials",
            ),
        )
    }

    @Test
    fun `JOSE - dot-joined segment chains, five then three at a time, the first a header with alg or enc`() {
        val header = joseSegment("{\"alg\":\"HS256\"}")
        val enc = joseSegment("{\"enc\":\"A256GCM\"}")
        val blank = joseSegment("{\"alg\":\" \\u00a0\"}")
        val notObject = joseSegment("[\"alg\"]")
        val notString = joseSegment("{\"alg\":1}")
        table(
            listOf(
                "$header.a.b" to "jose",
                "$enc.a.b" to "jose",
                "$header.a" to null,
                "$blank.a.b" to null,
                "$notObject.a.b" to null,
                "$notString.a.b" to null,
                "x $header.a.b" to "jose",
                "a.b.c $header.a.b" to "jose",
                "a.b.c.$header.a.b" to null,
                "a.b.c.d.e.$header.x.y" to "jose",
                "a.b.c.$header.x.y.z.w" to null,
                "a.b.$header.x.y" to null,
                "$header.a.b.c.d.$header.e.f" to "jose",
                "x.$header.a.b" to null,
                "x-$header.a.b" to null,
                "$header. a.b" to null,
                // Segments are non-empty: a trailing or doubled dot ends the chain.
                "$header.x." to null,
                "$header..x.y" to null,
                // Six or seven segments: one chunk of five, and the one or two left over are too few.
                "a.b.c.d.e.$header" to null,
                "a.b.c.d.e.$header.x" to null,
            ),
        )
    }

    @Test
    fun `private key blocks - a BEGIN PRIVATE KEY header, then an END PRIVATE KEY header after it`() {
        table(
            listOf(
                "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----" to "private-key",
                "-----BEGIN OPENSSH PRIVATE KEY----- -----END OPENSSH PRIVATE KEY-----" to "private-key",
                "-----BEGIN PRIVATE KEY----------END PRIVATE KEY-----" to "private-key",
                // The END header may not reuse the BEGIN header's closing dashes.
                "-----BEGIN PRIVATE KEY-----END PRIVATE KEY-----" to null,
                "-----BEGIN PRIVATE KEY---------END PRIVATE KEY-----" to null,
                // Dashes after the header that are no END header.
                "-----BEGIN PRIVATE KEY----- ----- x" to null,
                "-----BEGIN PRIVATE KEY---- -----END PRIVATE KEY-----" to null,
                "-----BEGIN RSA-PRIVATE KEY----- -----END PRIVATE KEY-----" to null,
                "-----BEGIN PRIVATE  KEY----- -----END PRIVATE KEY-----" to null,
                "-----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----" to "private-key",
                "-----BEGINPRIVATE KEY----- -----END PRIVATE KEY-----" to null,
                "----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----" to null,
                "-----BEGIN PRIVATE KEY----- -----END PRIVATE KEY----" to null,
                "-----BEGIN KEY----- -----END KEY-----" to null,
                "-----END PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----" to "private-key",
                "-----BEGIN PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----" to "private-key",
            ),
        )
    }

    @Test
    fun `assignments - a sensitive name, an optional quote, colon or equals, then a value that is not a closing punctuator`() {
        table(
            listOf(
                "token=x" to "assignment",
                "token=," to null,
                "token=;" to null,
                "token=}" to null,
                "token=]" to null,
                "token= " to null,
                "token=" to null,
                // Any other code unit is a value, U+0000 included.
                "token=\u0000" to "assignment",
                "token\t:\tx" to "assignment",
                "access-key-id=x" to "assignment",
                "access_keyid=x" to "assignment",
                "accesskey id=x" to "assignment",
                "secret-access_key=x" to "assignment",
                "auth token=x" to "assignment",
                "refreshtoken=x" to "assignment",
                "connectionstring=x" to "assignment",
                "databaseurl=x" to "assignment",
                "privatekey=x" to "assignment",
                "sessionref=x" to "assignment",
                "authorization=x" to "assignment",
                "my.secret.value=x" to "assignment",
                "\"secret\"=x" to "assignment",
                "'secret'=x" to "assignment",
                "\"secret'=x" to null,
                "'secret\"=x" to null,
                "\"secret\" x=y" to null,
                "_token=x" to "assignment",
                // Two key names in one name, followed by a refused value: both are refused (the
                // second look at the same name end must give the first answer).
                "tokentoken=," to null,
                "secretsecret=;" to null,
                "tokentoken=x" to "assignment",
                "credential=[redacted]" to null,
                "credential=[redacted] password=x" to "assignment",
                "no key=here" to null,
                "x=1 y:2" to null,
            ),
        )
    }
}
