package dev.agentcontracts.runtime

/**
 * The WHATWG URL origin (`new URL(url).origin`) of http(s), ws(s) and ftp URLs, the only schemes
 * with a tuple origin; null for every other scheme (opaque origin, "null") and for URLs the URL
 * parser refuses. It covers what the spec's urlOriginIn rule needs: scheme and host lower-cased,
 * userinfo, path, query and fragment dropped, the default port elided. Not implemented: IDNA
 * mapping of non-ASCII hosts (refused here) and IPv4 numbers in non-decimal forms (kept as text).
 */
object WhatwgOrigin {
    private val DEFAULT_PORTS = mapOf("http" to 80, "https" to 443, "ws" to 80, "wss" to 443, "ftp" to 21)
    private val SCHEME = Regex("([A-Za-z][A-Za-z0-9+.-]*):(.*)", RegexOption.DOT_MATCHES_ALL)
    private val FORBIDDEN_HOST = Regex("[\\u0000-\\u001F #%/:<>?@\\[\\\\\\]^|\\u007F]")

    fun of(url: String): String? {
        // The URL parser trims C0 controls and spaces, and drops tabs and newlines anywhere.
        val input = url.trim { it <= ' ' }.filterNot { it == '\t' || it == '\n' || it == '\r' }
        val (rawScheme, rest) = SCHEME.matchEntire(input)?.destructured ?: return null
        val scheme = rawScheme.lowercase()
        val defaultPort = DEFAULT_PORTS[scheme] ?: return null
        val afterSlashes = rest.trimStart('/', '\\')
        val authority = afterSlashes.substring(0, afterSlashes.indexOfAny(charArrayOf('/', '\\', '?', '#')).takeIf { it >= 0 } ?: afterSlashes.length)
        val hostPort = authority.substringAfterLast('@')
        val (host, port) = splitPort(hostPort) ?: return null
        if (host.isEmpty() || host.any { it.code > 0x7F }) return null
        val lowered = host.lowercase()
        if (!lowered.startsWith("[") && FORBIDDEN_HOST.containsMatchIn(lowered)) return null
        val portPart = if (port == null || port == defaultPort) "" else ":$port"
        return "$scheme://$lowered$portPart"
    }

    /** Host and port (null when absent or empty); null when the port is not a number up to 65535. */
    private fun splitPort(hostPort: String): Pair<String, Int?>? {
        val colon = if (hostPort.startsWith("[")) hostPort.indexOf("]:").let { if (it < 0) -1 else it + 1 } else hostPort.lastIndexOf(':')
        if (colon < 0) return hostPort to null
        val digits = hostPort.substring(colon + 1)
        if (digits.isEmpty()) return hostPort.substring(0, colon) to null
        if (!digits.all { it in '0'..'9' }) return null
        val port = digits.trimStart('0').ifEmpty { "0" }.takeIf { it.length <= 5 }?.toInt()?.takeIf { it <= 65535 } ?: return null
        return hostPort.substring(0, colon) to port
    }
}
