// Reading a parsed JSONValue straight into the generated types: every generated struct, union and
// enum has an `init(jsonValue:)` that reads its members one by one. It replaced a Codable
// `Decoder` over the parsed value, whose keyed containers, coding keys and paths cost about a
// third of `decode(json:)` of a ConnectorPackage (issue 36). It is sound on its own, not only after
// validation: a missing member, a member of another JSON type, a number that is not an exact Int,
// an unknown member of a closed object, a constant or a union tag of another value are refused
// with the JSON pointer. The generated tests hold its verdicts and values to Foundation's
// JSONDecoder with the generated Codable conformance, over the same values.

/// A type read from a parsed JSON value; the generated types, the JSON scalars, arrays, string-keyed
/// dictionaries and optionals of them.
public protocol JSONValueDecodable {
    init(jsonValue: JSONValue) throws
}

/// Why a value does not fit a type, at a JSON pointer from the value read. Names JSON kinds and
/// member names only: never the value, which may be anything a peer sent.
public struct JSONValueMismatch: Error, Equatable, CustomStringConvertible {
    public let pointer: String
    public let reason: String

    public init(pointer: String = "", reason: String) {
        self.pointer = pointer
        self.reason = reason
    }

    public var description: String { "\(pointer.isEmpty ? "(root)" : pointer): \(reason)" }

    /// The same mismatch seen from the holder of `token`.
    func under(_ token: String) -> JSONValueMismatch {
        JSONValueMismatch(pointer: JSONPointer.appending("", token) + pointer, reason: reason)
    }

    func under(_ index: Int) -> JSONValueMismatch {
        JSONValueMismatch(pointer: JSONPointer.appending("", index) + pointer, reason: reason)
    }

    static func expected(_ kind: String, _ found: JSONValue) -> JSONValueMismatch {
        JSONValueMismatch(reason: "expected \(kind), found \(JSONValueReading.kind(found))")
    }
}

/// What the generated `init(jsonValue:)` implementations call.
public enum JSONValueReading {
    public static func object(_ value: JSONValue, type: String) throws -> JSONObject {
        guard case let .object(object) = value else { throw JSONValueMismatch.expected("an object for \(type)", value) }
        return object
    }

    /// A required member (for a type `T?`, present and perhaps null).
    @inline(__always)
    public static func required<T: JSONValueDecodable>(_ object: JSONObject, _ key: String) throws -> T {
        guard let member = object[key] else {
            throw JSONValueMismatch(reason: "no member \"\(key)\"")
        }
        do {
            return try T(jsonValue: member)
        } catch let mismatch as JSONValueMismatch {
            throw mismatch.under(key)
        }
    }

    /// An optional member: absent and null both read as nil.
    @inline(__always)
    public static func optional<T: JSONValueDecodable>(_ object: JSONObject, _ key: String) throws -> T? {
        guard let member = object[key], !member.isNull else { return nil }
        do {
            return try T(jsonValue: member)
        } catch let mismatch as JSONValueMismatch {
            throw mismatch.under(key)
        }
    }

    /// For additionalProperties: false.
    public static func rejectUnknownMembers(_ object: JSONObject, known: [String], type: String) throws {
        for member in object.members where !known.contains(where: { sameKey($0, member.key) }) {
            throw JSONValueMismatch(reason: "\(type) does not allow the member \"\(member.key)\"")
        }
    }

    /// A member the schema fixes with `const`.
    public static func expectConstant(_ object: JSONObject, _ key: String, _ expected: JSONValue, type: String) throws {
        guard let member = object[key] else {
            throw JSONValueMismatch(reason: "no member \"\(key)\"")
        }
        guard member == expected else {
            throw JSONValueMismatch(pointer: JSONPointer.appending("", key), reason: "\(type) needs another value here")
        }
    }

    /// The tag member of a union: a string, or a boolean for unions over `ok`.
    public static func tag(_ object: JSONObject, _ key: String) throws -> JSONValue {
        guard let member = object[key] else {
            throw JSONValueMismatch(reason: "no member \"\(key)\"")
        }
        switch member {
        case .bool, .string: return member
        default: throw JSONValueMismatch.expected("a string or a boolean", member).under(key)
        }
    }

    public static func unknownTag(_ key: String, type: String) -> JSONValueMismatch {
        JSONValueMismatch(pointer: JSONPointer.appending("", key), reason: "\(type) has no variant with this \(key)")
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue: JSONValueDecodable {
    public init(jsonValue: JSONValue) {
        self = jsonValue
    }
}

extension String: JSONValueDecodable {
    public init(jsonValue: JSONValue) throws {
        guard case let .string(text) = jsonValue else { throw JSONValueMismatch.expected("a string", jsonValue) }
        self = text
    }
}

extension Bool: JSONValueDecodable {
    public init(jsonValue: JSONValue) throws {
        guard case let .bool(flag) = jsonValue else { throw JSONValueMismatch.expected("a boolean", jsonValue) }
        self = flag
    }
}

extension Double: JSONValueDecodable {
    public init(jsonValue: JSONValue) throws {
        guard case let .number(number) = jsonValue else { throw JSONValueMismatch.expected("a number", jsonValue) }
        self = number
    }
}

extension Int: JSONValueDecodable {
    public init(jsonValue: JSONValue) throws {
        guard case let .number(number) = jsonValue else { throw JSONValueMismatch.expected("an integer", jsonValue) }
        guard let exact = Int(exactly: number) else { throw JSONValueMismatch(reason: "the number is not an integer that fits Int") }
        self = exact
    }
}

extension Optional: JSONValueDecodable where Wrapped: JSONValueDecodable {
    /// JSON null is nil.
    public init(jsonValue: JSONValue) throws {
        self = jsonValue.isNull ? nil : try Wrapped(jsonValue: jsonValue)
    }
}

extension Array: JSONValueDecodable where Element: JSONValueDecodable {
    public init(jsonValue: JSONValue) throws {
        guard case let .array(items) = jsonValue else { throw JSONValueMismatch.expected("an array", jsonValue) }
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do {
                out.append(try Element(jsonValue: item))
            } catch let mismatch as JSONValueMismatch {
                throw mismatch.under(index)
            }
        }
        self = out
    }
}

extension Dictionary: JSONValueDecodable where Key == String, Value: JSONValueDecodable {
    /// Members in order; as with Codable's Dictionary, keys Swift holds equal (canonically
    /// equivalent spellings) end as one entry, the later member's value in it.
    public init(jsonValue: JSONValue) throws {
        guard case let .object(object) = jsonValue else { throw JSONValueMismatch.expected("an object", jsonValue) }
        var out: [String: Value] = [:]
        out.reserveCapacity(object.count)
        for member in object.members {
            do {
                out[member.key] = try Value(jsonValue: member.value)
            } catch let mismatch as JSONValueMismatch {
                throw mismatch.under(member.key)
            }
        }
        self = out
    }
}
