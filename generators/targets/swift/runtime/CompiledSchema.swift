// What the generated schema validators (the package's Validators folder, one enum per schema
// document) call: the outcomes and errors SchemaRegistry's interpreter builds, type tests, key
// comparison by Unicode scalars, and patterns compiled once. Each generated function reports
// errors relative to its own value; `within` prefixes the member or index on the way out, so the
// JSON pointer of an error is built only when there is one.

import Foundation

enum CompiledSchema {
    static let valid = SchemaRegistry.Outcome(errors: [], evaluated: SchemaRegistry.Evaluated())
    static let falseSchema = fail("false schema", "boolean schema is false")
    static let tooDeep = fail("$ref", "schema applications nest deeper than \(SchemaRegistry.maxDepth)")

    static func error(_ keyword: String, _ message: String) -> [ValidationError] {
        [ValidationError(instancePath: "", keyword: keyword, message: message)]
    }

    static func fail(_ keyword: String, _ message: String) -> SchemaRegistry.Outcome {
        .failed(error(keyword, message))
    }

    /// An error at the member `token` of the value (the discriminator's bad tag).
    static func fail(at token: String, _ keyword: String, _ message: String) -> SchemaRegistry.Outcome {
        .failed([ValidationError(instancePath: JSONPointer.appending("", token), keyword: keyword, message: message)])
    }

    /// The errors of a member's or item's outcome, as seen from the value that holds it.
    static func within(_ outcome: SchemaRegistry.Outcome, _ token: String) -> SchemaRegistry.Outcome {
        let prefix = JSONPointer.appending("", token)
        return .failed(outcome.errors.map { ValidationError(instancePath: prefix + $0.instancePath, keyword: $0.keyword, message: $0.message, rule: $0.rule) })
    }

    static func within(_ outcome: SchemaRegistry.Outcome, _ index: Int) -> SchemaRegistry.Outcome {
        within(outcome, String(index))
    }

    @inline(__always) static func isNull(_ value: JSONValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    @inline(__always) static func isBoolean(_ value: JSONValue) -> Bool {
        if case .bool = value { return true }
        return false
    }

    @inline(__always) static func isNumber(_ value: JSONValue) -> Bool {
        if case .number = value { return true }
        return false
    }

    @inline(__always) static func isInteger(_ value: JSONValue) -> Bool {
        if case let .number(number) = value { return number.isFinite && number == number.rounded(.towardZero) }
        return false
    }

    @inline(__always) static func isString(_ value: JSONValue) -> Bool {
        if case .string = value { return true }
        return false
    }

    @inline(__always) static func isArray(_ value: JSONValue) -> Bool {
        if case .array = value { return true }
        return false
    }

    @inline(__always) static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    /// `value` is the string `text` (the same Unicode scalars, as JSON equality has it).
    @inline(__always) static func isString(_ value: JSONValue, _ text: String) -> Bool {
        if case let .string(found) = value { return same(found, text) }
        return false
    }

    /// The same Unicode scalars: for Swift strings (valid Unicode) the same UTF-8 bytes.
    @inline(__always) static func same(_ a: String, _ b: String) -> Bool {
        sameKey(a, b)
    }

    /// A string's length as JSON Schema counts it: Unicode scalars.
    @inline(__always) static func length(_ text: String) -> Int {
        scalarCount(text)
    }

    @inline(__always) static func has(_ object: JSONObject, _ key: String) -> Bool {
        object.members.contains { same($0.key, key) }
    }

    /// The value of the member `key` (JSONObject's subscript, comparing UTF-8 bytes).
    @inline(__always) static func member(_ object: JSONObject, _ key: String) -> JSONValue? {
        for member in object.members where same(member.key, key) { return member.value }
        return nil
    }

    /// The last pair of equal items as the interpreter finds it (j from the end, then i from the start).
    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        for j in stride(from: items.count - 1, to: 0, by: -1) {
            for i in 0..<j where items[i] == items[j] {
                return (i, j)
            }
        }
        return nil
    }

    /// An ECMAScript pattern compiled for ICU once (nil when ICU refuses it: then nothing matches, as in the interpreter).
    static func pattern(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: SchemaRegistry.icuPattern(pattern), options: [])
    }

    /// ECMAScript `RegExp.test` with the package's matcher (SchemaPattern.swift).
    @inline(__always) static func matches(_ pattern: SchemaPattern, _ text: String) -> Bool {
        pattern.test(text)
    }

    /// ECMAScript `RegExp.test` through ICU: an unanchored search.
    static func matches(_ expression: NSRegularExpression?, _ text: String) -> Bool {
        guard let expression else { return false }
        return expression.firstMatch(in: text, options: [], range: NSRange(text.startIndex..<text.endIndex, in: text)) != nil
    }
}
