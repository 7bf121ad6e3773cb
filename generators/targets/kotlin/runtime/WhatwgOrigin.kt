package dev.agentcontracts.runtime

/**
 * The WHATWG URL parser (url.spec.whatwg.org) for special-scheme URLs without a base, as far as
 * the spec's rules need it: the origin (urlOriginIn) and the whatwgUrl forms. Same verdicts as
 * Node's URL in the TypeScript runtime (spec/agent-connector/vectors/whatwg-urls.json): leading
 * and trailing C0/space trimmed, tabs and newlines dropped, any run of slashes after the scheme,
 * userinfo, port, IPv4 in every number form, IPv6 with its canonical serialization, percent-decoded
 * hosts, and UTS 46 domain to ASCII (Uts46.kt, nontransitional) for hosts that are not ASCII or hold
 * a Punycode label. Paths are never refused. Proven against WPT's urltestdata.json (WhatwgUrlWptTest).
 */
data class WhatwgUrl(
    val scheme: String,
    /** No username and no password (an empty userinfo, "@" or ":@", has neither). */
    val noCredentials: Boolean,
    val host: String,
    /** null when absent or the scheme's default. */
    val port: Int?,
    /** A query or fragment with content; an empty "?" or "#" serializes to "". */
    val hasQuery: Boolean,
    val hasFragment: Boolean,
) {
    /** The tuple origin's serialization; null for schemes whose origin is opaque. */
    val origin: String? get() = if (scheme in TUPLE_ORIGIN) "$scheme://$host" + (port?.let { ":$it" } ?: "") else null

    companion object {
        const val MAX_UNITS = 8192
        private val DEFAULT_PORTS = mapOf("http" to 80, "https" to 443, "ws" to 80, "wss" to 443, "ftp" to 21, "file" to null)
        private val TUPLE_ORIGIN = setOf("http", "https", "ws", "wss", "ftp")

        /** `origin`: exactly a serialized https origin; `endpoint`: https without credentials, query or fragment. */
        fun check(text: String, form: String): Boolean {
            val url = parse(text) ?: return false
            if (url.scheme != "https" || !url.noCredentials) return false
            return if (form == "endpoint") !url.hasQuery && !url.hasFragment else url.origin == text
        }

        /** null when the parser fails or the scheme is not special (such URLs have no tuple origin). */
        fun parse(raw: String): WhatwgUrl? {
            if (raw.length > MAX_UNITS) return null
            val input = raw.trim { it <= ' ' }.filterNot { it == '\t' || it == '\n' || it == '\r' }
            val colon = input.indexOf(':')
            if (colon < 1 || !input[0].isAsciiLetter() || !input.substring(0, colon).all { it.isAsciiLetter() || it in '0'..'9' || it in "+-." }) return null
            val scheme = input.substring(0, colon).lowercase()
            if (scheme !in DEFAULT_PORTS || scheme == "file") return null
            var i = colon + 1
            while (i < input.length && (input[i] == '/' || input[i] == '\\')) i++
            var end = i
            while (end < input.length && input[end] !in "/\\?#") end++
            val authority = input.substring(i, end)
            val at = authority.lastIndexOf('@')
            val userinfo = if (at >= 0) authority.substring(0, at) else ""
            val hostPort = if (at >= 0) authority.substring(at + 1) else authority
            var inBrackets = false
            var portAt = -1
            for ((k, c) in hostPort.withIndex()) {
                if (c == '[') inBrackets = true
                if (c == ']') inBrackets = false
                if (c == ':' && !inBrackets) { portAt = k; break }
            }
            val hostText = if (portAt >= 0) hostPort.substring(0, portAt) else hostPort
            if (hostText.isEmpty()) return null
            var port: Int? = null
            if (portAt >= 0) {
                val digits = hostPort.substring(portAt + 1)
                if (!digits.all { it in '0'..'9' }) return null
                if (digits.isNotEmpty()) {
                    val value = digits.trimStart('0').ifEmpty { "0" }
                    if (value.length > 5 || value.toInt() > 65535) return null
                    port = value.toInt().takeIf { it != DEFAULT_PORTS[scheme] }
                }
            }
            val host = parseHost(hostText) ?: return null
            val rest = input.substring(end)
            val hash = rest.indexOf('#')
            val beforeHash = if (hash >= 0) rest.substring(0, hash) else rest
            val query = beforeHash.indexOf('?')
            return WhatwgUrl(
                scheme = scheme,
                noCredentials = userinfo.isEmpty() || userinfo == ":",
                host = host,
                port = port,
                hasQuery = query >= 0 && query < beforeHash.length - 1,
                hasFragment = hash >= 0 && hash < rest.length - 1,
            )
        }

        private fun Char.isAsciiLetter() = this in 'a'..'z' || this in 'A'..'Z'

        private const val FORBIDDEN_DOMAIN = " #%/:<>?@[\\]^|\u007f"

        private fun parseHost(text: String): String? {
            if (text.startsWith("[")) {
                if (!text.endsWith("]")) return null
                return Ipv6.parse(text.substring(1, text.length - 1))?.let { "[${Ipv6.serialize(it)}]" }
            }
            // Plain ASCII without "%" decodes to itself: no byte round trip for the usual host.
            val domain = if (text.all { it.code < 0x80 && it != '%' }) text else String(percentDecode(text), Charsets.UTF_8)
            val ascii = domainToAscii(domain) ?: return null
            if (ascii.isEmpty() || ascii.any { it.code < 0x20 || it in FORBIDDEN_DOMAIN }) return null
            return if (Ipv4.endsInNumber(ascii)) Ipv4.parse(ascii)?.let(Ipv4::serialize) else ascii
        }

        private fun percentDecode(text: String): ByteArray {
            val bytes = text.toByteArray(Charsets.UTF_8)
            val out = java.io.ByteArrayOutputStream()
            var i = 0
            while (i < bytes.size) {
                val b = bytes[i]
                if (b == '%'.code.toByte() && i + 2 < bytes.size && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
                    out.write(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]))
                    i += 3
                } else {
                    out.write(b.toInt())
                    i++
                }
            }
            return out.toByteArray()
        }

        private fun hex(b: Byte): Int = when (val c = b.toInt().toChar()) {
            in '0'..'9' -> c - '0'
            in 'a'..'f' -> c - 'a' + 10
            in 'A'..'F' -> c - 'A' + 10
            else -> -1
        }

        /** UTS 46 ToASCII as the URL Standard calls it (no STD3 rules, no DNS length check); an ASCII name without Punycode only lowercases. */
        private fun domainToAscii(domain: String): String? {
            if (domain.all { it.code < 0x80 } && domain.split('.').none { it.startsWith("xn--", ignoreCase = true) }) return domain.lowercase()
            return Uts46.toAscii(domain)
        }
    }
}

