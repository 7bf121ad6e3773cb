// agent-service approval tokens: base64url(JCS(claims)) + "." + base64url(HMAC-SHA256(secret,
// ASCII of the first part)). The MAC covers the received payload text verbatim. Checks run in the
// reference verifier's order (format, signature encoding, MAC, payload encoding, claims, version,
// expiry, lifetime) so the same bad token gets the same error everywhere; bindings to the request
// are a second step.

import Foundation

/// The `x-approval-token` declaration (spec/meta/signing.schema.json#/$defs/ApprovalToken).
public struct ApprovalTokenDeclaration: Sendable, Equatable {
    public var version: Int
    public var maxLifetimeSeconds: Int64
    public var clockSkewSeconds: Int64
    public var minTTLSeconds: Int64
    public var maxTTLSeconds: Int64
    public var defaultTTLSeconds: Int64
    /// Smallest accepted secret in bytes; an empty secret is `keyMissing`.
    public var minSecretBytes: Int

    public init(version: Int, maxLifetimeSeconds: Int64, clockSkewSeconds: Int64, minTTLSeconds: Int64,
                maxTTLSeconds: Int64, defaultTTLSeconds: Int64, minSecretBytes: Int)
    {
        self.minSecretBytes = minSecretBytes
        self.version = version
        self.maxLifetimeSeconds = maxLifetimeSeconds
        self.clockSkewSeconds = clockSkewSeconds
        self.minTTLSeconds = minTTLSeconds
        self.maxTTLSeconds = maxTTLSeconds
        self.defaultTTLSeconds = defaultTTLSeconds
    }
}

public enum ApprovalTokenError: String, Error, Sendable {
    case invalidFormat = "invalid-format"
    case signatureNotBase64URL = "signature-not-base64url"
    case signatureInvalid = "signature-invalid"
    case payloadNotBase64URL = "payload-not-base64url"
    case payloadInvalid = "payload-invalid"
    case versionUnsupported = "version-unsupported"
    case expired = "expired"
    case lifetimeExceeded = "lifetime-exceeded"
    case notBoundToAction = "not-bound-to-action"
    case notBoundToRequest = "not-bound-to-request"
    case payloadDigestMismatch = "payload-digest-mismatch"
    case expectedChoiceMismatch = "expected-choice-mismatch"
    case missingIdentity = "missing-identity"
    case mintTTLOutOfRange = "mint-ttl-out-of-range"
    case mintIdentityMissing = "mint-identity-missing"
    case keyMissing = "key-missing"
    case keyTooShort = "key-too-short"
}

/// The claims a token carries, as the verifier reads them.
public struct ApprovalClaims: Equatable, Sendable {
    public var v: Int
    public var exp: Int64
    public var action: String
    public var resourceID: String
    public var actorID: String
    public var requestID: String
    public var choice: String?
    public var expectedChoice: String?
    public var overrideRequested: Bool
    public var rationale: String?
    public var payload: JSONValue
    public var payloadSHA256: String?
    public var nonce: String

    /// The claims as the JSON object that is canonicalized into the token.
    public var jsonValue: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map { JSONValue.string($0) } ?? .null }
        return .object(JSONObject(pairs: [
            ("v", .number(Double(v))), ("exp", .number(Double(exp))), ("action", .string(action)),
            ("resource_id", .string(resourceID)), ("actor_id", .string(actorID)), ("request_id", .string(requestID)),
            ("choice", optional(choice)), ("expected_choice", optional(expectedChoice)),
            ("override_requested", .bool(overrideRequested)), ("rationale", optional(rationale)),
            ("payload", payload), ("payload_sha256", optional(payloadSHA256)), ("nonce", .string(nonce)),
        ]))
    }
}

/// What the token must be bound to at the point of use.
public struct ApprovalBindings: Sendable {
    public var action: String
    public var resourceID: String
    public var requestID: String
    /// The authoritative current state, read under lock; nil for a choice-free action.
    public var expectedChoice: String?

    public init(action: String, resourceID: String, requestID: String, expectedChoice: String?) {
        self.action = action
        self.resourceID = resourceID
        self.requestID = requestID
        self.expectedChoice = expectedChoice
    }
}

public struct MintApprovalInput: Sendable {
    public var action: String
    public var resourceID: String
    public var actorID: String
    public var requestID: String
    public var choice: String?
    public var expectedChoice: String?
    public var rationale: String?
    public var payload: JSONValue
    public var nonce: String?

