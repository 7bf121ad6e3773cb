package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.security.MessageDigest

/**
 * ContentAddress.computeContentId / verifyId / import called directly, the Kotlin twin of
 * property-tests/runtime/content-address.mutation-kills.test.ts. The canonical texts are written by
 * hand (RFC 8785: sorted keys, no whitespace, raw UTF-8) and the ids are java.security's SHA-256 of
 * them; the check order is the reference parser's (research A1, "Verification order and error
 * codes"): JSON, schema, id, canonical size, canonical form.
 */
class ContentAddressMutationKillsTest {
    private val decl = ContentAddressDeclaration(idField = "recordId", prefix = "rec-")
    private val canonical = decl.copy(canonicalInput = true)
    private val accept: (kotlinx.serialization.json.JsonElement) -> Boolean = { true }

    private fun sha256Hex(text: String) = MessageDigest.getInstance("SHA-256").digest(text.toByteArray(Charsets.UTF_8)).joinToString("") { "%02x".format(it) }
    private fun obj(text: String) = Json.parseToJsonElement(text).jsonObject

    private val bodyText = "{\"list\":[3,1.5,\"x\"],\"name\":\"\u00e9\",\"nested\":{\"a\":null,\"b\":true}}"
    private val id = "rec-" + sha256Hex(bodyText)
    private val recordText = bodyText.dropLast(1) + ",\"recordId\":\"$id\"}"
    private val prettyText = "{\n  \"recordId\": \"$id\",\n  \"name\": \"\u00e9\",\n  \"nested\": { \"b\": true, \"a\": null },\n  \"list\": [3, 1.5, \"x\"]\n}"

    private fun import(d: ContentAddressDeclaration, text: String, validate: (kotlinx.serialization.json.JsonElement) -> Boolean = accept) =
        ContentAddress.import(d, text.toByteArray(Charsets.UTF_8), validate)
    private fun failed(r: ContentImportResult) = r as ContentImportResult.Failed
    private fun code(r: ContentImportResult) = (r as? ContentImportResult.Failed)?.code?.wireName ?: "ok"

    @Test
    fun `the id is prefix + hex SHA-256 of JCS(record without its id)`() {
        assertEquals(id, ContentAddress.computeContentId(decl, obj(recordText)))
        assertEquals(id, ContentAddress.computeContentId(decl, obj(bodyText)))
        assertTrue(ContentAddress.verifyContentId(decl, obj(recordText)))
    }

    @Test
    fun `a wrong, missing, non-string or uncanonicalizable id does not verify`() {
        assertFalse(ContentAddress.verifyContentId(decl, JsonObject(obj(recordText) + ("recordId" to JsonPrimitive("rec-" + sha256Hex("{\"other\":1}"))))))
        assertFalse(ContentAddress.verifyContentId(decl, obj(bodyText)))
        assertFalse(ContentAddress.verifyContentId(decl, JsonObject(obj(bodyText) + ("recordId" to JsonPrimitive(7)))))
        assertFalse(ContentAddress.verifyContentId(decl, JsonObject(obj(bodyText) + ("recordId" to JsonPrimitive(id.substring(4))))), "the prefix is part of the id")
        assertFalse(ContentAddress.verifyContentId(decl, JsonObject(obj(recordText) + ("n" to JsonPrimitive(Double.NaN)))), "no canonical form: refused, not thrown")
    }

    @Test
    fun `canonical bytes import with the hashed id`() {
        val imported = import(canonical, recordText) as ContentImportResult.Imported
        assertEquals(id, imported.id)
        assertEquals(obj(recordText), imported.record)
    }

