package dev.agentcontracts.runtime

/**
 * RFC 3986 reference resolution (section 5.2) for `$id` and `$ref`. java.net.URI is not used:
 * it cannot resolve a fragment against a URN base (an opaque URI) and refuses characters the
 * JSON Schema Test Suite puts in identifiers. Pure string work; never throws.
 */
internal object SchemaUri {
    private val PARTS = Regex("^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$")

    private class Parts(val scheme: String?, val authority: String?, val path: String, val query: String?, val fragment: String?)

    private fun split(uri: String): Parts {
        val m = PARTS.find(uri)!!.groups
        return Parts(m[1]?.value, m[2]?.value, m[3]?.value ?: "", m[4]?.value, m[5]?.value)
    }

    /** [ref] resolved against the absolute [base]. */
    fun resolve(base: String, ref: String): String {
        val r = split(ref)
        val b = split(base)
        val scheme: String?
        val authority: String?
        val path: String
        val query: String?
        when {
            r.scheme != null -> { scheme = r.scheme; authority = r.authority; path = removeDots(r.path); query = r.query }
            r.authority != null -> { scheme = b.scheme; authority = r.authority; path = removeDots(r.path); query = r.query }
            r.path.isEmpty() -> { scheme = b.scheme; authority = b.authority; path = b.path; query = r.query ?: b.query }
            r.path.startsWith("/") -> { scheme = b.scheme; authority = b.authority; path = removeDots(r.path); query = r.query }
            else -> {
                scheme = b.scheme
                authority = b.authority
                path = removeDots(if (b.authority != null && b.path.isEmpty()) "/${r.path}" else b.path.substringBeforeLast('/', "") + (if ('/' in b.path) "/" else "") + r.path)
                query = r.query
            }
        }
        val out = StringBuilder()
        if (scheme != null) out.append(scheme).append(':')
        if (authority != null) out.append("//").append(authority)
        out.append(path)
        if (query != null) out.append('?').append(query)
        if (r.fragment != null) out.append('#').append(r.fragment)
        return out.toString()
    }

    /** The URI without its fragment. */
    fun withoutFragment(uri: String): String = uri.substringBefore('#')

    /** The fragment, percent-decoded (UTF-8); null when there is none or it does not decode. */
    fun fragment(uri: String): String? {
        val hash = uri.indexOf('#')
        if (hash < 0) return null
        return percentDecode(uri.substring(hash + 1))
    }

    private fun percentDecode(text: String): String? {
        if ('%' !in text) return text
        val bytes = java.io.ByteArrayOutputStream()
        var i = 0
        while (i < text.length) {
            val c = text[i]
            if (c == '%') {
                if (i + 2 >= text.length) return null
                val value = text.substring(i + 1, i + 3).toIntOrNull(16) ?: return null
                bytes.write(value)
                i += 3
            } else {
                bytes.write(c.toString().toByteArray(Charsets.UTF_8))
                i++
            }
        }
        return bytes.toByteArray().toString(Charsets.UTF_8)
    }

    private fun removeDots(path: String): String {
        if ("." !in path) return path
        val input = path.split('/')
        val out = ArrayList<String>()
        for ((i, segment) in input.withIndex()) {
            when (segment) {
                "." -> if (i == input.size - 1) out.add("")
                ".." -> { if (out.size > 1 || (out.size == 1 && out[0].isNotEmpty())) out.removeAt(out.size - 1); if (i == input.size - 1) out.add("") }
                else -> out.add(segment)
            }
        }
        return out.joinToString("/")
    }
}
