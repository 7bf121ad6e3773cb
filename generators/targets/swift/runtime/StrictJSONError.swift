// What the strict parser refuses, and its limits: the error codes are the TypeScript and Kotlin
// runtimes' own (spec/common/vectors/strict-json.json).

import Foundation

public enum StrictJSONErrorCode: String, Sendable, CaseIterable {
    case tooLarge = "too-large"
    case invalidUTF8 = "invalid-utf8"
    case bom = "bom"
    case loneSurrogate = "lone-surrogate"
    case unexpectedEnd = "unexpected-end"
    case unexpectedCharacter = "unexpected-character"
    case nonJSONLiteral = "non-json-literal"
    case invalidNumber = "invalid-number"
    case numberOutOfRange = "number-out-of-range"
    case numberNotExact = "number-not-exact"
    case invalidString = "invalid-string"
    case duplicateKey = "duplicate-key"
    case tooDeep = "too-deep"
    case trailingData = "trailing-data"
}

public struct StrictJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: StrictJSONErrorCode
    /// Byte offset into the UTF-8 input.
    public let offset: Int
    public let message: String

    public var description: String { "\(code.rawValue): \(message) (at offset \(offset))" }
}

public struct StrictJSONLimits: Sendable {
    /// Largest accepted input, in UTF-8 bytes.
    public var maxBytes: Int
    /// Deepest accepted nesting of arrays and objects (a scalar at top level has depth 0).
    public var maxDepth: Int

    public static let defaultMaxBytes = 4 * 1024 * 1024
    public static let defaultMaxDepth = 64

    public init(maxBytes: Int = StrictJSONLimits.defaultMaxBytes, maxDepth: Int = StrictJSONLimits.defaultMaxDepth) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}
