// The non-RFC 8785 JSON writers real agent-provider implementations hash with (divergences with a
// `canonicalization` entry). Used only to explain a failed signature, never to accept one. Same
// meaning, step for step, as the TypeScript runtime's canonical-dialects.ts.

import Foundation

/// One recorded platform JSON writer.
public struct CanonicalizationDialect: Sendable, Equatable {
    public var divergence: String
    public var name: String
    public var numbers: String
    public var exponentPlus: Bool
    public var integerTokens: [String]
    public var keyOrder: String
    public var escapeSlash: String
    public var escapeRanges: [ClosedRange<UInt32>]
    public var duplicateKeys: String
    public var absentHashedField: String

    /// The dialects as the generator writes them: a JSON array of canonicalization entries.
    public static func list(fromJSON text: String) throws -> [CanonicalizationDialect] {
        try (StrictJSON.parseStrictJSON(text).arrayValue ?? []).map { entry in
            let o = entry.objectValue ?? JSONObject()
            let s = { (key: String) in o[key]?.stringValue ?? "" }
            return CanonicalizationDialect(
                divergence: s("divergence"), name: s("name"), numbers: s("numbers"),
                exponentPlus: o["exponentPlus"]?.boolValue ?? false,
                integerTokens: (o["integerTokens"]?.arrayValue ?? []).compactMap { $0.stringValue },
                keyOrder: s("keyOrder"), escapeSlash: s("escapeSlash"),
                escapeRanges: (o["escapeRanges"]?.arrayValue ?? []).compactMap { r in
                    guard let pair = r.arrayValue, pair.count == 2, let lo = pair[0].numberValue, let hi = pair[1].numberValue else { return nil }
                    return UInt32(lo)...UInt32(hi)
                },
                duplicateKeys: s("duplicateKeys"), absentHashedField: o["absentHashedField"]?.stringValue ?? "refuse")
        }
    }
}

/// JSON text as tokens: numbers keep their lexeme, objects every member in order.
public indirect enum LexValue: Sendable, Equatable {
    case num(String)
    case str(String)
    case lit(String)
    case arr([LexValue])
    case obj([(key: String, value: LexValue)])

    public static func == (a: LexValue, b: LexValue) -> Bool {
        switch (a, b) {
        case let (.num(x), .num(y)), let (.lit(x), .lit(y)): return x == y
        case let (.str(x), .str(y)): return Array(x.utf8) == Array(y.utf8)
        case let (.arr(x), .arr(y)): return x == y
        case let (.obj(x), .obj(y)): return x.count == y.count && zip(x, y).allSatisfy { Array($0.key.utf8) == Array($1.key.utf8) && $0.value == $1.value }
        default: return false
        }
    }

    /// The last member named `key` (duplicates: last wins).
    func member(_ key: String) -> LexValue? {
        guard case let .obj(members) = self else { return nil }
        return members.last { Array($0.key.utf8) == Array(key.utf8) }?.value
    }

    static func from(_ value: JSONValue) -> LexValue {
        switch value {
        case .null: return .lit("null")
        case let .bool(b): return .lit(b ? "true" : "false")
        case let .number(n): return .num((try? CanonicalJSON.serializeNumber(n)) ?? "0")
        case let .string(s): return .str(s)
        case let .array(items): return .arr(items.map(from))
        case let .object(o): return .obj(o.members.map { (key: $0.key, value: from($0.value)) })
        }
    }
}

public enum CanonicalDialects {
    private static let maxDepth = 64

    /// Parses JSON keeping number lexemes and duplicate members; nil when the text is not JSON.
    public static func parseLexical(_ text: String) -> LexValue? {
        var reader = LexReader(units: Array(text.utf16))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.ws()
        return reader.i == reader.units.count ? value : nil
    }

    private struct LexReader {
        let units: [UInt16]
        var i = 0
        init(units: [UInt16]) { self.units = units }

        mutating func ws() {
            while i < units.count, [0x20, 0x09, 0x0A, 0x0D].contains(units[i]) { i += 1 }
        }

        mutating func str() -> String? {
            guard i < units.count, units[i] == 0x22 else { return nil }
            i += 1
            var out: [UInt16] = []
            while i < units.count {
                let c = units[i]
                i += 1
                if c == 0x22 { return String(decoding: out, as: UTF16.self) }
                if c < 0x20 { return nil }
                if c != 0x5C { out.append(c); continue }
                guard i < units.count else { return nil }
                let e = units[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    // Four ASCII hex digits exactly: UInt16(_:radix:) alone would also take a sign ("\u+041").
                    let isHex = { (u: UInt16) in (0x30...0x39).contains(u) || (0x41...0x46).contains(u) || (0x61...0x66).contains(u) }
                    guard i + 4 <= units.count, units[i..<i + 4].allSatisfy(isHex), let code = UInt16(String(decoding: units[i..<i + 4], as: UTF16.self), radix: 16) else { return nil }
                    out.append(code)
                    i += 4
                default: return nil
                }
            }
            return nil
        }

        mutating func number() -> String? {
            let start = i
            func digits() -> Int { let s = i; while i < units.count, (0x30...0x39).contains(units[i]) { i += 1 }; return i - s }
            if i < units.count, units[i] == 0x2D { i += 1 }
            guard i < units.count, (0x30...0x39).contains(units[i]) else { i = start; return nil }
            if units[i] == 0x30 { i += 1 } else { _ = digits() }
            if i < units.count, units[i] == 0x2E {
                i += 1
                if digits() == 0 { i = start; return nil }
            }
            if i < units.count, units[i] == 0x65 || units[i] == 0x45 {
                i += 1
                if i < units.count, units[i] == 0x2B || units[i] == 0x2D { i += 1 }
                if digits() == 0 { i = start; return nil }
            }
            return String(decoding: units[start..<i], as: UTF16.self)
        }

        mutating func value(depth: Int) -> LexValue? {
            if depth > CanonicalDialects.maxDepth { return nil }
            ws()
            guard i < units.count else { return nil }
            let c = units[i]
            if c == 0x7B || c == 0x5B {
                i += 1
                let isObject = c == 0x7B
                let close: UInt16 = isObject ? 0x7D : 0x5D
                var members: [(key: String, value: LexValue)] = []
                var items: [LexValue] = []
                ws()
                if i < units.count, units[i] == close { i += 1; return isObject ? .obj(members) : .arr(items) }
                while true {
                    ws()
                    var key = ""
                    if isObject {
                        guard let k = str() else { return nil }
                        key = k
                        ws()
                        guard i < units.count, units[i] == 0x3A else { return nil }
                        i += 1
                    }
                    guard let v = value(depth: depth + 1) else { return nil }
                    if isObject { members.append((key: key, value: v)) } else { items.append(v) }
                    ws()
                    guard i < units.count else { return nil }
                    let sep = units[i]
                    i += 1
                    if sep == 0x2C { continue }
                    if sep == close { return isObject ? .obj(members) : .arr(items) }
                    return nil
                }
            }
            if c == 0x22 { return str().map { .str($0) } }
            if let n = number() { return .num(n) }
            for literal in ["true", "false", "null"] {
                let l = Array(literal.utf16)
                if i + l.count <= units.count, Array(units[i..<i + l.count]) == l { i += l.count; return .lit(literal) }
            }
            return nil
        }
    }
}
