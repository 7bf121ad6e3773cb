package dev.agentcontracts.runtime

import java.security.MessageDigest
import java.util.Base64
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/** Hashing and MACs from the JDK (javax.crypto, MessageDigest): no third-party crypto. */
object Crypto {
    /** SHA-256 of raw bytes. */
    fun sha256(data: ByteArray): ByteArray = (SHA256_PROTOTYPE.clone() as MessageDigest).digest(data)

    // Never updated, only cloned: a clone skips getInstance's provider lookup on every hash, and
    // reading an unused digest's state is safe from any thread.
    private val SHA256_PROTOTYPE: MessageDigest = MessageDigest.getInstance("SHA-256")

    /** SHA-256 of a string's UTF-8 encoding. */
    fun sha256(text: String): ByteArray = sha256(text.toByteArray(Charsets.UTF_8))

    /** Lowercase hex SHA-256 of a string's UTF-8 encoding. */
    fun sha256Hex(text: String): String = Encoding.hexEncode(sha256(text))

    /** HMAC-SHA256 (RFC 2104). */
    fun hmacSha256(key: ByteArray, message: ByteArray): ByteArray {
        // SecretKeySpec refuses an empty key, which RFC 2104 allows. HMAC zero-pads keys to the
        // 64-byte block, so an empty key and 64 zero bytes give the same MAC.
        val keyBytes = if (key.isEmpty()) ByteArray(64) else key
        val mac = Mac.getInstance("HmacSHA256")
        mac.init(SecretKeySpec(keyBytes, "HmacSHA256"))
        return mac.doFinal(message)
    }

    /** HMAC-SHA256 with a string key and message: their UTF-8 bytes (never hex- or base64-decoded). */
    fun hmacSha256(key: String, message: String): ByteArray =
        hmacSha256(key.toByteArray(Charsets.UTF_8), message.toByteArray(Charsets.UTF_8))

    /**
     * Compares in time independent of where the inputs differ (MessageDigest.isEqual has been
     * constant-time since JDK 6u17). Lengths are not secret: MACs have a fixed length.
     */
    fun constantTimeEquals(a: ByteArray, b: ByteArray): Boolean = MessageDigest.isEqual(a, b)
}

/**
 * An HMAC-SHA256 key prepared once (RFC 2104): the key block XOR ipad and XOR opad are hashed into
 * two SHA-256 states when it is made, so each MAC starts from copies of them instead of looking up
 * a `Mac`, keying it and hashing both pads again on every message. Safe to share between threads:
 * a MAC only copies the states. The states derive from the secret, so the object is as sensitive
 * as the secret: it lives as long as the caller keeps it (nothing else holds one), and [destroy]
 * wipes it.
 */
class HmacSha256Key(secret: ByteArray) {
    /** A secret as its UTF-8 bytes (never hex- or base64-decoded). */
    constructor(secret: String) : this(secret.toByteArray(Charsets.UTF_8))

    /** Whether the secret was empty (zero bytes); hmac-sha256-v1 refuses to sign or verify with it. */
    val isEmpty: Boolean = secret.isEmpty()

    private val inner: MessageDigest = MessageDigest.getInstance("SHA-256")
    private val outer: MessageDigest = MessageDigest.getInstance("SHA-256")

    @Volatile
    private var destroyed = false

    init {
        // A key longer than the 64-byte block is hashed first; a shorter one is zero-padded.
        val block = ByteArray(BLOCK_BYTES)
        (if (secret.size > BLOCK_BYTES) Crypto.sha256(secret) else secret).copyInto(block)
        for (i in block.indices) block[i] = (block[i].toInt() xor IPAD).toByte()
        inner.update(block)
        for (i in block.indices) block[i] = (block[i].toInt() xor IPAD xor OPAD).toByte()
        outer.update(block)
        block.fill(0)
    }

