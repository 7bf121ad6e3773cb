// The WHATWG URL parser (url.spec.whatwg.org) for special-scheme URLs without a base, as far as
// the spec's rules need it: the origin (urlOriginIn) and the whatwgUrl forms. Foundation's URL
// follows RFC 3986, not WHATWG, so this is the runtime's own. Same verdicts as Node's URL in the
// TypeScript runtime (spec/agent-connector/vectors/whatwg-urls.json): leading and trailing
// C0/space trimmed, tabs and newlines dropped, any run of slashes after the scheme, userinfo,
// port, IPv4 in every number form, IPv6 with its canonical serialization, percent-decoded hosts.
// Non-ASCII hosts, and hosts with a Punycode label, go through UTS 46 (IDNA.swift, Unicode's mapping
// table); WPT's URL data holds the parser to the standard's verdicts (WhatwgURLWptTests).

import Foundation

public struct WhatwgURL: Sendable, Equatable {
    public let scheme: String
    /// No username and no password (an empty userinfo, "@" or ":@", has neither).
    public let noCredentials: Bool
    public let host: String
    /// nil when absent or the scheme's default.
    public let port: Int?
    /// A query or fragment with content; an empty "?" or "#" serializes to "".
    public let hasQuery: Bool
    public let hasFragment: Bool

