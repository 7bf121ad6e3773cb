package dev.agentcontracts.runtime

/**
 * The noSecrets rule: display text is refused when the Agent Connector host's secret filter
 * (Meldwork's redactSecrets, which defines what the SDK accepts) would redact any part of it.
 * Same scan as the TypeScript runtime's secret-text.ts: one forward pass per shape with
 * precomputed run ends, no backtracking regex, so the cost is linear in the text length. Text is
 * read as UTF-16 code units, as the filter's JavaScript patterns read it.
 */
object SecretText {
    /** Longer text is refused outright; SafeText fields are far shorter (maxLength 1000). */
    const val MAX_UNITS = 65536

    fun contains(text: String): Boolean = find(text) != null

    /** The secret shape found first (in the filter's order), or null when the text is clean. */
    fun find(text: String): String? {
        if (text.length > MAX_UNITS) return "too-long"
        val s = Scan(text)
        return when {
            s.privateKeyBlock() -> "private-key"
            s.bearer() -> "bearer"
            s.basicCredential() -> "basic"
            s.keyPrefix() -> "api-key-prefix"
            s.awsKey() -> "aws-access-key"
            s.googleKey() -> "google-api-key"
            s.jose() -> "jose"
            s.urlCredentials() -> "url-credentials"
            s.assignment() -> "assignment"
            else -> null
        }
    }

    /** ECMAScript's \s (WhiteSpace and LineTerminator). */
    fun isJsSpace(c: Int): Boolean = c == 0x09 || c == 0x0a || c == 0x0b || c == 0x0c || c == 0x0d || c == 0x20 || c == 0xa0 ||
        c == 0x1680 || c in 0x2000..0x200a || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff

    private fun isDigit(c: Int) = c in 0x30..0x39
    private fun isUpper(c: Int) = c in 0x41..0x5a
    private fun isLower(c: Int) = c in 0x61..0x7a
    private fun isAlpha(c: Int) = isUpper(c) || isLower(c)
    private fun isAlnum(c: Int) = isAlpha(c) || isDigit(c)
    private fun isWord(c: Int) = isAlnum(c) || c == 0x5f
    private fun isKeyChar(c: Int) = isWord(c) || c == 0x2d
    private fun isNameChar(c: Int) = isKeyChar(c) || c == 0x2e
    private fun isBase64Char(c: Int) = isAlnum(c) || c == 0x2b || c == 0x2f
    private fun isBearerChar(c: Int) = isAlnum(c) || c == 0x2e || c == 0x5f || c == 0x7e || c == 0x2b || c == 0x2f || c == 0x3d || c == 0x2d
    private fun isSchemeChar(c: Int) = isAlnum(c) || c == 0x2b || c == 0x2e || c == 0x2d
    private fun lowerAscii(c: Int) = if (isUpper(c)) c + 0x20 else c

    private class KeyName(val parts: List<String>, val tail: List<String> = emptyList())

    // The sensitive key names of the key=value shape: parts joined by an optional '_', '-' or space.
    private val KEY_NAMES = listOf(
        KeyName(listOf("api", "key")), KeyName(listOf("access", "key"), listOf("id")), KeyName(listOf("secret", "access", "key")),
        KeyName(listOf("access", "token")), KeyName(listOf("refresh", "token")), KeyName(listOf("auth", "token")),
        KeyName(listOf("database", "url")), KeyName(listOf("connection", "string")), KeyName(listOf("dsn")), KeyName(listOf("token")),
        KeyName(listOf("secret")), KeyName(listOf("password")), KeyName(listOf("credential")), KeyName(listOf("authorization")),
        KeyName(listOf("private", "key")), KeyName(listOf("session", "ref")),
    )
    private val KEY_PREFIXES = listOf("sk", "rk", "pk", "ghp", "github_pat", "xoxb", "xoxa", "xoxp", "xoxr", "xoxs", "xox")

