// Hashing, MACs and the byte encodings the protocols put on the wire. CryptoKit does the work
// where it exists (Apple platforms); elsewhere (Linux, where Foundation has no SHA-256 or HMAC) the
// small implementation below does, and the tests run both against the same vectors. Decoders are
// strict: a signature with padding, whitespace or stray bits is a different string from the one
// that was signed, so it is refused instead of being normalised into acceptance.

import Foundation
#if canImport(CryptoKit)
import CryptoKit
#endif

public enum Crypto {
    /// SHA-256 of raw bytes.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(CryptoKit.SHA256.hash(data: bytes))
        #else
        return SoftwareSHA256.hash(bytes)
        #endif
    }

    /// SHA-256 of a string's UTF-8 bytes.
    public static func sha256(_ text: String) -> [UInt8] {
        sha256(Array(text.utf8))
    }

    /// Lowercase hex SHA-256.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Hex.encode(sha256(bytes))
    }

    /// HMAC-SHA256 (RFC 2104).
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        let code = CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return Array(code)
        #else
        return SoftwareSHA256.hmac(key: key, message: message)
        #endif
    }

    /// HMAC-SHA256 with a string key meaning its UTF-8 bytes (never hex- or base64-decoded).
    public static func hmacSHA256(key: String, message: String) -> [UInt8] {
        hmacSHA256(key: Array(key.utf8), message: Array(message.utf8))
    }

    /// Compares in time that depends only on the lengths, never on where the bytes differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        constantTimeEqualReading(a, b)
    }

    /// The comparison itself, generic so that a test can hand it collections that count their
    /// reads: every byte of both inputs is read exactly once, whatever the inputs hold.
    static func constantTimeEqualReading<A: RandomAccessCollection, B: RandomAccessCollection>(_ a: A, _ b: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8, A.Index == Int, B.Index == Int {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        let length = max(a.count, b.count)
        for i in 0..<length {
            let x = i < a.count ? a[a.startIndex + i] : 0
            let y = i < b.count ? b[b.startIndex + i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}

/// FIPS 180-4 SHA-256 and RFC 2104 HMAC, for platforms without CryptoKit. Always compiled, so the
/// tests can check it against the vectors on every platform.
public enum SoftwareSHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private static let initial: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]

    @inline(__always)
    private static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x >> n) | (x << (32 - n))
    }

    /// The running state of one SHA-256: the eight chaining words after `length` bytes of whole
    /// 64-byte blocks. A value: copying it forks the hash, which is how a prepared HMAC key starts
    /// every MAC from its keyed states without hashing the pads again.
    struct State: Sendable {
        private(set) var words: [UInt32] = SoftwareSHA256.initial
        private(set) var length = 0

        /// Absorbs one whole block, `bytes[start..<start + 64]`; `w` is the message schedule's scratch space.
        mutating func compress(_ bytes: [UInt8], at start: Int, _ w: inout [UInt32]) {
            for t in 0..<16 {
                let i = start + t * 4
                var word = UInt32(bytes[i]) << 24
                word |= UInt32(bytes[i + 1]) << 16
                word |= UInt32(bytes[i + 2]) << 8
                word |= UInt32(bytes[i + 3])
                w[t] = word
            }
            for t in 16..<64 {
                let x: UInt32 = w[t - 15]
                let y: UInt32 = w[t - 2]
                let s0: UInt32 = SoftwareSHA256.rotateRight(x, 7) ^ SoftwareSHA256.rotateRight(x, 18) ^ (x >> 3)
                let s1: UInt32 = SoftwareSHA256.rotateRight(y, 17) ^ SoftwareSHA256.rotateRight(y, 19) ^ (y >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var a = words[0], b = words[1], c = words[2], d = words[3], e = words[4], f = words[5], g = words[6], hh = words[7]
            for t in 0..<64 {
                let s1: UInt32 = SoftwareSHA256.rotateRight(e, 6) ^ SoftwareSHA256.rotateRight(e, 11) ^ SoftwareSHA256.rotateRight(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1: UInt32 = hh &+ s1 &+ choice &+ SoftwareSHA256.k[t] &+ w[t]
                let s0: UInt32 = SoftwareSHA256.rotateRight(a, 2) ^ SoftwareSHA256.rotateRight(a, 13) ^ SoftwareSHA256.rotateRight(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = s0 &+ majority
                hh = g
                g = f
                f = e
                e = d &+ temp1
                d = c
                c = b
                b = a
                a = temp1 &+ temp2
            }
            words[0] = words[0] &+ a
            words[1] = words[1] &+ b
            words[2] = words[2] &+ c
            words[3] = words[3] &+ d
            words[4] = words[4] &+ e
            words[5] = words[5] &+ f
            words[6] = words[6] &+ g
            words[7] = words[7] &+ hh
            length += 64
        }

        /// The digest of everything absorbed so far followed by `message` (padded per FIPS 180-4 §5.1.1).
        func digest(after message: [UInt8]) -> [UInt8] {
            var state = self
            var w = [UInt32](repeating: 0, count: 64)
            let bitLength = UInt64(length + message.count) &* 8
            let whole = message.count - message.count % 64
            var start = 0
            while start < whole {
                state.compress(message, at: start, &w)
                start += 64
            }
            var tail = Array(message[whole...])
            tail.append(0x80)
            while tail.count % 64 != 56 {
                tail.append(0)
            }
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            start = 0
            while start < tail.count {
                state.compress(tail, at: start, &w)
                start += 64
            }
            var out: [UInt8] = []
            out.reserveCapacity(32)
            for word in state.words {
                out.append(UInt8(truncatingIfNeeded: word >> 24))
                out.append(UInt8(truncatingIfNeeded: word >> 16))
                out.append(UInt8(truncatingIfNeeded: word >> 8))
                out.append(UInt8(truncatingIfNeeded: word))
            }
            return out
        }
    }

    public static func hash(_ message: [UInt8]) -> [UInt8] {
        State().digest(after: message)
    }

    /// The inner and outer states of HMAC-SHA256 with `key` (RFC 2104): the key block XOR ipad and
    /// XOR opad, each absorbed as one block. A key longer than the block is hashed first.
    static func keyedStates(_ key: [UInt8]) -> (inner: State, outer: State) {
        let blockSize = 64
        var block = key.count > blockSize ? hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var w = [UInt32](repeating: 0, count: 64)
        var inner = State()
        inner.compress(block.map { $0 ^ 0x36 }, at: 0, &w)
        var outer = State()
        outer.compress(block.map { $0 ^ 0x5c }, at: 0, &w)
        return (inner, outer)
    }

    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let (inner, outer) = keyedStates(key)
        return outer.digest(after: inner.digest(after: message))
    }
}

/// An HMAC-SHA256 key prepared once: the pads are hashed when it is made (CryptoKit's keyed HMAC
/// value where CryptoKit exists, the software keyed states elsewhere), so each MAC starts from a
/// copy of them instead of hashing both pads again per message. Immutable, so safe to share. The
/// states derive from the secret: the object is as sensitive as the secret and lives as long as
/// the caller keeps it (nothing else holds one).
public final class HMACSHA256Key: @unchecked Sendable {
    // @unchecked: both stored properties are `let`s, and the function only copies the keyed states
    // it captured (values) before updating them.
    /// Whether the secret was empty (zero bytes); hmac-sha256-v1 refuses to sign or verify with it.
    public let isEmpty: Bool
    private let compute: ([UInt8]) -> [UInt8]

    public init(_ secret: [UInt8]) {
        isEmpty = secret.isEmpty
        // The platform's keyed state is chosen here, inside a body: a conditional stored property
        // would be the only one of its kind in the package.
        #if canImport(CryptoKit)
        let keyed = CryptoKit.HMAC<CryptoKit.SHA256>(key: SymmetricKey(data: secret))
        compute = { message in
            var state = keyed
            state.update(data: message)
            return Array(state.finalize())
        }
        #else
        let (inner, outer) = SoftwareSHA256.keyedStates(secret)
        compute = { message in outer.digest(after: inner.digest(after: message)) }
        #endif
    }

    /// A secret as its UTF-8 bytes (never hex- or base64-decoded).
    public convenience init(_ secret: String) {
        self.init(Array(secret.utf8))
    }

    /// HMAC-SHA256(secret, message).
    public func mac(_ message: [UInt8]) -> [UInt8] {
        compute(message)
    }
}

/// Lowercase hexadecimal.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Strict lowercase-hex decode; nil for odd length, uppercase or other characters.
    public static func decode(_ text: String) -> [UInt8]? {
        let units = Array(text.utf8)
        guard units.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(units.count / 2)
        var i = 0
        while i < units.count {
            guard let high = value(units[i]), let low = value(units[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    private static func value(_ unit: UInt8) -> UInt8? {
        switch unit {
        case 0x30...0x39: return unit - 0x30
        case 0x61...0x66: return unit - 0x61 + 10
        default: return nil
        }
    }
}

/// Unpadded base64 in the standard (RFC 4648 §4) or URL-safe (§5) alphabet, decoded strictly.
public enum Base64 {
    public enum Alphabet: Sendable {
        case standard
        case url

        fileprivate var symbols: [UInt8] {
            switch self {
            case .standard: return Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
            case .url: return Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            }
        }
    }

    /// Encodes without padding (the hmac-sha256-v1 and approval token wire forms).
    public static func encode(_ bytes: [UInt8], alphabet: Alphabet) -> String {
        let symbols = alphabet.symbols
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(symbols[Int(n >> 18 & 63)])
            out.append(symbols[Int(n >> 12 & 63)])
            out.append(symbols[Int(n >> 6 & 63)])
            out.append(symbols[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out.append(symbols[Int(n >> 18 & 63)])
            out.append(symbols[Int(n >> 12 & 63)])
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(symbols[Int(n >> 18 & 63)])
            out.append(symbols[Int(n >> 12 & 63)])
            out.append(symbols[Int(n >> 6 & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64; nil for padding, other characters, a dangling symbol or non-zero
    /// trailing bits (anything that is not the canonical encoding of some bytes).
    public static func decode(_ text: String, alphabet: Alphabet) -> [UInt8]? {
        let symbols = alphabet.symbols
        var table = [Int](repeating: -1, count: 256)
        for (index, symbol) in symbols.enumerated() {
            table[Int(symbol)] = index
        }
        let units = Array(text.utf8)
        if units.count % 4 == 1 { return nil }
        var values: [UInt32] = []
        values.reserveCapacity(units.count)
        for unit in units {
            let value = table[Int(unit)]
            if value < 0 { return nil }
            values.append(UInt32(value))
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count * 3 / 4)
        var i = 0
        while i + 4 <= values.count {
            let n = values[i] << 18 | values[i + 1] << 12 | values[i + 2] << 6 | values[i + 3]
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            if values[i + 1] & 0x0F != 0 { return nil }
            out.append(UInt8(truncatingIfNeeded: (values[i] << 2) | (values[i + 1] >> 4)))
        } else if rest == 3 {
            if values[i + 2] & 0x03 != 0 { return nil }
            let n = values[i] << 10 | values[i + 1] << 4 | values[i + 2] >> 2
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
        }
        return out
    }
}
