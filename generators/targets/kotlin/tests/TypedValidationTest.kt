package dev.agentcontracts.bindings

import dev.agentcontracts.agentservice.AgentServiceValidators
import dev.agentcontracts.agentservice.ExecuteApplied
import dev.agentcontracts.agentservice.ExecuteApprovalResult
import dev.agentcontracts.agentservice.ExecuteNotApplied
import dev.agentcontracts.runtime.CanonicalJson
import dev.agentcontracts.runtime.ValidationResult
import kotlinx.serialization.json.Json
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The typed entry points: parse untrusted bytes, validate, decode into the generated class. */
class TypedValidationTest {
    private val refused = """{"ok":false,"result":{"refused":"already used"}}"""

    @Test
    fun `a valid message decodes into its sealed branch`() {
        val result = AgentServiceValidators.parseExecuteApprovalResult(refused.toByteArray())
        val value = (result as ValidationResult.Valid<ExecuteApprovalResult>).value
        assertTrue(value is ExecuteNotApplied)
        assertEquals(refused, CanonicalJson.canonicalize(Json.encodeToJsonElement(ExecuteApprovalResult.serializer(), value)))
    }

    @Test
    fun `the boolean key picks the branch and a wrong key is refused at its pointer`() {
        val applied = Json.decodeFromString(ExecuteApprovalResult.serializer(), """{"ok":true,"result":{"resource_id":"T","action":"a","previous_priority":"low","new_priority":"high","actor_id":"u","override":false,"policy_version":"1","note_recorded":false,"rationale_recorded":false}}""")
        assertTrue(applied is ExecuteApplied)
        val error = runCatching { Json.decodeFromString(ExecuteApprovalResult.serializer(), """{"ok":"true","result":{}}""") }.exceptionOrNull()
        assertEquals("/ok: unknown ExecuteApprovalResult discriminator value: null", error?.message)
    }

    @Test
    fun `invalid bytes and invalid messages give data errors, not exceptions`() {
        val json = AgentServiceValidators.parseExecuteApprovalResult("""{"ok":true,"ok":false}""".toByteArray())
        assertEquals(listOf("json" to "duplicate-key"), (json as ValidationResult.Invalid).errors.map { it.keyword to it.params["code"] })
        val schema = AgentServiceValidators.parseExecuteApprovalResult("""{"ok":false,"result":{}}""".toByteArray())
        val first = (schema as ValidationResult.Invalid).errors.first()
        // Like ajv, a failed anyOf reports its first branch's first error: there ok must be true.
        assertEquals("/ok" to "const", first.instancePath to first.keyword)
    }
}
