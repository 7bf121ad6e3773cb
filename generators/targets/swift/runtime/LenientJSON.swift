// The part of ECMAScript's JSON.parse the secret filter's JOSE header test relies on (SecretText.swift):
// it must accept what JSON.parse accepts (duplicate members, lone surrogate escapes), which the
// strict I-JSON reader refuses by design.

private func jsonDigit(_ c: Int) -> Bool { (0x30...0x39).contains(c) }

/// ECMAScript JSON.parse's grammar, kept to what the JOSE header test needs: nil unless the whole
/// text is one JSON object; then its string-valued top-level members as UTF-16 (a later duplicate
/// replaces an earlier one, as JSON.parse does; a later non-string value removes it).
enum LenientJSONObject {
    static func strings(_ s: [UInt16]) -> [String: [UInt16]]? {
        let r = LenientJSONReader(s)
        r.ws()
        if r.peek() != 0x7b { return nil }
        guard let members = r.object(collect: true, depth: 0) else { return nil }
        r.ws()
        return r.i == s.count ? members : nil
    }
}

private final class LenientJSONReader {
    let s: [UInt16]
    var i = 0
    init(_ s: [UInt16]) { self.s = s }

    func peek() -> Int { i < s.count ? Int(s[i]) : -1 }
    func ws() { while [0x20, 0x09, 0x0a, 0x0d].contains(peek()) { i += 1 } }

    func object(collect: Bool, depth: Int) -> [String: [UInt16]]? {
        if depth > 512 { return nil }
        var members: [String: [UInt16]] = [:]
        i += 1
        ws()
        if peek() == 0x7d { i += 1; return members }
        while true {
            ws()
            if peek() != 0x22 { return nil }
            guard let key = string() else { return nil }
            // A lone surrogate in a key becomes U+FFFD, so such a key never names alg or enc.
            let plainKey = String(decoding: key, as: UTF16.self)
            ws()
            if peek() != 0x3a { return nil }
            i += 1
            ws()
            if peek() == 0x22 {
                guard let v = string() else { return nil }
                if collect { members[plainKey] = v }
            } else {
                if !value(depth: depth + 1) { return nil }
                if collect { members[plainKey] = nil }
            }
            ws()
            let c = peek()
            i += 1
            if c == 0x7d { return members }
            if c != 0x2c { return nil }
        }
    }

    func value(depth: Int) -> Bool {
        let c = peek()
        if c == 0x7b { return object(collect: false, depth: depth) != nil }
        if c == 0x5b {
            if depth > 512 { return false }
            i += 1
            ws()
            if peek() == 0x5d { i += 1; return true }
            while true {
                ws()
                if !value(depth: depth + 1) { return false }
                ws()
                let d = peek()
                i += 1
                if d == 0x5d { return true }
                if d != 0x2c { return false }
            }
        }
        if c == 0x22 { return string() != nil }
        for word in ["true", "false", "null"] {
            let w = Array(word.utf16)
            if i + w.count <= s.count && Array(s[i..<(i + w.count)]) == w { i += w.count; return true }
        }
        return number()
    }

    func number() -> Bool {
        if peek() == 0x2d { i += 1 }
        if peek() == 0x30 {
            i += 1
        } else if (0x31...0x39).contains(peek()) {
            while jsonDigit(peek()) { i += 1 }
        } else {
            return false
        }
        if peek() == 0x2e {
            i += 1
            if !jsonDigit(peek()) { return false }
            while jsonDigit(peek()) { i += 1 }
        }
        if peek() == 0x65 || peek() == 0x45 {
            i += 1
            if peek() == 0x2b || peek() == 0x2d { i += 1 }
            if !jsonDigit(peek()) { return false }
            while jsonDigit(peek()) { i += 1 }
        }
        return true
    }

    func string() -> [UInt16]? {
        i += 1
        var out: [UInt16] = []
        while true {
            let c = peek()
            if c < 0x20 { return nil }
            i += 1
            if c == 0x22 { return out }
            if c != 0x5c { out.append(UInt16(c)); continue }
            let e = peek()
            i += 1
            switch e {
            case 0x22, 0x5c, 0x2f: out.append(UInt16(e))
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0c)
            case 0x6e: out.append(0x0a)
            case 0x72: out.append(0x0d)
            case 0x74: out.append(0x09)
            case 0x75:
                if i + 4 > s.count { return nil }
                var unit = 0
                for k in 0..<4 {
                    let d = Int(s[i + k])
                    let v = jsonDigit(d) ? d - 0x30 : ((0x61...0x66).contains(d) ? d - 0x57 : ((0x41...0x46).contains(d) ? d - 0x37 : -1))
                    if v < 0 { return nil }
                    unit = unit * 16 + v
                }
                out.append(UInt16(unit))
                i += 4
            default: return nil
            }
        }
    }
}
