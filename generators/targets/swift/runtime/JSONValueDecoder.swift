// A Codable `Decoder` over an already parsed `JSONValue`: the typed decode after validation reads
// the checked value itself, instead of writing it out as text and parsing it again with
// Foundation's JSONDecoder (which cost more than parsing, validating and checking rules together).
// Keys are matched by Unicode scalars, as everywhere in this package; a number decodes into an
// integer type only when it is a whole number that fits.

import Foundation

struct JSONValueDecoder: Decoder {
    let value: JSONValue
    /// The path to the value's holder and the value's own key: joined only when asked (errors, nesting),
    /// so decoding a member allocates no path.
    private let parentPath: [CodingKey]
    private let key: CodingKey?
    var codingPath: [CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [CodingKey] = []) {
        self.value = value
        parentPath = codingPath
        key = nil
    }

    init(_ value: JSONValue, parentPath: [CodingKey], key: CodingKey) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .object(object) = value else { throw JSONValueDecoder.mismatch([String: JSONValue].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case let .array(items) = value else { throw JSONValueDecoder.mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        SingleValue(value: value, parentPath: parentPath, key: key)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [CodingKey]) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(value)"))
    }

    /// `T` from `value`: JSON values pass through, everything else through its Decodable init.
    @inline(__always)
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ parentPath: [CodingKey], _ key: CodingKey) throws -> T {
        if T.self == JSONValue.self, let passthrough = value as? T { return passthrough }
        return try T(from: JSONValueDecoder(value, parentPath: parentPath, key: key))
    }

    static func string(_ value: JSONValue, _ path: @autoclosure () -> [CodingKey]) throws -> String {
        guard case let .string(text) = value else { throw mismatch(String.self, value, path()) }
        return text
    }

    static func bool(_ value: JSONValue, _ path: @autoclosure () -> [CodingKey]) throws -> Bool {
        guard case let .bool(flag) = value else { throw mismatch(Bool.self, value, path()) }
        return flag
    }

    static func double(_ value: JSONValue, _ path: @autoclosure () -> [CodingKey]) throws -> Double {
        guard case let .number(number) = value else { throw mismatch(Double.self, value, path()) }
        return number
    }

    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> [CodingKey]) throws -> T {
        guard case let .number(number) = value else { throw mismatch(T.self, value, path()) }
        guard let exact = T(exactly: number) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path(), debugDescription: "\(number) does not fit \(T.self)"))
        }
        return exact
    }

    /// The member `key` of `object`, comparing UTF-8 bytes (the same Unicode scalars): one scan.
    @inline(__always)
    static func member(_ object: JSONObject, _ key: String) -> JSONValue? {
        for member in object.members where sameKey(member.key, key) {
            return member.value
        }
        return nil
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [CodingKey]

    var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { JSONValueDecoder.member(object, key.stringValue) != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let found = JSONValueDecoder.member(object, key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return found
    }

    private func path(_ key: Key) -> [CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try JSONValueDecoder.bool(member(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try JSONValueDecoder.string(member(key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try JSONValueDecoder.double(member(key), path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try JSONValueDecoder.double(member(key), path(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try JSONValueDecoder.integer(type, member(key), path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try JSONValueDecoder.integer(type, member(key), path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONValueDecoder.decode(type, member(key), codingPath, key)
    }

    // One scan for an optional member (the protocol's default scans for it three times), and no
    // decode for JSON null.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let found = JSONValueDecoder.member(object, key.stringValue), !found.isNull else { return nil }
        return try JSONValueDecoder.string(found, path(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let found = JSONValueDecoder.member(object, key.stringValue), !found.isNull else { return nil }
        return try JSONValueDecoder.bool(found, path(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let found = JSONValueDecoder.member(object, key.stringValue), !found.isNull else { return nil }
        return try JSONValueDecoder.integer(type, found, path(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let found = JSONValueDecoder.member(object, key.stringValue), !found.isNull else { return nil }
        return try JSONValueDecoder.double(found, path(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = JSONValueDecoder.member(object, key.stringValue), !found.isNull else { return nil }
        return try JSONValueDecoder.decode(type, found, codingPath, key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoder(member(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try JSONValueDecoder(member(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder { JSONValueDecoder(.object(object), codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> Decoder { JSONValueDecoder(try member(key), parentPath: codingPath, key: key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, ItemPath) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "no item \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], ItemPath(parent: codingPath, index: currentIndex))
    }

    /// An item's coding path, built only when asked.
    struct ItemPath {
        let parent: [CodingKey]
        let index: Int
        var key: CodingKey { AnyCodingKey(intValue: index)! }
        var path: [CodingKey] { parent + [key] }
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw DecodingError.valueNotFound(JSONValue.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no item \(currentIndex)")) }
        if case .null = items[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (v, p) = try next(type); return try JSONValueDecoder.bool(v, p.path) }
    mutating func decode(_ type: String.Type) throws -> String { let (v, p) = try next(type); return try JSONValueDecoder.string(v, p.path) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (v, p) = try next(type); return try JSONValueDecoder.double(v, p.path) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (v, p) = try next(type); return Float(try JSONValueDecoder.double(v, p.path)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (v, p) = try next(type); return try JSONValueDecoder.integer(type, v, p.path) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (v, p) = try next(type)
        return try JSONValueDecoder.decode(type, v, p.parent, p.key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (v, p) = try next(JSONObject.self)
        return try JSONValueDecoder(v, codingPath: p.path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let (v, p) = try next([JSONValue].self)
        return try JSONValueDecoder(v, codingPath: p.path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> Decoder {
        let (v, p) = try next(JSONValue.self)
        return JSONValueDecoder(v, codingPath: p.path)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    /// As in JSONValueDecoder: joined only when asked, so decoding an enum's string allocates no path.
    let parentPath: [CodingKey]
    let key: CodingKey?
    var codingPath: [CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try JSONValueDecoder.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try JSONValueDecoder.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try JSONValueDecoder.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try JSONValueDecoder.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONValueDecoder.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONValueDecoder.integer(type, value, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let passthrough = value as? T { return passthrough }
        return try T(from: JSONValueDecoder(value, codingPath: codingPath))
    }
}
