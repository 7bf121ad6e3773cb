// What every generated message type can do: decode from untrusted bytes (strict parse, then the
// schema and its cross-field rules, then the typed read of the parsed value), validate, and encode
// back to JSON.

import Foundation

public protocol ContractMessage: Codable, JSONValueDecodable, Sendable {
    /// The message schema's `$id`.
    static var schemaID: String { get }
    /// The message's x-rules, checked after the schema.
    static var rules: [CrossFieldRule] { get }
    /// The schema documents (generated: every message of every protocol and the shared types).
    static var schemaRegistry: SchemaRegistry { get }
    /// The broken x-rules of a schema-valid value. Generated as straight-line code for messages
    /// with rules; the reference evaluation is `CrossFieldRules.check(value, rules)`.
    static func checkRules(_ value: JSONValue) -> [ValidationError]
    /// The schema errors of a value, first error first. Generated as code per schema
    /// (Validators/); the reference evaluation is `schemaRegistry.validate(value, against: schemaID)`.
    static func validateSchema(_ value: JSONValue) -> [ValidationError]
}

extension ContractMessage {
    /// A message without compiled rules interprets them (for one with none, nothing to check).
    public static func checkRules(_ value: JSONValue) -> [ValidationError] {
        CrossFieldRules.check(value, rules)
    }

    /// A message without generated schema code interprets its schema document.
    public static func validateSchema(_ value: JSONValue) -> [ValidationError] {
        schemaRegistry.validate(value, against: schemaID)
    }

    /// Schema errors first (the first one is the one every language reports), then rule errors.
    public static func validate(_ value: JSONValue) -> [ValidationError] {
        let errors = validateSchema(value)
        if !errors.isEmpty { return errors }
        return checkRules(value)
    }

    /// Validates and decodes an already parsed value; throws `ValidationFailure`.
    public static func decode(_ value: JSONValue) throws -> Self {
        let errors = validate(value)
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }
        // The integer-range lint keeps every schema-valid value decodable; if one still does not
        // fit (a generator bug), the caller gets a ValidationFailure, never the reader's error.
        do {
            return try Self(jsonValue: value)
        } catch {
            throw ValidationFailure(errors: [ValidationError(instancePath: "", keyword: "x-decode", message: "\(Self.self) does not decode into its type")])
        }
    }

    /// Parses untrusted bytes strictly, validates and decodes. A parse error is reported as a
    /// `ValidationFailure` with keyword "json" at the root.
    public static func decode(json bytes: [UInt8]) throws -> Self {
        let value: JSONValue
        do {
            value = try StrictJSON.parseStrictJSON(bytes)
        } catch let error as StrictJSONError {
            throw ValidationFailure(errors: [ValidationError(instancePath: "", keyword: "json", message: "invalid JSON: \(error)")])
        }
        return try decode(value)
    }

    public static func decode(json data: Data) throws -> Self {
        try decode(json: [UInt8](data))
    }

    /// The message as a JSON value (via its Codable form).
    public func jsonValue() throws -> JSONValue {
        try StrictJSON.parseStrictJSON([UInt8](JSONEncoder().encode(self)))
    }

    /// RFC 8785 canonical bytes of the message.
    public func canonicalJSON() throws -> [UInt8] {
        try CanonicalJSON.canonicalBytes(jsonValue())
    }

    /// Checks the value against its schema and rules; empty when valid.
    public func validate() -> [ValidationError] {
        do {
            return Self.validate(try jsonValue())
        } catch {
            return [ValidationError(instancePath: "", keyword: "json", message: "cannot encode: \(error)")]
        }
    }
}

/// Decoding helpers the generated `init(from:)` implementations use (Codable: JSONDecoder, or any
/// decoder; `decode(json:)` reads through the generated `init(jsonValue:)` instead).
public enum ContractCoding {
    /// Throws when the object has a member outside `known` (for schemas with additionalProperties: false).
    public static func rejectUnknownKeys(_ decoder: Decoder, known: [String], type: String) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(type) does not allow the member \"\(key.stringValue)\""
            )
        }
    }

    /// Decodes a member that the schema fixes with `const` and throws unless it has that value.
    public static func expectConstant(_ decoder: Decoder, key: String, expected: JSONValue, type: String) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let codingKey = AnyCodingKey(key)
        let found: JSONValue
        switch expected {
        case .string: found = .string(try container.decode(String.self, forKey: codingKey))
        case .bool: found = .bool(try container.decode(Bool.self, forKey: codingKey))
        case .number: found = .number(try container.decode(Double.self, forKey: codingKey))
        default: found = try container.decode(JSONValue.self, forKey: codingKey)
        }
        if found != expected {
            throw DecodingError.dataCorruptedError(
                forKey: codingKey, in: container, debugDescription: "\(type) needs \(key) to be \(expected)"
            )
        }
    }

    /// Reads the tag member of a union (a string, or a boolean for unions over `ok`).
    public static func tag(_ decoder: Decoder, key: String) throws -> JSONValue {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        if let flag = try? container.decode(Bool.self, forKey: AnyCodingKey(key)) {
            return .bool(flag)
        }
        return .string(try container.decode(String.self, forKey: AnyCodingKey(key)))
    }

    public static func unknownTag(_ decoder: Decoder, key: String, value: JSONValue, type: String) -> DecodingError {
        var path = decoder.codingPath
        path.append(AnyCodingKey(key))
        return DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: path,
            debugDescription: "\(type) has no variant with \(key) \(value)"
        ))
    }
}
