package dev.agentcontracts.bindings

import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.runtime.CanonicalDialects
import dev.agentcontracts.runtime.CanonicalizationDialect
import dev.agentcontracts.runtime.LexValue
import dev.agentcontracts.runtime.StrictJson
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/**
 * The canonicalization dialects of the Kotlin runtime (SignatureDoctor.kt) against hand-written
 * tables, ported from the TypeScript twin's kill tables (property-tests/runtime/canonical-dialects.
 * mutation-kills.test.ts): the dialect table as spec/agent-provider/protocol.yaml writes it, each
 * platform's number layout (JDK Double.toString and BigDecimal.toString as their Javadoc states,
 * serde_json's ryu layout), string escaping, key order, duplicate members, and the lexical reader's
 * verdicts (JSON's grammar, RFC 8259: what JSON.parse accepts, written out by hand).
 */
class SignatureDoctorMutationKillsTest {
    private val dialects = AgentProviderSigning.CANONICALIZATION_DIALECTS
    private fun byId(id: String) = dialects.first { it.divergence == id }
    private val serde = byId("canonical-json-dialect-serde-json")
    private val serde140 = byId("canonical-json-dialect-serde-json-1-0-140")
    private val aosp = byId("canonical-json-dialect-aosp-org-json")
    private val orgJson = byId("canonical-json-dialect-org-json-20240303")
    private val ios = byId("canonical-json-dialect-ios-jsonserialization")

    @Test
    fun `the dialect table is protocol yaml's canonicalization entries, field by field`() {
        // [divergence, name, numbers, exponentPlus, integerTokens, keyOrder, escapeSlash, escapeRanges, duplicateKeys, absentHashedField]
        val expected = listOf(
            listOf("canonical-json-dialect-serde-json", "Rust host, serde_json 1.0.154", "serde-json", true, listOf("exact"), "code-point", "none", listOf<IntRange>(), "last-wins", "null"),
            listOf("canonical-json-dialect-serde-json-1-0-140", "Rust host, serde_json 1.0.140", "serde-json", false, listOf("exact"), "code-point", "none", listOf<IntRange>(), "last-wins", "null"),
            listOf("canonical-json-dialect-aosp-org-json", "Android provider SDK, AOSP org.json", "java-double", false, listOf("exact", "double"), "utf16", "all", listOf<IntRange>(), "last-wins", "refuse"),
            listOf("canonical-json-dialect-org-json-20240303", "Android provider SDK, org.json 20240303", "java-bigdecimal", false, listOf("exact", "double"), "utf16", "after-lt", listOf(128..159, 8192..8447), "reject", "refuse"),
            listOf("canonical-json-dialect-ios-jsonserialization", "Swift provider SDK, iOS JSONSerialization", "rfc8785", false, listOf("exact"), "utf16", "all", listOf<IntRange>(), "reject", "refuse"),
        )
        // Each getter read one by one (a data class's equals reads its fields, not its getters).
        val actual = dialects.map { listOf(it.divergence, it.name, it.numbers, it.exponentPlus, it.integerTokens, it.keyOrder, it.escapeSlash, it.escapeRanges, it.duplicateKeys, it.absentHashedField) }
        assertEquals(expected, actual)
        // Every member read from the entry as written (a hand-written entry unlike any of the spec's).
        val full = CanonicalizationDialect.listFromJson("""[{"divergence":"dv","name":"nm","numbers":"serde-json","exponentPlus":true,"integerTokens":["double","exact"],"keyOrder":"code-point","escapeSlash":"after-lt","escapeRanges":[[128,159],[8192,8447]],"duplicateKeys":"last-wins","absentHashedField":"null"}]""").single()
        assertEquals(
            listOf("dv", "nm", "serde-json", true, listOf("double", "exact"), "code-point", "after-lt", listOf(128..159, 8192..8447), "last-wins", "null"),
            listOf(full.divergence, full.name, full.numbers, full.exponentPlus, full.integerTokens, full.keyOrder, full.escapeSlash, full.escapeRanges, full.duplicateKeys, full.absentHashedField),
        )
        // A member left out takes its default: exponentPlus false, absentHashedField "refuse".
        val bare = CanonicalizationDialect.listFromJson("""[{"divergence":"d","name":"n","numbers":"rfc8785","integerTokens":[],"keyOrder":"utf16","escapeSlash":"none","escapeRanges":[[1,2]],"duplicateKeys":"reject"}]""").single()
        assertEquals(listOf(false, "refuse", listOf(1..2)), listOf(bare.exponentPlus, bare.absentHashedField, bare.escapeRanges))
    }

