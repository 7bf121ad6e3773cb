package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The cross-field rules against the hand-written table of the TypeScript twin
 * (property-tests/runtime/rules.mutation-kills.test.ts, same semantics as rules.ts): each rule
 * kind's verdict and reported pointer, the error's message, rule id and kind, RFC 6901 pointers
 * (~1 is "/", ~0 is "~", indexes without leading zeros), JSON equality by value, and the rule
 * not applying when an operand is absent, null or of another type (spec/README.md, x-rules).
 */
class CrossFieldRulesMutationKillsTest {
    private fun json(text: String): JsonElement = Json.parseToJsonElement(text)

    private fun paths(value: String, rule: CrossFieldRule): List<String> = CrossFieldRules.check(json(value), listOf(rule)).map { it.instancePath }

    private val secret = "Bearer abcdefghijklmnopqrstuvwxyz0123456789"

    @Test
    fun `an error names the pointer, the message after it, the rule id and kind, (root) for the empty pointer`() {
        val r = CrossFieldRule.Equal("same", "must equal /b", "/a~1x", "/b")
        assertEquals(
            listOf(ValidationError("/a~1x", "x-rule", "/a~1x must equal /b", mapOf("rule" to "same", "kind" to "equal"))),
            CrossFieldRules.check(json("""{"a/x":1,"b":2}"""), listOf(r)),
        )
        val root = CrossFieldRule.Equal("r", "m", "", "/b")
        assertEquals(ValidationError("", "x-rule", "(root) m", mapOf("rule" to "r", "kind" to "equal")), CrossFieldRules.check(json("""{"b":1}"""), listOf(root)).single())
        assertEquals(2, CrossFieldRules.check(json("""{"a/x":1,"b":2}"""), listOf(r, root)).size)
    }

    @Test
    fun `every rule kind reports its own kind name and message`() {
        val broken = listOf(
            CrossFieldRule.UrlOriginIn("o", "origin not listed", "/u", "/l") to """{"u":"https://b.example/","l":["https://a.example"]}""",
            CrossFieldRule.SemverLte("s", "lower above upper", "/lo", "/hi") to """{"lo":"2.0.0","hi":"1.0.0"}""",
            CrossFieldRule.SemverRangeIncludes("r", "range misses the version", "/min", "/max", "1.2.0") to """{"min":"2.0.0","max":"3.0.0"}""",
            CrossFieldRule.UniqueBy("u", "repeated id", "/a", "id") to """{"a":[{"id":1},{"id":1}]}""",
            CrossFieldRule.LastItemEquals("l", "last is not done", "/a", "state", "done") to """{"a":[{"state":"x"}]}""",
            CrossFieldRule.NoSecrets("n", "holds a secret", "/t") to """{"t":"$secret"}""",
            CrossFieldRule.WhatwgUrl("w", "not an endpoint", "/u", "endpoint") to """{"u":"http://a.example/"}""",
        )
        val expected = listOf(
            Triple("urlOriginIn", "/u", "/u origin not listed"),
            Triple("semverLte", "/lo", "/lo lower above upper"),
            Triple("semverRangeIncludes", "/min", "/min range misses the version"),
            Triple("uniqueBy", "/a/1/id", "/a/1/id repeated id"),
            Triple("lastItemEquals", "/a/0/state", "/a/0/state last is not done"),
            Triple("noSecrets", "/t", "/t holds a secret"),
            Triple("whatwgUrl", "/u", "/u not an endpoint"),
        )
        for ((i, pair) in broken.withIndex()) {
            val (rule, value) = pair
            val (kind, at, message) = expected[i]
            val error = CrossFieldRules.check(json(value), listOf(rule)).single()
            assertEquals(ValidationError(at, "x-rule", message, mapOf("rule" to rule.id, "kind" to kind)), error, value)
            assertEquals(error, CrossFieldRules.error(rule, at))
        }
    }

    @Test
    fun `equal applies when the left side is present, an absent or null right side breaks it`() {
        val r = CrossFieldRule.Equal("e", "m", "/a", "/b~0c")
        assertEquals(emptyList<String>(), paths("""{"a":{"x":[1]},"b~c":{"x":[1]}}""", r))
        assertEquals(listOf("/a"), paths("""{"a":1}""", r))
        assertEquals(listOf("/a"), paths("""{"a":1,"b~c":null}""", r))
        assertEquals(emptyList<String>(), paths("""{"b~c":1}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":null,"b~c":1}""", r))
    }

