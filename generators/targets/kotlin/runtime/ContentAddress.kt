package dev.agentcontracts.runtime

import kotlinx.serialization.DeserializationStrategy
import kotlinx.serialization.SerializationException
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/** A message's `x-content-address`: id = prefix + hex SHA-256 of JCS(record without its id). */
data class ContentAddressDeclaration(
    val idField: String,
    val prefix: String,
    val maxCanonicalBytes: Int? = null,
    /** When true, imported bytes must be exactly the record's canonical form. */
    val canonicalInput: Boolean = false,
)

/** Import failures, in the order they are checked (the reference parser's order). */
enum class ContentImportErrorCode(val wireName: String) {
    JSON_INVALID("json-invalid"),
    SCHEMA_INVALID("schema-invalid"),
    ID_MISMATCH("id-mismatch"),
    NOT_CANONICAL("not-canonical"),
}

sealed interface ContentImportResult {
    data class Imported(val record: JsonObject, val id: String) : ContentImportResult

    /** [jsonError] names what the strict parser refused, for json-invalid (`empty` for no bytes). */
    data class Failed(val code: ContentImportErrorCode, val message: String, val jsonError: String? = null) : ContentImportResult, ContentImport<Nothing>
}

/** A typed import, what the generated `import<Message>` functions return: the record as its class, or why not. */
sealed interface ContentImport<out T> {
    /** [record] decoded from [json], the checked tree; [id] is the content id it carries. */
    data class Imported<T>(val record: T, val json: JsonObject, val id: String) : ContentImport<T>
}

/** Records named by a hash of their own canonical bytes; same semantics as content-address.ts. */
object ContentAddress {
    /** The id [record] should carry; throws [CanonicalJsonException] if it has no canonical form. */
    fun computeContentId(declaration: ContentAddressDeclaration, record: JsonObject): String =
        declaration.prefix + Encoding.hexEncode(Crypto.sha256(CanonicalJson.canonicalBytes(JsonObject(record - declaration.idField))))

    /** True when the record's id field holds the id its content hashes to. */
    fun verifyContentId(declaration: ContentAddressDeclaration, record: JsonObject): Boolean {
        val stated = (record[declaration.idField] as? JsonPrimitive)?.takeIf { it.isString }?.content ?: return false
        return try {
            stated == computeContentId(declaration, record)
        } catch (_: CanonicalJsonException) {
            false
        }
    }

    /**
     * Imports a record from untrusted bytes. Checks run in the reference order: bytes and JSON,
     * then schema ([validate]: the generated validator), then id, then canonical size, then
     * byte-for-byte canonical form, so a forged id is reported as such even in pretty-printed bytes.
     */
    fun import(declaration: ContentAddressDeclaration, bytes: ByteArray, validate: (JsonElement) -> Boolean): ContentImportResult {
        if (bytes.isEmpty()) return ContentImportResult.Failed(ContentImportErrorCode.JSON_INVALID, "input is empty", "empty")
        val limits = declaration.maxCanonicalBytes?.let { StrictJsonLimits(maxBytes = it) } ?: StrictJsonLimits()
        val value = try {
            StrictJson.parseStrictJson(bytes, limits)
        } catch (error: StrictJsonException) {
            return ContentImportResult.Failed(ContentImportErrorCode.JSON_INVALID, error.reason, error.code.wireName)
        }
        if (value !is JsonObject || !validate(value)) return ContentImportResult.Failed(ContentImportErrorCode.SCHEMA_INVALID, "record does not match its schema")
        val stated = (value[declaration.idField] as? JsonPrimitive)?.takeIf { it.isString }?.content
            ?: return ContentImportResult.Failed(ContentImportErrorCode.SCHEMA_INVALID, "${declaration.idField} is not a string")
        val expected = computeContentId(declaration, value)
        if (stated != expected) return ContentImportResult.Failed(ContentImportErrorCode.ID_MISMATCH, "${declaration.idField} does not match the record's content")
        val whole = CanonicalJson.canonicalBytes(value)
        if (declaration.maxCanonicalBytes != null && whole.size > declaration.maxCanonicalBytes) {
            return ContentImportResult.Failed(ContentImportErrorCode.SCHEMA_INVALID, "canonical record is larger than ${declaration.maxCanonicalBytes} bytes")
        }
        if (declaration.canonicalInput && !whole.contentEquals(bytes)) {
            return ContentImportResult.Failed(ContentImportErrorCode.NOT_CANONICAL, "input bytes are not the record's canonical form")
        }
        return ContentImportResult.Imported(value, expected)
    }

    /** [import], then the checked record decoded into its class (a record that does not fit is schema-invalid, never thrown). */
    fun <T> importCanonicalRecord(
        declaration: ContentAddressDeclaration,
        bytes: ByteArray,
        deserializer: DeserializationStrategy<T>,
        validate: (JsonElement) -> Boolean,
    ): ContentImport<T> = when (val result = import(declaration, bytes, validate)) {
        is ContentImportResult.Failed -> result
        is ContentImportResult.Imported -> try {
            ContentImport.Imported(Json.decodeFromJsonElement(deserializer, result.record), result.record, result.id)
        } catch (_: SerializationException) {
            ContentImportResult.Failed(ContentImportErrorCode.SCHEMA_INVALID, "record does not decode into its class")
        } catch (_: IllegalArgumentException) {
            ContentImportResult.Failed(ContentImportErrorCode.SCHEMA_INVALID, "record does not decode into its class")
        }
    }

    // The names 0.1.0 shipped, kept as deprecated aliases since the runtime contract named these as every language does.
    @Deprecated("renamed to computeContentId, the runtime contract's name", ReplaceWith("computeContentId(declaration, record)"))
    fun computeId(declaration: ContentAddressDeclaration, record: JsonObject): String = computeContentId(declaration, record)

    @Deprecated("renamed to verifyContentId, the runtime contract's name", ReplaceWith("verifyContentId(declaration, record)"))
    fun verifyId(declaration: ContentAddressDeclaration, record: JsonObject): Boolean = verifyContentId(declaration, record)

    @Deprecated("renamed to importCanonicalRecord, the runtime contract's name", ReplaceWith("importCanonicalRecord(declaration, bytes, deserializer, validate)"))
    fun <T> importAs(
        declaration: ContentAddressDeclaration,
        bytes: ByteArray,
        deserializer: DeserializationStrategy<T>,
        validate: (JsonElement) -> Boolean,
    ): ContentImport<T> = importCanonicalRecord(declaration, bytes, deserializer, validate)
}
