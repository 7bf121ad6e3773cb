// Validates JSON values against JSON Schema 2020-12 documents: every keyword and format of
// generators/targets/runtime-keywords.json (the declaration the TypeScript and Kotlin runtimes
// follow too); a schema using anything else is refused when it is loaded (SchemaReferences.swift),
// never silently ignored. Keywords run in the order ajv runs them and stop at the first failure,
// so the first error names the same JSON pointer and keyword in every language:
//   1. `type`, unless the schema has keywords for its one type (then it is checked with them)
//   2. keywords for any type: $ref, const, enum, not, anyOf, oneOf, allOf, if/then/else
//   3. number, string, array and object keywords, each group only for values of its type
//   4. unevaluatedProperties and unevaluatedItems, over what the others evaluated
// A composite keyword reports its sub-schemas' errors first and itself last, as ajv does.

import Foundation

/// The loaded schema documents, addressed by `$id` (and by any embedded resource's `$id`).
public final class SchemaRegistry: @unchecked Sendable {
    /// The keywords and formats of generators/targets/runtime-keywords.json (a test holds them equal).
    public static let keywords: Set<String> = [
        "$anchor", "$comment", "$defs", "$id", "$ref", "$schema", "additionalProperties", "allOf", "anyOf", "const",
        "contains", "contentEncoding", "contentMediaType", "contentSchema", "default", "dependentRequired",
        "dependentSchemas", "deprecated", "description", "discriminator", "else", "enum", "examples",
        "exclusiveMaximum", "exclusiveMinimum", "format", "if", "items", "maxContains", "maxItems", "maxLength",
        "maxProperties", "maximum", "minContains", "minItems", "minLength", "minProperties", "minimum", "multipleOf",
        "not", "oneOf", "pattern", "patternProperties", "prefixItems", "properties", "propertyNames", "readOnly",
        "required", "then", "title", "type", "unevaluatedItems", "unevaluatedProperties", "uniqueItems", "writeOnly",
    ]
    public static let formats: Set<String> = ["hostname", "uri"]
    /// Nested schema applications deeper than this fail (a `$ref` cycle that consumes no input).
    public static let maxDepth = 256

    var resources: [String: (schema: JSONValue, base: String)] = [:]
    var anchors: [String: (schema: JSONValue, base: String)] = [:]
    private var patterns: [String: NSRegularExpression] = [:]
    private var refusals: [String: SchemaRefusal?] = [:]
    private let lock = NSLock()

    /// `sources` are JSON texts of schema documents, each with an absolute `$id` (the generated ones:
    /// a source that does not parse, or uses what the runtime does not enforce, is a generator bug).
    public convenience init(sources: [String]) {
        var documents: [(uri: String, schema: JSONValue)] = []
        for source in sources {
            guard let schema = try? StrictJSON.parseStrictJSON(source), let id = schema["$id"]?.stringValue else {
                preconditionFailure("generated schema document does not parse or has no $id")
            }
            documents.append((id, schema))
        }
        do {
            try self.init(documents: documents)
        } catch {
            preconditionFailure("generated schema document refused: \(error)")
        }
    }

    /// Registers documents at their URIs (a document's own `$id`, when it has one, names it too).
    /// Throws the SchemaRefusal of the first document that uses what the runtime does not enforce.
    public init(documents: [(uri: String, schema: JSONValue)], checking: Bool = true) throws {
        for document in documents {
            Self.index(document.schema, uri: document.uri, resources: &resources, anchors: &anchors)
        }
        if checking {
            for document in documents { try check(document.uri) }
        }
    }

    /// Throws the refusal for the schema at `uri` (see `refusal(for:)`); remembered per URI.
    public func check(_ uri: String) throws {
        lock.lock()
        let cached = refusals[uri]
        lock.unlock()
        let result: SchemaRefusal?
        if let cached { result = cached } else {
            result = refusal(for: uri)
            lock.lock()
            refusals[uri] = result
            lock.unlock()
        }
        if let result { throw result }
    }

    public func document(_ id: String) -> JSONValue? {
        resources[id]?.schema
    }

