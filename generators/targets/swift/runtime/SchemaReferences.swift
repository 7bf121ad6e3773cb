// Where a `$ref` leads: RFC 3986 reference resolution, the schema resources (`$id`, embedded ones
// included) and `$anchor`s of the registered documents, and JSON pointers that change base when
// they pass an embedded `$id`. Also the load-time check that refuses what no runtime enforces
// (generators/targets/runtime-keywords.json), so nothing is silently ignored.

import Foundation

/// A schema uses a keyword, format or reference the runtime does not implement; thrown before any
/// instance is validated against it.
public struct SchemaRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document's URI.
    public let document: String
    /// JSON pointer to the schema object that uses it.
    public let pointer: String
    /// The refused keyword ("format" for an unknown format, "$ref" for an unresolvable reference).
    public let keyword: String
    public let message: String

    public var description: String { "\(document)#\(pointer): \(message)" }
}

enum URIReference {
    /// scheme, authority, path, query, fragment (nil when absent), RFC 3986 appendix B.
    typealias Parts = (scheme: String?, authority: String?, path: String, query: String?, fragment: String?)

    static func split(_ text: String) -> Parts {
        var rest = Substring(text)
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var scheme: String?
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isLetter,
           rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
           !rest[..<colon].contains("/") {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        var authority: String?
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        return (scheme, authority, String(rest), query, fragment)
    }

    static func join(_ p: Parts) -> String {
        var out = ""
        if let scheme = p.scheme { out += scheme + ":" }
        if let authority = p.authority { out += "//" + authority }
        out += p.path
        if let query = p.query { out += "?" + query }
        if let fragment = p.fragment { out += "#" + fragment }
        return out
    }

    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        var result = ""
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) } else if input.hasPrefix("./") { input = input.dropFirst(2) } else if input.hasPrefix("/./") { input = input.dropFirst(2) } else if input == "/." { input = "/" } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." { input = "" } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        for segment in output { result += segment }
        return result
    }

    /// `reference` resolved against the absolute `base` (RFC 3986 section 5.2.2).
    static func resolve(_ reference: String, against base: String) -> String {
        let r = split(reference)
        let b = split(base)
        var t: Parts = (nil, nil, "", nil, r.fragment)
        if r.scheme != nil {
            t = (r.scheme, r.authority, removeDotSegments(r.path), r.query, r.fragment)
        } else if r.authority != nil {
            t = (b.scheme, r.authority, removeDotSegments(r.path), r.query, r.fragment)
        } else if r.path.isEmpty {
            t = (b.scheme, b.authority, b.path, r.query ?? b.query, r.fragment)
        } else if r.path.hasPrefix("/") {
            t = (b.scheme, b.authority, removeDotSegments(r.path), r.query, r.fragment)
        } else {
            var merged: String
            if b.authority != nil && b.path.isEmpty {
                merged = "/" + r.path
            } else if let slash = b.path.lastIndex(of: "/") {
                merged = String(b.path[...slash]) + r.path
            } else {
                merged = r.path
            }
            merged = removeDotSegments(merged)
            t = (b.scheme, b.authority, merged, r.query, r.fragment)
        }
        return join(t)
    }

    /// The URI without its fragment.
    static func withoutFragment(_ uri: String) -> String {
        uri.firstIndex(of: "#").map { String(uri[..<$0]) } ?? uri
    }
}

extension SchemaRegistry {
    /// Keywords whose value is one schema, a list of schemas, or schemas by name.
    static let singleSchemaKeywords: Set<String> = ["additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"]
    static let schemaListKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    static let schemaMapKeywords: Set<String> = ["$defs", "dependentSchemas", "patternProperties", "properties"]

    /// Every schema object of a document (subschema positions only) with its base URI (its own `$id`
    /// applied), the base it is in (the enclosing one), and its JSON pointer. `base` is the base
    /// `node` is in: a node's own `$id` is always applied by whoever reads the node, never before.
    static func walk(_ node: JSONValue, base: String, pointer: String, _ visit: (JSONObject, String, String, String) -> Void) {
        guard case let .object(schema) = node else { return }
        var here = base
        if let id = schema["$id"]?.stringValue { here = URIReference.withoutFragment(URIReference.resolve(id, against: base)) }
        visit(schema, here, base, pointer)
        for member in schema.members {
            let at = JSONPointer.appending(pointer, member.key)
            if singleSchemaKeywords.contains(member.key) {
                walk(member.value, base: here, pointer: at, visit)
            } else if schemaListKeywords.contains(member.key), let list = member.value.arrayValue {
                for (i, item) in list.enumerated() { walk(item, base: here, pointer: JSONPointer.appending(at, i), visit) }
            } else if schemaMapKeywords.contains(member.key), let map = member.value.objectValue {
                for entry in map.members { walk(entry.value, base: here, pointer: JSONPointer.appending(at, entry.key), visit) }
            }
        }
    }

