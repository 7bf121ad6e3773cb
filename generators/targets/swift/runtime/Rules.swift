// The x-rules of a message: cross-field rules JSON Schema cannot state. The rule kinds are
// generic; which fields they relate is data generated from the spec. A rule applies only when
// every pointer it names resolves to a non-null value, and it only ever sees a schema-valid value.

import Foundation

public enum CrossFieldRule: Sendable, Equatable {
    case equal(id: String, message: String, left: String, right: String)
    case urlOriginIn(id: String, message: String, url: String, list: String)
    case semverLte(id: String, message: String, lower: String, upper: String)
    case semverRangeIncludes(id: String, message: String, min: String, max: String, version: String)
    case uniqueBy(id: String, message: String, array: String, key: String)
    case lastItemEquals(id: String, message: String, array: String, key: String, value: String)
    case noSecrets(id: String, message: String, text: String)
    case whatwgURL(id: String, message: String, url: String, form: String)

    public var id: String {
        switch self {
        case let .equal(id, _, _, _), let .urlOriginIn(id, _, _, _), let .semverLte(id, _, _, _),
             let .semverRangeIncludes(id, _, _, _, _), let .uniqueBy(id, _, _, _), let .lastItemEquals(id, _, _, _, _),
             let .noSecrets(id, _, _), let .whatwgURL(id, _, _, _):
            return id
        }
    }

    public var message: String {
        switch self {
        case let .equal(_, message, _, _), let .urlOriginIn(_, message, _, _), let .semverLte(_, message, _, _),
             let .semverRangeIncludes(_, message, _, _, _), let .uniqueBy(_, message, _, _),
             let .lastItemEquals(_, message, _, _, _), let .noSecrets(_, message, _), let .whatwgURL(_, message, _, _):
            return message
        }
    }

    public var kind: String {
        switch self {
        case .equal: return "equal"
        case .urlOriginIn: return "urlOriginIn"
        case .semverLte: return "semverLte"
        case .semverRangeIncludes: return "semverRangeIncludes"
        case .uniqueBy: return "uniqueBy"
        case .lastItemEquals: return "lastItemEquals"
        case .noSecrets: return "noSecrets"
        case .whatwgURL: return "whatwgUrl"
        }
    }
}

public enum CrossFieldRules {
    /// Every broken rule, in declaration order.
    public static func check(_ value: JSONValue, _ rules: [CrossFieldRule]) -> [ValidationError] {
        rules.compactMap { (rule: CrossFieldRule) -> ValidationError? in
            guard let failedAt = evaluate(value, rule) else { return nil }
            let at = failedAt.isEmpty ? "(root)" : failedAt
            return ValidationError(instancePath: failedAt, keyword: "x-rule", message: "\(at) \(rule.message)", rule: rule.id)
        }
    }

    /// A present, non-null value at `pointer`.
    private static func at(_ value: JSONValue, _ pointer: String) -> JSONValue? {
        guard let found = value.value(at: pointer), !found.isNull else { return nil }
        return found
    }

    /// The pointer to report when the rule is broken; nil when it holds or does not apply.
    private static func evaluate(_ value: JSONValue, _ rule: CrossFieldRule) -> String? {
        switch rule {
        case let .equal(_, _, left, right):
            guard let l = at(value, left) else { return nil }
            if let r = at(value, right), r == l { return nil }
            return left
        case let .urlOriginIn(_, _, url, list):
            guard let text = at(value, url)?.stringValue, let origins = at(value, list)?.arrayValue else { return nil }
            if let origin = urlOrigin(text), origins.contains(.string(origin)) { return nil }
            return url
        case let .semverLte(_, _, lower, upper):
            guard let low = at(value, lower)?.stringValue, let high = at(value, upper)?.stringValue else { return nil }
            if let order = SemVer.compare(low, high), order <= 0 { return nil }
            return lower
        case let .semverRangeIncludes(_, _, min, max, version):
            guard let low = at(value, min)?.stringValue, let high = at(value, max)?.stringValue else { return nil }
            if let a = SemVer.compare(low, version), let b = SemVer.compare(version, high), a <= 0, b <= 0 { return nil }
            return min
        case let .uniqueBy(_, _, array, key):
            guard let items = at(value, array)?.arrayValue else { return nil }
            var seen: [JSONValue] = []
            for (index, item) in items.enumerated() {
                guard let keyValue = at(item, "/" + key) else { continue }
                if seen.contains(keyValue) { return "\(array)/\(index)/\(key)" }
                seen.append(keyValue)
            }
            return nil
        case let .lastItemEquals(_, _, array, key, expected):
            guard let items = at(value, array)?.arrayValue, let last = items.last else { return nil }
            if at(last, "/" + key)?.stringValue == expected { return nil }
            return "\(array)/\(items.count - 1)/\(key)"
        case let .noSecrets(_, _, text):
            return firstFailing(value, text) { !SecretText.contains($0) }
        case let .whatwgURL(_, _, url, form):
            return firstFailing(value, url) { WhatwgURL.check($0, form: form) }
        }
    }