    /// Validates `value` against the document `id`; returns the errors, first error first (empty:
    /// valid). A schema the runtime refuses is no schema: every value fails it.
    public func validate(_ value: JSONValue, against id: String) -> [ValidationError] {
        do {
            try check(id)
        } catch let refusal as SchemaRefusal {
            return [ValidationError(instancePath: "", keyword: refusal.keyword, message: "schema refused: \(refusal)")]
        } catch {
            return [ValidationError(instancePath: "", keyword: "$ref", message: "schema refused: \(error)")]
        }
        guard let schema = resolve(id, base: id) else {
            return [ValidationError(instancePath: "", keyword: "$ref", message: "unknown schema \(id)")]
        }
        return validate(value, schema: schema.schema, base: schema.base, path: "", composite: false)
    }

    func validate(_ value: JSONValue, schema: JSONValue, base: String, path: String, composite: Bool) -> [ValidationError] {
        evaluate(value, schema: schema, base: base, path: path, composite: composite, depth: 0).errors
    }

    // MARK: - Keywords

    private static let numberKeywords = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]
    private static let stringKeywords = ["maxLength", "minLength", "pattern", "format"]
    private static let arrayKeywords = ["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems"]
    private static let objectKeywords = [
        "maxProperties", "minProperties", "required", "propertyNames", "additionalProperties",
        "properties", "patternProperties", "dependentRequired", "dependentSchemas", "discriminator",
    ]

    /// What a schema evaluated of a valid instance: the annotations unevaluatedProperties and
    /// unevaluatedItems read (member names, and item indices).
    struct Evaluated {
        var properties: [String] = []
        var allProperties = false
        var items: Set<Int> = []
        var allItems = false

        mutating func merge(_ other: Evaluated) {
            properties += other.properties
            allProperties = allProperties || other.allProperties
            items.formUnion(other.items)
            allItems = allItems || other.allItems
        }

        func hasProperty(_ name: String) -> Bool { allProperties || properties.contains { sameKey($0, name) } }
        func hasItem(_ index: Int) -> Bool { allItems || items.contains(index) }
    }

    struct Outcome {
        var errors: [ValidationError]
        var evaluated: Evaluated

        static func failed(_ errors: [ValidationError]) -> Outcome { Outcome(errors: errors, evaluated: Evaluated()) }
    }

    private func error(_ path: String, _ keyword: String, _ message: String) -> [ValidationError] {
        [ValidationError(instancePath: path, keyword: keyword, message: message)]
    }

    /// `composite` is true inside not/anyOf/oneOf/if/contains/propertyNames, where ajv collects
    /// the sub-schemas' errors instead of stopping at them (it changes what `contains` reports).
    func evaluate(_ value: JSONValue, schema: JSONValue, base: String, path: String, composite: Bool, depth: Int) -> Outcome {
        if case let .bool(allowed) = schema {
            return allowed ? Outcome(errors: [], evaluated: Evaluated()) : .failed(error(path, "false schema", "boolean schema is false"))
        }
        guard case let .object(s) = schema else { return Outcome(errors: [], evaluated: Evaluated()) }
        if depth > Self.maxDepth { return .failed(error(path, "$ref", "schema applications nest deeper than \(Self.maxDepth)")) }
        let base = s["$id"]?.stringValue.map { URIReference.withoutFragment(URIReference.resolve($0, against: base)) } ?? base
        let deeper = depth + 1
        var evaluated = Evaluated()

        let types: [String]
        switch s["type"] {
        case let .string(single)?: types = [single]
        case let .array(list)?: types = list.compactMap { $0.stringValue }
        default: types = []
        }
        // ajv checks the type with its group's keywords when the schema has one type with keywords
        // for that type; otherwise before everything else.
        let groupOfType: [String: [String]] = [
            "number": Self.numberKeywords, "string": Self.stringKeywords,
            "array": Self.arrayKeywords, "object": Self.objectKeywords,
        ]
        var typeCheckedWithGroup: String?
        if types.count == 1, let group = groupOfType[types[0]], group.contains(where: { s.contains($0) }) {
            typeCheckedWithGroup = types[0]
        }
        if !types.isEmpty && typeCheckedWithGroup == nil && !types.contains(where: { Self.hasType(value, $0) }) {
            return .failed(error(path, "type", "must be \(types.joined(separator: ","))"))
        }

        // Keywords for any type.
        if let reference = s["$ref"]?.stringValue {
            guard let resolved = resolve(reference, base: base) else {
                return .failed(error(path, "$ref", "cannot resolve \(reference)"))
            }
            let outcome = evaluate(value, schema: resolved.schema, base: resolved.base, path: path, composite: composite, depth: deeper)
            if !outcome.errors.isEmpty { return outcome }
            evaluated.merge(outcome.evaluated)
        }
        if let constant = s["const"], constant != value {
            return .failed(error(path, "const", "must be equal to constant"))
        }
        if let options = s["enum"]?.arrayValue, !options.contains(where: { $0 == value }) {
            return .failed(error(path, "enum", "must be equal to one of the allowed values"))
        }
        if let negated = s["not"], evaluate(value, schema: negated, base: base, path: path, composite: true, depth: deeper).errors.isEmpty {
            return .failed(error(path, "not", "must NOT be valid"))
        }
        if let branches = s["anyOf"]?.arrayValue {
            // Every branch runs: the annotations of each passing one count.
            var collected: [ValidationError] = []
            var matched = false
            for branch in branches {
                let outcome = evaluate(value, schema: branch, base: base, path: path, composite: true, depth: deeper)
                if outcome.errors.isEmpty {
                    matched = true
                    evaluated.merge(outcome.evaluated)
                } else if !matched {
                    collected += outcome.errors
                }
            }
            if !matched { return .failed(collected + error(path, "anyOf", "must match a schema in anyOf")) }
        }
        // With a discriminator the tag picks the branch (the object keyword `discriminator` below).
        if let branches = s["oneOf"]?.arrayValue, s["discriminator"] == nil {
            var collected: [ValidationError] = []
            var passing = 0
            for branch in branches {
                let outcome = evaluate(value, schema: branch, base: base, path: path, composite: true, depth: deeper)
                if outcome.errors.isEmpty {
                    passing += 1
                    evaluated.merge(outcome.evaluated)
                } else {
                    collected += outcome.errors
                }
            }
            if passing == 0 { return .failed(collected + error(path, "oneOf", "must match exactly one schema in oneOf")) }
            if passing > 1 { return .failed(error(path, "oneOf", "must match exactly one schema in oneOf")) }
        }
        if let parts = s["allOf"]?.arrayValue {
            for part in parts {
                let outcome = evaluate(value, schema: part, base: base, path: path, composite: composite, depth: deeper)
                if !outcome.errors.isEmpty { return outcome }
                evaluated.merge(outcome.evaluated)
            }
        }
        if let condition = s["if"] {
            let test = evaluate(value, schema: condition, base: base, path: path, composite: true, depth: deeper)
            let holds = test.errors.isEmpty
            if holds { evaluated.merge(test.evaluated) }
            if let branch = holds ? s["then"] : s["else"] {
                let outcome = evaluate(value, schema: branch, base: base, path: path, composite: composite, depth: deeper)
                if !outcome.errors.isEmpty {
                    return .failed(outcome.errors + error(path, "if", "must match \"\(holds ? "then" : "else")\" schema"))
                }
                evaluated.merge(outcome.evaluated)
            }
        }

        // Keywords for one type each.
        for (groupType, keywords) in [("number", Self.numberKeywords), ("string", Self.stringKeywords), ("array", Self.arrayKeywords), ("object", Self.objectKeywords)] {
            guard keywords.contains(where: { s.contains($0) }) else { continue }
            if Self.hasType(value, groupType) {
                let outcome: Outcome
                switch groupType {
                case "number": outcome = .failed(validateNumber(value, s, path))
                case "string": outcome = .failed(validateString(value, s, path))
                case "array": outcome = validateArray(value, s, base, path, composite, deeper)
                default: outcome = validateObject(value, s, base, path, composite, deeper)
                }
                if !outcome.errors.isEmpty { return outcome }
                evaluated.merge(outcome.evaluated)
            } else if typeCheckedWithGroup == groupType {
                return .failed(error(path, "type", "must be \(groupType)"))
            }
        }

        // What no other keyword evaluated, last (ajv runs them after everything else).
        if let rest = s["unevaluatedItems"], case let .array(items) = value {
            for index in items.indices where !evaluated.hasItem(index) {
                let outcome = evaluate(items[index], schema: rest, base: base, path: JSONPointer.appending(path, index), composite: composite, depth: deeper)
                if !outcome.errors.isEmpty {
                    if case .bool(false) = rest { return .failed(error(path, "unevaluatedItems", "must NOT have more than \(index) items")) }
                    return outcome
                }
            }
            evaluated.allItems = true
        }
        if let rest = s["unevaluatedProperties"], case let .object(object) = value {
            for member in object.members where !evaluated.hasProperty(member.key) {
                let outcome = evaluate(member.value, schema: rest, base: base, path: JSONPointer.appending(path, member.key), composite: composite, depth: deeper)
                if !outcome.errors.isEmpty {
                    if case .bool(false) = rest { return .failed(error(path, "unevaluatedProperties", "must NOT have unevaluated properties")) }
                    return outcome
                }
            }
            evaluated.allProperties = true
        }
        return Outcome(errors: [], evaluated: evaluated)
    }

    /// A number as JavaScript prints it (ajv's messages print the schema's limits so: 1, not 1.0).
    static func jsNumber(_ number: Double) -> String {
        (try? CanonicalJSON.serializeNumber(number)) ?? "\(number)"
    }

    static func hasType(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
            return true
        case let ("integer", .number(number)):
            return number.isFinite && number == number.rounded(.towardZero)
        default:
            return false
        }
    }

    private func validateNumber(_ value: JSONValue, _ s: JSONObject, _ path: String) -> [ValidationError] {
        guard case let .number(number) = value else { return [] }
        if let limit = s["maximum"]?.numberValue, !(number <= limit) { return error(path, "maximum", "must be <= \(Self.jsNumber(limit))") }
        if let limit = s["minimum"]?.numberValue, !(number >= limit) { return error(path, "minimum", "must be >= \(Self.jsNumber(limit))") }
        if let limit = s["exclusiveMaximum"]?.numberValue, !(number < limit) { return error(path, "exclusiveMaximum", "must be < \(Self.jsNumber(limit))") }
        if let limit = s["exclusiveMinimum"]?.numberValue, !(number > limit) { return error(path, "exclusiveMinimum", "must be > \(Self.jsNumber(limit))") }
        if let divisor = s["multipleOf"]?.numberValue, divisor > 0 {
            // As ajv decides it (quotient === parseInt(quotient)): a quotient that overflows is no multiple.
            let quotient = number / divisor
            if !quotient.isFinite || quotient != quotient.rounded(.towardZero) { return error(path, "multipleOf", "must be multiple of \(Self.jsNumber(divisor))") }
        }
        return []
    }

    private func validateString(_ value: JSONValue, _ s: JSONObject, _ path: String) -> [ValidationError] {
        guard case let .string(text) = value else { return [] }
        // Lengths count Unicode code points, as ajv does.
        let length = text.unicodeScalars.count
        if let limit = s["maxLength"]?.numberValue, Double(length) > limit { return error(path, "maxLength", "must NOT have more than \(Int(limit)) characters") }
        if let limit = s["minLength"]?.numberValue, Double(length) < limit { return error(path, "minLength", "must NOT have fewer than \(Int(limit)) characters") }
        if let pattern = s["pattern"]?.stringValue, !matches(pattern, text) {
            return error(path, "pattern", "must match pattern \"\(pattern)\"")
        }
        if let format = s["format"]?.stringValue, !Formats.check(format, text) {
            return error(path, "format", "must match format \"\(format)\"")
        }
        return []
    }

    private func validateArray(_ value: JSONValue, _ s: JSONObject, _ base: String, _ path: String, _ composite: Bool, _ depth: Int) -> Outcome {
        guard case let .array(items) = value else { return Outcome(errors: [], evaluated: Evaluated()) }
        var evaluated = Evaluated()
        if let limit = s["maxItems"]?.numberValue, Double(items.count) > limit { return .failed(error(path, "maxItems", "must NOT have more than \(Int(limit)) items")) }
        if let limit = s["minItems"]?.numberValue, Double(items.count) < limit { return .failed(error(path, "minItems", "must NOT have fewer than \(Int(limit)) items")) }
        var prefixCount = 0
        if let prefix = s["prefixItems"]?.arrayValue {
            prefixCount = prefix.count
            for (index, itemSchema) in prefix.enumerated() where index < items.count {
                let outcome = evaluate(items[index], schema: itemSchema, base: base, path: JSONPointer.appending(path, index), composite: composite, depth: depth)
                if !outcome.errors.isEmpty { return outcome }
                evaluated.items.insert(index)
            }
        }
        if let itemSchema = s["items"] {
            for index in prefixCount..<max(prefixCount, items.count) {
                let outcome = evaluate(items[index], schema: itemSchema, base: base, path: JSONPointer.appending(path, index), composite: composite, depth: depth)
                if !outcome.errors.isEmpty { return outcome }
            }
            evaluated.allItems = true
        }
        if let contained = s["contains"] {
            let minimum = s["minContains"]?.numberValue ?? 1
            let maximum = s["maxContains"]?.numberValue
            var itemErrors: [ValidationError] = []
            var found = 0
            for index in items.indices {
                let outcome = evaluate(items[index], schema: contained, base: base, path: JSONPointer.appending(path, index), composite: true, depth: depth)
                if outcome.errors.isEmpty {
                    found += 1
                    evaluated.items.insert(index)
                } else if Double(found) < minimum {
                    itemErrors += outcome.errors
                }
            }
            let bounds = maximum.map { "at least \(Self.jsNumber(minimum)) and no more than \(Self.jsNumber($0))" } ?? "at least \(Self.jsNumber(minimum))"
            // Inside a composite keyword ajv keeps the items' errors ahead of its own; outside
            // one it replaces them by its own.
            if Double(found) < minimum { return .failed((composite ? itemErrors : []) + error(path, "contains", "must contain \(bounds) valid item(s)")) }
            if let maximum, Double(found) > maximum { return .failed(error(path, "contains", "must contain \(bounds) valid item(s)")) }
        }
        // ajv checks uniqueness last among the array keywords (its item keywords run "before" it).
        if s["uniqueItems"]?.boolValue == true {
            for j in stride(from: items.count - 1, to: 0, by: -1) {
                for i in 0..<j where items[i] == items[j] {
                    return .failed(error(path, "uniqueItems", "must NOT have duplicate items (items ## \(i) and \(j) are identical)"))
                }
            }
        }
        return Outcome(errors: [], evaluated: evaluated)
    }

    private func validateObject(_ value: JSONValue, _ s: JSONObject, _ base: String, _ path: String, _ composite: Bool, _ depth: Int) -> Outcome {
        guard case let .object(object) = value else { return Outcome(errors: [], evaluated: Evaluated()) }
        var evaluated = Evaluated()
        if let limit = s["maxProperties"]?.numberValue, Double(object.count) > limit { return .failed(error(path, "maxProperties", "must NOT have more than \(Int(limit)) properties")) }
        if let limit = s["minProperties"]?.numberValue, Double(object.count) < limit { return .failed(error(path, "minProperties", "must NOT have fewer than \(Int(limit)) properties")) }
        if let required = s["required"]?.arrayValue {
            for name in required.compactMap({ $0.stringValue }) where !object.contains(name) {
                return .failed(error(path, "required", "must have required property '\(name)'"))
            }
        }
        if let names = s["propertyNames"] {
            for key in object.keys {
                let errors = evaluate(.string(key), schema: names, base: base, path: path, composite: true, depth: depth).errors
                if !errors.isEmpty { return .failed(errors + error(path, "propertyNames", "property name '\(key)' is invalid")) }
            }
        }
        let properties = s["properties"]?.objectValue ?? JSONObject()
        let patternProperties = s["patternProperties"]?.objectValue ?? JSONObject()
        if let additional = s["additionalProperties"] {
            for member in object.members where !properties.contains(member.key) {
                if patternProperties.keys.contains(where: { matches($0, member.key) }) { continue }
                if case .bool(false) = additional {
                    return .failed(error(path, "additionalProperties", "must NOT have additional properties"))
                }
                let outcome = evaluate(member.value, schema: additional, base: base, path: JSONPointer.appending(path, member.key), composite: composite, depth: depth)
                if !outcome.errors.isEmpty { return outcome }
            }
            evaluated.allProperties = true
        }
        for property in properties.members {
            guard let member = object[property.key] else { continue }
            let outcome = evaluate(member, schema: property.value, base: base, path: JSONPointer.appending(path, property.key), composite: composite, depth: depth)
            if !outcome.errors.isEmpty { return outcome }
            evaluated.properties.append(property.key)
        }
        for pattern in patternProperties.members {
            for member in object.members where matches(pattern.key, member.key) {
                let outcome = evaluate(member.value, schema: pattern.value, base: base, path: JSONPointer.appending(path, member.key), composite: composite, depth: depth)
                if !outcome.errors.isEmpty { return outcome }
                evaluated.properties.append(member.key)
            }
        }
        if let dependencies = s["dependentRequired"]?.objectValue {
            for dependency in dependencies.members where object.contains(dependency.key) {
                let names = (dependency.value.arrayValue ?? []).compactMap { $0.stringValue }
                // ajv's message lists every dependency, not only the missing ones.
                if names.contains(where: { !object.contains($0) }) {
                    let listed = names.count == 1 ? "property \(names[0])" : "properties \(names.joined(separator: ", "))"
                    return .failed(error(path, "dependentRequired", "must have \(listed) when property \(dependency.key) is present"))
                }
            }
        }
        if let dependencies = s["dependentSchemas"]?.objectValue {
            for dependency in dependencies.members where object.contains(dependency.key) {
                let outcome = evaluate(value, schema: dependency.value, base: base, path: path, composite: composite, depth: depth)
                if !outcome.errors.isEmpty { return outcome }
                evaluated.merge(outcome.evaluated)
            }
        }
        if let tagName = s["discriminator"]?["propertyName"]?.stringValue, let branches = s["oneOf"]?.arrayValue {
            guard let tag = object[tagName]?.stringValue else {
                return .failed(error(path, "discriminator", "tag \"\(tagName)\" must be string"))
            }
            for branch in branches {
                var branchSchema = branch
                if let reference = branch["$ref"]?.stringValue, let resolved = resolve(reference, base: base) {
                    branchSchema = resolved.schema
                }
                var tagValues: [JSONValue] = []
                if let tagSchema = branchSchema["properties"]?[tagName] {
                    if let constant = tagSchema["const"] {
                        tagValues = [constant]
                    } else if let options = tagSchema["enum"]?.arrayValue {
                        tagValues = options
                    }
                }
                if tagValues.contains(.string(tag)) {
                    var outcome = evaluate(value, schema: branch, base: base, path: path, composite: composite, depth: depth)
                    outcome.evaluated.merge(evaluated)
                    return outcome
                }
            }
            // ajv reports a bad tag at the object; the TypeScript runtime moves it to the tag itself.
            return .failed(error(JSONPointer.appending(path, tagName), "discriminator", "value of tag \"\(tagName)\" must be in oneOf"))
        }
        return Outcome(errors: [], evaluated: evaluated)
    }

    // MARK: - Patterns

    /// ECMAScript-style unanchored search (`RegExp.test`), through ICU.
    func matches(_ pattern: String, _ text: String) -> Bool {
        guard let expression = regex(pattern) else { return false }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    private func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = patterns[pattern] { return cached }
        guard let compiled = try? NSRegularExpression(pattern: Self.icuPattern(pattern), options: []) else { return nil }
        patterns[pattern] = compiled
        return compiled
    }
}