    // JDK 19+ Double.toString: plain in [1e-3, 1e7) with at least one fraction digit, else d.dddEn.
    private val doubles = listOf(
        0.0 to "0.0", -0.0 to "-0.0", 1.0 to "1.0", 12.0 to "12.0", -1.5 to "-1.5", 0.5 to "0.5", 0.05 to "0.05", 0.001 to "0.001", 0.00123 to "0.00123",
        -0.001 to "-0.001", 0.0001 to "1.0E-4", 9999999.0 to "9999999.0", 1e7 to "1.0E7", 12345678.0 to "1.2345678E7", 123.456 to "123.456",
        1234567.5 to "1234567.5", 100.0 to "100.0", 1e16 to "1.0E16", -1e-6 to "-1.0E-6", 2.5e-5 to "2.5E-5", 1e21 to "1.0E21", 1.5e300 to "1.5E300", -2.5e7 to "-2.5E7",
        0.0009999 to "9.999E-4", 9999999.5 to "9999999.5",
    )

    @Test
    fun `Double toString as the JDK Javadoc lays it out`() {
        for ((x, text) in doubles) assertEquals(text, CanonicalDialects.javaDoubleToString(x), "$x")
        // The JDK itself agrees on every row (an oracle beside the hand-written table).
        for ((x, text) in doubles) assertEquals(text, x.toString(), "JDK $x")
    }

    @Test
    fun `serde_json 1_0_154 and 1_0_140 write integers in i64 or u64 as digits and floats in ryu's layout`() {
        // [token, serde_json 1.0.154, 1.0.140]
        val table = listOf(
            Triple("12", "12", "12"), Triple("-12", "-12", "-12"), Triple("0", "0", "0"), Triple("-0", "-0.0", "-0.0"), Triple("12.0", "12.0", "12.0"),
            Triple("-0.0", "-0.0", "-0.0"), Triple("0.0", "0.0", "0.0"), Triple("1E2", "100.0", "100.0"), Triple("0.5", "0.5", "0.5"), Triple("-1.5", "-1.5", "-1.5"),
            Triple("123456.789", "123456.789", "123456.789"), Triple("1e15", "1000000000000000.0", "1000000000000000.0"), Triple("1e16", "1e+16", "1e16"),
            Triple("1.5e300", "1.5e+300", "1.5e300"), Triple("0.0001", "0.0001", "0.0001"), Triple("0.00001", "0.00001", "0.00001"), Triple("1e-6", "1e-6", "1e-6"),
            Triple("1.25e-7", "1.25e-7", "1.25e-7"), Triple("-2.5e-9", "-2.5e-9", "-2.5e-9"), Triple("1234567890123456.5", "1234567890123456.5", "1234567890123456.5"),
            Triple("18446744073709551615", "18446744073709551615", "18446744073709551615"), Triple("-9223372036854775808", "-9223372036854775808", "-9223372036854775808"),
            Triple("18446744073709551616", "1.8446744073709552e+19", "1.8446744073709552e19"), Triple("-9223372036854775809", "-9.223372036854776e+18", "-9.223372036854776e18"),
            Triple("1.5e16", "1.5e+16", "1.5e16"), Triple("1.7976931348623157e308", "1.7976931348623157e+308", "1.7976931348623157e308"),
            Triple("-1.7976931348623157e308", "-1.7976931348623157e+308", "-1.7976931348623157e308"), Triple("-1e-5", "-0.00001", "-0.00001"), Triple("1.5e-5", "0.000015", "0.000015"), Triple("1.5", "1.5", "1.5"),
        )
        for ((token, plus, bare) in table) {
            assertEquals(plus, CanonicalDialects.formatNumberToken(token, serde, "exact"), token)
            assertEquals(bare, CanonicalDialects.formatNumberToken(token, serde140, "exact"), token)
        }
    }

