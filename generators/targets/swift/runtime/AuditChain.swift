// A hash-chained audit log (the connector's). Each entry's id is a content address of the entry
// without that id, and the entry names its predecessor's id, so editing, reordering, inserting or
// deleting a middle entry breaks a link. Dropping entries from the end leaves a valid shorter
// chain, so verification also takes a head {sequence, eventId} stored apart from the log (a file,
// a database row, the Keychain), and the log must end exactly there.

import Foundation

public struct AuditChainDeclaration: Sendable, Equatable {
    public var idField: String
    public var prefix: String
    public var previousField: String
    public var sequenceField: String
    /// The previousField value of the first entry.
    public var genesisPrevious: String
    /// When present, the entries must also replay through this lifecycle.
    public var lifecycle: AuditLifecycle?

    public init(idField: String, prefix: String, previousField: String, sequenceField: String, genesisPrevious: String, lifecycle: AuditLifecycle? = nil) {
        self.idField = idField
        self.prefix = prefix
        self.previousField = previousField
        self.sequenceField = sequenceField
        self.genesisPrevious = genesisPrevious
        self.lifecycle = lifecycle
    }

    /// The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence.
    public static let connectorAudit = AuditChainDeclaration(
        idField: "eventId", prefix: "connector-audit-", previousField: "previousEventId", sequenceField: "sequence", genesisPrevious: ""
    )

    /// The connector audit log with its trust lifecycle (trust.machine.yaml), as audit-chain.ts's CONNECTOR_AUDIT_LOG.
    public static let connectorAuditLog = AuditChainDeclaration(
        idField: "eventId", prefix: "connector-audit-", previousField: "previousEventId", sequenceField: "sequence", genesisPrevious: "",
        lifecycle: AuditLifecycle(
            subjectField: "packageId",
            actionField: "action",
            detailsField: "details",
            fields: ["action", "details", "eventId", "packageId", "previousEventId", "recordType", "schemaVersion", "sequence", "timestamp"],
            transitions: [
                "imported": AuditTransition(from: [""], to: "imported", details: ["originFilename", "originSha256"]),
                "approved": AuditTransition(from: ["imported"], to: "approved", details: []),
                "installed": AuditTransition(from: ["approved", "disabled"], to: "installed", details: []),
                "disabled": AuditTransition(from: ["installed"], to: "disabled", details: []),
                "revoked": AuditTransition(from: ["imported", "approved", "disabled"], to: "revoked", details: []),
                "removed": AuditTransition(from: ["imported", "approved", "disabled", "revoked"], to: "removed", details: []),
                "upgraded": AuditTransition(from: ["approved"], to: "installed", details: ["fromPackageId"]),
            ]
        )
    )
}

/// The lifecycle a log records, one state per subject: each entry's action must be allowed from
/// its subject's state ("" before its first entry) and its details must have exactly the action's
/// members; entries have exactly `fields`.
public struct AuditLifecycle: Sendable, Equatable {
    public var subjectField: String
    public var actionField: String
    public var detailsField: String
    public var fields: [String]
    public var transitions: [String: AuditTransition]

    public init(subjectField: String, actionField: String, detailsField: String, fields: [String], transitions: [String: AuditTransition]) {
        self.subjectField = subjectField
        self.actionField = actionField
        self.detailsField = detailsField
        self.fields = fields
        self.transitions = transitions
    }
}

public struct AuditTransition: Sendable, Equatable {
    public var from: [String]
    public var to: String
    public var details: [String]

    public init(from: [String], to: String, details: [String]) {
        self.from = from
        self.to = to
        self.details = details
    }
}

/// Where the chain must end.
public struct AuditHead: Sendable, Equatable {
    public var sequence: Int
    public var eventID: String

    public init(sequence: Int, eventID: String) {
        self.sequence = sequence
        self.eventID = eventID
    }
}

public struct AuditChainError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case logEmpty = "log-empty"
        case lineUnterminated = "line-unterminated"
        case entryInvalid = "entry-invalid"
        case transitionInvalid = "transition-invalid"
        case detailsInvalid = "details-invalid"
        case sequenceMismatch = "sequence-mismatch"
        case previousMismatch = "previous-mismatch"
        case eventIDMismatch = "event-id-mismatch"
        case headMismatch = "head-mismatch"
    }

    public let code: Code
    /// 0-based index of the entry at fault; the entry count for a head mismatch past the end.
    public let index: Int
}

public enum AuditChain {
    /// The id an entry should carry (hash of the canonical entry without its id field).
    public static func computeAuditEventID(_ declaration: AuditChainDeclaration, _ entry: JSONObject) throws -> String {
        declaration.prefix + Crypto.sha256Hex(try CanonicalJSON.canonicalBytes(.object(entry.removing(declaration.idField))))
    }

    /// Builds the next entry: `body` plus sequence, link and id, and the new head to store.
    public static func appendAuditEntry(_ declaration: AuditChainDeclaration, head: AuditHead?, body: JSONObject) throws -> (entry: JSONObject, head: AuditHead) {
        var entry = body.removing(declaration.idField)
        let sequence = (head?.sequence ?? 0) + 1
        entry.set(declaration.sequenceField, .number(Double(sequence)))
        entry.set(declaration.previousField, .string(head?.eventID ?? declaration.genesisPrevious))
        let id = try computeAuditEventID(declaration, entry)
        entry.set(declaration.idField, .string(id))
        return (entry, AuditHead(sequence: sequence, eventID: id))
    }