    /// The 2020-12 dialect: naming it in `$schema` refers to no other document.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"
    /// The meta-schema's documents, which use $dynamicRef: a `$ref` to them is refused as such.
    static let metaSchemaPrefix = "https://json-schema.org/draft/2020-12/"
    /// Keywords no runtime implements, in the order that names a refusal when several are used.
    static let unimplementedKeywords = ["$dynamicRef", "$dynamicAnchor", "$vocabulary"]

    /// Throws the refusal for the schema at `uri` (a document, or anything a `$ref` can name) when it
    /// or a schema it references uses what runtime-keywords.json does not declare. Of several, an
    /// unimplemented keyword is named first (a `$ref` to the meta-schema counts as the $dynamicRef it
    /// leads to, as in TS and Kotlin), then the first other.
    func refusal(for uri: String) -> SchemaRefusal? {
        var found: [SchemaRefusal] = []
        var seen: Set<String> = []
        var pending: [(JSONValue, String, String, String)] = []
        guard let start = resolve(uri, base: uri) else {
            return SchemaRefusal(document: uri, pointer: "", keyword: "$ref", message: "no schema is registered at \(uri)")
        }
        pending.append((start.schema, start.base, uri, ""))
        seen.insert(uri)
        while let (node, base, document, pointer) = pending.popLast() {
            Self.walk(node, base: base, pointer: pointer) { schema, here, _, at in
                for member in schema.members {
                    let key = member.key
                    if !Self.keywords.contains(key) && !key.hasPrefix("x-") {
                        found.append(SchemaRefusal(document: document, pointer: at, keyword: key, message: "keyword \"\(key)\" is not one the runtimes enforce"))
                    } else if key == "format", let format = member.value.stringValue, !Self.formats.contains(format) {
                        found.append(SchemaRefusal(document: document, pointer: at, keyword: "format", message: "format \"\(format)\" is not one the runtimes assert"))
                    } else if key == "$ref" || (key == "$schema" && member.value.stringValue != Self.dialect), let reference = member.value.stringValue {
                        let target = URIReference.resolve(reference, against: here)
                        if target.hasPrefix(Self.metaSchemaPrefix) {
                            found.append(SchemaRefusal(document: document, pointer: at, keyword: "$dynamicRef", message: "$ref \(reference): the 2020-12 meta-schema uses $dynamicRef, which the runtimes do not implement"))
                        } else if let resolved = resolve(reference, base: here) {
                            if !seen.contains(target) {
                                seen.insert(target)
                                pending.append((resolved.schema, resolved.base, URIReference.withoutFragment(target), ""))
                            }
                        } else {
                            found.append(SchemaRefusal(document: document, pointer: at, keyword: "$ref", message: "cannot resolve \(reference) (no registered schema has that URI)"))
                        }
                    }
                }
            }
        }
        for keyword in Self.unimplementedKeywords {
            if let first = found.first(where: { $0.keyword == keyword }) { return first }
        }
        return found.first
    }

    /// Resolves `reference` against `base`: the schema it names and the base URI that schema is in
    /// (the enclosing one: the schema's own `$id` is applied by its reader, see `walk`).
    func resolve(_ reference: String, base: String) -> (schema: JSONValue, base: String)? {
        let absolute = URIReference.resolve(reference, against: base)
        let resource = URIReference.withoutFragment(absolute)
        let fragment = URIReference.split(absolute).fragment ?? ""
        guard let root = resources[resource] else { return nil }
        if fragment.isEmpty { return root }
        if !fragment.hasPrefix("/") { return anchors[resource + "#" + fragment] }
        // A JSON pointer, percent-decoded; passing an embedded `$id` changes the base.
        var node = root.schema
        var here = root.base
        for token in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if let id = node["$id"]?.stringValue { here = URIReference.withoutFragment(URIReference.resolve(id, against: here)) }
            let name = JSONPointer.unescape(String(token).removingPercentEncoding ?? String(token))
            switch node {
            case let .object(object):
                guard let next = object[name] else { return nil }
                node = next
            case let .array(items):
                guard let index = JSONPointer.arrayIndex(name), index < items.count else { return nil }
                node = items[index]
            default:
                return nil
            }
        }
        return (node, here)
    }

    /// Every resource (`$id`, the document's own URI included) and `$anchor` of a document.
    static func index(_ document: JSONValue, uri: String, resources: inout [String: (schema: JSONValue, base: String)], anchors: inout [String: (schema: JSONValue, base: String)]) {
        resources[uri] = (document, uri)
        walk(document, base: uri, pointer: "") { schema, here, enclosing, _ in
            if schema["$id"] != nil { resources[here] = (.object(schema), enclosing) }
            if let anchor = schema["$anchor"]?.stringValue { anchors[here + "#" + anchor] = (.object(schema), enclosing) }
        }
    }
}