    public static let maxUnits = 8192
    private static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// The tuple origin's serialization.
    public var origin: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }

    /// `origin`: exactly a serialized https origin; `endpoint`: https without credentials, query or fragment.
    public static func check(_ text: String, form: String) -> Bool {
        guard let url = parse(text), url.scheme == "https", url.noCredentials else { return false }
        if form == "endpoint" { return !url.hasQuery && !url.hasFragment }
        return Array(url.origin.utf16) == Array(text.utf16)
    }

    /// nil when the parser fails or the scheme has no tuple origin.
    public static func parse(_ raw: String) -> WhatwgURL? {
        var units = Array(raw.utf16)
        if units.count > maxUnits { return nil }
        while let first = units.first, first <= 0x20 { units.removeFirst() }
        while let last = units.last, last <= 0x20 { units.removeLast() }
        units.removeAll { $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }
        guard let colon = units.firstIndex(of: 0x3a), colon >= 1, isLetter(units[0]),
              units[0..<colon].allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2b || $0 == 0x2d || $0 == 0x2e })
        else { return nil }
        let scheme = String(decoding: units[0..<colon], as: UTF16.self).lowercased()
        guard let defaultPort = defaultPorts[scheme] else { return nil }
        var i = colon + 1
        while i < units.count && (units[i] == 0x2f || units[i] == 0x5c) { i += 1 }
        var end = i
        while end < units.count && ![0x2f, 0x5c, 0x3f, 0x23].contains(units[end]) { end += 1 }
        let authority = Array(units[i..<end])
        let at = authority.lastIndex(of: 0x40)
        let userinfo = at.map { Array(authority[0..<$0]) } ?? []
        let hostPort = at.map { Array(authority[($0 + 1)...]) } ?? authority
        var inBrackets = false
        var portAt: Int?
        for (k, c) in hostPort.enumerated() {
            if c == 0x5b { inBrackets = true }
            if c == 0x5d { inBrackets = false }
            if c == 0x3a && !inBrackets { portAt = k; break }
        }
        let hostText = portAt.map { Array(hostPort[0..<$0]) } ?? hostPort
        if hostText.isEmpty { return nil }
        var port: Int?
        if let portAt {
            let digits = hostPort[(portAt + 1)...]
            if !digits.allSatisfy({ (0x30...0x39).contains($0) }) { return nil }
            if !digits.isEmpty {
                var value = 0
                for d in digits {
                    value = value * 10 + Int(d - 0x30)
                    if value > 65535 { return nil }
                }
                port = value == defaultPort ? nil : value
            }
        }
        guard let host = parseHost(hostText) else { return nil }
        let rest = Array(units[end...])
        let hash = rest.firstIndex(of: 0x23)
        let beforeHash = hash.map { Array(rest[0..<$0]) } ?? rest
        let query = beforeHash.firstIndex(of: 0x3f)
        return WhatwgURL(
            scheme: scheme,
            noCredentials: userinfo.isEmpty || userinfo == [0x3a],
            host: host,
            port: port,
            hasQuery: query.map { $0 < beforeHash.count - 1 } ?? false,
            hasFragment: hash.map { $0 < rest.count - 1 } ?? false
        )
    }

    private static func isLetter(_ c: UInt16) -> Bool { (0x41...0x5a).contains(c) || (0x61...0x7a).contains(c) }

    private static let forbiddenDomain: Set<UInt16> = Set(Array(" #%/:<>?@[\\]^|\u{7f}".utf16))

    private static func parseHost(_ text: [UInt16]) -> String? {
        if text.first == 0x5b {
            guard text.last == 0x5d, text.count >= 2 else { return nil }
            return IPv6Address.parse(Array(text[1..<(text.count - 1)])).map { "[\(IPv6Address.serialize($0))]" }
        }
        if let plain = plainHost(text) { return plain }
        let domain = String(decoding: percentDecode(Array(String(decoding: text, as: UTF16.self).utf8)), as: UTF8.self)
        guard let ascii = domainToASCII(domain) else { return nil }
        let asciiUnits = Array(ascii.utf16)
        if asciiUnits.isEmpty || asciiUnits.contains(where: { $0 < 0x20 || forbiddenDomain.contains($0) }) { return nil }
        if IPv4Address.endsInNumber(ascii) { return IPv4Address.parse(ascii).map(IPv4Address.serialize) }
        return ascii
    }

    /// The host most URLs have, lowercased without the general way's string conversions: ASCII
    /// letters, digits and "-" in non-empty labels, no "xn--" label, the last label starting with a
    /// letter. The general way gives such a host the same answer (no percent-decoding, ASCII
    /// lowercasing only, no forbidden code unit, not an IPv4 address); anything else returns nil
    /// and goes that way.
    static func plainHost(_ text: [UInt16]) -> String? {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count)
        var labelStart = 0
        for unit in text {
            switch unit {
            case 0x61...0x7a, 0x30...0x39, 0x2d: bytes.append(UInt8(unit))
            case 0x41...0x5a: bytes.append(UInt8(unit) | 0x20)
            case 0x2e:
                if !plainLabel(bytes[labelStart...]) { return nil }
                bytes.append(0x2e)
                labelStart = bytes.count
            default: return nil
            }
        }
        guard plainLabel(bytes[labelStart...]), let first = bytes[labelStart...].first, (0x61...0x7a).contains(first) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A non-empty label that does not start with "xn--" (lowercased already).
    private static func plainLabel(_ label: ArraySlice<UInt8>) -> Bool {
        !label.isEmpty && !label.starts(with: [0x78, 0x6e, 0x2d, 0x2d])
    }

    private static func percentDecode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
                out.append(UInt8(h * 16 + l))
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b) - 0x30
        case 0x61...0x66: return Int(b) - 0x57
        case 0x41...0x46: return Int(b) - 0x37
        default: return nil
        }
    }

    /// The URL standard's domain to ASCII (beStrict false): ASCII lowercasing when the domain is ASCII
    /// with no "xn--" label, else UTS 46 ToASCII (IDNA.swift); an empty result is a failure.
    private static func domainToASCII(_ domain: String) -> String? {
        let ascii = domain.unicodeScalars.allSatisfy { $0.isASCII }
        let lowered = domain.lowercased()
        let result = ascii && !dotLabels(lowered).contains(where: { $0.hasPrefix("xn--") }) ? lowered : IDNA.toASCII(domain)
        guard let result, !result.isEmpty else { return nil }
        return result
    }
}

/// `text` split at every U+002E, empty labels kept (what components(separatedBy: ".") gives, without
/// Foundation's string search, which took a sixth of a URL parse). Split at the byte 0x2E of the
/// UTF-8, which is only ever that scalar: a combining mark after a dot does not hide it.
func dotLabels(_ text: String) -> [String] {
    let bytes = text.utf8
    var labels: [String] = []
    var start = bytes.startIndex
    var i = start
    while i != bytes.endIndex {
        if bytes[i] == UInt8(ascii: ".") {
            labels.append(String(Substring(bytes[start..<i])))
            start = bytes.index(after: i)
        }
        i = bytes.index(after: i)
    }
    labels.append(String(Substring(bytes[start...])))
    return labels
}

enum IPv4Address {
    static func endsInNumber(_ host: String) -> Bool {
        var labels = dotLabels(host)
        if labels.last == "" {
            if labels.count == 1 { return false }
            labels.removeLast()
        }
        let last = labels.last ?? ""
        return (!last.isEmpty && last.utf8.allSatisfy { (0x30...0x39).contains($0) }) || number(last) != nil
    }

