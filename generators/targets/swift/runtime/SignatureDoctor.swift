// The signature doctor: when an hmac-sha256-v1 signature fails under RFC 8785, name each recorded
// dialect under which it verifies and where its bytes part from RFC 8785's. A diagnosis explains
// a refusal; it never accepts. Same steps as the TypeScript runtime's signature-doctor.ts.

import Foundation

public struct SignatureDiagnosis: Sendable, Equatable {
    public var divergence: String
    public var dialect: String
    /// The hashed field whose bytes differ, or nil when they equal RFC 8785's and only the parse differs.
    public var field: String?
    /// UTF-8 byte offset of the first difference, or nil when RFC 8785 refuses the value.
    public var offset: Int?
    public var rfc8785: String?
    public var text: String?
}

public struct SignatureExplanation: Sendable, Equatable {
    /// nil when the signature verified under RFC 8785.
    public var reasonCode: String?
    public var diagnoses: [SignatureDiagnosis]
    public var signingInput: String?
    public var verified: Bool { reasonCode == nil }
}

extension CanonicalDialects {
    // Shortest round-trip digits and the decimal point's position (value = 0.d1d2... x 10^point).
    private static func shortest(_ x: Double) -> (digits: String, point: Int) {
        let (digits, n) = CanonicalJSON.shortestDigits(x.magnitude)
        return (String(digits.map { Character(Unicode.Scalar($0 + 0x30)) }), n)
    }