    /** The first letters of [KEY_PREFIXES]: a position starting with another letter is passed over without trying each prefix. */
    private val KEY_PREFIX_FIRSTS = KEY_PREFIXES.map { it[0] }.distinct().joinToString("")
    private const val IDENTITY_ASSIGNMENT = "credential=[redacted]"

    private class Scan(val text: String) {
        val n = text.length

        fun at(i: Int): Int = if (i in 0 until n) text[i].code else -1

        fun lit(i: Int, word: String): Boolean {
            if (i < 0 || i + word.length > n) return false
            for (k in word.indices) if (lowerAscii(text[i + k].code) != word[k].code) return false
            return true
        }

        fun exact(i: Int, word: String) = text.startsWith(word, i)

        inline fun runEnd(start: Int, inClass: (Int) -> Boolean): Int {
            var i = start
            while (i < n && inClass(text[i].code)) i++
            return i
        }

        fun wordStart(i: Int) = i == 0 || !isWord(text[i - 1].code)

        fun pemHeader(i: Int, open: String): Int {
            if (!lit(i, open)) return -1
            val runStart = i + open.length
            val end = runEnd(runStart) { isAlnum(it) || it == 0x20 }
            val label = "private key"
            if (end - runStart < label.length || !lit(end - label.length, label) || !exact(end, "-----")) return -1
            return end + 5
        }

        fun privateKeyBlock(): Boolean {
            var firstBeginEnd = -1
            var lastEndStart = -1
            var i = text.indexOf("-----")
            while (i >= 0) {
                val b = pemHeader(i, "-----begin ")
                if (b >= 0 && firstBeginEnd < 0) firstBeginEnd = b
                if (pemHeader(i, "-----end ") >= 0) lastEndStart = i
                i = text.indexOf("-----", i + 1)
            }
            return firstBeginEnd >= 0 && lastEndStart >= firstBeginEnd
        }

        fun bearer(): Boolean {
            for (i in 0 until n) {
                if (!wordStart(i) || !lit(i, "bearer")) continue
                var j = i + 6
                if (!isJsSpace(at(j))) continue
                while (isJsSpace(at(j))) j++
                if (isBearerChar(at(j))) return true
            }
            return false
        }

        fun basicCredential(): Boolean {
            var i = 0
            while (i < n) {
                if (wordStart(i) && lit(i, "basic") && (at(i + 5) == 0x20 || at(i + 5) == 0x09)) {
                    var j = i + 5
                    while (at(j) == 0x20 || at(j) == 0x09) j++
                    val end = runEnd(j) { isBase64Char(it) }
                    var pad = end
                    while (at(pad) == 0x3d) pad++
                    if (end > j && pad - end <= 2 && !isBase64Char(at(pad))) {
                        if (decodeCanonicalBase64(text.substring(j, end), false)?.contains(0x3a.toByte()) == true) return true
                        i = pad // the filter's global scan resumes after a candidate it leaves unchanged
                        continue
                    }
                }
                i++
            }
            return false
        }

        fun keyPrefix(): Boolean {
            val lastBoundary = IntArray(n + 1) { -1 }
            var s = 0
            while (s < n) {
                if (!isKeyChar(text[s].code)) { s++; continue }
                val e = runEnd(s) { isKeyChar(it) }
                var best = if (isWord(text[e - 1].code)) e else -1
                var j = e - 1
                while (best < 0 && j > s) {
                    if (isWord(text[j - 1].code) != isWord(text[j].code)) best = j
                    j--
                }
                for (k in s until e) lastBoundary[k] = best
                s = e
            }
            for (i in 0 until n) {
                if (!wordStart(i) || KEY_PREFIX_FIRSTS.indexOf(lowerAscii(text[i].code).toChar()) < 0) continue
                for (prefix in KEY_PREFIXES) {
                    if (!lit(i, prefix)) continue
                    val sep = i + prefix.length
                    if (at(sep) != 0x5f && at(sep) != 0x2d) continue
                    if (lastBoundary[sep] >= sep + 13) return true
                }
            }
            return false
        }