    /// An IPv4 number in decimal, octal (leading 0) or hex (0x); values past 2^40 are clamped, being refused anyway.
    static func number(_ text: String) -> Int64? {
        var s = Array(text.utf8)
        if s.isEmpty { return nil }
        var radix: Int64 = 10
        if s.count >= 2 && s[0] == 0x30 && (s[1] == 0x78 || s[1] == 0x58) {
            radix = 16
            s.removeFirst(2)
        } else if s.count >= 2 && s[0] == 0x30 {
            radix = 8
            s.removeFirst()
        }
        var value: Int64 = 0
        for b in s {
            guard let d = WhatwgURL.hexValue(b), Int64(d) < radix else { return nil }
            value = min(value * radix + Int64(d), Int64(1) << 40)
        }
        return value
    }

    static func parse(_ host: String) -> Int64? {
        var parts = dotLabels(host)
        if parts.last == "" && parts.count > 1 { parts.removeLast() }
        if parts.count > 4 { return nil }
        var numbers: [Int64] = []
        for part in parts {
            guard let n = number(part) else { return nil }
            numbers.append(n)
        }
        if numbers.dropLast().contains(where: { $0 > 255 }) { return nil }
        guard let last = numbers.last, last < Int64(1) << (8 * (5 - numbers.count)) else { return nil }
        var address = last
        for (i, n) in numbers.dropLast().enumerated() { address += n << (8 * (3 - i)) }
        return address
    }

    static func serialize(_ address: Int64) -> String {
        (0..<4).reversed().map { String((address >> (8 * $0)) & 0xff) }.joined(separator: ".")
    }
}

enum IPv6Address {
    static func parse(_ input: [UInt16]) -> [Int]? {
        var address = [Int](repeating: 0, count: 8)
        var piece = 0
        var compress: Int?
        var p = 0
        func c() -> Int { p < input.count ? Int(input[p]) : -1 }
        func hex(_ x: Int) -> Int? { x >= 0 && x < 0x80 ? WhatwgURL.hexValue(UInt8(x)) : nil }
        if c() == 0x3a {
            if p + 1 >= input.count || input[p + 1] != 0x3a { return nil }
            p += 2
            piece += 1
            compress = piece
        }
        while c() != -1 {
            if piece == 8 { return nil }
            if c() == 0x3a {
                if compress != nil { return nil }
                p += 1
                piece += 1
                compress = piece
                continue
            }
            var value = 0
            var length = 0
            while length < 4, let d = hex(c()) {
                value = value * 16 + d
                p += 1
                length += 1
            }
            if c() == 0x2e {
                if length == 0 { return nil }
                p -= length
                if piece > 6 { return nil }
                var seen = 0
                while c() != -1 {
                    var v = -1
                    if seen > 0 {
                        if c() == 0x2e && seen < 4 { p += 1 } else { return nil }
                    }
                    if !(0x30...0x39).contains(c()) { return nil }
                    while (0x30...0x39).contains(c()) {
                        let d = c() - 0x30
                        if v == -1 { v = d } else if v == 0 { return nil } else { v = v * 10 + d }
                        if v > 255 { return nil }
                        p += 1
                    }
                    address[piece] = address[piece] * 0x100 + v
                    seen += 1
                    if seen == 2 || seen == 4 { piece += 1 }
                }
                if seen != 4 { return nil }
                break
            } else if c() == 0x3a {
                p += 1
                if c() == -1 { return nil }
            } else if c() != -1 {
                return nil
            }
            address[piece] = value
            piece += 1
        }
        if let compress {
            var swaps = piece - compress
            piece = 7
            while piece != 0 && swaps > 0 {
                address.swapAt(piece, compress + swaps - 1)
                piece -= 1
                swaps -= 1
            }
        } else if piece != 8 {
            return nil
        }
        return address
    }

    static func serialize(_ address: [Int]) -> String {
        var bestStart = -1
        var bestLength = 1
        var i = 0
        while i < 8 {
            if address[i] == 0 {
                var j = i
                while j < 8 && address[j] == 0 { j += 1 }
                if j - i > bestLength { bestStart = i; bestLength = j - i }
                i = j
            } else {
                i += 1
            }
        }
        var out = ""
        var ignoreZero = false
        for k in 0..<8 {
            if ignoreZero && address[k] == 0 { continue }
            ignoreZero = false
            if k == bestStart {
                out += k == 0 ? "::" : ":"
                ignoreZero = true
                continue
            }
            out += String(address[k], radix: 16)
            if k != 7 { out += ":" }
        }
        return out
    }
}
