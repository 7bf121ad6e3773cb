// The agent-provider `hmac-sha256-v1` scheme, driven entirely by a message's `x-signature`
// declaration: which lines, in which order, which field is hashed, what the key is and how the
// MAC is written. Wire format: `name=value` lines joined by LF, no escaping, hashed fields as
// base64-std-nopad(SHA-256(JCS(value))), the MAC as base64-std-nopad(HMAC-SHA256(key, lines)).

import Foundation

/// The `x-signature` declaration for scheme `hmac-sha256-v1` (spec/meta/signing.schema.json).
public struct HMACSHA256V1Declaration: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public enum Value: String, Sendable {
            /// The field's string value verbatim.
            case string
            /// base64-std-nopad(SHA-256(JCS(field))).
            case sha256JCSBase64StdNoPad = "sha256-jcs-base64-std-nopad"
        }

        /// Text before '=' on the line.
        public var name: String
        /// Message field the value comes from.
        public var field: String
        public var value: Value
        /// Used when the field is absent; without it an absent field is an error.
        public var defaultValue: JSONValue?

        public init(name: String, field: String, value: Value, defaultValue: JSONValue? = nil) {
            self.name = name
            self.field = field
            self.value = value
            self.defaultValue = defaultValue
        }
    }

    public var algorithmID: String
    public var algorithmField: String
    public var signatureField: String
    public var lineSeparator: String
    public var lines: [Line]
    /// Where the verifier finds the key (e.g. the install binding's host_shared_secret).
    public var keySource: String
    public var keyField: String

    public init(algorithmID: String, algorithmField: String, signatureField: String, lineSeparator: String,
                lines: [Line], keySource: String, keyField: String)
    {
        self.algorithmID = algorithmID
        self.algorithmField = algorithmField
        self.signatureField = signatureField
        self.lineSeparator = lineSeparator
        self.lines = lines
        self.keySource = keySource
        self.keyField = keyField
    }
}

public enum HMACV1Error: String, Error, Sendable {
    case unsigned = "unsigned"
    case algorithmMismatch = "algorithm-mismatch"
    case keyMissing = "key-missing"
    case coveredFieldMissing = "covered-field-missing"
    case coveredFieldNotString = "covered-field-not-string"
    case hashedFieldNotJSON = "hashed-field-not-json"
    case signatureEncoding = "signature-encoding"
    case signatureMismatch = "signature-mismatch"
}

public enum HMACSHA256V1 {
    /// base64-std-nopad(SHA-256(JCS(value))): a `*_sha256` line value.
    public static func jcsSHA256Base64(_ value: JSONValue) throws -> String {
        Base64.encode(Crypto.sha256(try CanonicalJSON.canonicalBytes(value)), alphabet: .standard)
    }

    /// The exact text that is MACed.
    public static func hmacV1SigningInput(_ declaration: HMACSHA256V1Declaration, _ message: JSONObject) throws -> String {
        var rendered: [String] = []
        for line in declaration.lines {
            switch line.value {
            case .string:
                rendered.append(line.name + "=" + (try stringLine(message, line.field, line.defaultValue)))
            case .sha256JCSBase64StdNoPad:
                rendered.append(line.name + "=" + (try digestLine(message, line.field, line.defaultValue)))
            }
        }
        return rendered.joined(separator: declaration.lineSeparator)
    }

    /// A `string` line's value: the field's string, or `defaultValue` when the field is absent. Used
    /// by `signingInput` and by the functions generated from each declaration (`buildSigningInput`),
    /// so both refuse the same field with the same error.
    public static func stringLine(_ message: JSONObject, _ field: String, _ defaultValue: JSONValue?) throws -> String {
        guard let raw = message[field] ?? defaultValue else { throw HMACV1Error.coveredFieldMissing }
        guard let text = raw.stringValue else { throw HMACV1Error.coveredFieldNotString }
        return text
    }

