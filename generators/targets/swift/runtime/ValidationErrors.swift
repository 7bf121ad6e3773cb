// What validation reports: one violation, or the failure of a typed decode.

import Foundation

/// One schema violation (or cross-field rule, keyword "x-rule"; or parse error, keyword "json").
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// JSON pointer to the offending value, e.g. `/provider/config/endpoint`; "" is the root.
    public let instancePath: String
    /// The JSON Schema keyword that failed.
    public let keyword: String
    public let message: String
    /// The x-rules id for keyword "x-rule".
    public let rule: String?

    public init(instancePath: String, keyword: String, message: String, rule: String? = nil) {
        self.instancePath = instancePath
        self.keyword = keyword
        self.message = message
        self.rule = rule
    }

    public var description: String {
        "\(instancePath.isEmpty ? "(root)" : instancePath): \(keyword): \(message)"
    }
}

/// Thrown when a value does not match its message's schema or rules.
public struct ValidationFailure: Error, Sendable, CustomStringConvertible {
    public let errors: [ValidationError]

    public var description: String { errors.map { $0.description }.joined(separator: "\n") }
}
