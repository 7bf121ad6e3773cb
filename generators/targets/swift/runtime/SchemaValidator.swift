// Validates JSON values against the spec's JSON Schema 2020-12 documents (the subset the spec
// uses, every keyword of it). Keywords run in the order ajv runs them and stop at the first
// failure, so the first error names the same JSON pointer and keyword in every language:
//   1. `type`, unless the schema has keywords for its one type (then it is checked with them)
//   2. keywords for any type: $ref, const, enum, not, anyOf, oneOf, allOf, if/then/else
//   3. number, string, array and object keywords, each group only for values of its type
// A composite keyword reports its sub-schemas' errors first and itself last, as ajv does.

import Foundation

/// The loaded schema documents, addressed by `$id`.
public final class SchemaRegistry: @unchecked Sendable {
    private let documents: [String: JSONValue]
    private var patterns: [String: NSRegularExpression] = [:]
    private let lock = NSLock()

    /// `sources` are JSON texts of schema documents, each with an absolute `$id`.
    public init(sources: [String]) {
        var documents: [String: JSONValue] = [:]
        for source in sources {
            guard let schema = try? StrictJSON.parse(source), let id = schema["$id"]?.stringValue else {
                preconditionFailure("generated schema document does not parse or has no $id")
            }
            documents[id] = schema
        }
        self.documents = documents
    }

    public func document(_ id: String) -> JSONValue? {
        documents[id]
    }

    /// Validates `value` against the document `id`; returns the errors, first error first (empty: valid).
    public func validate(_ value: JSONValue, against id: String) -> [ValidationError] {
        guard let schema = documents[id] else {
            return [ValidationError(instancePath: "", keyword: "$ref", message: "unknown schema \(id)")]
        }
        return validate(value, schema: schema, base: id, path: "", composite: false)
    }

    // MARK: - References

