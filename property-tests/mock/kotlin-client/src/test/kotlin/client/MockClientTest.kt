// A client of the agent-service contract tested against `agent-contracts mock agent-service`
// started with scenario.yaml (run.sh): the answer chunks come from the scenario, every frame is
// parsed with the generated validators, and a wrong key gets the contract's 401.
package client

import dev.agentcontracts.agentservice.AgentServiceValidators
import dev.agentcontracts.runtime.ValidationResult
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class MockClientTest {
    private val base: String = System.getProperty("mockUrl") ?: error("run with -DmockUrl=<the mock's base URL>")
    private val http: HttpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()

    private fun chat(key: String, text: String): HttpResponse<String> {
        val body = """{"messages":[{"role":"user","content":"$text"}]}"""
        val request = HttpRequest.newBuilder(URI.create("$base/v1/workflow/full"))
            .timeout(Duration.ofSeconds(30))
            .header("authorization", "Bearer $key")
            .header("x-authenticated-user-id", "kotlin-sdk-test")
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build()
        return http.send(request, HttpResponse.BodyHandlers.ofString())
    }

    @Test
    fun `the client reads the scripted answer and the workflow steps`() {
        val response = chat("kotlin-sdk-key", "hello from Kotlin")
        assertEquals(200, response.statusCode())
        assertEquals("text/event-stream", response.headers().firstValue("content-type").orElse(""))
        val answer = StringBuilder()
        val steps = mutableListOf<String>()
        for (block in response.body().split("\n\n").filter { it.isNotEmpty() }) {
            when {
                block.startsWith("intermediate_data: ") ->
                    when (val step = AgentServiceValidators.parseIntermediateStep(block.removePrefix("intermediate_data: ").toByteArray())) {
                        is ValidationResult.Valid -> steps += step.value.type.name
                        is ValidationResult.Invalid -> error("bad step frame: ${step.errors}")
                    }
                block.startsWith("data: ") ->
                    when (val chunk = AgentServiceValidators.parseAnswerChunk(block.removePrefix("data: ").toByteArray())) {
                        is ValidationResult.Valid -> answer.append(chunk.value.value)
                        is ValidationResult.Invalid -> error("bad answer frame: ${chunk.errors}")
                    }
                else -> error("unexpected frame: $block")
            }
        }
        assertEquals("Hello from the mock.", answer.toString())
        assertEquals(listOf("WORKFLOW_START", "FUNCTION_START", "FUNCTION_END", "FUNCTION_END", "WORKFLOW_END"), steps)
    }

    @Test
    fun `a wrong key gets the contract's 401 with WWW-Authenticate Bearer`() {
        val response = chat("not-the-key", "hello")
        assertEquals(401, response.statusCode())
        assertEquals("Bearer", response.headers().firstValue("www-authenticate").orElse(""))
        when (val body = AgentServiceValidators.parseErrorBody(response.body().toByteArray())) {
            is ValidationResult.Valid -> assertTrue(body.value.error.isNotEmpty())
            is ValidationResult.Invalid -> error("the 401 body is not an ErrorBody: ${body.errors}")
        }
    }
}