    public init(action: String, resourceID: String, actorID: String, requestID: String, choice: String? = nil,
                expectedChoice: String? = nil, rationale: String? = nil, payload: JSONValue = .object(JSONObject()), nonce: String? = nil)
    {
        self.action = action
        self.resourceID = resourceID
        self.actorID = actorID
        self.requestID = requestID
        self.choice = choice
        self.expectedChoice = expectedChoice
        self.rationale = rationale
        self.payload = payload
        self.nonce = nonce
    }
}

public enum ApprovalToken {
    /// hex(SHA-256(JCS(payload))), or nil for a null payload.
    public static func payloadDigest(_ payload: JSONValue) throws -> String? {
        if payload.isNull { return nil }
        return Crypto.sha256Hex(try CanonicalJSON.canonicalBytes(payload))
    }

    /// An empty or short secret would let anyone (or a brute force) mint valid tokens.
    static func checkSecret(_ secret: [UInt8], _ declaration: ApprovalTokenDeclaration) throws {
        if secret.isEmpty { throw ApprovalTokenError.keyMissing }
        if secret.count < declaration.minSecretBytes { throw ApprovalTokenError.keyTooShort }
    }

    public static func mintApprovalToken(_ input: MintApprovalInput, secret: [UInt8], declaration: ApprovalTokenDeclaration,
                            nowSeconds: Int64, ttlSeconds: Int64? = nil) throws -> (token: String, claims: ApprovalClaims)
    {
        try checkSecret(secret, declaration)
        let ttl = ttlSeconds ?? declaration.defaultTTLSeconds
        if ttl < declaration.minTTLSeconds || ttl > declaration.maxTTLSeconds { throw ApprovalTokenError.mintTTLOutOfRange }
        if isBlank(input.actorID) || isBlank(input.requestID) { throw ApprovalTokenError.mintIdentityMissing }
        let claims = ApprovalClaims(
            v: declaration.version, exp: nowSeconds + ttl, action: input.action, resourceID: input.resourceID,
            actorID: input.actorID, requestID: input.requestID, choice: input.choice, expectedChoice: input.expectedChoice,
            // Recorded only; the verifier's caller re-derives it at the point of use.
            overrideRequested: input.choice != nil && input.choice != input.expectedChoice,
            rationale: input.rationale, payload: input.payload, payloadSHA256: try payloadDigest(input.payload),
            nonce: input.nonce ?? UUID().uuidString.lowercased()
        )
        let payloadText = Base64.encode(try CanonicalJSON.canonicalBytes(claims.jsonValue), alphabet: .url)
        let signature = Base64.encode(Crypto.hmacSHA256(key: secret, message: Array(payloadText.utf8)), alphabet: .url)
        return (payloadText + "." + signature, claims)
    }

    /// Decodes and authenticates a token at `nowSeconds` (Unix seconds).
    public static func decodeApprovalToken(_ token: String, secret: [UInt8], declaration: ApprovalTokenDeclaration, nowSeconds: Int64) throws -> ApprovalClaims {
        try checkSecret(secret, declaration)
        guard let dot = token.firstIndex(of: ".") else { throw ApprovalTokenError.invalidFormat }
        let payloadText = String(token[..<dot])
        guard let signature = Base64.decode(String(token[token.index(after: dot)...]), alphabet: .url) else {
            throw ApprovalTokenError.signatureNotBase64URL
        }
        let expected = Crypto.hmacSHA256(key: secret, message: Array(payloadText.utf8))
        if !Crypto.constantTimeEqual(signature, expected) { throw ApprovalTokenError.signatureInvalid }
        guard let payloadBytes = Base64.decode(payloadText, alphabet: .url) else { throw ApprovalTokenError.payloadNotBase64URL }
        guard let parsed = try? StrictJSON.parseStrictJSON(payloadBytes), let claims = readClaims(parsed) else {
            throw ApprovalTokenError.payloadInvalid
        }
        if claims.v != declaration.version { throw ApprovalTokenError.versionUnsupported }
        if claims.exp < nowSeconds { throw ApprovalTokenError.expired }
        if claims.exp - nowSeconds > declaration.maxLifetimeSeconds + declaration.clockSkewSeconds {
            throw ApprovalTokenError.lifetimeExceeded
        }
        return claims
    }

