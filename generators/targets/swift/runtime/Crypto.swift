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