    @Test
    fun `org_json writes numbers as read exactly or as the double a signer held`() {
        // AOSP's JSONTokener reads an integer token with Long.parseLong, so "-0" is the long 0.
        val aospTable = listOf(
            Triple("12", "12", "12.0"), Triple("-0", "0", "-0.0"), Triple("12.0", "12.0", "12.0"), Triple("1e-6", "1.0E-6", "1.0E-6"),
            Triple("9223372036854775807", "9223372036854775807", "9.223372036854776E18"), Triple("-9223372036854775808", "-9223372036854775808", "-9.223372036854776E18"),
            Triple("9223372036854775808", "9.223372036854776E18", "9.223372036854776E18"), Triple("-9223372036854775809", "-9.223372036854776E18", "-9.223372036854776E18"),
        )
        for ((token, exact, double) in aospTable) {
            assertEquals(exact, CanonicalDialects.formatNumberToken(token, aosp, "exact"), token)
            assertEquals(double, CanonicalDialects.formatNumberToken(token, aosp, "double"), token)
        }
        // org.json 20240303: BigDecimal.toString (Javadoc: plain when scale >= 0 and adjusted exponent >= -6), -0 as -0.0.
        val orgTable = listOf(
            Triple("12", "12", "12.0"), Triple("-0", "-0.0", "-0.0"), Triple("-0.0", "-0.0", "-0.0"), Triple("-0e3", "-0.0", "-0.0"), Triple("0.0", "0.0", "0.0"),
            Triple("12.0", "12.0", "12.0"), Triple("1.5e3", "1.5E+3", "1.5E+3"), Triple("1e-7", "1E-7", "1E-7"), Triple("-1.5", "-1.5", "-1.5"), Triple("-0.25e1", "-2.5", "-2.5"),
            Triple("99999999999999999999", "99999999999999999999", "1.0E20"), Triple("-7", "-7", "-7.0"), Triple("0.000001", "0.000001", "0.000001"), Triple("1.23e-8", "1.23E-8", "1.23E-8"),
        )
        for ((token, exact, double) in orgTable) {
            assertEquals(exact, CanonicalDialects.formatNumberToken(token, orgJson, "exact"), token)
            assertEquals(double, CanonicalDialects.formatNumberToken(token, orgJson, "double"), token)
        }
        // The iOS dialect writes numbers as RFC 8785 does (ES6 Number::toString).
        // The largest finite double is still a double every dialect writes.
        assertEquals("1.7976931348623157E308", CanonicalDialects.formatNumberToken("1.7976931348623157e308", aosp, "exact"))
        assertEquals("1.7976931348623157e+308", CanonicalDialects.formatNumberToken("1.7976931348623157e308", ios, "exact"))
        val es6 = listOf("12.0" to "12", "1E2" to "100", "-0" to "0", "1e21" to "1e+21", "1e-7" to "1e-7", "0.000001" to "0.000001")
        for ((token, text) in es6) assertEquals(text, CanonicalDialects.formatNumberToken(token, ios, "exact"), token)
    }

    @Test
    fun `a token past the double range has no form in a dialect that holds it as a double`() {
        val huge = "1" + "0".repeat(400)
        // [token, serde_json, AOSP exact, AOSP double, org.json exact, org.json double, JSONSerialization]
        val table = listOf(
            listOf("1e400", null, null, null, "1E+400", "1E+400", null),
            listOf("-1e400", null, null, null, "-1E+400", "-1E+400", null),
            listOf(huge, null, null, null, huge, null, null),
            listOf("-$huge", null, null, null, "-$huge", null, null),
        )
        for (row in table) {
            val token = row[0]!!
            val actual = listOf(
                token, CanonicalDialects.formatNumberToken(token, serde, "exact"), CanonicalDialects.formatNumberToken(token, aosp, "exact"),
                CanonicalDialects.formatNumberToken(token, aosp, "double"), CanonicalDialects.formatNumberToken(token, orgJson, "exact"),
                CanonicalDialects.formatNumberToken(token, orgJson, "double"), CanonicalDialects.formatNumberToken(token, ios, "exact"),
            )
            assertEquals(row, actual, token.take(8))
        }
        assertNull(render("[1,1e400]", serde))
        assertNull(render("{\"a\":1e400}", aosp))
    }

    private fun lex(text: String): LexValue = CanonicalDialects.parseLexical(text) ?: error("not JSON: $text")
    private fun render(text: String, d: CanonicalizationDialect, integers: String = "exact") = CanonicalDialects.render(lex(text), d, integers)

    @Test
    fun `every dialect writes the short escapes and other C0 controls as lowercase u00xx`() {
        val text = "\"\\\"\\\\\\b\\t\\n\\f\\r\\u0000\\u0001\\u001f \u007f\""
        for (d in dialects) assertEquals(text, render(text, d), d.name)
    }

    @Test
    fun `a slash is never, always or only after a less-than sign escaped`() {
        val text = "\"a/b</c\""
        assertEquals("\"a/b</c\"", render(text, serde))
        assertEquals("\"a\\/b<\\/c\"", render(text, aosp))
        assertEquals("\"a\\/b<\\/c\"", render(text, ios))
        assertEquals("\"a/b<\\/c\"", render(text, orgJson))
        assertEquals("\"/x<\\/\"", render("\"/x</\"", orgJson))
    }

