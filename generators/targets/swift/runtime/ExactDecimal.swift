// Exact decimal digits of doubles: the strict parser refuses a number whose text is not exactly
// the double it denotes (I-JSON), and this is how it knows.

import Foundation

/// Exact decimal digits of integral doubles, for the I-JSON exactness check.
enum ExactDecimal {
    /// The decimal digits of an integral, finite, non-negative double (e.g. 2^60 -> "1152921504606846976").
    static func integerDigits(of value: Double) -> String {
        precondition(value.isFinite && value >= 0 && value == value.rounded(.towardZero))
        if value < 9_007_199_254_740_992 { return String(UInt64(value)) }
        // value = significand * 2^shift with a 53-bit integer significand.
        let exponent = Int(value.exponent)
        let shift = exponent - 52
        var digits = decimalDigits(of: UInt64(value.significandBitPattern) | (1 << 52)) // little-endian base 10
        for _ in 0..<max(0, shift) {
            var carry: UInt8 = 0
            for k in 0..<digits.count {
                let doubled = digits[k] * 2 + carry
                digits[k] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return String(digits.reversed().map { Character(Unicode.Scalar($0 + 0x30)) })
    }

    private static func decimalDigits(of value: UInt64) -> [UInt8] {
        var remaining = value
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(remaining % 10))
            remaining /= 10
        } while remaining > 0
        return digits
    }
}
