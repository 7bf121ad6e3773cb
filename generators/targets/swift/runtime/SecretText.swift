// The noSecrets rule: display text is refused when the Agent Connector host's secret filter
// (Meldwork's redactSecrets, which defines what the SDK accepts) would redact any part of it.
// Same scan as the TypeScript runtime's secret-text.ts: one forward pass per shape with
// precomputed run ends, no backtracking regex, so the cost is linear in the text length. Text is
// read as UTF-16 code units, as the filter's JavaScript patterns read it.

import Foundation

public enum SecretText {
    /// Longer text is refused outright; SafeText fields are far shorter (maxLength 1000).
    public static let maxUnits = 65536

    public static func contains(_ text: String) -> Bool { find(text) != nil }

    /// The secret shape found first (in the filter's order), or nil when the text is clean.
    public static func find(_ text: String) -> String? {
        let units = Array(text.utf16)
        if units.count > maxUnits { return "too-long" }
        let s = SecretScan(units)
        if s.privateKeyBlock() { return "private-key" }
        if s.bearer() { return "bearer" }
        if s.basicCredential() { return "basic" }
        if s.keyPrefix() { return "api-key-prefix" }
        if s.awsKey() { return "aws-access-key" }
        if s.googleKey() { return "google-api-key" }
        if s.jose() { return "jose" }
        if s.urlCredentials() { return "url-credentials" }
        if s.assignment() { return "assignment" }
        return nil
    }

    /// ECMAScript's \s (WhiteSpace and LineTerminator).
    static func isJSSpace(_ c: Int) -> Bool {
        c == 0x09 || c == 0x0a || c == 0x0b || c == 0x0c || c == 0x0d || c == 0x20 || c == 0xa0 || c == 0x1680
            || (0x2000...0x200a).contains(c) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff
    }

    static func sextet(_ c: Int, url: Bool) -> Int {
        if asciiUpper(c) { return c - 0x41 }
        if asciiLower(c) { return c - 0x61 + 26 }
        if asciiDigit(c) { return c - 0x30 + 52 }
        if c == (url ? 0x2d : 0x2b) { return 62 }
        if c == (url ? 0x5f : 0x2f) { return 63 }
        return -1
    }

    /// Canonical unpadded base64 (or base64url) decoding, as the filter accepts it; nil otherwise.
    static func decodeCanonicalBase64(_ units: ArraySlice<UInt16>, url: Bool) -> [UInt8]? {
        if units.isEmpty || units.count % 4 == 1 || units.count > maxUnits { return nil }
        var out: [UInt8] = []
        var acc = 0
        var bits = 0
        for unit in units {
            let v = sextet(Int(unit), url: url)
            if v < 0 { return nil }
            acc = ((acc << 6) | v) & 0xffffff
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> bits) & 0xff))
            }
        }
        if acc & ((1 << bits) - 1) != 0 { return nil }
        return out.isEmpty ? nil : out
    }

    static func hasJoseHeader(_ segment: ArraySlice<UInt16>) -> Bool {
        guard let bytes = decodeCanonicalBase64(segment, url: true) else { return false }
        // Malformed UTF-8 becomes U+FFFD, as Node's Buffer#toString does.
        let text = String(decoding: bytes, as: UTF8.self)
        guard let members = LenientJSONObject.strings(Array(text.utf16)) else { return false }
        return ["alg", "enc"].contains { name in
            guard let value = members[name] else { return false }
            return value.contains { !isJSSpace(Int($0)) }
        }
    }
}