    @Test
    fun `failures carry their code, message and jsonError`() {
        val empty = failed(ContentAddress.import(decl, ByteArray(0), accept))
        assertEquals(listOf<String?>("json-invalid", "input is empty", "empty"), listOf(empty.code.wireName, empty.message, empty.jsonError))
        val duplicate = failed(import(decl, "{\"a\":1,\"a\":2}"))
        assertEquals(listOf<String?>("json-invalid", "duplicate-key"), listOf(duplicate.code.wireName, duplicate.jsonError))
        assertNotEquals("", duplicate.message)
        val refused = failed(import(decl, recordText) { false })
        assertEquals(listOf<String?>("schema-invalid", "record does not match its schema", null), listOf(refused.code.wireName, refused.message, refused.jsonError))
        assertEquals("schema-invalid", code(import(decl, "[1]")))
        val numericId = failed(import(decl, bodyText.dropLast(1) + ",\"recordId\":1}"))
        assertEquals("schema-invalid" to "recordId is not a string", numericId.code.wireName to numericId.message)
    }

    @Test
    fun `a forged id is id-mismatch even when the bytes are also not canonical (reference order)`() {
        val forged = failed(import(canonical, prettyText.replace(id, "rec-" + sha256Hex("{\"x\":1}"))))
        assertEquals("id-mismatch" to "recordId does not match the record's content", forged.code.wireName to forged.message)
    }

    @Test
    fun `canonicalInput - pretty or trailing-newline bytes are not-canonical, and import without it`() {
        val pretty = failed(import(canonical, prettyText))
        assertEquals("not-canonical" to "input bytes are not the record's canonical form", pretty.code.wireName to pretty.message)
        assertEquals("not-canonical", code(import(canonical, "$recordText\n")))
        assertFalse(decl.canonicalInput, "canonicalInput defaults to false")
        val imported = import(decl, prettyText) as ContentImportResult.Imported
        assertEquals(id to obj(recordText), imported.id to imported.record)
    }

    @Test
    fun `maxCanonicalBytes - the limit is inclusive, and bounds the parser before any work`() {
        val size = recordText.toByteArray(Charsets.UTF_8).size
        assertEquals("ok", code(import(canonical.copy(maxCanonicalBytes = size), recordText)))
        val over = failed(import(canonical.copy(maxCanonicalBytes = size - 1), recordText))
        assertEquals("json-invalid" to "too-large", over.code.wireName to over.jsonError)
        // Pretty input over the limit whose canonical form fits: refused by the parser's byte limit.
        assertTrue(prettyText.toByteArray(Charsets.UTF_8).size > size)
        val parsedOver = failed(import(decl.copy(maxCanonicalBytes = size), prettyText))
        assertEquals("json-invalid" to "too-large", parsedOver.code.wireName to parsedOver.jsonError)
    }

    @Test
    fun `a canonical form longer than its input - over the limit is schema-invalid, naming the limit`() {
        // 1e9 is 3 bytes in the input and 10 in the canonical form (ES6 number form).
        val bigBody = "{\"n\":1000000000,\"s\":\"x\"}"
        val bigId = "rec-" + sha256Hex(bigBody)
        val canonicalText = "{\"n\":1000000000,\"recordId\":\"$bigId\",\"s\":\"x\"}"
        val input = canonicalText.replace("1000000000", "1e9")
        val size = canonicalText.toByteArray(Charsets.UTF_8).size
        assertEquals("ok", code(import(decl.copy(maxCanonicalBytes = size), input)))
        val r = failed(import(decl.copy(maxCanonicalBytes = size - 1), input))
        assertEquals(listOf<String?>("schema-invalid", "canonical record is larger than ${size - 1} bytes", null), listOf(r.code.wireName, r.message, r.jsonError))
    }

    @Test
    fun `without maxCanonicalBytes the parser's default limit (4 MiB) still applies`() {
        assertNull(decl.maxCanonicalBytes)
        val huge = "{\"a\":\"${"x".repeat(4 * 1024 * 1024)}\"}"
        val r = failed(import(decl, huge))
        assertEquals("json-invalid" to "too-large", r.code.wireName to r.jsonError)
        // Just under the default limit, the same shape is parsed (and fails later, at the id).
        val fits = "{\"a\":\"${"x".repeat(4 * 1024 * 1024 - 16)}\"}"
        assertEquals("schema-invalid", code(import(decl, fits)))
    }
}