        fun awsKey(): Boolean {
            var i = text.indexOf("AKIA")
            while (i >= 0) {
                if (wordStart(i)) {
                    var k = 0
                    while (k < 16 && (isUpper(at(i + 4 + k)) || isDigit(at(i + 4 + k)))) k++
                    if (k == 16 && !isWord(at(i + 20))) return true
                }
                i = text.indexOf("AKIA", i + 1)
            }
            return false
        }

        fun googleKey(): Boolean {
            var i = text.indexOf("AIza")
            while (i >= 0) {
                if (!isKeyChar(at(i - 1)) && runEnd(i) { isKeyChar(it) } - i == 39) return true
                i = text.indexOf("AIza", i + 1)
            }
            return false
        }

        fun jose(): Boolean {
            var i = 0
            while (i < n) {
                if (!isKeyChar(text[i].code) || isKeyChar(at(i - 1))) { i++; continue }
                val starts = ArrayList<Int>()
                val ends = ArrayList<Int>()
                var s = i
                while (true) {
                    val e = runEnd(s) { isKeyChar(it) }
                    starts.add(s)
                    ends.add(e)
                    if (at(e) == 0x2e && isKeyChar(at(e + 1))) s = e + 1 else break
                }
                var k = 0
                while (k < starts.size) {
                    val left = starts.size - k
                    val take = if (left >= 5) 5 else if (left >= 3) 3 else 0
                    if (take == 0) { k++; continue }
                    if (hasJoseHeader(text.substring(starts[k], ends[k]))) return true
                    k += take
                }
                i = ends.last()
            }
            return false
        }

        fun urlCredentials(): Boolean {
            var i = text.indexOf("://")
            while (i >= 0) {
                var hasLetter = false
                var p = i - 1
                while (p >= 0 && isSchemeChar(text[p].code)) { if (isAlpha(text[p].code)) hasLetter = true; p-- }
                if (hasLetter) {
                    val userEnd = runEnd(i + 3) { !isJsSpace(it) && it != 0x2f && it != 0x40 && it != 0x3a }
                    if (userEnd > i + 3 && at(userEnd) == 0x3a) {
                        val passEnd = runEnd(userEnd + 1) { !isJsSpace(it) && it != 0x2f && it != 0x40 }
                        if (passEnd > userEnd + 1 && at(passEnd) == 0x40) return true
                    }
                }
                i = text.indexOf("://", i + 1)
            }
            return false
        }

        private val assignCache by lazy(LazyThreadSafetyMode.NONE) { ByteArray(n + 2) }

        /** After a key name ending at e (and its closing quote, if any): `\s*[:=]\s*` and a value. */
        fun assignedAt(e: Int): Boolean {
            if (assignCache[e] != 0.toByte()) return assignCache[e] == 1.toByte()
            var j = e
            while (isJsSpace(at(j))) j++
            var ok = false
            if (at(j) == 0x3a || at(j) == 0x3d) {
                j++
                while (isJsSpace(at(j))) j++
                val v = at(j)
                ok = v >= 0 && v != 0x2c && v != 0x3b && v != 0x7d && v != 0x5d
            }
            assignCache[e] = if (ok) 1 else -1
            return ok
        }

        fun keyEnds(i: Int): List<Int> {
            var ends: ArrayList<Int>? = null
            for (key in KEY_NAMES) {
                // A name's first part is never separated, so it must start right at i: testing it
                // first skips the list building at the positions (nearly all) where no name starts.
                if (!lit(i, key.parts[0])) continue
                if (ends == null) ends = ArrayList()
                var positions = listOf(i)
                key.parts.forEachIndexed { p, part -> positions = joinPart(positions, part, p > 0) }
                ends.addAll(positions)
                if (key.tail.isNotEmpty()) {
                    var tails = positions
                    for (part in key.tail) tails = joinPart(tails, part, true)
                    ends.addAll(tails)
                }
            }
            return ends ?: emptyList()
        }