    /// Resolves `reference` against the document `base`: returns the sub-schema and its document id.
    func resolve(_ reference: String, base: String) -> (schema: JSONValue, base: String)? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        let documentID = path.isEmpty ? base : resolveURI(path, against: base)
        guard let document = documents[documentID] else { return nil }
        guard let target = document.value(at: fragment.removingPercentEncoding ?? fragment) else { return nil }
        return (target, documentID)
    }

    private func resolveURI(_ relative: String, against base: String) -> String {
        if relative.contains("://") { return relative }
        guard let schemeEnd = base.range(of: "://") else { return relative }
        let afterScheme = base[schemeEnd.upperBound...]
        guard let pathStart = afterScheme.firstIndex(of: "/") else { return base + "/" + relative }
        let origin = String(base[..<pathStart])
        var segments = afterScheme[pathStart...].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        segments.removeLast() // the base document's own file name
        for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
            switch segment {
            case ".": continue
            case "..": if segments.count > 1 { segments.removeLast() }
            default: segments.append(String(segment))
            }
        }
        return origin + segments.joined(separator: "/")
    }

    // MARK: - Keywords

    private static let numberKeywords = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]
    private static let stringKeywords = ["maxLength", "minLength", "pattern", "format"]
    private static let arrayKeywords = ["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems"]
    private static let objectKeywords = [
        "maxProperties", "minProperties", "required", "propertyNames", "additionalProperties",
        "properties", "patternProperties", "dependentRequired", "discriminator",
    ]

    private func error(_ path: String, _ keyword: String, _ message: String) -> [ValidationError] {
        [ValidationError(instancePath: path, keyword: keyword, message: message)]
    }

    /// `composite` is true inside not/anyOf/oneOf/if/contains/propertyNames, where ajv collects
    /// the sub-schemas' errors instead of stopping at them (it changes what `contains` reports).
    func validate(_ value: JSONValue, schema: JSONValue, base: String, path: String, composite: Bool) -> [ValidationError] {
        if case let .bool(allowed) = schema {
            return allowed ? [] : error(path, "false schema", "boolean schema is false")
        }
        guard case let .object(s) = schema else { return [] }

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
            return error(path, "type", "must be \(types.joined(separator: ","))")
        }

        // Keywords for any type.
        if let reference = s["$ref"]?.stringValue {
            guard let resolved = resolve(reference, base: base) else {
                return error(path, "$ref", "cannot resolve \(reference)")
            }
            let errors = validate(value, schema: resolved.schema, base: resolved.base, path: path, composite: composite)
            if !errors.isEmpty { return errors }
        }
        if let constant = s["const"], constant != value {
            return error(path, "const", "must be equal to constant")
        }
        if let options = s["enum"]?.arrayValue, !options.contains(where: { $0 == value }) {
            return error(path, "enum", "must be equal to one of the allowed values")
        }
        if let negated = s["not"], validate(value, schema: negated, base: base, path: path, composite: true).isEmpty {
            return error(path, "not", "must NOT be valid")
        }
        if let branches = s["anyOf"]?.arrayValue {
            var collected: [ValidationError] = []
            var matched = false
            for branch in branches {
                let errors = validate(value, schema: branch, base: base, path: path, composite: true)
                if errors.isEmpty {
                    matched = true
                    break
                }
                collected += errors
            }
            if !matched { return collected + error(path, "anyOf", "must match a schema in anyOf") }
        }
        // With a discriminator the tag picks the branch (the object keyword `discriminator` below).
        if let branches = s["oneOf"]?.arrayValue, s["discriminator"] == nil {
            var collected: [ValidationError] = []
            var passing = 0
            for branch in branches {
                let errors = validate(value, schema: branch, base: base, path: path, composite: true)
                if errors.isEmpty { passing += 1 } else { collected += errors }
            }
            if passing == 0 { return collected + error(path, "oneOf", "must match exactly one schema in oneOf") }
            if passing > 1 { return error(path, "oneOf", "must match exactly one schema in oneOf") }
        }
        if let parts = s["allOf"]?.arrayValue {
            for part in parts {
                let errors = validate(value, schema: part, base: base, path: path, composite: composite)
                if !errors.isEmpty { return errors }
            }
        }
        if let condition = s["if"], s["then"] != nil || s["else"] != nil {
            let holds = validate(value, schema: condition, base: base, path: path, composite: true).isEmpty
            if let branch = holds ? s["then"] : s["else"] {
                let errors = validate(value, schema: branch, base: base, path: path, composite: composite)
                if !errors.isEmpty {
                    return errors + error(path, "if", "must match \"\(holds ? "then" : "else")\" schema")
                }
            }
        }

        // Keywords for one type each.
        for (groupType, keywords) in [("number", Self.numberKeywords), ("string", Self.stringKeywords), ("array", Self.arrayKeywords), ("object", Self.objectKeywords)] {
            guard keywords.contains(where: { s.contains($0) }) else { continue }
            if Self.hasType(value, groupType) {
                let errors: [ValidationError]
                switch groupType {
                case "number": errors = validateNumber(value, s, path)
                case "string": errors = validateString(value, s, path)
                case "array": errors = validateArray(value, s, base, path, composite)
                default: errors = validateObject(value, s, base, path, composite)
                }
                if !errors.isEmpty { return errors }
            } else if typeCheckedWithGroup == groupType {
                return error(path, "type", "must be \(groupType)")
            }
        }
        return []
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
            let quotient = number / divisor
            if quotient != quotient.rounded(.towardZero) { return error(path, "multipleOf", "must be multiple of \(Self.jsNumber(divisor))") }
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

    private func validateArray(_ value: JSONValue, _ s: JSONObject, _ base: String, _ path: String, _ composite: Bool) -> [ValidationError] {
        guard case let .array(items) = value else { return [] }
        if let limit = s["maxItems"]?.numberValue, Double(items.count) > limit { return error(path, "maxItems", "must NOT have more than \(Int(limit)) items") }
        if let limit = s["minItems"]?.numberValue, Double(items.count) < limit { return error(path, "minItems", "must NOT have fewer than \(Int(limit)) items") }
        var prefixCount = 0
        if let prefix = s["prefixItems"]?.arrayValue {
            prefixCount = prefix.count
            for (index, itemSchema) in prefix.enumerated() where index < items.count {
                let errors = validate(items[index], schema: itemSchema, base: base, path: JSONPointer.appending(path, index), composite: composite)
                if !errors.isEmpty { return errors }
            }
        }
        if let itemSchema = s["items"] {
            for index in prefixCount..<max(prefixCount, items.count) {
                let errors = validate(items[index], schema: itemSchema, base: base, path: JSONPointer.appending(path, index), composite: composite)
                if !errors.isEmpty { return errors }
            }
        }
        if let contained = s["contains"] {
            var itemErrors: [ValidationError] = []
            var found = false
            for index in items.indices {
                let errors = validate(items[index], schema: contained, base: base, path: JSONPointer.appending(path, index), composite: true)
                if errors.isEmpty {
                    found = true
                    break
                }
                itemErrors += errors
            }
            // Inside a composite keyword ajv keeps the items' errors ahead of its own; outside
            // one it replaces them by its own.
            if !found { return (composite ? itemErrors : []) + error(path, "contains", "must contain at least 1 valid item(s)") }
        }
        // ajv checks uniqueness last among the array keywords (its item keywords run "before" it).
        if s["uniqueItems"]?.boolValue == true {
            for j in stride(from: items.count - 1, to: 0, by: -1) {
                for i in 0..<j where items[i] == items[j] {
                    return error(path, "uniqueItems", "must NOT have duplicate items (items ## \(i) and \(j) are identical)")
                }
            }
        }
        return []
    }

    private func validateObject(_ value: JSONValue, _ s: JSONObject, _ base: String, _ path: String, _ composite: Bool) -> [ValidationError] {
        guard case let .object(object) = value else { return [] }
        if let limit = s["maxProperties"]?.numberValue, Double(object.count) > limit { return error(path, "maxProperties", "must NOT have more than \(Int(limit)) properties") }
        if let limit = s["minProperties"]?.numberValue, Double(object.count) < limit { return error(path, "minProperties", "must NOT have fewer than \(Int(limit)) properties") }
        if let required = s["required"]?.arrayValue {
            for name in required.compactMap({ $0.stringValue }) where !object.contains(name) {
                return error(path, "required", "must have required property '\(name)'")
            }
        }
        if let names = s["propertyNames"] {
            for key in object.keys {
                let errors = validate(.string(key), schema: names, base: base, path: path, composite: true)
                if !errors.isEmpty { return errors + error(path, "propertyNames", "property name '\(key)' is invalid") }
            }
        }
        let properties = s["properties"]?.objectValue ?? JSONObject()
        let patternProperties = s["patternProperties"]?.objectValue ?? JSONObject()
        if let additional = s["additionalProperties"] {
            for member in object.members where !properties.contains(member.key) {
                if patternProperties.keys.contains(where: { matches($0, member.key) }) { continue }
                if case .bool(false) = additional {
                    return error(path, "additionalProperties", "must NOT have additional properties")
                }
                let errors = validate(member.value, schema: additional, base: base, path: JSONPointer.appending(path, member.key), composite: composite)
                if !errors.isEmpty { return errors }
            }
        }
        for property in properties.members {
            guard let member = object[property.key] else { continue }
            let errors = validate(member, schema: property.value, base: base, path: JSONPointer.appending(path, property.key), composite: composite)
            if !errors.isEmpty { return errors }
        }
        for pattern in patternProperties.members {
            for member in object.members where matches(pattern.key, member.key) {
                let errors = validate(member.value, schema: pattern.value, base: base, path: JSONPointer.appending(path, member.key), composite: composite)
                if !errors.isEmpty { return errors }
            }
        }
        if let dependencies = s["dependentRequired"]?.objectValue {
            for dependency in dependencies.members where object.contains(dependency.key) {
                let names = (dependency.value.arrayValue ?? []).compactMap { $0.stringValue }
                // ajv's message lists every dependency, not only the missing ones.
                if names.contains(where: { !object.contains($0) }) {
                    let listed = names.count == 1 ? "property \(names[0])" : "properties \(names.joined(separator: ", "))"
                    return error(path, "dependentRequired", "must have \(listed) when property \(dependency.key) is present")
                }
            }
        }
        if let tagName = s["discriminator"]?["propertyName"]?.stringValue, let branches = s["oneOf"]?.arrayValue {
            guard let tag = object[tagName]?.stringValue else {
                return error(path, "discriminator", "tag \"\(tagName)\" must be string")
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
                    return validate(value, schema: branch, base: base, path: path, composite: composite)
                }
            }
            // ajv reports a bad tag at the object; the TypeScript runtime moves it to the tag itself.
            return error(JSONPointer.appending(path, tagName), "discriminator", "value of tag \"\(tagName)\" must be in oneOf")
        }
        return []
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
