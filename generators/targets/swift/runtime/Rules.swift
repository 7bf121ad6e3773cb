// The x-rules of a message: cross-field rules JSON Schema cannot state. The rule kinds are
// generic; which fields they relate is data generated from the spec. A rule applies only when
// every pointer it names resolves to a non-null value, and it only ever sees a schema-valid value.
// Each message type checks its rules with generated straight-line code (`checkRules`), which calls
// the same per-kind definitions (RuleKinds) as the reference interpreter here.

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

/// The one semantic definition of each rule kind, over values already resolved from the message
/// (absent and JSON null both arrive as nil: the rule does not apply). Both evaluations call these:
/// the reference interpreter `CrossFieldRules.check`, which resolves each rule's pointers per call,
/// and the straight-line `checkRules` the generator writes into each message type. Kinds that can
/// point into an array return the suffix to append to the rule's pointer (nil: the rule holds).
public enum RuleKinds {
    public static func equalBroken(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        guard let l = left else { return false }
        if let r = right, r == l { return false }
        return true
    }

    public static func urlOriginInBroken(_ url: JSONValue?, _ list: JSONValue?) -> Bool {
        guard let text = url?.stringValue, let origins = list?.arrayValue else { return false }
        if let origin = CrossFieldRules.urlOrigin(text), origins.contains(.string(origin)) { return false }
        return true
    }

    public static func semverLteBroken(_ lower: JSONValue?, _ upper: JSONValue?) -> Bool {
        guard let low = lower?.stringValue, let high = upper?.stringValue else { return false }
        if let order = SemVer.compare(low, high), order <= 0 { return false }
        return true
    }

    public static func semverRangeIncludesBroken(_ min: JSONValue?, _ max: JSONValue?, version: String) -> Bool {
        guard let low = min?.stringValue, let high = max?.stringValue else { return false }
        if let a = SemVer.compare(low, version), let b = SemVer.compare(version, high), a <= 0, b <= 0 { return false }
        return true
    }

    /// `/<i>/<key>` of the first item whose member `key` repeats an earlier item's.
    public static func uniqueBy(_ array: JSONValue?, key: String) -> String? {
        guard let items = array?.arrayValue else { return nil }
        var seen: [JSONValue] = []
        for (index, item) in items.enumerated() {
            guard let keyValue = item[key]?.nonNull else { continue }
            if seen.contains(keyValue) { return "/\(index)/\(key)" }
            seen.append(keyValue)
        }
        return nil
    }

    /// `/<last>/<key>` when the last item's member `key` is not the string `expected`.
    public static func lastItemEquals(_ array: JSONValue?, key: String, value expected: String) -> String? {
        guard let items = array?.arrayValue, let last = items.last else { return nil }
        if last[key]?.stringValue == expected { return nil }
        return "/\(items.count - 1)/\(key)"
    }

    public static func noSecrets(_ text: JSONValue?) -> String? {
        firstFailing(text) { !SecretText.contains($0) }
    }

    public static func whatwgURL(_ url: JSONValue?, form: String) -> String? {
        firstFailing(url) { WhatwgURL.check($0, form: form) }
    }

    /// A string (or each string item of an array) must pass `ok`: "" for the value itself, `/<i>` for an item.
    private static func firstFailing(_ target: JSONValue?, _ ok: (String) -> Bool) -> String? {
        guard let target = target else { return nil }
        if let text = target.stringValue { return ok(text) ? nil : "" }
        guard let items = target.arrayValue else { return nil }
        for (index, item) in items.enumerated() {
            if let text = item.stringValue, !ok(text) { return "/\(index)" }
        }
        return nil
    }
}

public enum CrossFieldRules {
    /// The reference evaluation: every broken rule, in declaration order, pointers resolved per call.
    public static func check(_ value: JSONValue, _ rules: [CrossFieldRule]) -> [ValidationError] {
        rules.compactMap { (rule: CrossFieldRule) -> ValidationError? in
            guard let failedAt = evaluate(value, rule) else { return nil }
            return error(rule, at: failedAt)
        }
    }

    /// The error a broken `rule` gives at `failedAt`; the generated `checkRules` reports through it too.
    public static func error(_ rule: CrossFieldRule, at failedAt: String) -> ValidationError {
        let at = failedAt.isEmpty ? "(root)" : failedAt
        return ValidationError(instancePath: failedAt, keyword: "x-rule", message: "\(at) \(rule.message)", rule: rule.id)
    }

    /// A present, non-null value at `pointer`.
    private static func at(_ value: JSONValue, _ pointer: String) -> JSONValue? {
        value.value(at: pointer)?.nonNull
    }

    /// The pointer to report when the rule is broken; nil when it holds or does not apply.
    private static func evaluate(_ value: JSONValue, _ rule: CrossFieldRule) -> String? {
        switch rule {
        case let .equal(_, _, left, right):
            return RuleKinds.equalBroken(at(value, left), at(value, right)) ? left : nil
        case let .urlOriginIn(_, _, url, list):
            return RuleKinds.urlOriginInBroken(at(value, url), at(value, list)) ? url : nil
        case let .semverLte(_, _, lower, upper):
            return RuleKinds.semverLteBroken(at(value, lower), at(value, upper)) ? lower : nil
        case let .semverRangeIncludes(_, _, min, max, version):
            return RuleKinds.semverRangeIncludesBroken(at(value, min), at(value, max), version: version) ? min : nil
        case let .uniqueBy(_, _, array, key):
            return RuleKinds.uniqueBy(at(value, array), key: key).map { array + $0 }
        case let .lastItemEquals(_, _, array, key, expected):
            return RuleKinds.lastItemEquals(at(value, array), key: key, value: expected).map { array + $0 }
        case let .noSecrets(_, _, text):
            return RuleKinds.noSecrets(at(value, text)).map { text + $0 }
        case let .whatwgURL(_, _, url, form):
            return RuleKinds.whatwgURL(at(value, url), form: form).map { url + $0 }
        }
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