    @Test
    fun `pointers index arrays in decimal without leading zeros, never past the end, never into strings or null`() {
        assertEquals(emptyList<String>(), paths("""{"l":[{},{"k":2}],"v":2}""", CrossFieldRule.Equal("e", "m", "/l/1/k", "/v")))
        assertEquals(listOf("/l/1/k"), paths("""{"l":[{},{"k":3}],"v":2}""", CrossFieldRule.Equal("e", "m", "/l/1/k", "/v")))
        assertEquals(emptyList<String>(), paths("""{"l":[1,2],"v":9}""", CrossFieldRule.Equal("e", "m", "/l/01", "/v")))
        assertEquals(listOf("/o/1"), paths("""{"o":{"1":5},"v":4}""", CrossFieldRule.Equal("e", "m", "/o/1", "/v")))
        assertEquals(emptyList<String>(), paths("""{"l":[1,2],"v":9}""", CrossFieldRule.Equal("e", "m", "/l/length", "/v")))
        assertEquals(emptyList<String>(), paths("""{"l":[1],"v":9}""", CrossFieldRule.Equal("e", "m", "/l/5", "/v")))
        val items = (0..100).joinToString(",", "[", "]") { """{"k":$it}""" }
        assertEquals(emptyList<String>(), paths("""{"l":$items,"v":100}""", CrossFieldRule.Equal("e", "m", "/l/100/k", "/v")))
        assertEquals(listOf("/l/100/k"), paths("""{"l":$items,"v":99}""", CrossFieldRule.Equal("e", "m", "/l/100/k", "/v")))
        assertEquals(listOf("/l/10"), paths("""{"l":[0,1,2,3,4,5,6,7,8,9,10],"v":9}""", CrossFieldRule.Equal("e", "m", "/l/10", "/v")))
        assertEquals(emptyList<String>(), paths("""{"a":"xyz","v":1}""", CrossFieldRule.Equal("e", "m", "/a/0", "/v")))
        assertEquals(emptyList<String>(), paths("""{"a":null,"v":1}""", CrossFieldRule.Equal("e", "m", "/a/b", "/v")))
        // The empty pointer is the whole document (RFC 6901 § 5).
        assertEquals(listOf(""), paths("""{"b":1}""", CrossFieldRule.Equal("e", "m", "", "/b")))
        assertEquals(listOf("/b"), paths("""{"b":{"b":1}}""", CrossFieldRule.Equal("e", "m", "/b", "")))
        assertEquals(emptyList<String>(), paths("""[1]""", CrossFieldRule.Equal("e", "m", "", "")))
    }

    @Test
    fun `urlOriginIn - the URL's origin must be listed, no URL or no list, no rule`() {
        val r = CrossFieldRule.UrlOriginIn("o", "m", "/u", "/l")
        assertEquals(emptyList<String>(), paths("""{"u":"https://a.example/x","l":["https://a.example"]}""", r))
        assertEquals(listOf("/u"), paths("""{"u":"https://b.example/x","l":["https://a.example"]}""", r))
        assertEquals(listOf("/u"), paths("""{"u":"nope","l":["null"]}""", r))
        assertEquals(emptyList<String>(), paths("""{"u":5,"l":[]}""", r))
        assertEquals(emptyList<String>(), paths("""{"u":"https://a.example","l":"https://a.example"}""", r))
        assertEquals(emptyList<String>(), paths("""{"l":["https://a.example"]}""", r))
        assertEquals(emptyList<String>(), paths("""{"u":"https://a.example/"}""", r))
        assertEquals(listOf("/u"), paths("""{"u":"https://a.example/","l":[1,null,{"o":"https://a.example"}]}""", r))
        assertEquals(emptyList<String>(), paths("""{"u":"https://a.example/","l":[1,"https://a.example"]}""", r))
        assertTrue(RuleKinds.urlOriginInBroken(json("\"https://b.example/\""), json("[]")))
        assertFalse(RuleKinds.urlOriginInBroken(null, json("[]")))
        assertFalse(RuleKinds.urlOriginInBroken(json("\"https://b.example/\""), null))
    }

