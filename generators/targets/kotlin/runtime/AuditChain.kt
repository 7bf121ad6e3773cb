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
    /** When present, the entries must also replay through this lifecycle. */
    val lifecycle: AuditLifecycle? = null,
) {
    companion object {
        /** The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence. */
        val CONNECTOR = AuditChainDeclaration("eventId", "connector-audit-", "previousEventId", "sequence", "")

        /** The connector audit log with its trust lifecycle (trust.machine.yaml), as audit-chain.ts's CONNECTOR_AUDIT_LOG. */
        val CONNECTOR_LOG = CONNECTOR.copy(
            lifecycle = AuditLifecycle(
                subjectField = "packageId",
                actionField = "action",
                detailsField = "details",
                fields = listOf("action", "details", "eventId", "packageId", "previousEventId", "recordType", "schemaVersion", "sequence", "timestamp"),
                transitions = mapOf(
                    "imported" to AuditTransition(listOf(""), "imported", listOf("originFilename", "originSha256")),
                    "approved" to AuditTransition(listOf("imported"), "approved", emptyList()),
                    "installed" to AuditTransition(listOf("approved", "disabled"), "installed", emptyList()),
                    "disabled" to AuditTransition(listOf("installed"), "disabled", emptyList()),
                    "revoked" to AuditTransition(listOf("imported", "approved", "disabled"), "revoked", emptyList()),
                    "removed" to AuditTransition(listOf("imported", "approved", "disabled", "revoked"), "removed", emptyList()),
                    "upgraded" to AuditTransition(listOf("approved"), "installed", listOf("fromPackageId")),
                ),
            ),
        )
    }
}

/**
 * The lifecycle a log records, one state per subject: each entry's action must be allowed from
 * its subject's state ("" before its first entry) and its details must have exactly the action's
 * members; entries have exactly [fields].
 */
data class AuditLifecycle(
    val subjectField: String,
    val actionField: String,
    val detailsField: String,
    val fields: List<String>,
    val transitions: Map<String, AuditTransition>,
)

data class AuditTransition(val from: List<String>, val to: String, val details: List<String>)

/** Where the chain must end; kept apart from the log (another file, a database row, a keychain). */
data class AuditHead(val sequence: Long, val eventId: String)

enum class AuditChainErrorCode(val wireName: String) {
    LOG_EMPTY("log-empty"),
    LINE_UNTERMINATED("line-unterminated"),
    ENTRY_INVALID("entry-invalid"),
    TRANSITION_INVALID("transition-invalid"),
    DETAILS_INVALID("details-invalid"),
    SEQUENCE_MISMATCH("sequence-mismatch"),
    PREVIOUS_MISMATCH("previous-mismatch"),
    EVENT_ID_MISMATCH("event-id-mismatch"),
    HEAD_MISMATCH("head-mismatch"),
}

/** What [AuditChain.appendAuditEntry] returns: the entry to write and the head to store apart from the log. */
data class AuditAppended(val entry: JsonObject, val head: AuditHead)

/** [index] is the 0-based entry at fault; the entry count for a head mismatch past the end. */
data class AuditChainError(val code: AuditChainErrorCode, val index: Int, val message: String)

/**
 * The connector's hash-chained audit log, as audit-chain.ts: each id is a content address of the
 * entry without it, each entry names its predecessor's id, and the log must end at a head stored
 * apart from it (which is what catches entries deleted from the end).
 */
object AuditChain {
    fun computeAuditEventId(declaration: AuditChainDeclaration, entry: JsonObject): String =
        declaration.prefix + Encoding.hexEncode(Crypto.sha256(CanonicalJson.canonicalBytes(JsonObject(entry - declaration.idField))))

    /**
     * Builds the next entry, as audit-chain.ts's appendAuditEntry: [body] without an id member,
     * then the sequence after [head] (1 when [head] is null: the first entry), the link to
     * [head]'s id (the declaration's genesis link for the first), then its own id. Returns the entry
     * and the head to store apart from the log; throws [CanonicalJsonException] for a body that has
     * no canonical form.
     */
    fun appendAuditEntry(declaration: AuditChainDeclaration, head: AuditHead?, body: JsonObject): AuditAppended {
        val entry = LinkedHashMap<String, JsonElement>(body)
        entry.remove(declaration.idField)
        val sequence = (head?.sequence ?: 0L) + 1
        entry[declaration.sequenceField] = JsonPrimitive(sequence)
        entry[declaration.previousField] = JsonPrimitive(head?.eventId ?: declaration.genesisPrevious)
        val eventId = computeAuditEventId(declaration, JsonObject(entry))
        entry[declaration.idField] = JsonPrimitive(eventId)
        return AuditAppended(JsonObject(entry), AuditHead(sequence, eventId))
    }

