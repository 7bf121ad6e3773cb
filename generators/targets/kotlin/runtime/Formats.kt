package dev.agentcontracts.runtime

import java.util.regex.Pattern

/**
 * The `format` values the spec uses, with ajv-formats' "full" definitions (ajv-formats 3.0.1,
 * dist/formats.js), so a value passes here exactly when it passes the TypeScript validators.
 */
internal object Formats {
    val NAMES: Set<String> = setOf("uri", "hostname")

    private val NOT_URI_FRAGMENT = EcmaRegex.compile("/|:")
    private val URI = EcmaRegex.compile(
        """^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!${'$'}&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!${'$'}&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!${'$'}&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!${'$'}&'()*+,;=:@/?]|%[0-9a-f]{2})*)?${'$'}""",
        Pattern.CASE_INSENSITIVE,
    )
    private val HOSTNAME = EcmaRegex.compile(
        """^(?=.{1,253}\.?${'$'})[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?${'$'}""",
        Pattern.CASE_INSENSITIVE,
    )

    fun matches(format: String, value: String): Boolean = when (format) {
        "uri" -> NOT_URI_FRAGMENT.matcher(value).find() && URI.matcher(value).find()
        "hostname" -> HOSTNAME.matcher(value).find()
        else -> throw IllegalArgumentException("format $format is not supported")
    }
}
