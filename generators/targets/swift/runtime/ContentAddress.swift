// Records named by a hash of their own canonical bytes (the `x-content-address` declaration):
// id = prefix + lowercase hex SHA-256 of JCS(record without its id field).

import Foundation

/// The `x-content-address` declaration (spec/meta/message.schema.json#/$defs/ContentAddress).
public struct ContentAddressDeclaration: Sendable, Equatable {
    public var idField: String
    public var prefix: String
    public var maxCanonicalBytes: Int?
    /// The record must arrive as exactly its canonical bytes.
    public var canonicalInput: Bool

    public init(idField: String, prefix: String, maxCanonicalBytes: Int? = nil, canonicalInput: Bool = false) {
        self.idField = idField
        self.prefix = prefix
        self.maxCanonicalBytes = maxCanonicalBytes
        self.canonicalInput = canonicalInput
    }
}

/// Import failures, in the order they are checked (the reference parser's order).
public enum ContentImportError: Error, Equatable, Sendable {
    case jsonInvalid(StrictJSONErrorCode?)
    case schemaInvalid
    case idMismatch
    case notCanonical

    public var code: String {
        switch self {
        case .jsonInvalid: return "json-invalid"
        case .schemaInvalid: return "schema-invalid"
        case .idMismatch: return "id-mismatch"
        case .notCanonical: return "not-canonical"
        }
    }
}

public enum ContentAddress {
    /// The id the record should carry.
    public static func computeContentID(_ declaration: ContentAddressDeclaration, _ record: JSONObject) throws -> String {
        declaration.prefix + Crypto.sha256Hex(try CanonicalJSON.canonicalBytes(.object(record.removing(declaration.idField))))
    }

    /// True when the record's id field holds the id its content hashes to.
    public static func verifyContentID(_ declaration: ContentAddressDeclaration, _ record: JSONObject) -> Bool {
        guard let stated = record[declaration.idField]?.stringValue, let expected = try? computeContentID(declaration, record) else {
            return false
        }
        return sameKey(stated, expected)
    }

    /// Imports a record from untrusted bytes: JSON, then schema, then id, then canonical size, then
    /// byte-for-byte canonical form, so a forged id is reported as such even when the bytes are
    /// also pretty-printed. `isValid` is the message's schema (and rules) check.
    public static func importCanonicalRecord(_ declaration: ContentAddressDeclaration, _ bytes: [UInt8],
                                             isValid: (JSONValue) -> Bool) -> Result<(record: JSONObject, id: String), ContentImportError>
    {
        if bytes.isEmpty { return .failure(.jsonInvalid(nil)) }
        let limits = StrictJSONLimits(maxBytes: declaration.maxCanonicalBytes ?? StrictJSONLimits.defaultMaxBytes)
        let value: JSONValue
        do {
            value = try StrictJSON.parseStrictJSON(bytes, limits: limits)
        } catch let error as StrictJSONError {
            return .failure(.jsonInvalid(error.code))
        } catch {
            return .failure(.jsonInvalid(nil))
        }
        guard case let .object(record) = value, isValid(value) else { return .failure(.schemaInvalid) }
        guard let stated = record[declaration.idField]?.stringValue else { return .failure(.schemaInvalid) }
        guard let expected = try? computeContentID(declaration, record) else { return .failure(.schemaInvalid) }
        if !sameKey(stated, expected) { return .failure(.idMismatch) }
        guard let whole = try? CanonicalJSON.canonicalBytes(value) else { return .failure(.schemaInvalid) }
        if let limit = declaration.maxCanonicalBytes, whole.count > limit { return .failure(.schemaInvalid) }
        if declaration.canonicalInput && whole != bytes { return .failure(.notCanonical) }
        return .success((record, expected))
    }

    // The names 0.1.0 shipped, before the runtime contract named these as every language does.
    @available(*, deprecated, renamed: "computeContentID(_:_:)")
    public static func computeID(_ declaration: ContentAddressDeclaration, _ record: JSONObject) throws -> String {
        try computeContentID(declaration, record)
    }

    @available(*, deprecated, renamed: "verifyContentID(_:_:)")
    public static func verifyID(_ declaration: ContentAddressDeclaration, _ record: JSONObject) -> Bool {
        verifyContentID(declaration, record)
    }

    @available(*, deprecated, renamed: "importCanonicalRecord(_:_:isValid:)")
    public static func importRecord(_ declaration: ContentAddressDeclaration, _ bytes: [UInt8],
                                    isValid: (JSONValue) -> Bool) -> Result<(record: JSONObject, id: String), ContentImportError>
    {
        importCanonicalRecord(declaration, bytes, isValid: isValid)
    }
}
