package dev.agentcontracts.runtime

/**
 * ECMAScript JSON.parse's grammar, kept to what the JOSE header test needs: null unless the whole
 * text is one JSON object; then its string-valued top-level members (a later duplicate replaces an
 * earlier one, as JSON.parse does; a later non-string value removes it).
 */
internal object LenientJsonObject {
    fun strings(text: String): Map<String, String>? {
        val r = Reader(text)
        r.ws()
        if (r.peek() != '{'.code) return null
        val members = r.obj(true, 0) ?: return null
        r.ws()
        return if (r.i == text.length) members else null
    }

    private class Reader(private val s: String) {
        var i = 0
        fun peek(): Int = if (i < s.length) s[i].code else -1
        fun ws() { while (peek() == 0x20 || peek() == 0x09 || peek() == 0x0a || peek() == 0x0d) i++ }

        fun obj(collect: Boolean, depth: Int): MutableMap<String, String>? {
            if (depth > 512) return null
            val members = LinkedHashMap<String, String>()
            i++
            ws()
            if (peek() == '}'.code) { i++; return members }
            while (true) {
                ws()
                if (peek() != '"'.code) return null
                val key = string() ?: return null
                ws()
                if (peek() != ':'.code) return null
                i++
                ws()
                if (peek() == '"'.code) {
                    val v = string() ?: return null
                    if (collect) members[key] = v
                } else {
                    if (!value(depth + 1)) return null
                    if (collect) members.remove(key)
                }
                ws()
                val c = peek()
                i++
                if (c == '}'.code) return members
                if (c != ','.code) return null
            }
        }

        fun value(depth: Int): Boolean {
            val c = peek()
            if (c == '{'.code) return obj(false, depth) != null
            if (c == '['.code) {
                if (depth > 512) return false
                i++
                ws()
                if (peek() == ']'.code) { i++; return true }
                while (true) {
                    ws()
                    if (!value(depth + 1)) return false
                    ws()
                    val d = peek()
                    i++
                    if (d == ']'.code) return true
                    if (d != ','.code) return false
                }
            }
            if (c == '"'.code) return string() != null
            for (word in listOf("true", "false", "null")) if (s.startsWith(word, i)) { i += word.length; return true }
            return number()
        }

        private fun digit() = peek() in 0x30..0x39

        fun number(): Boolean {
            if (peek() == '-'.code) i++
            if (peek() == '0'.code) i++ else if (peek() in 0x31..0x39) { while (digit()) i++ } else return false
            if (peek() == '.'.code) {
                i++
                if (!digit()) return false
                while (digit()) i++
            }
            if (peek() == 'e'.code || peek() == 'E'.code) {
                i++
                if (peek() == '+'.code || peek() == '-'.code) i++
                if (!digit()) return false
                while (digit()) i++
            }
            return true
        }

        fun string(): String? {
            i++
            val out = StringBuilder()
            while (true) {
                val c = peek()
                if (c < 0x20) return null
                i++
                if (c == '"'.code) return out.toString()
                if (c != '\\'.code) { out.append(c.toChar()); continue }
                val e = peek()
                i++
                when (e) {
                    '"'.code -> out.append('"')
                    '\\'.code -> out.append('\\')
                    '/'.code -> out.append('/')
                    'b'.code -> out.append('\b')
                    'f'.code -> out.append('\u000c')
                    'n'.code -> out.append('\n')
                    'r'.code -> out.append('\r')
                    't'.code -> out.append('\t')
                    'u'.code -> {
                        if (i + 4 > s.length) return null
                        val hex = s.substring(i, i + 4)
                        if (!hex.all { it in '0'..'9' || it in 'a'..'f' || it in 'A'..'F' }) return null
                        out.append(hex.toInt(16).toChar())
                        i += 4
                    }
                    else -> return null
                }
            }
        }
    }
}
