package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * "__proto__", "constructor" and "toString" are member names like any other to `required`,
 * `properties`, `additionalProperties` and `dependentRequired` (issue 32): the same cases as the
 * TypeScript prototype-keys test and Swift's testPrototypeMemberNames, with JSON Schema's verdicts
 * (JSON-Schema-Test-Suite required.json and properties.json, "...Javascript object property names").
 */
class PrototypeMemberNamesTest {
    private val names = listOf("__proto__", "constructor", "toString")
    private val id = "urn:prototype-keys"

    private fun valid(schema: String, instance: String): Boolean {
        val document = StrictJson.parseStrictJson("""{"${'$'}id":"$id",$schema}""") as JsonObject
        return JsonSchemaValidator(listOf(document)).firstError(id, StrictJson.parseStrictJson(instance)) == null
    }

    @Test
    fun `required needs each name as an own member`() {
        val schema = """"type":"object","required":["__proto__","constructor","toString"]"""
        assertEquals(false, valid(schema, "{}"))
        for (name in names) assertEquals(false, valid(schema, """{"$name":1}"""), name)
        assertEquals(true, valid(schema, """{"__proto__":1,"constructor":2,"toString":3}"""))
    }

    @Test
    fun `properties apply to the members of those names, only when present`() {
        val schema = """"properties":{"__proto__":{"type":"number"},"constructor":{"type":"number"},"toString":{"type":"number"}}"""
        assertEquals(true, valid(schema, "{}"))
        for (name in names) {
            assertEquals(true, valid(schema, """{"$name":12}"""), name)
            assertEquals(false, valid(schema, """{"$name":"foo"}"""), name)
        }
    }

    @Test
    fun `additionalProperties false refuses them as unknown members`() {
        val schema = """"type":"object","properties":{"a":{}},"additionalProperties":false"""
        for (name in names) assertEquals(false, valid(schema, """{"$name":1}"""), name)
    }

    @Test
    fun `dependentRequired is neither triggered nor satisfied by a name that is absent`() {
        val schema = """"dependentRequired":{"constructor":["toString"],"a":["__proto__"]}"""
        assertEquals(false, valid(schema, """{"a":1}"""))
        assertEquals(true, valid(schema, """{"a":1,"__proto__":1}"""))
        assertEquals(false, valid(schema, """{"constructor":1}"""))
        assertEquals(true, valid(schema, """{"constructor":1,"toString":1}"""))
    }
}
