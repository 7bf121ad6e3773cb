// The `format`s of generators/targets/runtime-keywords.json, checked as ajv-formats checks them, so a verdict is the same in
// every language.

import Foundation

/// The `format`s the spec uses, with ajv-formats' definitions ("full" mode).
enum Formats {
    private static let hostname = try! NSRegularExpression(
        pattern: SchemaRegistry.icuPattern(#"^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$"#),
        options: [.caseInsensitive]
    )

    private static let uri = try! NSRegularExpression(
        pattern: SchemaRegistry.icuPattern(#"^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$"#),
        options: [.caseInsensitive]
    )

    static func check(_ format: String, _ text: String) -> Bool {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        switch format {
        case "hostname":
            return hostname.firstMatch(in: text, options: [], range: range) != nil
        case "uri":
            // ajv-formats: the URI must contain '/' or ':' and match RFC 3986's grammar.
            return (text.contains("/") || text.contains(":")) && uri.firstMatch(in: text, options: [], range: range) != nil
        case "date-time":
            return dateTime(text)
        default:
            // SchemaRegistry refuses every other format at load (SchemaReferences.swift), so none reaches here.
            preconditionFailure("format \(format) is not one the runtime asserts")
        }
    }

    /// ajv-formats' "date-time" (full mode, a time zone required): a date, "T", "t" or a white
    /// space, a time; the date must exist and a leap second must fall at 23:59 UTC.
    static func dateTime(_ text: String) -> Bool {
        // JavaScript's \s: the separator ajv-formats splits on besides "t".
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "t" || $0 == "T" || $0.unicodeScalars.allSatisfy { jsSpace.contains($0) } }
        guard parts.count == 2 else { return false }
        return date(Array(parts[0].unicodeScalars)) && time(Array(parts[1].unicodeScalars))
    }

    private static let jsSpace: Set<Unicode.Scalar> = Set("\t\n\u{0B}\u{0C}\r \u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}".unicodeScalars)

    private static func digits(_ s: ArraySlice<Unicode.Scalar>) -> Int? {
        guard !s.isEmpty, s.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return s.reduce(0) { $0 * 10 + Int($1.value - 48) }
    }

    /// RFC 3339 full-date: YYYY-MM-DD of a day that exists.
    static func date(_ s: [Unicode.Scalar]) -> Bool {
        guard s.count == 10, s[4] == "-", s[7] == "-", let year = digits(s[0..<4]), let month = digits(s[5..<7]), let day = digits(s[8..<10]) else { return false }
        let days = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return month >= 1 && month <= 12 && day >= 1 && day <= (month == 2 && leap ? 29 : days[month])
    }

    /// HH:MM:SS(.fraction)?(z|±HH(:?MM)?), the zone required; ajv-formats' checks of the values.
    static func time(_ s: [Unicode.Scalar]) -> Bool {
        guard s.count >= 9, s[2] == ":", s[5] == ":", let hour = digits(s[0..<2]), let minute = digits(s[3..<5]), let second = digits(s[6..<8]) else { return false }
        var i = 8
        if i < s.count, s[i] == "." {
            let start = i + 1
            i = start
            while i < s.count, ("0"..."9").contains(s[i]) { i += 1 }
            if i == start { return false }
        }
        guard i < s.count else { return false }
        var zoneHour = 0
        var zoneMinute = 0
        var sign = 1
        if s[i] == "z" || s[i] == "Z" {
            guard i + 1 == s.count else { return false }
        } else if s[i] == "+" || s[i] == "-" {
            sign = s[i] == "-" ? -1 : 1
            let zone = Array(s[(i + 1)...])
            guard zone.count >= 2, let h = digits(zone[0..<2]) else { return false }
            zoneHour = h
            if zone.count == 4, let m = digits(zone[2..<4]) { zoneMinute = m } else if zone.count == 5, zone[2] == ":", let m = digits(zone[3..<5]) { zoneMinute = m } else if zone.count != 2 { return false }
        } else {
            return false
        }
        if zoneHour > 23 || zoneMinute > 59 { return false }
        if hour <= 23 && minute <= 59 && second < 60 { return true }
        // A leap second: 23:59:60 in UTC.
        let utcMinute = minute - zoneMinute * sign
        let utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0)
        return (utcHour == 23 || utcHour == -1) && (utcMinute == 59 || utcMinute == -1) && second < 61
    }
}
