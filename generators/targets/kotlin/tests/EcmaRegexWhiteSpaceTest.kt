package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * `\s`, `\S` and `.` of the translated patterns against ECMA-262's own lists, over every code
 * point: WhiteSpace is TAB, VT, FF, ZWNBSP (U+FEFF) and the Zs code points; LineTerminator is LF,
 * CR, LS, PS; `.` excludes only the line terminators (u mode matches whole code points).
 */
class EcmaRegexWhiteSpaceTest {
    // Zs as of Unicode 15, written out so a JDK table change shows.
    private val zs = setOf(0x20, 0xa0, 0x1680) + (0x2000..0x200a) + setOf(0x202f, 0x205f, 0x3000)
    private val lineTerminators = setOf(0x0a, 0x0d, 0x2028, 0x2029)
    private val space = setOf(0x09, 0x0b, 0x0c, 0xfeff) + zs + lineTerminators

    @Test
    fun `white space and dot match exactly ECMAScript's code points`() {
        val s = EcmaRegex.compile("^\\s$")
        val notS = EcmaRegex.compile("^\\S$")
        val inClass = EcmaRegex.compile("^[a\\s]$")
        val notInClass = EcmaRegex.compile("^[^a\\s]$")
        val dot = EcmaRegex.compile("^.$")
        val wrong = ArrayList<String>()
        var code = 0
        while (code <= 0x10ffff) {
            if (code in 0xd800..0xdfff) { code++; continue }
            val text = String(Character.toChars(code))
            val expected = code in space
            if (s.matcher(text).find() != expected) wrong += "\\s U+%04X".format(code)
            if (notS.matcher(text).find() == expected) wrong += "\\S U+%04X".format(code)
            if (inClass.matcher(text).find() != (expected || code == 'a'.code)) wrong += "[a\\s] U+%04X".format(code)
            if (notInClass.matcher(text).find() == (expected || code == 'a'.code)) wrong += "[^a\\s] U+%04X".format(code)
            if (dot.matcher(text).find() == (code in lineTerminators)) wrong += ". U+%04X".format(code)
            code++
        }
        assertEquals(emptyList<String>(), wrong.take(20), "${wrong.size} code points judged unlike ECMAScript")
    }
}
