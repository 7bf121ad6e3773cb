// Punycode for the WHATWG host parser (WhatwgURL.swift): encoding non-ASCII labels, and checking
// that an "xn--" label decodes.

/// RFC 3492 Punycode.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    private static func adapt(_ deltaIn: Int, _ points: Int, _ first: Bool) -> Int {
        var delta = first ? deltaIn / damp : deltaIn / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func threshold(_ k: Int, _ bias: Int) -> Int { k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias) }

    private static func digitChar(_ d: Int) -> Character { Character(UnicodeScalar(UInt8(d < 26 ? 0x61 + d : 0x30 + d - 26))) }

    static func encode(_ input: [Int]) -> String? {
        var output = String(input.filter { $0 < 0x80 }.map { Character(UnicodeScalar(UInt8($0))) })
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.filter({ $0 >= n }).min() else { return nil }
            if (m - n) > (Int(Int32.max) - delta) / (handled + 1) { return nil }
            delta += (m - n) * (handled + 1)
            n = m
            for c in input {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k, bias)
                        if q < t { break }
                        output.append(digitChar(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digitChar(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    static func decode(_ text: String) -> String? {
        let input = Array(text.utf8)
        var output: [Int] = []
        let delimiter = input.lastIndex(of: 0x2d)
        if let delimiter, delimiter > 0 {
            for b in input[0..<delimiter] {
                if b >= 0x80 { return nil }
                output.append(Int(b))
            }
        }
        var n = initialN, i = 0, bias = initialBias
        var p = (delimiter ?? 0) > 0 ? delimiter! + 1 : 0
        while p < input.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                if p >= input.count { return nil }
                let b = input[p]
                p += 1
                let digit: Int
                switch b {
                case 0x61...0x7a: digit = Int(b) - 0x61
                case 0x41...0x5a: digit = Int(b) - 0x41
                case 0x30...0x39: digit = Int(b) - 0x30 + 26
                default: return nil
                }
                i += digit * w
                if i > Int(Int32.max) { return nil }
                let t = threshold(k, bias)
                if digit < t { break }
                w *= base - t
                if w > Int(Int32.max) { return nil }
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            if n > 0x10FFFF { return nil }
            i %= output.count + 1
            output.insert(n, at: i)
            i += 1
        }
        var scalars = String.UnicodeScalarView()
        for cp in output {
            guard let scalar = UnicodeScalar(cp) else { return nil }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
