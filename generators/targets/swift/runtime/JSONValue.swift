// A JSON value as the wire has it. Objects keep their members in order as key/value pairs rather
// than in a Dictionary: Swift's String equality is canonical equivalence, so "A\u{30A}" and "Å"
// would collapse into one dictionary key, while JSON (and RFC 8785) treat them as two names.
// Keys and strings here are therefore always compared by Unicode scalars, never with `==`.

import Foundation

public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// The members of a JSON object, in the order they were read or added.
public struct JSONObject: Sendable, Sequence {
    public struct Member: Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]

    public init() {
        members = []
    }

    public init(_ members: [Member]) {
        self.members = members
    }

    /// Builds an object from pairs; a later pair replaces an earlier one with the same key.
    public init(pairs: [(String, JSONValue)]) {
        members = []
        for (key, value) in pairs {
            set(key, value)
        }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map { $0.key } }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// The value of the member whose key has exactly these Unicode scalars.
    public subscript(key: String) -> JSONValue? {
        guard let index = index(of: key) else { return nil }
        return members[index].value
    }

    public func contains(_ key: String) -> Bool {
        index(of: key) != nil
    }

    public func index(of key: String) -> Int? {
        members.firstIndex { sameKey($0.key, key) }
    }

    /// Replaces the member with this key in place, or appends it.
    public mutating func set(_ key: String, _ value: JSONValue) {
        if let index = index(of: key) {
            members[index].value = value
        } else {
            members.append(Member(key: key, value: value))
        }
    }

    /// Appends without looking for an existing member: for callers that already refused duplicates.
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// A copy without the member `key`.
    public func removing(_ key: String) -> JSONObject {
        JSONObject(members.filter { !sameKey($0.key, key) })
    }
}

/// Key identity for JSON: the same sequence of Unicode scalars (not canonical equivalence). A Swift
/// String is always valid Unicode, so that is the same UTF-8 bytes, compared without decoding
/// scalars; the byte counts first, which rejects most keys in O(1) (native strings store it), then
/// one memcmp over the stored bytes (elementsEqual's iterator took a fifth of ConnectorPackage's
/// validation), iterating only a string that keeps no contiguous UTF-8 (a bridged one).
@inline(__always)
func sameKey(_ a: String, _ b: String) -> Bool {
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    if count == 0 { return true }
    let compared: Bool?? = a.utf8.withContiguousStorageIfAvailable { x in
        b.utf8.withContiguousStorageIfAvailable { y in memcmp(x.baseAddress!, y.baseAddress!, count) == 0 }
    }
    if case let .some(.some(same)) = compared { return same }
    return a.utf8.elementsEqual(b.utf8)
}

/// The number of Unicode scalars in `text` (JSON Schema's string length): the UTF-8 bytes that
/// start a scalar, counted over the stored bytes; the scalar view only for a bridged string.
@inline(__always)
func scalarCount(_ text: String) -> Int {
    text.utf8.withContiguousStorageIfAvailable { bytes in
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    } ?? text.unicodeScalars.count
}

extension JSONValue: Equatable {
    /// JSON equality: numbers by value, strings by scalars, objects regardless of member order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.bool(a), .bool(b)):
            return a == b
        case let (.number(a), .number(b)):
            return a == b
        case let (.string(a), .string(b)):
            return sameKey(a, b)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
        case let (.object(a), .object(b)):
            return a == b
        default:
            return false
        }
    }
}

extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }
}

extension JSONValue {
    public var objectValue: JSONObject? {
        if case let .object(object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case let .array(items) = self { return items }
        return nil
    }

    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    public var numberValue: Double? {
        if case let .number(number) = self { return number }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(flag) = self { return flag }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member `key` of an object, nil for anything else.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Itself unless it is JSON null: the end of a pointer in generated rule code.
    public var nonNull: JSONValue? {
        isNull ? nil : self
    }

    /// An array-index step of a pointer in generated rule code: the item of an array, or the
    /// member of that name of an object (RFC 6901 lets a token such as `0` be either).
    public func itemOrMember(_ index: Int, _ name: String) -> JSONValue? {
        switch self {
        case let .array(items): return index < items.count ? items[index] : nil
        case let .object(object): return object[name]
        default: return nil
        }
    }

    /// The value at an RFC 6901 JSON pointer, or nil when it does not resolve.
    public func value(at pointer: String) -> JSONValue? {
        if pointer.isEmpty { return self }
        guard pointer.hasPrefix("/") else { return nil }
        var current = self
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = JSONPointer.unescape(String(raw))
            switch current {
            case let .object(object):
                guard let next = object[token] else { return nil }
                current = next
            case let .array(items):
                guard let index = JSONPointer.arrayIndex(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

public enum JSONPointer {
    /// Escapes one reference token (`~` as `~0`, `/` as `~1`).
    public static func escape(_ token: String) -> String {
        // Most tokens (member names, indices) have neither: no Foundation string search for them.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    public static func unescape(_ token: String) -> String {
        token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    public static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }

    public static func appending(_ pointer: String, _ index: Int) -> String {
        pointer + "/" + String(index)
    }

    static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, first >= 0x30, first <= 0x39 else { return nil }
        if token.utf8.count > 1 && first == 0x30 { return nil }
        return Int(token)
    }
}

// MARK: - Codable

/// A coding key for any member name; used for open maps and for rejecting unknown fields.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int?

    public init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    public init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    public init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object = JSONObject()
            for key in container.allKeys {
                object.set(key.stringValue, try container.decode(JSONValue.self, forKey: key))
            }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !container.isAtEnd {
                items.append(try container.decode(JSONValue.self))
            }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case let .bool(flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case let .number(number):
            var single = encoder.singleValueContainer()
            if number == number.rounded(.towardZero) && number.magnitude < 9_007_199_254_740_992 {
                try single.encode(Int64(number))
            } else {
                try single.encode(number)
            }
        case let .string(text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case let .array(items):
            var container = encoder.unkeyedContainer()
            for item in items {
                try container.encode(item)
            }
        case let .object(object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object.members {
                try container.encode(member.value, forKey: AnyCodingKey(member.key))
            }
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) {
        self = .null
    }

    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    public init(integerLiteral value: Int) {
        self = .number(Double(value))
    }

    public init(floatLiteral value: Double) {
        self = .number(value)
    }

    public init(stringLiteral value: String) {
        self = .string(value)
    }

    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(pairs: elements))
    }
}