    @Test
    fun `org_json 20240303 escapes C1 controls and U+2000-U+20FF inclusive, and nothing next to them`() {
        val text = "\"\u007f\u0080\u009f\u00a0\u1fff\u2000\u20ff\u2100é\""
        assertEquals("\"\u007f\\u0080\\u009f\u00a0\u1fff\\u2000\\u20ff\u2100é\"", render(text, orgJson))
        assertEquals(text, render(text, aosp))
    }

    @Test
    fun `keys sort by UTF-16 code units or by code points`() {
        val text = """{"\uff61":1,"\ud83d\ude00":2,"ab":3,"a":4,"b":5,"":6}"""
        assertEquals("{\"\":6,\"a\":4,\"ab\":3,\"b\":5,\"\uD83D\uDE00\":2,\"\uFF61\":1}", render(text, aosp))
        assertEquals("{\"\":6,\"a\":4,\"ab\":3,\"b\":5,\"\uFF61\":1,\"\uD83D\uDE00\":2}", render(text, serde))
        assertEquals("""{"a":3,"b":1}""", render("""{"b":1,"a":2,"a":3}""", serde))
        // Two keys where one is the other's prefix, in both orders; and keys that differ past their first code point.
        assertEquals("""{"a":2,"ab":1}""", render("""{"ab":1,"a":2}""", serde))
        assertEquals("""{"a":1,"ab":2}""", render("""{"a":1,"ab":2}""", serde))
        assertEquals("{\"x\uD83D\uDE00\":2,\"x\uFF61\":1}", render("""{"x\uff61":1,"x\ud83d\ude00":2}""", aosp))
        assertEquals("{\"x\uFF61\":1,\"x\uD83D\uDE00\":2}", render("""{"x\ud83d\ude00":2,"x\uff61":1}""", serde))
        assertEquals("""{"ab":1,"ac":2}""", render("""{"ac":2,"ab":1}""", serde))
    }

    @Test
    fun `a duplicate member - the last wins, or the dialect refuses the value, at any depth`() {
        assertEquals("""{"a":3,"b":[{"c":2}]}""", render("""{"a":1,"b":[{"c":1,"c":2}],"a":3}""", aosp))
        assertNull(render("""{"a":1,"a":2}""", orgJson))
        assertNull(render("""[1,{"a":{"c":1,"c":2}}]""", ios))
        assertNull(render("""{"x":{"c":1,"c":2}}""", ios))
        assertNull(render("""{"x":[{"c":1,"c":2}]}""", orgJson))
    }

    @Test
    fun `a whole value in each dialect`() {
        val text = "{\"n\":[12, -0, 1e16, 0.5],\"s\":\"</\u0085\",\"t\":true,\"f\":false,\"z\":null,\"o\":{}, \"e\":[]}"
        assertEquals("{\"e\":[],\"f\":false,\"n\":[12,-0.0,1e+16,0.5],\"o\":{},\"s\":\"</\u0085\",\"t\":true,\"z\":null}", render(text, serde))
        assertEquals("{\"e\":[],\"f\":false,\"n\":[12.0,-0.0,1E+16,0.5],\"o\":{},\"s\":\"<\\/\\u0085\",\"t\":true,\"z\":null}", render(text, orgJson, "double"))
        assertEquals("{\"e\":[],\"f\":false,\"n\":[12.0,-0.0,1.0E16,0.5],\"o\":{},\"s\":\"<\\/\u0085\",\"t\":true,\"z\":null}", render(text, aosp, "double"))
    }

    @Test
    fun `fromJson turns a parsed value into tokens, strings kept apart from literals`() {
        val value = StrictJson.parseStrictJson("""{"a":[1,"x",true,null,false,-0.5,"true","null",{}],"b":{"c":"d"}}""")
        val expected = LexValue.Obj(listOf(
            "a" to LexValue.Arr(listOf(LexValue.Num("1"), LexValue.Str("x"), LexValue.Lit("true"), LexValue.Lit("null"), LexValue.Lit("false"), LexValue.Num("-0.5"), LexValue.Str("true"), LexValue.Str("null"), LexValue.Obj(listOf()))),
            "b" to LexValue.Obj(listOf("c" to LexValue.Str("d"))),
        ))
        assertEquals(expected, CanonicalDialects.fromJson(value))
        val items = (CanonicalDialects.fromJson(StrictJson.parseStrictJson("[1,[2]]")) as LexValue.Arr).items
        assertEquals(listOf(LexValue.Num("1"), LexValue.Arr(listOf(LexValue.Num("2")))), items)
        assertEquals(listOf(LexValue.Num("2")), (items[1] as LexValue.Arr).items)
    }