    /**
     * Checks every link; null when the chain holds. With [checkHead], the last entry must be exactly
     * [expectedHead] (null: the log must be empty).
     */
    fun verifyAuditChain(declaration: AuditChainDeclaration, entries: List<JsonElement>, expectedHead: AuditHead?, checkHead: Boolean = true): AuditChainError? {
        var previous = declaration.genesisPrevious
        val states = HashMap<String, String>()
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
                computeAuditEventId(declaration, entry)
            } catch (_: CanonicalJsonException) {
                return error(AuditChainErrorCode.ENTRY_INVALID, "entry is not canonical JSON")
            }
            val stated = entry[declaration.idField]
            if (stated !is JsonPrimitive || !stated.isString || stated.content != expected) {
                return error(AuditChainErrorCode.EVENT_ID_MISMATCH, "entry id does not match its content")
            }
            previous = expected
            declaration.lifecycle?.let { lifecycle -> replay(lifecycle, entry, states)?.let { (code, message) -> return error(code, message) } }
        }
        val head = if (entries.lastOrNull() is JsonObject) AuditHead(entries.size.toLong(), previous) else null
        if (checkHead && head != expectedHead) {
            return AuditChainError(AuditChainErrorCode.HEAD_MISMATCH, entries.size, "log does not end at the stored head (entry ${entries.size + 1})")
        }
        return null
    }

    /**
     * Parses a JSON Lines log strictly (one entry per line, each ended by "\n") and verifies it.
     * An existing log file is never empty: the first entry is written with the file.
     */
    fun verifyAuditLog(declaration: AuditChainDeclaration, bytes: ByteArray, expectedHead: AuditHead?, checkHead: Boolean = true): AuditChainError? {
        if (bytes.isEmpty()) return AuditChainError(AuditChainErrorCode.LOG_EMPTY, 0, "the log file is empty")
        val lines = ArrayList<ByteArray>()
        var start = 0
        for (i in bytes.indices) {
            if (bytes[i] == '\n'.code.toByte()) {
                lines.add(bytes.copyOfRange(start, i))
                start = i + 1
            }
        }
        if (start != bytes.size) return AuditChainError(AuditChainErrorCode.LINE_UNTERMINATED, lines.size, "the last line has no line feed (entry ${lines.size + 1})")
        val entries = ArrayList<JsonElement>()
        for ((index, line) in lines.withIndex()) {
            val entry = try {
                StrictJson.parseStrictJson(line)
            } catch (e: StrictJsonException) {
                return AuditChainError(AuditChainErrorCode.ENTRY_INVALID, index, "line is not strict JSON: ${e.code.wireName} (entry ${index + 1})")
            }
            entries.add(entry)
        }
        return verifyAuditChain(declaration, entries, expectedHead, checkHead)
    }

    private fun JsonElement?.stringContent(): String? = (this as? JsonPrimitive)?.takeIf { it.isString }?.content

    /** Applies one entry to the subjects' states; the failure, or null when the entry is allowed. */
    private fun replay(lifecycle: AuditLifecycle, entry: JsonObject, states: MutableMap<String, String>): Pair<AuditChainErrorCode, String>? {
        if (entry.keys != lifecycle.fields.toSet() || entry.size != lifecycle.fields.size) {
            return AuditChainErrorCode.ENTRY_INVALID to "entry does not have exactly the log's members"
        }
        val subject = entry[lifecycle.subjectField].stringContent()
        val action = entry[lifecycle.actionField].stringContent()
        if (subject == null || action == null) return AuditChainErrorCode.ENTRY_INVALID to "subject or action is not a string"
        val transition = lifecycle.transitions[action] ?: return AuditChainErrorCode.TRANSITION_INVALID to "unknown action \"$action\""
        val state = states[subject] ?: ""
        if (state !in transition.from) return AuditChainErrorCode.TRANSITION_INVALID to "$action is not allowed from ${state.ifEmpty { "no entry" }}"
        val details = entry[lifecycle.detailsField] as? JsonObject
        if (details == null || details.keys != transition.details.toSet()) {
            return AuditChainErrorCode.DETAILS_INVALID to "details of $action must have exactly ${transition.details}"
        }
        states[subject] = transition.to
        return null
    }

    // The names 0.1.0 shipped, kept as deprecated aliases since the runtime contract named these as every language does.
    @Deprecated("renamed to computeAuditEventId, the runtime contract's name", ReplaceWith("computeAuditEventId(declaration, entry)"))
    fun computeEventId(declaration: AuditChainDeclaration, entry: JsonObject): String = computeAuditEventId(declaration, entry)

    @Deprecated("renamed to verifyAuditChain, the runtime contract's name", ReplaceWith("verifyAuditChain(declaration, entries, expectedHead, checkHead)"))
    fun verify(declaration: AuditChainDeclaration, entries: List<JsonElement>, expectedHead: AuditHead?, checkHead: Boolean = true): AuditChainError? =
        verifyAuditChain(declaration, entries, expectedHead, checkHead)

    @Deprecated("renamed to verifyAuditLog, the runtime contract's name", ReplaceWith("verifyAuditLog(declaration, bytes, expectedHead, checkHead)"))
    fun verifyLog(declaration: AuditChainDeclaration, bytes: ByteArray, expectedHead: AuditHead?, checkHead: Boolean = true): AuditChainError? =
        verifyAuditLog(declaration, bytes, expectedHead, checkHead)
}
