// The typed layer over hmac-sha256-v1 and content addresses: the generated
// `sign<Message>(_:secret:)`, `verify<Message>(_:secret:)` and `import<Message>(_:)` functions bind
// a message's declaration to these. Signing goes unsigned struct -> JSON -> MAC -> the signed
// message decoded through its schema, so a message that fails validation is never returned signed.

import Foundation

/// What verifying a signature found: `.valid`, or the reason it is not (never nil for success).
public enum SignatureVerification: Equatable, Sendable {
    case valid
    case invalid(HMACV1Error)

    public var isValid: Bool { self == .valid }

    /// "valid" or the error code every language reports (e.g. "signature-mismatch").
    public var code: String {
        switch self {
        case .valid: return "valid"
        case let .invalid(error): return error.rawValue
        }
    }
}

/// Why a typed sign call produced no message.
public enum SigningFailure: Error, Equatable, Sendable {
    /// The unsigned message cannot be signed (a covered field is missing, the secret is empty, ...).
    case signing(HMACV1Error)
    /// The signed message fails its schema or cross-field rules.
    case invalid([ValidationError])
}

/// A record imported from untrusted bytes: the typed record, its verified id and the JSON value it
/// was read from (hashes are computed over that value, which keeps every member as received).
public struct ImportedRecord<Record: ContractMessage>: Sendable {
    public let record: Record
    public let id: String
    public let json: JSONObject
}

public enum TypedSigning {
    /// Encodes a Codable value (an unsigned message) to the JSON object the signature covers.
    static func jsonObject<Value: Encodable>(_ value: Value) throws -> JSONObject {
        guard case let .object(object) = try StrictJSON.parseStrictJSON([UInt8](JSONEncoder().encode(value))) else {
            throw HMACV1Error.coveredFieldMissing
        }
        return object
    }

    /// Signs `unsigned` and returns the signed message, validated and decoded; throws SigningFailure.
    public static func sign<Unsigned: Encodable, Message: ContractMessage>(
        _ declaration: HMACSHA256V1Declaration, _ unsigned: Unsigned, secret: [UInt8], as _: Message.Type
    ) throws -> Message {
        let signed: JSONObject
        do {
            signed = try HMACSHA256V1.signHMACV1(declaration, try jsonObject(unsigned), key: secret).message
        } catch let error as HMACV1Error {
            throw SigningFailure.signing(error)
        } catch {
            throw SigningFailure.signing(.coveredFieldMissing)
        }
        do {
            return try Message.decode(.object(signed))
        } catch let failure as ValidationFailure {
            throw SigningFailure.invalid(failure.errors)
        }
    }

    /// Verifies a typed message's signature in constant time (over its JSON form).
    public static func verify<Message: ContractMessage>(_ declaration: HMACSHA256V1Declaration, _ message: Message, secret: [UInt8]) -> SignatureVerification {
        guard case let .object(object)? = try? message.jsonValue() else { return .invalid(.coveredFieldMissing) }
        return verify(declaration, object, secret: secret)
    }

    /// Verifies a received JSON object exactly as it arrived.
    public static func verify(_ declaration: HMACSHA256V1Declaration, _ object: JSONObject, secret: [UInt8]) -> SignatureVerification {
        do {
            try HMACSHA256V1.verifyHMACV1(declaration, object, key: secret)
            return .valid
        } catch let error as HMACV1Error {
            return .invalid(error)
        } catch {
            return .invalid(.hashedFieldNotJSON)
        }
    }

    /// ContentAddress.importCanonicalRecord, then the record decoded into its type.
    public static func importRecord<Record: ContractMessage>(
        _ declaration: ContentAddressDeclaration, _ bytes: [UInt8], as _: Record.Type, isValid: (JSONValue) -> Bool
    ) -> Result<ImportedRecord<Record>, ContentImportError> {
        switch ContentAddress.importCanonicalRecord(declaration, bytes, isValid: isValid) {
        case let .failure(error):
            return .failure(error)
        case let .success((json, id)):
            // Already validated: the typed read, without checking the schema a second time.
            guard let record = try? Record(jsonValue: .object(json)) else { return .failure(.schemaInvalid) }
            return .success(ImportedRecord(record: record, id: id, json: json))
        }
    }

    /// The content id a typed record should carry.
    public static func computeID<Record: ContractMessage>(_ declaration: ContentAddressDeclaration, _ record: Record) throws -> String {
        guard case let .object(object) = try record.jsonValue() else { throw ContentImportError.schemaInvalid }
        return try ContentAddress.computeContentID(declaration, object)
    }
}