private func asciiDigit(_ c: Int) -> Bool { (0x30...0x39).contains(c) }
private func asciiUpper(_ c: Int) -> Bool { (0x41...0x5a).contains(c) }
private func asciiLower(_ c: Int) -> Bool { (0x61...0x7a).contains(c) }
private func isAlpha(_ c: Int) -> Bool { asciiUpper(c) || asciiLower(c) }
private func isAlnum(_ c: Int) -> Bool { isAlpha(c) || asciiDigit(c) }
private func isWord(_ c: Int) -> Bool { isAlnum(c) || c == 0x5f }
private func isKeyChar(_ c: Int) -> Bool { isWord(c) || c == 0x2d }
private func isNameChar(_ c: Int) -> Bool { isKeyChar(c) || c == 0x2e }
private func isBase64Char(_ c: Int) -> Bool { isAlnum(c) || c == 0x2b || c == 0x2f }
private func isBearerChar(_ c: Int) -> Bool {
    isAlnum(c) || c == 0x2e || c == 0x5f || c == 0x7e || c == 0x2b || c == 0x2f || c == 0x3d || c == 0x2d
}
private func isSchemeChar(_ c: Int) -> Bool { isAlnum(c) || c == 0x2b || c == 0x2e || c == 0x2d }
private func lowerASCII(_ c: Int) -> Int { asciiUpper(c) ? c + 0x20 : c }

// The sensitive key names of the key=value shape: parts joined by an optional '_', '-' or space.
private let keyNames: [(parts: [[UInt16]], tail: [[UInt16]])] = keyNameText.map { ($0.parts.map { Array($0.utf16) }, $0.tail.map { Array($0.utf16) }) }
private let keyNameText: [(parts: [String], tail: [String])] = [
    (["api", "key"], []), (["access", "key"], ["id"]), (["secret", "access", "key"], []), (["access", "token"], []),
    (["refresh", "token"], []), (["auth", "token"], []), (["database", "url"], []), (["connection", "string"], []),
    (["dsn"], []), (["token"], []), (["secret"], []), (["password"], []), (["credential"], []), (["authorization"], []),
    (["private", "key"], []), (["session", "ref"], []),
]
/// keyNames' indices by the first letter of their first part ("a" is 0): most letters start none.
private let keyNamesByLetter: [[Int]] = (0..<26).map { letter in keyNames.indices.filter { Int(keyNames[$0].parts[0][0]) == 0x61 + letter } }
private let keyPrefixes = ["sk", "rk", "pk", "ghp", "github_pat", "xoxb", "xoxa", "xoxp", "xoxr", "xoxs", "xox"].map { Array($0.utf16) }
private let bearerWord = Array("bearer".utf16)
private let basicWord = Array("basic".utf16)
private let identityAssignment = Array("credential=[redacted]".utf16)

private final class SecretScan {
    let c: [UInt16]
    let n: Int
    private var assignCache: [Int8]

    init(_ units: [UInt16]) {
        c = units
        n = units.count
        assignCache = [Int8](repeating: 0, count: units.count + 2)
    }

    func at(_ i: Int) -> Int { i >= 0 && i < n ? Int(c[i]) : -1 }

    func lit(_ i: Int, _ word: String) -> Bool { lit(i, Array(word.utf16)) }

    func lit(_ i: Int, _ w: [UInt16]) -> Bool {
        if i < 0 || i + w.count > n { return false }
        for k in 0..<w.count where lowerASCII(Int(c[i + k])) != Int(w[k]) { return false }
        return true
    }

    func exact(_ i: Int, _ word: [UInt16]) -> Bool {
        if i < 0 || i + word.count > n { return false }
        for k in 0..<word.count where c[i + k] != word[k] { return false }
        return true
    }

    func runEnd(_ start: Int, _ inClass: (Int) -> Bool) -> Int {
        var i = start
        while i < n && inClass(Int(c[i])) { i += 1 }
        return i
    }

    func wordStart(_ i: Int) -> Bool { i == 0 || !isWord(Int(c[i - 1])) }

    /// Positions where `word` (exact code units) starts, in order.
    func occurrences(_ word: String) -> [Int] {
        let w = Array(word.utf16)
        guard n >= w.count else { return [] }
        return (0...(n - w.count)).filter { exact($0, w) }
    }

    func pemHeader(_ i: Int, _ open: String) -> Int {
        if !lit(i, open) { return -1 }
        let runStart = i + open.utf16.count
        let end = runEnd(runStart) { isAlnum($0) || $0 == 0x20 }
        let label = "private key"
        if end - runStart < label.utf16.count || !lit(end - label.utf16.count, label) || !exact(end, Array("-----".utf16)) { return -1 }
        return end + 5
    }