/** The origin of a URL (`new URL(url).origin`); null for an opaque origin or a URL the parser refuses. */
object WhatwgOrigin {
    fun of(url: String): String? = WhatwgUrl.parse(url)?.origin
}

internal object Ipv4 {
    fun endsInNumber(host: String): Boolean {
        val labels = host.split('.').toMutableList()
        if (labels.last().isEmpty()) {
            if (labels.size == 1) return false
            labels.removeAt(labels.size - 1)
        }
        val last = labels.last()
        return (last.isNotEmpty() && last.all { it in '0'..'9' }) || number(last) != null
    }

    /** An IPv4 number in decimal, octal (leading 0) or hex (0x); values past 2^40 are clamped, being refused anyway. */
    private fun number(text: String): Long? {
        if (text.isEmpty()) return null
        var s = text
        var radix = 10
        if (s.length >= 2 && (s.startsWith("0x") || s.startsWith("0X"))) { radix = 16; s = s.substring(2) } else if (s.length >= 2 && s[0] == '0') { radix = 8; s = s.substring(1) }
        if (s.isEmpty()) return 0
        var value = 0L
        for (c in s) {
            val d = Character.digit(c, radix)
            if (d < 0 || c.code > 0x7f) return null
            value = minOf(value * radix + d, 1L shl 40)
        }
        return value
    }

    fun parse(host: String): Long? {
        val parts = host.split('.').toMutableList()
        if (parts.last().isEmpty() && parts.size > 1) parts.removeAt(parts.size - 1)
        if (parts.size > 4) return null
        val numbers = parts.map { number(it) ?: return null }
        if (numbers.dropLast(1).any { it > 255 }) return null
        if (numbers.last() >= 1L shl (8 * (5 - numbers.size))) return null
        var address = numbers.last()
        numbers.dropLast(1).forEachIndexed { i, n -> address += n shl (8 * (3 - i)) }
        return address
    }

    fun serialize(address: Long): String = (3 downTo 0).joinToString(".") { ((address shr (8 * it)) and 0xff).toString() }
}

internal object Ipv6 {
    fun parse(input: String): IntArray? {
        val address = IntArray(8)
        var piece = 0
        var compress = -1
        var p = 0
        fun c(): Int = if (p < input.length) input[p].code else -1
        fun isHex(x: Int) = x in 0x30..0x39 || x in 0x41..0x46 || x in 0x61..0x66
        if (c() == ':'.code) {
            if (p + 1 >= input.length || input[p + 1] != ':') return null
            p += 2
            piece++
            compress = piece
        }
        while (c() != -1) {
            if (piece == 8) return null
            if (c() == ':'.code) {
                if (compress != -1) return null
                p++
                piece++
                compress = piece
                continue
            }
            var value = 0
            var length = 0
            while (length < 4 && isHex(c())) { value = value * 16 + Character.digit(c(), 16); p++; length++ }
            if (c() == '.'.code) {
                if (length == 0) return null
                p -= length
                if (piece > 6) return null
                var seen = 0
                while (c() != -1) {
                    var v = -1
                    if (seen > 0) { if (c() == '.'.code && seen < 4) p++ else return null }
                    if (c() !in 0x30..0x39) return null
                    while (c() in 0x30..0x39) {
                        val d = c() - 0x30
                        v = if (v == -1) d else if (v == 0) return null else v * 10 + d
                        if (v > 255) return null
                        p++
                    }
                    address[piece] = address[piece] * 0x100 + v
                    seen++
                    if (seen == 2 || seen == 4) piece++
                }
                if (seen != 4) return null
                break
            } else if (c() == ':'.code) {
                p++
                if (c() == -1) return null
            } else if (c() != -1) {
                return null
            }
            address[piece] = value
            piece++
        }
        if (compress != -1) {
            var swaps = piece - compress
            piece = 7
            while (piece != 0 && swaps > 0) {
                val t = address[piece]; address[piece] = address[compress + swaps - 1]; address[compress + swaps - 1] = t
                piece--
                swaps--
            }
        } else if (piece != 8) {
            return null
        }
        return address
    }

