package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/** How a hash-chained log links its entries (the connector audit log: [CONNECTOR]). */
data class AuditChainDeclaration(
    val idField: String,
    val prefix: String,
    val previousField: String,
    val sequenceField: String,
    /** previousField value of the first entry. */
    val genesisPrevious: String,
) {
    companion object {
        /** The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence. */
        val CONNECTOR = AuditChainDeclaration("eventId", "connector-audit-", "previousEventId", "sequence", "")
    }
}

/** Where the chain must end; kept apart from the log (another file, a database row, a keychain). */
data class AuditHead(val sequence: Long, val eventId: String)

enum class AuditChainErrorCode(val wireName: String) {
    ENTRY_INVALID("entry-invalid"),
    SEQUENCE_MISMATCH("sequence-mismatch"),
    PREVIOUS_MISMATCH("previous-mismatch"),
    EVENT_ID_MISMATCH("event-id-mismatch"),
    HEAD_MISMATCH("head-mismatch"),
}

/** [index] is the 0-based entry at fault; the entry count for a head mismatch past the end. */
data class AuditChainError(val code: AuditChainErrorCode, val index: Int, val message: String)

/**
 * The connector's hash-chained audit log, as audit-chain.ts: each id is a content address of the
 * entry without it, each entry names its predecessor's id, and the log must end at a head stored
 * apart from it (which is what catches entries deleted from the end).
 */
object AuditChain {
    fun computeEventId(declaration: AuditChainDeclaration, entry: JsonObject): String =
        declaration.prefix + Encoding.hexEncode(Crypto.sha256(CanonicalJson.canonicalBytes(JsonObject(entry - declaration.idField))))

    /**
     * Checks every link; null when the chain holds. With [checkHead], the last entry must be exactly
     * [expectedHead] (null: the log must be empty).
     */
    fun verify(declaration: AuditChainDeclaration, entries: List<JsonElement>, expectedHead: AuditHead?, checkHead: Boolean = true): AuditChainError? {
        var previous = declaration.genesisPrevious
        for ((index, entry) in entries.withIndex()) {
            fun error(code: AuditChainErrorCode, message: String) = AuditChainError(code, index, "$message (entry ${index + 1})")
            if (entry !is JsonObject) return error(AuditChainErrorCode.ENTRY_INVALID, "entry is not an object")
            val sequence = entry[declaration.sequenceField]
            if (sequence !is JsonPrimitive || sequence.isString || sequence.content.toDoubleOrNull() != (index + 1).toDouble()) {
                return error(AuditChainErrorCode.SEQUENCE_MISMATCH, "sequence is not the entry's position")
            }
            val link = entry[declaration.previousField]
            if (link !is JsonPrimitive || !link.isString || link.content != previous) {
                return error(AuditChainErrorCode.PREVIOUS_MISMATCH, "link to the previous entry is broken")
            }
            val expected = try {
                computeEventId(declaration, entry)
            } catch (_: CanonicalJsonException) {
                return error(AuditChainErrorCode.ENTRY_INVALID, "entry is not canonical JSON")
            }
            val stated = entry[declaration.idField]
            if (stated !is JsonPrimitive || !stated.isString || stated.content != expected) {
                return error(AuditChainErrorCode.EVENT_ID_MISMATCH, "entry id does not match its content")
            }
            previous = expected
        }
        val head = if (entries.lastOrNull() is JsonObject) AuditHead(entries.size.toLong(), previous) else null
        if (checkHead && head != expectedHead) {
            return AuditChainError(AuditChainErrorCode.HEAD_MISMATCH, entries.size, "log does not end at the stored head (entry ${entries.size + 1})")
        }
        return null
    }
}