    @Test
    fun `semverLte and semverRangeIncludes - SemVer 2 precedence, a non-string operand means no rule`() {
        val lte = CrossFieldRule.SemverLte("s", "m", "/lo", "/hi")
        assertEquals(emptyList<String>(), paths("""{"lo":"1.0.0","hi":"1.0.0"}""", lte))
        assertEquals(emptyList<String>(), paths("""{"lo":"1.0.0-rc.1","hi":"1.0.0"}""", lte))
        assertEquals(listOf("/lo"), paths("""{"lo":"1.0.1","hi":"1.0.0"}""", lte))
        assertEquals(listOf("/lo"), paths("""{"lo":"x","hi":"1.0.0"}""", lte))
        assertEquals(emptyList<String>(), paths("""{"lo":1,"hi":"1.0.0"}""", lte))
        assertEquals(emptyList<String>(), paths("""{"lo":"1.0.0","hi":2}""", lte))
        assertEquals(emptyList<String>(), paths("""{"hi":"1.0.0"}""", lte))
        assertEquals(emptyList<String>(), paths("""{"lo":"9.0.0"}""", lte))
        val range = CrossFieldRule.SemverRangeIncludes("r", "m", "/min", "/max", "1.2.0")
        assertEquals(emptyList<String>(), paths("""{"min":"1.2.0","max":"1.2.0"}""", range))
        assertEquals(emptyList<String>(), paths("""{"min":"1.0.0","max":"2.0.0"}""", range))
        assertEquals(listOf("/min"), paths("""{"min":"1.2.1","max":"2.0.0"}""", range))
        assertEquals(listOf("/min"), paths("""{"min":"1.0.0","max":"1.1.9"}""", range))
        assertEquals(listOf("/min"), paths("""{"min":"bad","max":"2.0.0"}""", range))
        assertEquals(listOf("/min"), paths("""{"min":"1.0.0","max":"bad"}""", range))
        assertEquals(emptyList<String>(), paths("""{"min":1,"max":"2.0.0"}""", range))
        assertEquals(emptyList<String>(), paths("""{"min":"1.0.0","max":null}""", range))
        assertEquals(emptyList<String>(), paths("""{"min":"9.0.0","max":true}""", range))
        assertEquals(emptyList<String>(), paths("""{"max":"0.1.0"}""", range))
    }

    @Test
    fun `lastItemEquals - the last item's key, an empty or non-array value has no last item`() {
        val r = CrossFieldRule.LastItemEquals("l", "m", "/a", "state", "done")
        assertEquals(emptyList<String>(), paths("""{"a":[{"state":"x"},{"state":"done"}]}""", r))
        assertEquals(listOf("/a/1/state"), paths("""{"a":[{"state":"done"},{"state":"x"}]}""", r))
        assertEquals(listOf("/a/0/state"), paths("""{"a":[{}]}""", r))
        assertEquals(listOf("/a/0/state"), paths("""{"a":["done"]}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":[]}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":"done"}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":{"state":"x"}}""", r))
        assertNull(RuleKinds.lastItemEquals(json("[]"), "state", "done"))
        assertNull(RuleKinds.lastItemEquals(json("{}"), "state", "done"))
        assertNull(RuleKinds.lastItemEquals(null, "state", "done"))
        assertEquals("/2/state", RuleKinds.lastItemEquals(json("""[{},{},{"state":"no"}]"""), "state", "done"))
    }

    @Test
    fun `uniqueBy - the first repeated key, items without the key are skipped, arrays only`() {
        val r = CrossFieldRule.UniqueBy("u", "m", "/a", "id")
        assertEquals(emptyList<String>(), paths("""{"a":[{"id":1},{},{"id":2},{}]}""", r))
        assertEquals(listOf("/a/2/id"), paths("""{"a":[{"id":{"x":1}},{"id":2},{"id":{"x":1}},{"id":2}]}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":{}}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":{"length":2,"0":{"id":1},"1":{"id":1}}}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":[{"id":"x"}]}""", r))
        assertEquals(listOf("/a/1/id"), paths("""{"a":[{"id":1},{"id":1}]}""", r))
        assertEquals(listOf("/a/1/id"), paths("""{"a":[{"id":1},{"id":1.0}]}""", r))
        assertEquals(emptyList<String>(), paths("""{"a":[{"id":null},{"id":null},5,{"id":1}]}""", r))
    }

