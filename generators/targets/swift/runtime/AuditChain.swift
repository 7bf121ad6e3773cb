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

    public init(idField: String, prefix: String, previousField: String, sequenceField: String, genesisPrevious: String) {
        self.idField = idField
        self.prefix = prefix
        self.previousField = previousField
        self.sequenceField = sequenceField
        self.genesisPrevious = genesisPrevious
    }

    /// The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence.
    public static let connectorAudit = AuditChainDeclaration(
        idField: "eventId", prefix: "connector-audit-", previousField: "previousEventId", sequenceField: "sequence", genesisPrevious: ""
    )
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
        case entryInvalid = "entry-invalid"
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
    public static func eventID(_ declaration: AuditChainDeclaration, _ entry: JSONObject) throws -> String {
        declaration.prefix + Crypto.sha256Hex(try CanonicalJSON.canonicalBytes(.object(entry.removing(declaration.idField))))
    }

    /// Builds the next entry: `body` plus sequence, link and id, and the new head to store.
    public static func append(_ declaration: AuditChainDeclaration, head: AuditHead?, body: JSONObject) throws -> (entry: JSONObject, head: AuditHead) {
        var entry = body.removing(declaration.idField)
        let sequence = (head?.sequence ?? 0) + 1
        entry.set(declaration.sequenceField, .number(Double(sequence)))
        entry.set(declaration.previousField, .string(head?.eventID ?? declaration.genesisPrevious))
        let id = try eventID(declaration, entry)
        entry.set(declaration.idField, .string(id))
        return (entry, AuditHead(sequence: sequence, eventID: id))
    }

    /// Checks every link and returns the head the log ends at (nil for an empty log). With
    /// `expectedHead`, the log must end exactly there (`.some(nil)`: the log must be empty),
    /// which is what catches deleted tail entries.
    @discardableResult
    public static func verify(_ declaration: AuditChainDeclaration, entries: [JSONValue], expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        var previous = declaration.genesisPrevious
        for (index, value) in entries.enumerated() {
            guard case let .object(entry) = value else { throw AuditChainError(code: .entryInvalid, index: index) }
            guard entry[declaration.sequenceField] == .number(Double(index + 1)) else {
                throw AuditChainError(code: .sequenceMismatch, index: index)
            }
            guard entry[declaration.previousField] == .string(previous) else {
                throw AuditChainError(code: .previousMismatch, index: index)
            }
            guard let expected = try? eventID(declaration, entry) else { throw AuditChainError(code: .entryInvalid, index: index) }
            guard entry[declaration.idField] == .string(expected) else {
                throw AuditChainError(code: .eventIDMismatch, index: index)
            }
            previous = expected
        }
        let head: AuditHead? = entries.isEmpty ? nil : AuditHead(sequence: entries.count, eventID: previous)
        if case let .some(wanted) = expectedHead, wanted != head {
            throw AuditChainError(code: .headMismatch, index: entries.count)
        }
        return head
    }

    /// Parses a JSON Lines log strictly (one entry per line) and verifies it.
    @discardableResult
    public static func verifyLog(_ declaration: AuditChainDeclaration, text: String, expectedHead: AuditHead?? = .none) throws -> AuditHead? {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        var entries: [JSONValue] = []
        for (index, line) in lines.enumerated() {
            guard let entry = try? StrictJSON.parse(line) else { throw AuditChainError(code: .entryInvalid, index: index) }
            entries.append(entry)
        }
        return try verify(declaration, entries: entries, expectedHead: expectedHead)
    }
}