    /// Checks every link and returns the head the log ends at (nil for an empty log). With
    /// `expectedHead`, the log must end exactly there (`.some(nil)`: the log must be empty),
    /// which is what catches deleted tail entries.
    @discardableResult
    public static func verifyAuditChain(_ declaration: AuditChainDeclaration, entries: [JSONValue], expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        var previous = declaration.genesisPrevious
        var states: [String: String] = [:]
        for (index, value) in entries.enumerated() {
            guard case let .object(entry) = value else { throw AuditChainError(code: .entryInvalid, index: index) }
            guard entry[declaration.sequenceField] == .number(Double(index + 1)) else {
                throw AuditChainError(code: .sequenceMismatch, index: index)
            }
            guard entry[declaration.previousField] == .string(previous) else {
                throw AuditChainError(code: .previousMismatch, index: index)
            }
            guard let expected = try? computeAuditEventID(declaration, entry) else { throw AuditChainError(code: .entryInvalid, index: index) }
            guard entry[declaration.idField] == .string(expected) else {
                throw AuditChainError(code: .eventIDMismatch, index: index)
            }
            previous = expected
            if let lifecycle = declaration.lifecycle, let code = replay(lifecycle, entry, &states) {
                throw AuditChainError(code: code, index: index)
            }
        }
        let head: AuditHead? = entries.isEmpty ? nil : AuditHead(sequence: entries.count, eventID: previous)
        if case let .some(wanted) = expectedHead, wanted != head {
            throw AuditChainError(code: .headMismatch, index: entries.count)
        }
        return head
    }

    /// Applies one entry to the subjects' states; the failure, or nil when the entry is allowed.
    private static func replay(_ lifecycle: AuditLifecycle, _ entry: JSONObject, _ states: inout [String: String]) -> AuditChainError.Code? {
        guard Set(entry.keys) == Set(lifecycle.fields), entry.keys.count == lifecycle.fields.count else { return .entryInvalid }
        guard let subject = entry[lifecycle.subjectField]?.stringValue, let action = entry[lifecycle.actionField]?.stringValue else {
            return .entryInvalid
        }
        guard let transition = lifecycle.transitions[action] else { return .transitionInvalid }
        guard transition.from.contains(states[subject] ?? "") else { return .transitionInvalid }
        guard let details = entry[lifecycle.detailsField]?.objectValue, Set(details.keys) == Set(transition.details),
              details.keys.count == transition.details.count
        else { return .detailsInvalid }
        states[subject] = transition.to
        return nil
    }

    /// Parses a JSON Lines log strictly (one entry per line, each ended by "\n") and verifies it.
    /// An existing log file is never empty: the first entry is written with the file.
    @discardableResult
    public static func verifyAuditLog(_ declaration: AuditChainDeclaration, bytes: [UInt8], expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        if bytes.isEmpty { throw AuditChainError(code: .logEmpty, index: 0) }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 0x0a {
            lines.append(bytes[start..<i])
            start = i + 1
        }
        if start != bytes.count { throw AuditChainError(code: .lineUnterminated, index: lines.count) }
        var entries: [JSONValue] = []
        for (index, line) in lines.enumerated() {
            guard let entry = try? StrictJSON.parseStrictJSON(Array(line)) else { throw AuditChainError(code: .entryInvalid, index: index) }
            entries.append(entry)
        }
        return try verifyAuditChain(declaration, entries: entries, expectedHead: expectedHead)
    }

    /// `verifyAuditLog` on the UTF-8 bytes of `text`.
    @discardableResult
    public static func verifyAuditLog(_ declaration: AuditChainDeclaration, text: String, expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        try verifyAuditLog(declaration, bytes: Array(text.utf8), expectedHead: expectedHead)
    }

    // The names 0.1.0 shipped, before the runtime contract named these as every language does.
    @available(*, deprecated, renamed: "computeAuditEventID(_:_:)")
    public static func eventID(_ declaration: AuditChainDeclaration, _ entry: JSONObject) throws -> String {
        try computeAuditEventID(declaration, entry)
    }

    @available(*, deprecated, renamed: "appendAuditEntry(_:head:body:)")
    public static func append(_ declaration: AuditChainDeclaration, head: AuditHead?, body: JSONObject) throws -> (entry: JSONObject, head: AuditHead) {
        try appendAuditEntry(declaration, head: head, body: body)
    }

    @available(*, deprecated, renamed: "verifyAuditChain(_:entries:expectedHead:)")
    @discardableResult
    public static func verify(_ declaration: AuditChainDeclaration, entries: [JSONValue], expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        try verifyAuditChain(declaration, entries: entries, expectedHead: expectedHead)
    }

    @available(*, deprecated, renamed: "verifyAuditLog(_:bytes:expectedHead:)")
    @discardableResult
    public static func verifyLog(_ declaration: AuditChainDeclaration, bytes: [UInt8], expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        try verifyAuditLog(declaration, bytes: bytes, expectedHead: expectedHead)
    }

    @available(*, deprecated, renamed: "verifyAuditLog(_:text:expectedHead:)")
    @discardableResult
    public static func verifyLog(_ declaration: AuditChainDeclaration, text: String, expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        try verifyAuditLog(declaration, text: text, expectedHead: expectedHead)
    }
}
