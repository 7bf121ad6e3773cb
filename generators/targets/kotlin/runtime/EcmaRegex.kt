package dev.agentcontracts.runtime

import java.util.regex.Pattern

/**
 * Runs an ECMAScript `u`-mode pattern (what JSON Schema `pattern` means, and what ajv compiles)
 * on java.util.regex. Both match code points; the constructs whose meaning differs are rewritten:
 *
 * - `$` outside a class: end of input in ECMAScript, but also before a final line break in Java → `\z`;
 * - `.`: ECMAScript excludes only \n, \r, U+2028, U+2029 (Java also excludes U+0085);
 * - `\s` / `\S`: ECMAScript's white space list (Java's `\s` is ASCII only);
 * - `\b` / `\B`: word boundaries over ASCII `\w`, spelled with lookarounds;
 * - `[` and `&&` inside a class are literal in ECMAScript but nest or intersect in Java.
 *
 * - `\p{Letter}` and the other long General_Category names ECMAScript allows: Java knows the short ones (`\p{L}`).
 *
 * `\d` and `\w` are ASCII in both. Use `find()`: a pattern matches anywhere unless anchored.
 */
internal object EcmaRegex {
    /**
     * ECMAScript's WhiteSpace and LineTerminator: TAB, VT, FF, ZWNBSP, every Zs code point, LF, CR,
     * LS, PS. Spelled as Java's ASCII `\s` (which adds nothing else), `\p{Zs}` and three singles:
     * java.util.regex tests a class as a chain of predicates, one per range or single above U+00FF,
     * and the 14-part list this replaces made every `\S` cost a dozen tests per character.
     */
    private const val SPACE = "\\s\\p{Zs}\\u2028\\u2029\\uFEFF"
    private const val WORD = "[A-Za-z0-9_]"
    private const val BOUNDARY = "(?:(?<=$WORD)(?!$WORD)|(?<!$WORD)(?=$WORD))"
    private const val NOT_BOUNDARY = "(?:(?<=$WORD)(?=$WORD)|(?<!$WORD)(?!$WORD))"

    /** ECMAScript's long General_Category names with the short names Java accepts. */
    private val CATEGORIES = mapOf(
        "Letter" to "L", "Cased_Letter" to "LC", "Uppercase_Letter" to "Lu", "Lowercase_Letter" to "Ll", "Titlecase_Letter" to "Lt",
        "Modifier_Letter" to "Lm", "Other_Letter" to "Lo", "Mark" to "M", "Nonspacing_Mark" to "Mn", "Spacing_Mark" to "Mc",
        "Enclosing_Mark" to "Me", "Number" to "N", "Decimal_Number" to "Nd", "Letter_Number" to "Nl", "Other_Number" to "No",
        "Punctuation" to "P", "Symbol" to "S", "Math_Symbol" to "Sm", "Currency_Symbol" to "Sc", "Separator" to "Z",
        "Space_Separator" to "Zs", "Other" to "C", "Control" to "Cc", "Format" to "Cf", "Private_Use" to "Co", "Unassigned" to "Cn",
    )

    fun compile(source: String, flags: Int = 0): Pattern = Pattern.compile(translate(source), flags)

    fun translate(source: String): String {
        val out = StringBuilder()
        var inClass = false
        var i = 0
        while (i < source.length) {
            val c = source[i]
            if (c == '\\') {
                require(i + 1 < source.length) { "pattern ends with a lone backslash: $source" }
                val escaped = source[i + 1]
                out.append(
                    when (escaped) {
                        's' -> if (inClass) SPACE else "[$SPACE]"
                        'S' -> "[^$SPACE]"
                        'b' -> if (inClass) "\\x08" else BOUNDARY
                        'B' -> NOT_BOUNDARY
                        'p', 'P' -> {
                            val close = source.indexOf('}', i)
                            if (!source.startsWith("{", i + 2) || close < 0) {
                                "\\$escaped" // no braces: Java refuses it, as ECMAScript's u mode does
                            } else {
                                val name = source.substring(i + 3, close)
                                i = close - 1
                                "\\$escaped{${CATEGORIES[name] ?: name}}"
                            }
                        }
                        else -> "\\$escaped"
                    },
                )
                i += 2
                continue
            }
            when {
                inClass && c == ']' -> { inClass = false; out.append(c) }
                inClass && c == '[' -> out.append("\\[")
                inClass && c == '&' -> out.append("\\&")
                inClass -> out.append(c)
                c == '[' -> {
                    inClass = true
                    out.append(c)
                    if (source.startsWith("^", i + 1)) { out.append('^'); i++ }
                }
                c == '$' -> out.append("\\z")
                c == '.' -> out.append("[^\\n\\r\\u2028\\u2029]")
                else -> out.append(c)
            }
            i++
        }
        return out.toString()
    }
}