    /// `decodeApprovalToken`, then the checks that bind the token to this request, in reference order.
    public static func verifyApprovalToken(_ token: String, secret: [UInt8], bindings: ApprovalBindings,
                              declaration: ApprovalTokenDeclaration, nowSeconds: Int64) throws -> ApprovalClaims
    {
        let c = try decodeApprovalToken(token, secret: secret, declaration: declaration, nowSeconds: nowSeconds)
        if !sameKey(c.action, bindings.action) || !sameKey(c.resourceID, bindings.resourceID) {
            throw ApprovalTokenError.notBoundToAction
        }
        if !sameKey(c.requestID, bindings.requestID) { throw ApprovalTokenError.notBoundToRequest }
        let digest: String?
        do {
            digest = try payloadDigest(c.payload)
        } catch {
            digest = ""
        }
        if !optionalEqual(c.payloadSHA256, digest) { throw ApprovalTokenError.payloadDigestMismatch }
        if !optionalEqual(c.expectedChoice, bindings.expectedChoice) { throw ApprovalTokenError.expectedChoiceMismatch }
        if isBlank(c.actorID) || isBlank(c.requestID) || isBlank(c.nonce) { throw ApprovalTokenError.missingIdentity }
        return c
    }

    private static func optionalEqual(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?): return sameKey(x, y)
        default: return false
        }
    }

    /// Blank as JavaScript's trim() sees it: empty after removing whitespace and line terminators.
    private static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
    }

    private static func readClaims(_ value: JSONValue) -> ApprovalClaims? {
        guard case let .object(o) = value else { return nil }
        func string(_ key: String) -> String? { o[key]?.stringValue }
        /// Absent or null is nil; a present non-string makes the claims invalid.
        func optionalString(_ key: String) -> String?? {
            guard let found = o[key], !found.isNull else { return .some(nil) }
            guard let text = found.stringValue else { return nil }
            return .some(text)
        }
        guard let v = o["v"]?.numberValue, v == v.rounded(.towardZero), v >= 0, v <= 255 else { return nil }
        guard let exp = o["exp"]?.numberValue, exp == exp.rounded(.towardZero), exp.magnitude <= 9_007_199_254_740_991 else { return nil }
        guard let action = string("action"), let resourceID = string("resource_id"), let actorID = string("actor_id"),
              let requestID = string("request_id"), let nonce = string("nonce")
        else { return nil }
        guard let choice = optionalString("choice"), let expectedChoice = optionalString("expected_choice"),
              let rationale = optionalString("rationale"), let payloadSHA256 = optionalString("payload_sha256")
        else { return nil }
        var overrideRequested = false
        if let flag = o["override_requested"] {
            guard let value = flag.boolValue else { return nil }
            overrideRequested = value
        }
        return ApprovalClaims(
            v: Int(v), exp: Int64(exp), action: action, resourceID: resourceID, actorID: actorID, requestID: requestID,
            choice: choice, expectedChoice: expectedChoice, overrideRequested: overrideRequested, rationale: rationale,
            payload: o["payload"] ?? .null, payloadSHA256: payloadSHA256, nonce: nonce
        )
    }

    // The names 0.1.0 shipped, before the runtime contract named these as every language does.

    @available(*, deprecated, renamed: "mintApprovalToken(_:secret:declaration:nowSeconds:ttlSeconds:)")
    public static func mint(_ input: MintApprovalInput, secret: [UInt8], declaration: ApprovalTokenDeclaration,
                            nowSeconds: Int64, ttlSeconds: Int64? = nil) throws -> (token: String, claims: ApprovalClaims)
    {
        try mintApprovalToken(input, secret: secret, declaration: declaration, nowSeconds: nowSeconds, ttlSeconds: ttlSeconds)
    }

    @available(*, deprecated, renamed: "decodeApprovalToken(_:secret:declaration:nowSeconds:)")
    public static func decode(_ token: String, secret: [UInt8], declaration: ApprovalTokenDeclaration, nowSeconds: Int64) throws -> ApprovalClaims {
        try decodeApprovalToken(token, secret: secret, declaration: declaration, nowSeconds: nowSeconds)
    }

    @available(*, deprecated, renamed: "verifyApprovalToken(_:secret:bindings:declaration:nowSeconds:)")
    public static func verify(_ token: String, secret: [UInt8], bindings: ApprovalBindings,
                              declaration: ApprovalTokenDeclaration, nowSeconds: Int64) throws -> ApprovalClaims
    {
        try verifyApprovalToken(token, secret: secret, bindings: bindings, declaration: declaration, nowSeconds: nowSeconds)
    }
}
