// A strict JSON parser for untrusted bytes (RFC 8259 + I-JSON, RFC 7493). JSONSerialization and
// JSONDecoder accept duplicate keys, merge canonically equivalent keys and round big integers;
// two parties reading the same bytes then see different values, which breaks any signature or
// hash taken over them. This parser refuses all of those and reports the same error codes as the
// TypeScript and Kotlin runtimes (spec/common/vectors/strict-json.json).

import Foundation

public enum StrictJSON {
    /// Parses untrusted UTF-8 bytes; throws `StrictJSONError` for anything that is not strict JSON.
    public static func parseStrictJSON(_ bytes: [UInt8], limits: StrictJSONLimits = StrictJSONLimits()) throws -> JSONValue {
        if bytes.count > limits.maxBytes {
            throw StrictJSONError(code: .tooLarge, offset: 0, message: "input is larger than \(limits.maxBytes) bytes")
        }
        if let bad = firstInvalidUTF8Offset(bytes) {
            throw StrictJSONError(code: .invalidUTF8, offset: bad, message: "input is not valid UTF-8")
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            throw StrictJSONError(code: .bom, offset: 0, message: "input starts with a byte order mark")
        }
        var parser = Parser(bytes: bytes, maxDepth: limits.maxDepth)
        return try parser.parseDocument()
    }

    public static func parseStrictJSON(_ data: Data, limits: StrictJSONLimits = StrictJSONLimits()) throws -> JSONValue {
        try parseStrictJSON([UInt8](data), limits: limits)
    }

    /// Parses text; offsets in errors count UTF-8 bytes.
    public static func parseStrictJSON(_ text: String, limits: StrictJSONLimits = StrictJSONLimits()) throws -> JSONValue {
        try parseStrictJSON(Array(text.utf8), limits: limits)
    }

    /// Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or nil when all of it is valid.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let need: Int
            let minimum: UInt32
            if b >= 0xC2 && b <= 0xDF {
                need = 1
                minimum = 0x80
            } else if b >= 0xE0 && b <= 0xEF {
                need = 2
                minimum = 0x800
            } else if b >= 0xF0 && b <= 0xF4 {
                need = 3
                minimum = 0x10000
            } else {
                return i
            }
            var scalar = UInt32(b) & (0x3F >> UInt32(need))
            for k in 1...need {
                guard i + k < bytes.count else { return i }
                let c = bytes[i + k]
                if c & 0xC0 != 0x80 { return i }
                scalar = (scalar << 6) | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar <= 0xDFFF) { return i }
            i += need + 1
        }
        return nil
    }

    // The names 0.1.0 shipped, before the runtime contract named these as every language does.

    @available(*, deprecated, renamed: "parseStrictJSON(_:limits:)")
    public static func parse(_ bytes: [UInt8], limits: StrictJSONLimits = StrictJSONLimits()) throws -> JSONValue {
        try parseStrictJSON(bytes, limits: limits)
    }

    @available(*, deprecated, renamed: "parseStrictJSON(_:limits:)")
    public static func parse(_ data: Data, limits: StrictJSONLimits = StrictJSONLimits()) throws -> JSONValue {
        try parseStrictJSON(data, limits: limits)
    }

    @available(*, deprecated, renamed: "parseStrictJSON(_:limits:)")
    public static func parse(_ text: String, limits: StrictJSONLimits = StrictJSONLimits()) throws -> JSONValue {
        try parseStrictJSON(text, limits: limits)
    }
}