    private static func ryuLayout(_ x: Double, plus: Bool) -> String {
        if x == 0 { return x.sign == .minus ? "-0.0" : "0.0" }
        let sign = x < 0 ? "-" : ""
        let (d, point) = shortest(x)
        let n = d.count
        if point >= n && point <= 16 { return sign + d + String(repeating: "0", count: point - n) + ".0" }
        if point > 0 && point <= 16 { return sign + String(d.prefix(point)) + "." + String(d.dropFirst(point)) }
        if point > -5 && point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + d }
        let exp = point - 1
        let mantissa = n > 1 ? String(d.prefix(1)) + "." + String(d.dropFirst(1)) : d
        return sign + mantissa + "e" + (plus && exp > 0 ? "+" : "") + String(exp)
    }

    /// Java Double.toString with shortest digits (JDK 19+): plain in [1e-3, 1e7), else d.dddEn.
    public static func javaDoubleToString(_ x: Double) -> String {
        if x == 0 { return x.sign == .minus ? "-0.0" : "0.0" }
        let sign = x < 0 ? "-" : ""
        let (d, point) = shortest(x)
        let n = d.count
        if x.magnitude >= 1e-3 && x.magnitude < 1e7 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + d }
            if point >= n { return sign + d + String(repeating: "0", count: point - n) + ".0" }
            return sign + String(d.prefix(point)) + "." + String(d.dropFirst(point))
        }
        return sign + String(d.prefix(1)) + "." + (n > 1 ? String(d.dropFirst(1)) : "0") + "E" + String(point - 1)
    }

    /// Java new BigDecimal(token).toString(): plain when the scale is >= 0 and the exponent >= -6.
    public static func javaBigDecimalToString(_ lexeme: String) -> String {
        var body = Substring(lexeme)
        var sign = ""
        if body.hasPrefix("-") { sign = "-"; body = body.dropFirst() }
        var exp = 0
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exp = Int(body[body.index(after: e)...].replacingOccurrences(of: "+", with: "")) ?? 0
            body = body[..<e]
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let int = String(parts[0])
        let frac = parts.count > 1 ? String(parts[1]) : ""
        var unscaled = Substring(int + frac)
        while unscaled.count > 1 && unscaled.hasPrefix("0") { unscaled = unscaled.dropFirst() }
        let scale = frac.count - exp
        let adjusted = -scale + (unscaled.count - 1)
        if scale >= 0 && adjusted >= -6 {
            if scale == 0 { return sign + String(unscaled) }
            let padded = String(repeating: "0", count: max(0, scale + 1 - unscaled.count)) + String(unscaled)
            return sign + String(padded.prefix(padded.count - scale)) + "." + String(padded.suffix(scale))
        }
        let mantissa = unscaled.count > 1 ? String(unscaled.prefix(1)) + "." + String(unscaled.dropFirst(1)) : String(unscaled)
        return sign + mantissa + "E" + (adjusted >= 0 ? "+" : "") + String(adjusted)
    }

    private static func fits(_ lexeme: String, upTo u64: Bool) -> Bool {
        Int64(lexeme) != nil || (u64 && UInt64(lexeme) != nil)
    }

    /// How `dialect` writes one number token, or nil when it would have to write an infinite double
    /// (a token past the double range, e.g. 1e400): no platform writer produces that text, so the
    /// dialect is not tried rather than compared with made-up bytes.
    public static func formatNumberToken(_ lexeme: String, _ dialect: CanonicalizationDialect, integers: String) -> String? {
        guard let value = Double(lexeme) else { return nil }
        let integer = lexeme.allSatisfy { $0 == "-" || $0.isASCII && $0.isNumber }
        let digits = lexeme == "-0" ? "0" : lexeme
        func double(_ layout: (Double) -> String) -> String? { value.isFinite ? layout(value) : nil }
        switch dialect.numbers {
        case "serde-json":
            if integer && lexeme != "-0" && fits(lexeme, upTo: true) { return digits }
            return double { ryuLayout($0, plus: dialect.exponentPlus) }
        case "java-double":
            if integer && integers == "exact" && fits(lexeme, upTo: false) { return digits }
            return double(javaDoubleToString)
        case "java-bigdecimal":
            if integer && lexeme == "-0" { return "-0.0" }
            if integer { return integers == "exact" ? digits : double(javaDoubleToString) }
            if value == 0 && lexeme.hasPrefix("-") { return "-0.0" }
            return javaBigDecimalToString(lexeme)
        default:
            return try? CanonicalJSON.serializeNumber(value)
        }
    }

    private static func quote(_ s: String, _ dialect: CanonicalizationDialect) -> String {
        var out = "\""
        var previous: Unicode.Scalar?
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || dialect.escapeRanges.contains(where: { $0.contains(scalar.value) }) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else if scalar == "/" && (dialect.escapeSlash == "all" || (dialect.escapeSlash == "after-lt" && previous == "<")) {
                    out += "\\/"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            previous = scalar
        }
        return out + "\""
    }

    /// The text `dialect` would hash for `value`, or nil when it refuses it (duplicate keys).
    public static func render(_ value: LexValue, _ dialect: CanonicalizationDialect, integers: String) -> String? {
        switch value {
        case let .num(lexeme): return formatNumberToken(lexeme, dialect, integers: integers)
        case let .str(s): return quote(s, dialect)
        case let .lit(l): return l
        case let .arr(items):
            var parts: [String] = []
            for item in items {
                guard let text = render(item, dialect, integers: integers) else { return nil }
                parts.append(text)
            }
            return "[" + parts.joined(separator: ",") + "]"
        case let .obj(members):
            var order: [String] = []
            var byKey: [[UInt16]: (key: String, value: LexValue)] = [:]
            for member in members {
                let units = Array(member.key.utf16)
                if byKey[units] != nil {
                    if dialect.duplicateKeys == "reject" { return nil }
                } else {
                    order.append(member.key)
                }
                byKey[units] = member
            }
            let sorted = dialect.keyOrder == "utf16"
                ? order.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
                : order.sorted { $0.unicodeScalars.map(\.value).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
            var parts: [String] = []
            for key in sorted {
                guard let member = byKey[Array(key.utf16)], let text = render(member.value, dialect, integers: integers) else { return nil }
                parts.append(quote(key, dialect) + ":" + text)
            }
            return "{" + parts.joined(separator: ",") + "}"
        }
    }
}

