package dev.agentcontracts.runtime

import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.util.Base64

class CryptoTest {
    /**
     * RFC 4231's HMAC-SHA-256 test cases 1, 2, 3, 4, 6 and 7 (keys of 20, 4, 20, 25 and 131 bytes:
     * under, and over, the 64-byte block), plus a key of exactly one block (expected from Python's
     * hmac), through a prepared key reused for every message of the same key.
     */
    @Test
    fun `prepared keys give RFC 4231's HMAC-SHA-256 answers`() {
        fun hex(text: String) = Encoding.hexDecode(text)!!
        val cases = listOf(
            Triple(ByteArray(20) { 0x0b }, "Hi There".toByteArray(), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            Triple("Jefe".toByteArray(), "what do ya want for nothing?".toByteArray(), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            Triple(ByteArray(20) { 0xaa.toByte() }, ByteArray(50) { 0xdd.toByte() }, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            Triple(hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), ByteArray(50) { 0xcd.toByte() }, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            Triple(ByteArray(131) { 0xaa.toByte() }, "Test Using Larger Than Block-Size Key - Hash Key First".toByteArray(), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            Triple(
                ByteArray(131) { 0xaa.toByte() },
                "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".toByteArray(),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            ),
            Triple(ByteArray(64) { 'k'.code.toByte() }, ByteArray(0), "83026a325aaee70e36cfe607536aa1054104ad1077c36134810d4ccded1ccd3b"),
        )
        for ((key, data, expected) in cases) {
            val prepared = HmacSha256Key(key)
            // Twice, and after another message: a MAC must not disturb the keyed states.
            assertEquals(expected, Encoding.hexEncode(prepared.mac(data)))
            prepared.mac("other".toByteArray())
            assertEquals(expected, Encoding.hexEncode(prepared.mac(data)))
        }
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", Encoding.hexEncode(HmacSha256Key("Jefe").mac("what do ya want for nothing?".toByteArray())))
    }

    @Test
    fun `prepared keys agree with javax crypto Mac on every key length around the block`() {
        val random = java.util.Random(36)
        for (length in listOf(0, 1, 31, 32, 63, 64, 65, 127, 128, 129, 200)) {
            val key = ByteArray(length).also(random::nextBytes)
            val data = ByteArray(random.nextInt(300)).also(random::nextBytes)
            assertArrayEquals(Crypto.hmacSha256(key, data), HmacSha256Key(key).mac(data), "key of $length bytes")
        }
    }

    @Test
    fun `a prepared key knows it was empty, never shows itself, and refuses use after destroy`() {
        assertTrue(HmacSha256Key(ByteArray(0)).isEmpty)
        assertTrue(HmacSha256Key("").isEmpty)
        assertFalse(HmacSha256Key(ByteArray(1)).isEmpty)
        assertEquals("HmacSha256Key(<redacted>)", HmacSha256Key("secret").toString())
        val key = HmacSha256Key("secret")
        key.mac(ByteArray(1))
        key.destroy()
        assertEquals("HmacSha256Key was destroyed", assertThrows<IllegalStateException> { key.mac(ByteArray(1)) }.message)
    }

    @Test
    fun `sha256 and hmac known answers`() {
        // FIPS 180-2 "abc" and RFC 4231 test case 2.
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Crypto.sha256Hex("abc"))
        assertEquals(
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            Encoding.hexEncode(Crypto.hmacSha256("Jefe", "what do ya want for nothing?")),
        )
        // RFC 2104 allows an empty key; the JDK's SecretKeySpec does not, hence the workaround.
        assertEquals(
            "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad",
            Encoding.hexEncode(Crypto.hmacSha256(ByteArray(0), ByteArray(0))),
        )
    }

    /**
     * Standard Webhooks (property-tests/vectors/stdwebhooks): key = base64 of the part after
     * `whsec_`, message = `id.timestamp.payload`, header = space-separated `v1,<base64>` entries.
     */
    @Test
    fun `standard webhooks vectors`() {
        val file = TestData.json("property-tests/vectors/stdwebhooks/vectors.json").jsonObject
        val counter = CaseCounter("stdwebhooks")
        val signs = file.getValue("sign").jsonArray.map { it.jsonObject }
        for (vector in signs) {
            val key = Base64.getDecoder().decode(vector.string("secret").removePrefix("whsec_"))
            val content = "${vector.string("msg_id")}.${vector.getValue("timestamp").jsonPrimitive.long}.${vector.string("payload")}"
            val signature = "v1," + Encoding.base64StdEncode(Crypto.hmacSha256(key, content.toByteArray()))
            assertEquals(vector.string("expected_signature"), signature, vector.string("name"))
            assertTrue(webhookSignatureMatches(key, content, signature))
            counter.count("sign")
        }
        // The header-level negatives; `<valid>` stands for the first vector's correct signature.
        val first = signs.first()
        val key = Base64.getDecoder().decode(first.string("secret").removePrefix("whsec_"))
        val content = "${first.string("msg_id")}.${first.getValue("timestamp").jsonPrimitive.long}.${first.string("payload")}"
        val valid = first.string("expected_signature").removePrefix("v1,")
        for (case in file.getValue("negative").jsonArray.map { it.jsonObject }) {
            val header = case.stringOrNull("webhook-signature")
            if (header == null) {
                counter.count("skipped-not-a-header-case") // secret and timestamp rules: not runtime primitives
                continue
            }
            val expanded = header.replace("<valid-sig-bytes>", valid).replace("<valid>", "v1,$valid")
            val accept = case.string("expect").startsWith("accept")
            assertEquals(accept, webhookSignatureMatches(key, content, expanded), case.string("name"))
            counter.count(if (accept) "header-accept" else "header-reject")
        }
        counter.finish()
    }

    /** Accepts when any `v1,` entry of the header equals the expected MAC, compared in constant time. */
    private fun webhookSignatureMatches(key: ByteArray, content: String, header: String): Boolean {
        val expected = Crypto.hmacSha256(key, content.toByteArray())
        return header.split(' ').any { entry ->
            val (version, encoded) = entry.split(',', limit = 2).takeIf { it.size == 2 } ?: return@any false
            val given = runCatching { Base64.getDecoder().decode(encoded) }.getOrNull()
            version == "v1" && given != null && Crypto.constantTimeEquals(expected, given)
        }
    }

    @Test
    fun `decoders accept only the canonical form`() {
        assertArrayEquals(byteArrayOf(0x41), Encoding.base64StdNoPadDecode("QQ"))
        assertNull(Encoding.base64StdNoPadDecode("QR"), "non-zero trailing bits")
        assertNull(Encoding.base64StdNoPadDecode("QQ=="), "padding")
        assertNull(Encoding.base64StdNoPadDecode("Q"), "impossible length")
        // A lone sextet of zero bits leaves no stray bits behind: only the length check refuses these.
        assertNull(Encoding.base64StdNoPadDecode("A"), "impossible length, zero bits")
        assertNull(Encoding.base64StdNoPadDecode("QUJDA"), "impossible length, zero bits")
        // The characters just past each letter range ('[' after Z, '{' after z, ':' after 9) and just before it.
        for (stray in listOf("QUJ[", "QUJ{", "QUJ:", "QUJ@", "QUJ`")) assertNull(Encoding.base64StdNoPadDecode(stray), stray)
        assertNull(Encoding.base64StdNoPadDecode("Q Q"), "whitespace")
        assertNull(Encoding.base64StdNoPadDecode("-_"), "url alphabet in a std field")
        assertArrayEquals(byteArrayOf(-5, -1), Encoding.base64UrlDecode("-_8"))
        assertNull(Encoding.base64UrlDecode("+/8"), "std alphabet in a url field")
        assertArrayEquals(byteArrayOf(0, -1), Encoding.hexDecode("00ff"))
        assertNull(Encoding.hexDecode("00FF"), "uppercase")
        assertNull(Encoding.hexDecode("0"), "odd length")
        assertEquals("-_8", Encoding.base64UrlEncode(byteArrayOf(-5, -1)))
        assertEquals("+/8", Encoding.base64StdNoPadEncode(byteArrayOf(-5, -1)))
    }

    @Test
    fun `decoders read every letter of both alphabets as java util Base64 does`() {
        // Each alphabet's first and last letters of every range (A Z a z 0 9 and the last two) in one text.
        val std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        val url = std.replace('+', '-').replace('/', '_')
        assertArrayEquals(Base64.getDecoder().decode(std), Encoding.base64StdNoPadDecode(std))
        assertArrayEquals(Base64.getUrlDecoder().decode(url), Encoding.base64UrlDecode(url))
        for (text in listOf("QUJD", "QUJDRA", "QUJDREU", "Zm9vYmFy", "z9+/")) {
            assertArrayEquals(Base64.getDecoder().decode(text), Encoding.base64StdNoPadDecode(text), text)
        }
    }

    @Test
    fun `constant time comparison`() {
        assertTrue(Crypto.constantTimeEquals(byteArrayOf(1, 2, 3), byteArrayOf(1, 2, 3)))
        assertFalse(Crypto.constantTimeEquals(byteArrayOf(1, 2, 3), byteArrayOf(1, 2, 4)))
        assertFalse(Crypto.constantTimeEquals(byteArrayOf(1, 2, 3), byteArrayOf(1, 2)))
    }
}