private struct Parser {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ code: StrictJSONErrorCode, _ at: Int, _ message: String) -> StrictJSONError {
        StrictJSONError(code: code, offset: at, message: message)
    }

    private var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func byte(at position: Int) -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw fail(.trailingData, index, "data after the JSON value")
        }
        return value
    }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
            index += 1
        }
    }

    /// `depth` is the number of containers already open around this value.
    private mutating func parseValue(depth: Int) throws -> JSONValue {
        guard let c = current else {
            throw fail(.unexpectedEnd, index, "expected a value")
        }
        switch c {
        case 0x7B, 0x5B:
            if depth >= maxDepth {
                throw fail(.tooDeep, index, "nesting deeper than \(maxDepth)")
            }
            if c == 0x7B {
                return try parseObject(depth: depth)
            }
            return try parseArray(depth: depth)
        case 0x22:
            return .string(try readString())
        case 0x2D, 0x30...0x39:
            return .number(try readNumber())
        default:
            return try readLiteral()
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        index += 1
        skipWhitespace()
        var items: [JSONValue] = []
        if current == 0x5D {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard let next = current else {
                throw fail(.unexpectedEnd, index, "input ends inside a container")
            }
            if next == 0x2C {
                index += 1
                skipWhitespace()
                if current == 0x5D || current == 0x7D {
                    throw fail(.unexpectedCharacter, index, "trailing comma")
                }
                continue
            }
            if next == 0x5D {
                index += 1
                return .array(items)
            }
            throw fail(.unexpectedCharacter, index, "expected ',' or ']'")
        }
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        index += 1
        skipWhitespace()
        var object = JSONObject()
        if current == 0x7D {
            index += 1
            return .object(object)
        }
        // Names are compared by their UTF-8 bytes: equal bytes, equal scalars, equal UTF-16 units.
        // Up to 16 members a scan of the names so far (sameKey: a memcmp each) is cheaper than
        // hashing every name byte by byte into a Set; past that, the Set, so a large object stays
        // linear.
        var seen: Set<[UInt8]>? = nil
        while true {
            let start = index
            guard let quote = current else {
                throw fail(.unexpectedEnd, index, "input ends inside an object")
            }
            if quote != 0x22 {
                throw fail(.unexpectedCharacter, index, "expected a member name")
            }
            let key = try readString()
            let duplicate: Bool
            if object.members.count < 16 {
                duplicate = object.members.contains { sameKey($0.key, key) }
            } else {
                if seen == nil { seen = Set(object.members.map { Array($0.key.utf8) }) }
                duplicate = !seen!.insert(Array(key.utf8)).inserted
            }
            if duplicate {
                throw fail(.duplicateKey, start, "duplicate member name")
            }
            skipWhitespace()
            guard let colon = current else {
                throw fail(.unexpectedEnd, index, "input ends inside an object")
            }
            if colon != 0x3A {
                throw fail(.unexpectedCharacter, index, "expected ':'")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            object.appendUnchecked(key, value)
            skipWhitespace()
            guard let next = current else {
                throw fail(.unexpectedEnd, index, "input ends inside a container")
            }
            if next == 0x2C {
                index += 1
                skipWhitespace()
                if current == 0x5D || current == 0x7D {
                    throw fail(.unexpectedCharacter, index, "trailing comma")
                }
                continue
            }
            if next == 0x7D {
                index += 1
                return .object(object)
            }
            throw fail(.unexpectedCharacter, index, "expected ',' or '}'")
        }
    }

    private func hasPrefix(_ text: String, at position: Int) -> Bool {
        let expected = Array(text.utf8)
        guard position + expected.count <= bytes.count else { return false }
        return Array(bytes[position..<(position + expected.count)]) == expected
    }

    private mutating func readLiteral() throws -> JSONValue {
        if hasPrefix("true", at: index) {
            index += 4
            return .bool(true)
        }
        if hasPrefix("false", at: index) {
            index += 5
            return .bool(false)
        }
        if hasPrefix("null", at: index) {
            index += 4
            return .null
        }
        for literal in ["NaN", "Infinity", "+Infinity", "-Infinity", "undefined", "'", "+"] where hasPrefix(literal, at: index) {
            throw fail(.nonJSONLiteral, index, "not a JSON value (NaN, Infinity, quotes or sign)")
        }
        throw fail(.unexpectedCharacter, index, "expected a value")
    }

    private func isDigit(_ c: UInt8?) -> Bool {
        guard let c = c else { return false }
        return c >= 0x30 && c <= 0x39
    }

    private mutating func readNumber() throws -> Double {
        let start = index
        var i = index
        if bytes[i] == 0x2D {
            i += 1
            if !isDigit(byte(at: i)) {
                if hasPrefix("Infinity", at: i) || hasPrefix("NaN", at: i) {
                    throw fail(.nonJSONLiteral, start, "not a JSON value (NaN, Infinity, quotes or sign)")
                }
                throw fail(.invalidNumber, start, "malformed number")
            }
        }
        if bytes[i] == 0x30 {
            i += 1
        } else {
            while isDigit(byte(at: i)) { i += 1 }
        }
        var integral = true
        if byte(at: i) == 0x2E && isDigit(byte(at: i + 1)) {
            integral = false
            i += 1
            while isDigit(byte(at: i)) { i += 1 }
        }
        if let e = byte(at: i), e == 0x65 || e == 0x45 {
            var j = i + 1
            if let sign = byte(at: j), sign == 0x2B || sign == 0x2D { j += 1 }
            if isDigit(byte(at: j)) {
                integral = false
                i = j
                while isDigit(byte(at: i)) { i += 1 }
            }
        }
        // "01", "1.", "1e" and "-" leave a digit, '.', or 'e' behind the longest valid prefix.
        if let following = byte(at: i), isDigit(following) || following == 0x2E || following == 0x65 || following == 0x45 {
            throw fail(.invalidNumber, start, "malformed number")
        }
        let literal = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw fail(.numberOutOfRange, start, "number overflows a double")
        }
        // I-JSON: an integer written without fraction or exponent must survive the round trip
        // through a double, or two readers may see different values.
        // (Every integer up to 2^53 is exact, so only long literals need the digit comparison.)
        if integral && literal.utf8.count > 15 {
            let digits = literal.hasPrefix("-") ? String(literal.dropFirst()) : literal
            if ExactDecimal.integerDigits(of: value.magnitude) != digits {
                throw fail(.numberNotExact, start, "integer is not exactly representable as a double")
            }
        }
        index = i
        return value == 0 ? 0 : value // -0 is 0 in JSON's data model and in RFC 8785.
    }

    private mutating func readString() throws -> String {
        var i = index + 1
        var out: [UInt8] = []
        while true {
            guard let c = byte(at: i) else {
                throw fail(.unexpectedEnd, i, "input ends inside a string")
            }
            if c == 0x22 {
                index = i + 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 {
                throw fail(.invalidString, i, "unescaped control character in string")
            }
            if c != 0x5C {
                out.append(c)
                i += 1
                continue
            }
            guard let e = byte(at: i + 1) else {
                throw fail(.unexpectedEnd, i, "input ends inside a string")
            }
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                let unit = try readHex4(at: i + 2)
                if unit >= 0xD800 && unit <= 0xDBFF {
                    var low: UInt32 = 0
                    if byte(at: i + 6) == 0x5C && byte(at: i + 7) == 0x75 {
                        low = try readHex4(at: i + 8)
                    }
                    if low < 0xDC00 || low > 0xDFFF {
                        throw fail(.loneSurrogate, i, "escaped high surrogate without a low surrogate")
                    }
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    appendUTF8(scalar, to: &out)
                    i += 12
                    continue
                }
                if unit >= 0xDC00 && unit <= 0xDFFF {
                    throw fail(.loneSurrogate, i, "escaped low surrogate without a high surrogate")
                }
                appendUTF8(unit, to: &out)
                i += 6
                continue
            default:
                throw fail(.invalidString, i, "invalid escape sequence")
            }
            i += 2
        }
    }

    private func readHex4(at position: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let c = byte(at: position + k) else {
                // Only a well-formed prefix cut off by the end of input is "unexpected end".
                throw fail(.unexpectedEnd, position, "input ends inside a \\u escape")
            }
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw fail(.invalidString, position, "invalid \\u escape")
            }
            value = value * 16 + digit
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        if scalar < 0x80 {
            out.append(UInt8(scalar))
        } else if scalar < 0x800 {
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        } else if scalar < 0x10000 {
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