    fun serialize(address: IntArray): String {
        var bestStart = -1
        var bestLen = 1
        var i = 0
        while (i < 8) {
            if (address[i] == 0) {
                var j = i
                while (j < 8 && address[j] == 0) j++
                if (j - i > bestLen) { bestStart = i; bestLen = j - i }
                i = j
            } else {
                i++
            }
        }
        val out = StringBuilder()
        var ignoreZero = false
        for (k in 0 until 8) {
            if (ignoreZero && address[k] == 0) continue
            ignoreZero = false
            if (k == bestStart) { out.append(if (k == 0) "::" else ":"); ignoreZero = true; continue }
            out.append(Integer.toHexString(address[k]))
            if (k != 7) out.append(':')
        }
        return out.toString()
    }
}

/** RFC 3492 Punycode decoding; null when the label is not valid Punycode. */
internal object Punycode {
    fun decode(input: String): String? {
        val out = ArrayList<Int>()
        val delimiter = input.lastIndexOf('-')
        if (delimiter > 0) for (c in input.substring(0, delimiter)) { if (c.code >= 0x80) return null; out.add(c.code) }
        var n = 128
        var i = 0L
        var bias = 72
        var p = if (delimiter > 0) delimiter + 1 else 0
        while (p < input.length) {
            val oldI = i
            var w = 1L
            var k = 36
            while (true) {
                if (p >= input.length) return null
                val c = input[p++]
                val digit = when (c) { in 'a'..'z' -> c - 'a'; in 'A'..'Z' -> c - 'A'; in '0'..'9' -> c - '0' + 26; else -> return null }
                i += digit * w
                if (i > Int.MAX_VALUE) return null
                val t = if (k <= bias) 1 else if (k >= bias + 26) 26 else k - bias
                if (digit < t) break
                w *= (36 - t)
                if (w > Int.MAX_VALUE) return null
                k += 36
            }
            bias = adapt((i - oldI).toInt(), out.size + 1, oldI == 0L)
            n += (i / (out.size + 1)).toInt()
            if (n > 0x10FFFF) return null
            i %= (out.size + 1)
            out.add(i.toInt(), n)
            i++
        }
        val sb = StringBuilder()
        for (cp in out) { if (cp in 0xD800..0xDFFF) return null; sb.appendCodePoint(cp) }
        return sb.toString()
    }

    /** RFC 3492 Punycode encoding of a label's code points; null on overflow (a label far past any DNS length). */
    fun encode(input: String): String? {
        val cps = input.codePoints().toArray()
        val out = StringBuilder()
        for (c in cps) if (c < 0x80) out.append(c.toChar())
        val basic = out.length
        var handled = basic
        if (basic > 0) out.append('-')
        var n = 128
        var delta = 0L
        var bias = 72
        while (handled < cps.size) {
            val m = cps.filter { it >= n }.min()
            delta += (m - n).toLong() * (handled + 1)
            n = m
            for (c in cps) {
                if (c < n) delta++
                if (delta > Int.MAX_VALUE) return null
                if (c != n) continue
                var q = delta.toInt()
                var k = 36
                while (true) {
                    val t = if (k <= bias) 1 else if (k >= bias + 26) 26 else k - bias
                    if (q < t) break
                    out.append(digit(t + (q - t) % (36 - t)))
                    q = (q - t) / (36 - t)
                    k += 36
                }
                out.append(digit(q))
                bias = adapt(delta.toInt(), handled + 1, handled == basic)
                delta = 0
                handled++
            }
            delta++
            n++
        }
        return out.toString()
    }

    private fun digit(d: Int): Char = if (d < 26) 'a' + d else '0' + (d - 26)

    private fun adapt(deltaIn: Int, points: Int, first: Boolean): Int {
        var delta = if (first) deltaIn / 700 else deltaIn / 2
        delta += delta / points
        var k = 0
        while (delta > 455) { delta /= 35; k += 36 }
        return k + (36 * delta) / (delta + 38)
    }
}