    /// A string at `pointer` (or each string item of an array there) must pass `ok`; where it does not.
    private static func firstFailing(_ value: JSONValue, _ pointer: String, _ ok: (String) -> Bool) -> String? {
        guard let target = at(value, pointer) else { return nil }
        if let text = target.stringValue { return ok(text) ? nil : pointer }
        guard let items = target.arrayValue else { return nil }
        for (index, item) in items.enumerated() {
            if let text = item.stringValue, !ok(text) { return "\(pointer)/\(index)" }
        }
        return nil
    }

    /// The WHATWG origin of a special-scheme URL (`new URL(text).origin`); nil when the URL parser
    /// refuses it or its origin is opaque.
    public static func urlOrigin(_ text: String) -> String? {
        WhatwgURL.parse(text)?.origin
    }
}

/// SemVer 2.0 precedence with arbitrary-size numeric identifiers.
public enum SemVer {
    private static let grammar = try! NSRegularExpression(
        pattern: #"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?\z"#
    )

    private static func parts(_ text: String) -> (core: [String], prerelease: String?)? {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        guard let match = grammar.firstMatch(in: text, options: [], range: range) else { return nil }
        func group(_ index: Int) -> String? {
            guard let r = Range(match.range(at: index), in: text) else { return nil }
            return String(text[r])
        }
        guard let major = group(1), let minor = group(2), let patch = group(3) else { return nil }
        return ([major, minor, patch], group(4))
    }

    /// -1, 0 or 1; nil when either is not SemVer.
    public static func compare(_ a: String, _ b: String) -> Int? {
        guard let pa = parts(a), let pb = parts(b) else { return nil }
        for i in 0..<3 {
            let c = compareNumeric(pa.core[i], pb.core[i])
            if c != 0 { return c }
        }
        guard let preA = pa.prerelease, let preB = pb.prerelease else {
            if pa.prerelease == nil && pb.prerelease == nil { return 0 }
            return pa.prerelease == nil ? 1 : -1
        }
        let idsA = preA.split(separator: ".").map(String.init)
        let idsB = preB.split(separator: ".").map(String.init)
        for i in 0..<max(idsA.count, idsB.count) {
            if i >= idsA.count { return -1 }
            if i >= idsB.count { return 1 }
            let x = idsA[i], y = idsB[i]
            let nx = x.allSatisfy { $0.isASCII && $0.isNumber }
            let ny = y.allSatisfy { $0.isASCII && $0.isNumber }
            if (nx && x.count > 1 && x.hasPrefix("0")) || (ny && y.count > 1 && y.hasPrefix("0")) { return nil }
            let c: Int
            if nx && ny {
                c = compareNumeric(x, y)
            } else if nx {
                c = -1
            } else if ny {
                c = 1
            } else {
                c = x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : (y.utf16.lexicographicallyPrecedes(x.utf16) ? 1 : 0)
            }
            if c != 0 { return c }
        }
        return 0
    }

    private static func compareNumeric(_ a: String, _ b: String) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        if a == b { return 0 }
        return a < b ? -1 : 1
    }
}
