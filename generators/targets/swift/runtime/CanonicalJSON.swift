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
        String(decoding: try canonicalBytes(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of `canonicalize`: the input to every hash and MAC. Written as bytes, not
    /// appended to a String scalar by scalar (several times slower in Swift), then decoded once.
    public static func canonicalBytes(_ value: JSONValue) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try write(value, into: &out, depth: 0)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], depth: Int) throws {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case let .bool(flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case let .number(number):
            out.append(contentsOf: try serializeNumber(number).utf8)
        case let .string(text):
            writeString(text, into: &out)
        case let .array(items):
            if depth >= maxDepth { throw CanonicalJSONError.tooDeep }
            out.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                try write(item, into: &out, depth: depth + 1)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(object):
            if depth >= maxDepth { throw CanonicalJSONError.tooDeep }
            out.append(UInt8(ascii: "{"))
            let sorted = object.members.sorted { precedesInUTF16($0.key, $1.key) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(member.value, into: &out, depth: depth + 1)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `a` sorts before `b` by UTF-16 code units (RFC 8785 §3.2.3), read from their UTF-8.
    /// UTF-8 byte order is code point order, which is UTF-16 order except where a scalar above
    /// U+FFFF (lead byte 0xF0-0xF4) meets one in U+E000...U+FFFF (lead byte 0xEE-0xEF): the first
    /// differing bytes decide unless both are such lead bytes, and then the UTF-16 units do.
    static func precedesInUTF16(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            guard let x = left.next() else { return right.next() != nil }
            guard let y = right.next() else { return false }
            if x == y { continue }
            if x >= 0xEE && y >= 0xEE { return a.utf16.lexicographicallyPrecedes(b.utf16) }
            return x < y
        }
    }

    /// RFC 8785 §3.2.2.2: escape only '"', '\\' and C0 controls; everything else is written raw.
    public static func serializeString(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Byte by byte over the UTF-8: every byte the RFC escapes is ASCII, and a byte of a multi-byte
    /// scalar (0x80 and up) is never one of them.
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x00...0x1F:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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