    @Test
    fun `noSecrets and whatwgUrl - a string, or the first failing string item of an array`() {
        val s = CrossFieldRule.NoSecrets("n", "m", "/t")
        assertEquals(emptyList<String>(), paths("""{"t":"hello"}""", s))
        assertEquals(listOf("/t"), paths("""{"t":"$secret"}""", s))
        assertEquals(listOf("/t/2"), paths("""{"t":["ok",5,"$secret","$secret"]}""", s))
        assertEquals(listOf("/t/0"), paths("""{"t":["$secret"]}""", s))
        assertEquals(emptyList<String>(), paths("""{"t":["ok"]}""", s))
        assertEquals(emptyList<String>(), paths("""{"t":5}""", s))
        assertEquals(emptyList<String>(), paths("""{"t":{"k":"$secret"}}""", s))
        assertEquals(emptyList<String>(), paths("""{}""", s))
        assertNull(RuleKinds.noSecrets(null))
        assertEquals("", RuleKinds.noSecrets(json("\"$secret\"")))
        assertEquals("/1", RuleKinds.noSecrets(json("""[null,"$secret"]""")))
        val u = CrossFieldRule.WhatwgUrl("w", "m", "/u", "endpoint")
        assertEquals(emptyList<String>(), paths("""{"u":"https://a.example/x"}""", u))
        assertEquals(listOf("/u"), paths("""{"u":"http://a.example/x"}""", u))
        assertEquals(listOf("/u/1"), paths("""{"u":["https://a.example/","https://a.example/?q"]}""", u))
        assertEquals(listOf("/u/2"), paths("""{"u":[1,"https://a.example/","https://a.example/#f"]}""", u))
        assertEquals(emptyList<String>(), paths("""{"u":["https://a.example/",true]}""", u))
        val o = CrossFieldRule.WhatwgUrl("w", "m", "/u", "origin")
        assertEquals(listOf("/u"), paths("""{"u":"https://a.example/"}""", o))
        assertEquals(emptyList<String>(), paths("""{"u":"https://a.example"}""", o))
    }

    @Test
    fun `jsonEquals - structural, member order free, arrays ordered, numbers by value`() {
        fun eq(a: String, b: String) = jsonEquals(json(a), json(b))
        assertTrue(eq("""{"a":[1,{"b":null}],"c":"x"}""", """{"c":"x","a":[1,{"b":null}]}"""))
        assertFalse(eq("[1,2]", "[2,1]"))
        assertFalse(eq("[1]", "[1,1]"))
        assertFalse(eq("[1,2]", "[1,3]"))
        assertFalse(eq("""{"a":1}""", """{"a":1,"b":2}"""))
        assertFalse(eq("""{"a":1,"b":2}""", """{"a":1}"""))
        assertFalse(eq("""{"a":1,"b":2}""", """{"a":1,"c":2}"""))
        assertFalse(eq("""{"a":{"b":1}}""", """{"a":{"b":2}}"""))
        assertFalse(eq("[]", "{}"))
        assertFalse(eq("{}", "[]"))
        assertFalse(eq("null", "{}"))
        assertFalse(eq("{}", "null"))
        assertFalse(eq("\"1\"", "1"))
        assertFalse(eq("1", "\"1\""))
        assertFalse(eq("""{"0":"x"}""", "\"x\""))
        assertFalse(eq("\"x\"", """{"0":"x"}"""))
        assertFalse(eq("[\"x\"]", "\"x\""))
        assertTrue(eq("null", "null"))
        assertTrue(eq("1", "1.0"))
        assertTrue(eq("100", "1e2"))
        assertTrue(eq("[1.50]", "[1.5]"))
        assertTrue(eq("true", "true"))
        assertFalse(eq("true", "false"))
        assertFalse(eq("true", "1"))
        assertFalse(eq("0", "false"))
        assertFalse(eq("null", "false"))
        assertFalse(eq("\"true\"", "true"))
        assertTrue(eq("[]", "[]"))
        assertTrue(eq("{}", "{}"))
    }
}
