package dev.agentcontracts.runtime

import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode

/**
 * ECMAScript's Number::toString (ECMA-262 §6.1.6.1.20), which RFC 8785 §3.2.2.3 adopts for JSON
 * numbers. Kotlin's Double.toString is not it: it writes `1.0E21` for `1e+21` and `100.0` for
 * `100`, and before JDK 19 it does not always pick the shortest digits either (JDK-4511638).
 *
 * The digits are found with exact decimal arithmetic instead of a port of Ryu or Grisu: slower
 * (tens of microseconds for a double with a large exponent; integers take a fast path), but short
 * enough to check by reading. Checked against the 100,000 ES6 number lines in
 * property-tests/vectors/jcs/es6numbers.
 */
internal object Es6Number {
    /** Shortest round-trip digits `s` (k of them, no trailing zeros) with value = 0.s × 10^n. */
    private class Decimal(val digits: String, val n: Int)

    private const val MAX_SAFE_INTEGER = 9007199254740992.0 // 2^53

    fun format(value: Double): String {
        require(value.isFinite()) { "NaN and Infinity have no JSON form" }
        if (value == 0.0) return "0" // Also -0: JSON's data model has one zero.
        // Integers up to 2^53 are the common case; every decimal that reads back as one of them
        // is the integer itself, so its plain digits are the answer.
        if (Math.abs(value) <= MAX_SAFE_INTEGER && value == Math.rint(value)) return value.toLong().toString()
        val decimal = shortestDigits(Math.abs(value))
        val text = layout(decimal.digits, decimal.n)
        return if (value < 0) "-$text" else text
    }

    /**
     * The least k such that some k-digit decimal reads back as [value] (step 5 of the spec), and
     * among the k-digit decimals that do, the nearest to [value], ties to an even last digit. A
     * value that has a k-digit round-trip form also has a (k+1)-digit one, so k is binary-searched.
     */
    private fun shortestDigits(value: Double): Decimal {
        val exact = BigDecimal(value)
        var low = 1
        var high = 17 // 17 significant digits always round-trip a double.
        var best = candidate(exact, value, 17) ?: error("17 digits must round-trip $value")
        while (low < high) {
            val mid = (low + high) / 2
            val found = candidate(exact, value, mid)
            if (found != null) {
                best = found
                high = mid
            } else {
                low = mid + 1
            }
        }
        val stripped = best.stripTrailingZeros()
        val digits = stripped.unscaledValue().toString()
        return Decimal(digits, digits.length - stripped.scale())
    }

    /** The nearest k-digit decimal to [exact] that reads back as [value], or null if none does. */
    private fun candidate(exact: BigDecimal, value: Double, k: Int): BigDecimal? {
        // The two k-digit neighbours of the exact value. Near a power of two the gap below a double
        // is half the gap above, so the nearer neighbour can miss while the farther one hits.
        val down = exact.round(MathContext(k, RoundingMode.FLOOR))
        val up = exact.round(MathContext(k, RoundingMode.CEILING))
        val downHits = down.toDouble() == value
        val upHits = up.toDouble() == value
        return when {
            downHits && upHits -> {
                val order = exact.subtract(down).compareTo(up.subtract(exact))
                when {
                    order < 0 -> down
                    order > 0 -> up
                    else -> if (lastDigitIsEven(down)) down else up
                }
            }
            downHits -> down
            upHits -> up
            else -> null
        }
    }

    private fun lastDigitIsEven(decimal: BigDecimal): Boolean =
        !decimal.unscaledValue().testBit(0)

    /** Steps 6 to 10 of Number::toString: plain, fractional, small or exponential form. */
    private fun layout(digits: String, n: Int): String {
        val k = digits.length
        return when {
            n in k..21 -> digits + "0".repeat(n - k)
            n in 1..21 -> digits.substring(0, n) + "." + digits.substring(n)
            n in -5..0 -> "0." + "0".repeat(-n) + digits
            else -> {
                val exponent = n - 1
                val sign = if (exponent < 0) "-" else "+"
                val mantissa = if (k == 1) digits else digits[0] + "." + digits.substring(1)
                "${mantissa}e$sign${Math.abs(exponent)}"
            }
        }
    }
}
