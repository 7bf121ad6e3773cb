// RFC 8785 JSON Canonicalization Scheme. The bytes produced here are what gets hashed and signed,
// so every rule is explicit: members sorted by UTF-16 code units (not by `String <`, which compares
// grapheme clusters), numbers in ECMAScript form, strings escaped only where the RFC says.

import Foundation

public enum CanonicalJSONError: Error, Equatable, Sendable {
    /// NaN or an infinity: JSON has no form for them ("non-finite-number" in every runtime).
    case nonFiniteNumber
    /// Nesting deeper than `CanonicalJSON.maxDepth` ("too-deep").
    case tooDeep

    public var code: String {
        switch self {
        case .nonFiniteNumber: return "non-finite-number"
        case .tooDeep: return "too-deep"
        }
    }
}

public enum CanonicalJSON {
    /// Deeper values than this are refused rather than risk exhausting the stack.
    public static let maxDepth = 512

    /// The canonical text of `value`.
    public static func canonicalize(_ value: JSONValue) throws -> String {
        var out = ""
        try write(value, into: &out, depth: 0)
        return out
    }

    /// The UTF-8 bytes of `canonicalize`: the input to every hash and MAC.
    public static func canonicalBytes(_ value: JSONValue) throws -> [UInt8] {
        Array(try canonicalize(value).utf8)
    }

    private static func write(_ value: JSONValue, into out: inout String, depth: Int) throws {
        switch value {
        case .null:
            out += "null"
        case let .bool(flag):
            out += flag ? "true" : "false"
        case let .number(number):
            out += try serializeNumber(number)
        case let .string(text):
            writeString(text, into: &out)
        case let .array(items):
            if depth >= maxDepth { throw CanonicalJSONError.tooDeep }
            out += "["
            for (position, item) in items.enumerated() {
                if position > 0 { out += "," }
                try write(item, into: &out, depth: depth + 1)
            }
            out += "]"
        case let .object(object):
            if depth >= maxDepth { throw CanonicalJSONError.tooDeep }
            out += "{"
            let sorted = object.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                try write(member.value, into: &out, depth: depth + 1)
            }
            out += "}"
        }
    }

    /// RFC 8785 §3.2.2.2: escape only '"', '\\' and C0 controls; everything else is written raw.
    public static func serializeString(_ text: String) -> String {
        var out = ""
        writeString(text, into: &out)
        return out
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")

    private static func writeString(_ text: String, into out: inout String) {
        out.unicodeScalars.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0C: out += "\\f"
            case 0x0D: out += "\\r"
            case 0x00...0x1F:
                out += "\\u00"
                out.append(hexDigits[Int(scalar.value >> 4)])
                out.append(hexDigits[Int(scalar.value & 0xF)])
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out.unicodeScalars.append("\"")
    }

    /// ECMAScript Number::toString (ECMA-262 Number::toString, adopted by RFC 8785 §3.2.2.3); -0 is "0".
    public static func serializeNumber(_ value: Double) throws -> String {
        guard value.isFinite else { throw CanonicalJSONError.nonFiniteNumber }
        if value == 0 { return "0" }
        if value.magnitude < 9_007_199_254_740_992 && value == value.rounded(.towardZero) {
            return String(Int64(value))
        }
        let (digits, n) = shortestDigits(value.magnitude)
        let text = layout(digits: digits, n: n)
        return value < 0 ? "-" + text : text
    }

    /// The shortest round-trip digits of `value` (no leading or trailing zeros) and the exponent n
    /// with value = 0.d1d2... × 10^n. Swift's `description` already picks the shortest digits that
    /// read back as the same double, nearest to it; only its layout differs from ECMAScript's.
    static func shortestDigits(_ value: Double) -> (digits: [UInt8], n: Int) {
        let text = value.description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            var exponentText = text[text.index(after: e)...]
            if exponentText.hasPrefix("+") { exponentText = exponentText.dropFirst() }
            exponent = Int(exponentText) ?? 0
        }
        var integerPart = mantissa
        var fractionPart: Substring = ""
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fractionPart = mantissa[mantissa.index(after: dot)...]
        }
        var digits = (integerPart + fractionPart).utf8.map { $0 - 0x30 }
        var n = integerPart.count + exponent
        while let first = digits.first, first == 0 {
            digits.removeFirst()
            n -= 1
        }
        while let last = digits.last, last == 0 {
            digits.removeLast()
        }
        return (digits, n)
    }

    /// Steps 6 to 10 of Number::toString: plain, fractional, small or exponential form.
    static func layout(digits: [UInt8], n: Int) -> String {
        let k = digits.count
        let text = String(digits.map { Character(Unicode.Scalar($0 + 0x30)) })
        if k <= n && n <= 21 {
            return text + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            return String(text.prefix(n)) + "." + String(text.dropFirst(n))
        }
        if -6 < n && n <= 0 {
            return "0." + String(repeating: "0", count: -n) + text
        }
        let exponent = n - 1
        let sign = exponent < 0 ? "-" : "+"
        let mantissa = k == 1 ? text : String(text.prefix(1)) + "." + String(text.dropFirst(1))
        return mantissa + "e" + sign + String(exponent.magnitude)
    }
}

extension JSONValue {
    /// RFC 8785 canonical text.
    public func canonicalString() throws -> String {
        try CanonicalJSON.canonicalize(self)
    }

    /// RFC 8785 canonical UTF-8 bytes.
    public func canonicalBytes() throws -> [UInt8] {
        try CanonicalJSON.canonicalBytes(self)
    }
}