        fun joinPart(from: List<Int>, part: String, separated: Boolean): List<Int> {
            val out = ArrayList<Int>()
            for (p in from) {
                if (lit(p, part)) out.add(p + part.length)
                val s = at(p)
                if (separated && (s == 0x5f || s == 0x2d || s == 0x20) && lit(p + 1, part)) out.add(p + 1 + part.length)
            }
            return out
        }

        fun assignment(): Boolean {
            // Every assignment has its ":" or "=" (assignedAt): a text without either has none, and
            // is not worth the tables below (most of the scan of a short clean text).
            if (text.indexOf(':') < 0 && text.indexOf('=') < 0) return false
            val quotes = intArrayOf(-1, 0x22, 0x27)
            val any = Array(3) { BooleanArray(n + 1) }
            val nameEnd = IntArray(n + 1)
            nameEnd[n] = n
            for (k in n - 1 downTo 0) nameEnd[k] = if (isNameChar(text[k].code)) nameEnd[k + 1] else k
            for (k in n - 1 downTo 0) {
                if (!isNameChar(text[k].code)) continue
                val ends = if (isAlpha(text[k].code)) keyEnds(k) else emptyList()
                for (mode in 0 until 3) {
                    var hit = any[mode][k + 1]
                    for (end in ends) {
                        if (hit) break
                        val e = nameEnd[end]
                        if (if (mode == 0) assignedAt(e) else at(e) == quotes[mode] && assignedAt(e + 1)) hit = true
                    }
                    any[mode][k] = hit
                }
            }
            var q = 0
            while (q < n) {
                val c = text[q].code
                val matches = any[0][q] || (c == 0x22 && any[1][q + 1]) || (c == 0x27 && any[2][q + 1])
                if (!matches) { q++; continue }
                // The filter's own replacement text is the one match it leaves unchanged.
                if (!exact(q, IDENTITY_ASSIGNMENT)) return true
                q += IDENTITY_ASSIGNMENT.length
            }
            return false
        }
    }

    private fun sextet(c: Int, url: Boolean): Int = when {
        isUpper(c) -> c - 0x41
        isLower(c) -> c - 0x61 + 26
        isDigit(c) -> c - 0x30 + 52
        c == (if (url) 0x2d else 0x2b) -> 62
        c == (if (url) 0x5f else 0x2f) -> 63
        else -> -1
    }

    /** Canonical unpadded base64 (or base64url) decoding, as the filter accepts it; null otherwise. */
    fun decodeCanonicalBase64(text: String, url: Boolean): ByteArray? {
        if (text.isEmpty() || text.length % 4 == 1 || text.length > MAX_UNITS) return null
        val out = java.io.ByteArrayOutputStream()
        var acc = 0
        var bits = 0
        for (ch in text) {
            val v = sextet(ch.code, url)
            if (v < 0) return null
            acc = ((acc shl 6) or v) and 0xffffff
            bits += 6
            if (bits >= 8) {
                bits -= 8
                out.write((acc shr bits) and 0xff)
            }
        }
        if (acc and ((1 shl bits) - 1) != 0) return null
        return out.toByteArray().takeIf { it.isNotEmpty() }
    }

    private fun hasJoseHeader(segment: String): Boolean {
        val bytes = decodeCanonicalBase64(segment, true) ?: return false
        // Malformed UTF-8 becomes U+FFFD, as Node's Buffer#toString does.
        val members = LenientJsonObject.strings(String(bytes, Charsets.UTF_8)) ?: return false
        return listOf("alg", "enc").any { name -> members[name]?.any { !isJsSpace(it.code) } == true }
    }
}