public enum SignatureDoctor {
    private static func dialectInput(_ declaration: HMACSHA256V1Declaration, _ message: LexValue, _ dialect: CanonicalizationDialect, integers: String) -> (input: String, hashed: [(field: String, text: String)])? {
        // A parser that refuses duplicate keys refuses the whole message, not only its hashed values.
        if dialect.duplicateKeys == "reject", case let .obj(members) = message {
            var names = Set<[UInt8]>()
            for member in members where !names.insert(Array(member.key.utf8)).inserted { return nil }
        }
        var lines: [String] = []
        var hashed: [(field: String, text: String)] = []
        for line in declaration.lines {
            let absent: LexValue? = line.value != .string && dialect.absentHashedField == "null" ? .lit("null") : nil
            guard let raw = message.member(line.field) ?? line.defaultValue.map(LexValue.from) ?? absent else { return nil }
            if line.value == .string {
                guard case let .str(text) = raw else { return nil }
                lines.append(line.name + "=" + text)
            } else {
                guard let text = CanonicalDialects.render(raw, dialect, integers: integers) else { return nil }
                hashed.append((field: line.field, text: text))
                lines.append(line.name + "=" + Base64.encode(Crypto.sha256(Array(text.utf8)), alphabet: .standard))
            }
        }
        return (lines.joined(separator: declaration.lineSeparator), hashed)
    }

    /// Verifies `text` under RFC 8785 and, when that fails, tries each recorded dialect on the received tokens.
    public static func explain(_ declaration: HMACSHA256V1Declaration, dialects: [CanonicalizationDialect], text: String, key: [UInt8]) -> SignatureExplanation {
        var reason = ""
        var signingInput: String?
        var jcsTexts: [String: String] = [:]
        do {
            guard case let .object(message) = try StrictJSON.parseStrictJSON(text) else {
                return SignatureExplanation(reasonCode: "not-an-object", diagnoses: [], signingInput: nil)
            }
            do {
                try HMACSHA256V1.verifyHMACV1(declaration, message, key: key)
                return SignatureExplanation(reasonCode: nil, diagnoses: [], signingInput: nil)
            } catch let error as HMACV1Error {
                reason = error.rawValue
            }
            signingInput = try? HMACSHA256V1.hmacV1SigningInput(declaration, message)
            for line in declaration.lines where line.value != .string {
                if let raw = message[line.field] ?? line.defaultValue, let canonical = try? CanonicalJSON.canonicalize(raw) { jcsTexts[line.field] = canonical }
            }
        } catch let error as StrictJSONError {
            reason = error.code.rawValue
        } catch {
            reason = "invalid-json"
        }
        var diagnoses: [SignatureDiagnosis] = []
        guard let message = CanonicalDialects.parseLexical(text),
              case let .str(signature)? = message.member(declaration.signatureField),
              case let .str(algorithm)? = message.member(declaration.algorithmField), algorithm == declaration.algorithmID,
              let received = Base64.decode(signature, alphabet: .standard), received.count == 32, !key.isEmpty
        else { return SignatureExplanation(reasonCode: reason, diagnoses: [], signingInput: signingInput) }
        for dialect in dialects {
            for integers in dialect.integerTokens {
                guard let built = dialectInput(declaration, message, dialect, integers: integers),
                      Crypto.constantTimeEqual(received, Crypto.hmacSHA256(key: key, message: Array(built.input.utf8)))
                else { continue }
                var diagnosis = SignatureDiagnosis(divergence: dialect.divergence, dialect: dialect.name)
                for (field, dialectText) in built.hashed {
                    let jcs = jcsTexts[field]
                    if let jcs, Array(jcs.utf8) == Array(dialectText.utf8) { continue }
                    let offset = jcs.map { a in zip(Array(a.utf8), Array(dialectText.utf8)).prefix { $0 == $1 }.count }
                    diagnosis = SignatureDiagnosis(divergence: dialect.divergence, dialect: dialect.name, field: field, offset: offset, rfc8785: jcs, text: dialectText)
                    break
                }
                diagnoses.append(diagnosis)
                break
            }
        }
        return SignatureExplanation(reasonCode: reason, diagnoses: diagnoses, signingInput: signingInput)
    }
}

extension SignatureDiagnosis {
    init(divergence: String, dialect: String) {
        self.init(divergence: divergence, dialect: dialect, field: nil, offset: nil, rfc8785: nil, text: nil)
    }
}