    func privateKeyBlock() -> Bool {
        var firstBeginEnd = -1
        var lastEndStart = -1
        for i in occurrences("-----") {
            let b = pemHeader(i, "-----begin ")
            if b >= 0 && firstBeginEnd < 0 { firstBeginEnd = b }
            if pemHeader(i, "-----end ") >= 0 { lastEndStart = i }
        }
        return firstBeginEnd >= 0 && lastEndStart >= firstBeginEnd
    }

    func bearer() -> Bool {
        for i in 0..<n where wordStart(i) && lit(i, bearerWord) {
            var j = i + 6
            if !SecretText.isJSSpace(at(j)) { continue }
            while SecretText.isJSSpace(at(j)) { j += 1 }
            if isBearerChar(at(j)) { return true }
        }
        return false
    }

    func basicCredential() -> Bool {
        var i = 0
        while i < n {
            if wordStart(i) && lit(i, basicWord) && (at(i + 5) == 0x20 || at(i + 5) == 0x09) {
                var j = i + 5
                while at(j) == 0x20 || at(j) == 0x09 { j += 1 }
                let end = runEnd(j, isBase64Char)
                var pad = end
                while at(pad) == 0x3d { pad += 1 }
                if end > j && pad - end <= 2 && !isBase64Char(at(pad)) {
                    if SecretText.decodeCanonicalBase64(c[j..<end], url: false)?.contains(0x3a) == true { return true }
                    i = pad // the filter's global scan resumes after a candidate it leaves unchanged
                    continue
                }
            }
            i += 1
        }
        return false
    }

    func keyPrefix() -> Bool {
        var lastBoundary = [Int](repeating: -1, count: n + 1)
        var s = 0
        while s < n {
            if !isKeyChar(Int(c[s])) { s += 1; continue }
            let e = runEnd(s, isKeyChar)
            var best = isWord(Int(c[e - 1])) ? e : -1
            var j = e - 1
            while best < 0 && j > s {
                if isWord(Int(c[j - 1])) != isWord(Int(c[j])) { best = j }
                j -= 1
            }
            for k in s..<e { lastBoundary[k] = best }
            s = e
        }
        for i in 0..<n where wordStart(i) && isAlpha(Int(c[i])) {
            for prefix in keyPrefixes where lit(i, prefix) {
                let sep = i + prefix.count
                if at(sep) != 0x5f && at(sep) != 0x2d { continue }
                if lastBoundary[sep] >= sep + 13 { return true }
            }
        }
        return false
    }

    func awsKey() -> Bool {
        for i in occurrences("AKIA") where wordStart(i) {
            var k = 0
            while k < 16 && (asciiUpper(at(i + 4 + k)) || asciiDigit(at(i + 4 + k))) { k += 1 }
            if k == 16 && !isWord(at(i + 20)) { return true }
        }
        return false
    }

    func googleKey() -> Bool {
        for i in occurrences("AIza") where !isKeyChar(at(i - 1)) && runEnd(i, isKeyChar) - i == 39 { return true }
        return false
    }

    func jose() -> Bool {
        var i = 0
        while i < n {
            if !isKeyChar(Int(c[i])) || isKeyChar(at(i - 1)) { i += 1; continue }
            var segments: [(Int, Int)] = []
            var s = i
            while true {
                let e = runEnd(s, isKeyChar)
                segments.append((s, e))
                if at(e) == 0x2e && isKeyChar(at(e + 1)) { s = e + 1 } else { break }
            }
            var k = 0
            while k < segments.count {
                let left = segments.count - k
                let take = left >= 5 ? 5 : (left >= 3 ? 3 : 0)
                if take == 0 { k += 1; continue }
                if SecretText.hasJoseHeader(c[segments[k].0..<segments[k].1]) { return true }
                k += take
            }
            i = segments[segments.count - 1].1
        }
        return false
    }

