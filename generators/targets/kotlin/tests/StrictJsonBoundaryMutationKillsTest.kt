package dev.agentcontracts.runtime

import kotlinx.serialization.json.double
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * The characters beside each range the strict parser tests ('/' before '0', ':' after '9', a
 * digit 0 after the first, the largest finite double), each with the verdict RFC 8259's number
 * grammar gives by hand: a value cannot start with '/' or ':', a number ends before them (so what
 * follows is trailing data or a bad separator), and 1.7976931348623157e308 (Double.MAX_VALUE) is
 * a number while 1.8e308 is not a double. And the reason a trailing comma is reported with.
 */
class StrictJsonBoundaryMutationKillsTest {
    private fun failure(text: String) = assertThrows<StrictJsonException>(text) { StrictJson.parseStrictJson(text) }
    private fun codeOf(text: String) = failure(text).code

    @Test
    fun `numbers with 0 and 9 after the first digit and at the ends of the double range`() {
        val table = listOf(
            "10" to 10.0, "90" to 90.0, "19" to 19.0, "-10" to -10.0, "100" to 100.0, "1.09" to 1.09, "1.90" to 1.9, "1e09" to 1e9, "1e90" to 1e90,
            "9.9e9" to 9.9e9, "1E+10" to 1e10, "0.0" to 0.0, "1.7976931348623157e308" to Double.MAX_VALUE, "-1.7976931348623157e308" to -Double.MAX_VALUE,
            "4.9e-324" to Double.MIN_VALUE, "[10]" to 10.0,
        )
        for ((text, value) in table) {
            val parsed = StrictJson.parseStrictJson(text)
            val number = if (text.startsWith("[")) (parsed as kotlinx.serialization.json.JsonArray)[0] else parsed
            assertEquals(value, number.jsonPrimitive.double, text)
        }
        assertEquals(StrictJsonErrorCode.NUMBER_OUT_OF_RANGE, codeOf("1.8e308"))
    }

    @Test
    fun `a value cannot start with the characters beside the digits`() {
        for (text in listOf("/", ":", "[/]", "[:]", "{\"a\":/}", "{\"a\"::}")) assertEquals(StrictJsonErrorCode.UNEXPECTED_CHARACTER, codeOf(text), text)
        for (text in listOf("-/", "-:", "[-/]")) assertEquals(StrictJsonErrorCode.INVALID_NUMBER, codeOf(text), text)
    }

    @Test
    fun `a number ends before a slash or a colon`() {
        for (text in listOf("0/", "0:", "1/", "9:", "10/", "1.5/", "1.9:", "1e5:", "1e9/", "-0/")) assertEquals(StrictJsonErrorCode.TRAILING_DATA, codeOf(text), text)
        for (text in listOf("[0/]", "[9:]", "[1.0/]", "{\"a\":0:}")) assertEquals(StrictJsonErrorCode.UNEXPECTED_CHARACTER, codeOf(text), text)
        // '.' or an exponent marker not followed by a digit is left behind: the number is malformed.
        for (text in listOf("1./", "1.:", "1e/", "1e:", "1e+/", "1E-:")) assertEquals(StrictJsonErrorCode.INVALID_NUMBER, codeOf(text), text)
    }

    @Test
    fun `a trailing comma is named as one, with or without whitespace before the closer`() {
        for ((text, offset) in listOf("[1,]" to 3, "[1, ]" to 4, "[1,\n]" to 4, "{\"a\":1,}" to 7, "{\"a\":1, }" to 8)) {
            val e = failure(text)
            assertEquals(listOf(StrictJsonErrorCode.UNEXPECTED_CHARACTER, offset, "trailing comma"), listOf(e.code, e.offset, e.reason), text)
        }
    }
}