    /** HMAC-SHA256(secret, message); throws IllegalStateException after [destroy]. */
    fun mac(message: ByteArray): ByteArray {
        check(!destroyed) { "HmacSha256Key was destroyed" }
        val innerHash = (inner.clone() as MessageDigest).digest(message)
        return (outer.clone() as MessageDigest).digest(innerHash)
    }

    /** Resets both keyed states; every later [mac] throws instead of computing with them. */
    fun destroy() {
        destroyed = true
        inner.reset()
        outer.reset()
    }

    /** Never the secret or anything derived from it. */
    override fun toString(): String = "HmacSha256Key(<redacted>)"

    private companion object {
        const val BLOCK_BYTES = 64
        const val IPAD = 0x36
        const val OPAD = 0x5c
    }
}

/**
 * The byte encodings the protocols put on the wire. Decoders are strict and return null: a
 * signature with padding, whitespace or stray bits is a different string from the one that was
 * signed, so it is refused instead of being normalised into acceptance.
 */
object Encoding {
    private val LOWER_HEX = Regex("(?:[0-9a-f]{2})*")
    private const val HEX_DIGITS = "0123456789abcdef"

    private val stdEncoder = Base64.getEncoder().withoutPadding()
    private val urlEncoder = Base64.getUrlEncoder().withoutPadding()

    /** Standard alphabet, padding removed: the hmac-sha256-v1 wire form. */
    fun base64StdNoPadEncode(data: ByteArray): String = stdEncoder.encodeToString(data)

    /** base64url without padding (RFC 4648 §5). */
    fun base64UrlEncode(data: ByteArray): String = urlEncoder.encodeToString(data)

    /** Standard base64 as usually sent (with padding); for schemes such as Standard Webhooks. */
    fun base64StdEncode(data: ByteArray): String = Base64.getEncoder().encodeToString(data)

    /** Strict decode of unpadded standard base64; null for anything but its canonical form. */
    fun base64StdNoPadDecode(text: String): ByteArray? = decodeCanonical(text, '+', '/')

    /** Strict decode of unpadded base64url; null for anything but its canonical form. */
    fun base64UrlDecode(text: String): ByteArray? = decodeCanonical(text, '-', '_')

    /**
     * One pass over [text] in the alphabet whose last two letters are [c62] and [c63]: any other
     * character (padding included), a length that leaves a lone sextet, or non-zero bits after the
     * last whole byte ("QR" beside the canonical "QQ") make it null.
     */
    private fun decodeCanonical(text: String, c62: Char, c63: Char): ByteArray? {
        if (text.length % 4 == 1) return null
        val out = ByteArray(text.length * 3 / 4)
        var accumulator = 0
        var bits = 0
        var written = 0
        for (c in text) {
            val sextet = when (c) {
                in 'A'..'Z' -> c - 'A'
                in 'a'..'z' -> c - 'a' + 26
                in '0'..'9' -> c - '0' + 52
                c62 -> 62
                c63 -> 63
                else -> return null
            }
            accumulator = (accumulator shl 6) or sextet
            bits += 6
            if (bits >= 8) {
                bits -= 8
                out[written++] = (accumulator shr bits).toByte()
                accumulator = accumulator and ((1 shl bits) - 1)
            }
        }
        return if (accumulator == 0) out else null
    }

    /** Lowercase hex. */
    fun hexEncode(data: ByteArray): String {
        val out = StringBuilder(data.size * 2)
        for (byte in data) {
            val value = byte.toInt() and 0xFF
            out.append(HEX_DIGITS[value shr 4]).append(HEX_DIGITS[value and 0xF])
        }
        return out.toString()
    }

    /** Strict lowercase-hex decode; null for odd length, uppercase or other characters. */
    fun hexDecode(text: String): ByteArray? {
        if (!LOWER_HEX.matches(text)) return null
        return ByteArray(text.length / 2) { i -> text.substring(2 * i, 2 * i + 2).toInt(16).toByte() }
    }
}