    func urlCredentials() -> Bool {
        for i in occurrences("://") {
            var hasLetter = false
            var p = i - 1
            while p >= 0 && isSchemeChar(Int(c[p])) {
                if isAlpha(Int(c[p])) { hasLetter = true }
                p -= 1
            }
            if !hasLetter { continue }
            let userEnd = runEnd(i + 3) { !SecretText.isJSSpace($0) && $0 != 0x2f && $0 != 0x40 && $0 != 0x3a }
            if userEnd == i + 3 || at(userEnd) != 0x3a { continue }
            let passEnd = runEnd(userEnd + 1) { !SecretText.isJSSpace($0) && $0 != 0x2f && $0 != 0x40 }
            if passEnd > userEnd + 1 && at(passEnd) == 0x40 { return true }
        }
        return false
    }

    /// After a key name ending at e (and its closing quote, if any): `\s*[:=]\s*` and a value.
    func assignedAt(_ e: Int) -> Bool {
        if assignCache[e] != 0 { return assignCache[e] == 1 }
        var j = e
        while SecretText.isJSSpace(at(j)) { j += 1 }
        var ok = false
        if at(j) == 0x3a || at(j) == 0x3d {
            j += 1
            while SecretText.isJSSpace(at(j)) { j += 1 }
            let v = at(j)
            ok = v >= 0 && v != 0x2c && v != 0x3b && v != 0x7d && v != 0x5d
        }
        assignCache[e] = ok ? 1 : -1
        return ok
    }

    func joinPart(_ from: [Int], _ part: [UInt16], separated: Bool) -> [Int] {
        var out: [Int] = []
        let length = part.count
        for p in from {
            if lit(p, part) { out.append(p + length) }
            let s = at(p)
            if separated && (s == 0x5f || s == 0x2d || s == 0x20) && lit(p + 1, part) { out.append(p + 1 + length) }
        }
        return out
    }

    func keyEnds(_ i: Int) -> [Int] {
        var ends: [Int] = []
        // A name's first part joins without a separator, so testing it here gives what joinPart
        // would, before any list is built: most letters of a text start no key name at all.
        let letter = lowerASCII(at(i)) - 0x61
        guard letter >= 0 && letter < 26 else { return [] }
        for index in keyNamesByLetter[letter] where lit(i, keyNames[index].parts[0]) {
            let key = keyNames[index]
            var positions = [i + key.parts[0].count]
            for part in key.parts.dropFirst() { positions = joinPart(positions, part, separated: true) }
            ends += positions
            if !key.tail.isEmpty {
                var tails = positions
                for part in key.tail { tails = joinPart(tails, part, separated: true) }
                ends += tails
            }
        }
        return ends
    }

    func assignment() -> Bool {
        // Every assignment has its ":" or "=" (assignedAt): a text without either has none, and
        // skips the tables below (a third of scanning a short display text).
        guard c.contains(0x3a) || c.contains(0x3d) else { return false }
        let quotes = [-1, 0x22, 0x27]
        var any = [[Bool]](repeating: [Bool](repeating: false, count: n + 1), count: 3)
        var nameEnd = [Int](repeating: n, count: n + 1)
        if n > 0 { for k in stride(from: n - 1, through: 0, by: -1) { nameEnd[k] = isNameChar(Int(c[k])) ? nameEnd[k + 1] : k } }
        if n > 0 {
            for k in stride(from: n - 1, through: 0, by: -1) where isNameChar(Int(c[k])) {
                let ends = isAlpha(Int(c[k])) ? keyEnds(k) : []
                for mode in 0..<3 {
                    var hit = any[mode][k + 1]
                    for end in ends where !hit {
                        let e = nameEnd[end]
                        if mode == 0 ? assignedAt(e) : (at(e) == quotes[mode] && assignedAt(e + 1)) { hit = true }
                    }
                    any[mode][k] = hit
                }
            }
        }
        var q = 0
        while q < n {
            let ch = Int(c[q])
            let matches = any[0][q] || (ch == 0x22 && any[1][q + 1]) || (ch == 0x27 && any[2][q + 1])
            if !matches { q += 1; continue }
            // The filter's own replacement text is the one match it leaves unchanged.
            if !exact(q, identityAssignment) { return true }
            q += identityAssignment.count
        }
        return false
    }
}