    @Test
    fun `parseLexical keeps number lexemes and every member in order`() {
        val expected = LexValue.Obj(listOf(
            "a" to LexValue.Arr(listOf(LexValue.Num("1.50"), LexValue.Str("xA\n"), LexValue.Lit("true"), LexValue.Lit("null"), LexValue.Lit("false"))),
            "a" to LexValue.Num("-0e+1"),
        ))
        assertEquals(expected, CanonicalDialects.parseLexical(""" {"a" : [1.50, "x\u0041\n", true, null, false], "a":-0e+1 } """))
        assertEquals(LexValue.Str("\"\\/\b\u000C\n\r\t\uD800"), CanonicalDialects.parseLexical(""""\"\\\/\b\f\n\r\t\ud800""""))
        assertEquals(LexValue.Str("\uAFAF\u09af\u0000"), CanonicalDialects.parseLexical(""""\uAfaF\u09af\u0000""""))
        assertEquals(LexValue.Arr(listOf()), CanonicalDialects.parseLexical("[]"))
        assertEquals(LexValue.Arr(listOf()), CanonicalDialects.parseLexical("[ ]"))
        assertEquals(LexValue.Obj(listOf()), CanonicalDialects.parseLexical("\t\n\r {}"))
        assertEquals(LexValue.Obj(listOf()), CanonicalDialects.parseLexical("{ }"))
        assertEquals(LexValue.Obj(listOf("a" to LexValue.Num("1"), "b" to LexValue.Num("2"))), CanonicalDialects.parseLexical("""{"a" :1 , "b":2 }"""))
        assertEquals(LexValue.Arr(listOf(LexValue.Num("1"), LexValue.Num("2"))), CanonicalDialects.parseLexical("[1 , 2 ] "))
        // Depth: 64 containers around a value are read, 65 are refused.
        assertNotNull(CanonicalDialects.parseLexical("[".repeat(64) + "1" + "]".repeat(64)))
        assertNull(CanonicalDialects.parseLexical("[".repeat(65) + "1" + "]".repeat(65)))
        assertNotNull(CanonicalDialects.parseLexical("{\"a\":".repeat(64) + "1" + "}".repeat(64)))
        assertNull(CanonicalDialects.parseLexical("{\"a\":".repeat(65) + "1" + "}".repeat(65)))
    }

    @Test
    fun `parseLexical refuses exactly what JSON's grammar refuses`() {
        // Hand-written verdicts from RFC 8259's grammar (JSON.parse gives the same for each).
        val invalid = listOf(
            "", " ", "{", "}", "[", "]", "[1,]", "[,1]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{,}", "{1:2}", "{\"a\":1]", "[1}", "01", "-", "1.", ".5", "1e", "+1",
            "tru", "nul", "fals", "truex", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"a\u0001\"", "\"\\", "\u000C1", "1 2", "[] x", "NaN", "'a'",
            "{\"a\"", "{\"a\":1", "[1", "[1,", "{\"a", "\"\\u12g4\"", "\"\\u12`4\"", "\"\\u12@4\"", "\"\\u", "\"\\u00", "\"\\u0041", "{\"a\":1 ", "[1 ", "{\"a\" ",
            "\"\\u\u0660\u0660\u0664\u0661\"", "\"\\u00\uFF11\uFF11\"", "\"\\u00/0\"", "\"\\u00:0\"",
            // A missing member name before ':'; a bad escape or raw control character where the text ends or a list goes on.
            "{:1}", "{\"a\":1,:2}", "\"\\x", "\"\u0001", "[\"\\x,1]", "[\"\u0001,1]",
        )
        for (text in invalid) assertNull(CanonicalDialects.parseLexical(text), "invalid: $text")
        val valid = listOf(
            "\"\\u00e9\"", "-0.5e-3", "[true,false,null]", "[true,1]", "[null, 2]", "{\"a\":false,\"b\":-1}", "{\"a\":{\"b\":[1,{\"c\":\"d\"}]}}", " [ 1 , 2 ] ",
            "\"\\ud800\"", "{\"a\":1,\"a\":2}", "1E+2", "-0", "0", "[\"\\/\"]", "\"\\u0041\"", "\"\\u00fF\"", "\"\\u0a0A\"", " 1", "1 ", "\"\u007f\"", "\" \"",
        )
        for (text in valid) assertNotNull(CanonicalDialects.parseLexical(text), "valid: $text")
    }
}
