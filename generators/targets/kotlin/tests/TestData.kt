package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertTrue
import java.nio.file.Files
import java.nio.file.Path

/**
 * The shared test data (spec/ vectors, property-tests/vectors, the fuzz corpus), read from the
 * classpath: the generator copies each file to src/test/resources/shared/<repository path>
 * (generators/targets/kotlin/emit-test-data.ts), so this project tests from a copy of itself
 * alone. Every suite reads the same files as the TypeScript tests, so both runtimes must give the
 * same verdicts.
 */
object TestData {
    /** The file or folder copied from [relative] (a repository path). Test resources are a folder of target/test-classes. */
    fun path(relative: String): Path {
        val url = TestData::class.java.getResource("/shared/$relative")
        check(url != null) { "shared test data missing from the test classpath: shared/$relative (is it in emit-test-data.ts?)" }
        return Path.of(url.toURI())
    }

    fun bytes(relative: String): ByteArray = Files.readAllBytes(path(relative))

    /** Test files are parsed with the strict parser too: data it cannot read is a finding. */
    fun json(relative: String): JsonElement = StrictJson.parseStrictJson(bytes(relative), StrictJsonLimits(maxBytes = 64 * 1024 * 1024))

    fun cases(relative: String, field: String = "cases"): List<JsonObject> =
        json(relative).jsonObject.getValue(field).jsonArray.map { it.jsonObject }
}

fun JsonObject.string(field: String): String = getValue(field).jsonPrimitive.content

fun JsonObject.stringOrNull(field: String): String? = this[field]?.jsonPrimitive?.content

/**
 * Counts the cases a data-driven test read, by kind. [finish] prints the counts (Surefire shows
 * them) and fails when nothing was read: a test that silently reads no case proves nothing.
 */
class CaseCounter(private val suite: String) {
    private val counts = sortedMapOf<String, Int>()

    fun count(kind: String) {
        counts[kind] = (counts[kind] ?: 0) + 1
    }

    val total: Int get() = counts.values.sum()

    /** How many cases of [kind] were read. */
    fun countOf(kind: String): Int = counts[kind] ?: 0

    fun finish() {
        println("[$suite] read $total cases: " + counts.entries.joinToString { "${it.key}=${it.value}" })
        assertTrue(total > 0, "$suite read no case")
    }
}
