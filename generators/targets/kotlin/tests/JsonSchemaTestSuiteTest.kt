package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.nio.file.Files

/**
 * The JSON-Schema-Test-Suite's required draft 2020-12 tests (property-tests/vectors/json-schema-test-suite,
 * upstream commit and licence in its README) against JsonSchemaValidator, with the suite's remotes
 * registered at their http://localhost:1234/ URIs (nothing is fetched). Every case must get the
 * suite's verdict and nothing may throw out of validation. A group the validator refuses at load
 * time must be in refused.json, which lists exactly the groups whose schema, or a remote or
 * meta-schema it references, uses $dynamicRef, $dynamicAnchor or $vocabulary, with that keyword
 * (the same list the TypeScript and Swift suites read).
 *
 * format.json is the one deliberate difference: the suite treats `format` as an annotation there,
 * while this runtime asserts the formats the spec uses (uri, hostname) and refuses the others
 * at load time; its cases are counted apart and must not throw.
 */
class JsonSchemaTestSuiteTest {
    private val suite = "property-tests/vectors/json-schema-test-suite"

    /** The retrieval URI of a test schema without `$id`: resolves nothing by accident (no remote lives there). */
    private val root = "https://json-schema-test-suite.invalid/root.json"

    private fun remotes(): Map<String, JsonElement> {
        val folder = TestData.path("$suite/remotes")
        return Files.walk(folder).use { paths ->
            paths.filter { Files.isRegularFile(it) && it.toString().endsWith(".json") }.toList()
        }.associate { file ->
            "http://localhost:1234/" + folder.relativize(file).joinToString("/") to TestData.json("$suite/remotes/" + folder.relativize(file).joinToString("/"))
        }
    }

    @Test
    fun `every required 2020-12 case gets the suite's verdict, and the refused groups are exactly refused json`() {
        val remotes = remotes()
        val counter = CaseCounter("json-schema-test-suite draft2020-12 required")
        val wrong = ArrayList<String>()
        val refused = sortedSetOf<String>()
        val files = Files.list(TestData.path("$suite/tests/draft2020-12")).use { paths ->
            paths.map { it.fileName.toString() }.filter { it.endsWith(".json") }.toList()
        }.sorted()
        for (file in files) {
            val annotationOnly = file == "format.json"
            for (group in TestData.json("$suite/tests/draft2020-12/$file").jsonArray.map { it.jsonObject }) {
                val tests = group.getValue("tests").jsonArray.map { it.jsonObject }
                val validator = try {
                    JsonSchemaValidator(mapOf(root to group.getValue("schema")), remotes)
                } catch (e: SchemaLoadException) {
                    if (annotationOnly) {
                        repeat(tests.size) { counter.count("format.json refused (format not asserted)") }
                    } else {
                        refused += "$file | ${group.string("description")} | ${e.keyword}"
                        repeat(tests.size) { counter.count("refused") }
                    }
                    continue
                }
                for (test in tests) {
                    val expected = test.getValue("valid").jsonPrimitive.content == "true"
                    val actual = try {
                        validator.firstError(root, test.getValue("data")) == null
                    } catch (e: Throwable) {
                        counter.count("throw")
                        wrong += "$file | ${group.string("description")} | ${test.string("description")}: threw $e"
                        continue
                    }
                    when {
                        annotationOnly -> counter.count(if (actual == expected) "format.json pass" else "format.json asserted (deliberate difference)")
                        actual == expected -> counter.count("pass")
                        else -> {
                            counter.count("fail")
                            wrong += "$file | ${group.string("description")} | ${test.string("description")}: expected ${if (expected) "valid" else "invalid"}"
                        }
                    }
                }
            }
        }
        counter.finish()
        val listed = TestData.json("$suite/refused.json").jsonArray.map { it.jsonObject }
            .map { "${it.string("file")} | ${it.string("group")} | ${it.string("keyword")}" }.toSortedSet()
        assertEquals("", wrong.joinToString("\n"), "${wrong.size} wrong verdicts or throws")
        assertEquals(listed.joinToString("\n"), refused.joinToString("\n"), "the refused groups are refused.json's")
        assertEquals(1299, counter.total, "every required case is read")
    }
}