    /// A digest line's value: `jcsSHA256Base64` of the field (or of `defaultValue` when it is absent).
    public static func digestLine(_ message: JSONObject, _ field: String, _ defaultValue: JSONValue?) throws -> String {
        guard let raw = message[field] ?? defaultValue else { throw HMACV1Error.coveredFieldMissing }
        do {
            return try jcsSHA256Base64(raw)
        } catch {
            throw HMACV1Error.hashedFieldNotJSON
        }
    }

    /// Returns a copy of `message` with the algorithm and signature fields set.
    public static func signHMACV1(_ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: [UInt8]) throws -> (message: JSONObject, signature: String) {
        try signHMACV1(declaration, message, key: HMACSHA256Key(key))
    }

    /// `signHMACV1` with a prepared key; `input` builds the signing input (the message type's generated
    /// `buildSigningInput`; the declaration's interpreter when not given).
    public static func signHMACV1(
        _ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: HMACSHA256Key,
        input: ((JSONObject) throws -> String)? = nil
    ) throws -> (message: JSONObject, signature: String) {
        if key.isEmpty { throw HMACV1Error.keyMissing }
        let text = try input?(message) ?? hmacV1SigningInput(declaration, message)
        let signature = Base64.encode(key.mac(Array(text.utf8)), alphabet: .standard)
        var signed = message
        signed.set(declaration.algorithmField, .string(declaration.algorithmID))
        signed.set(declaration.signatureField, .string(signature))
        return (signed, signature)
    }

    /// Verifies a received message exactly as it arrived; compares MAC bytes in constant time.
    public static func verifyHMACV1(_ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: [UInt8]) throws {
        try verifyHMACV1(declaration, message, key: HMACSHA256Key(key))
    }

    /// `verifyHMACV1` with a prepared key; `input` as for `signHMACV1`.
    public static func verifyHMACV1(
        _ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: HMACSHA256Key,
        input: ((JSONObject) throws -> String)? = nil
    ) throws {
        guard let signatureText = message[declaration.signatureField]?.stringValue, !signatureText.isEmpty else {
            throw HMACV1Error.unsigned
        }
        guard message[declaration.algorithmField] == .string(declaration.algorithmID) else {
            throw HMACV1Error.algorithmMismatch
        }
        if key.isEmpty { throw HMACV1Error.keyMissing }
        guard let received = Base64.decode(signatureText, alphabet: .standard), received.count == 32 else {
            throw HMACV1Error.signatureEncoding
        }
        let text = try input?(message) ?? hmacV1SigningInput(declaration, message)
        let expected = key.mac(Array(text.utf8))
        if !Crypto.constantTimeEqual(received, expected) { throw HMACV1Error.signatureMismatch }
    }

    // The names 0.1.0 shipped, before the runtime contract named these as every language does.

    @available(*, deprecated, renamed: "hmacV1SigningInput(_:_:)")
    public static func signingInput(_ declaration: HMACSHA256V1Declaration, _ message: JSONObject) throws -> String {
        try hmacV1SigningInput(declaration, message)
    }

    @available(*, deprecated, renamed: "signHMACV1(_:_:key:)")
    public static func sign(_ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: [UInt8]) throws -> (message: JSONObject, signature: String) {
        try signHMACV1(declaration, message, key: key)
    }

    @available(*, deprecated, renamed: "signHMACV1(_:_:key:input:)")
    public static func sign(
        _ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: HMACSHA256Key,
        input: ((JSONObject) throws -> String)? = nil
    ) throws -> (message: JSONObject, signature: String) {
        try signHMACV1(declaration, message, key: key, input: input)
    }

    @available(*, deprecated, renamed: "verifyHMACV1(_:_:key:)")
    public static func verify(_ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: [UInt8]) throws {
        try verifyHMACV1(declaration, message, key: key)
    }

    @available(*, deprecated, renamed: "verifyHMACV1(_:_:key:input:)")
    public static func verify(
        _ declaration: HMACSHA256V1Declaration, _ message: JSONObject, key: HMACSHA256Key,
        input: ((JSONObject) throws -> String)? = nil
    ) throws {
        try verifyHMACV1(declaration, message, key: key, input: input)
    }
}
