// UTS 46 processing with the flags the WHATWG URL standard gives it (domain to ASCII, beStrict
// false): nontransitional, CheckHyphens off, CheckJoiners and CheckBidi on, UseSTD3ASCIIRules and
// VerifyDnsLength off. The mapping is Unicode's IdnaMappingTable (IdnaMappingData.swift). Two
// checks need Unicode properties Swift does not expose, and are done conservatively (refusing
// rather than guessing): CheckJoiners accepts U+200C/U+200D only after a virama (canonical
// combining class 9), without the joining-type alternative for U+200C; CheckBidi refuses a label
// with any right-to-left letter instead of applying RFC 5893's rules. Neither occurs in the WPT
// inputs the tests run.

import Foundation

enum IDNA {
    enum Status: UInt8 { case valid, mapped, deviation, ignored, disallowed }

    private struct Table {
        var starts: [UInt32] = []
        var statuses: [Status] = []
        var mappings: [[Unicode.Scalar]] = []
    }

    private static let table: Table = {
        var t = Table()
        for line in IdnaMappingData.text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let start = UInt32(fields[0], radix: 16) else { continue }
            let status: Status
            switch fields[1] {
            case "V": status = .valid
            case "M": status = .mapped
            case "D": status = .deviation
            case "I": status = .ignored
            default: status = .disallowed
            }
            t.starts.append(start)
            t.statuses.append(status)
            t.mappings.append(fields.dropFirst(2).compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) })
        }
        return t
    }()

    static func lookup(_ scalar: Unicode.Scalar) -> (status: Status, mapping: [Unicode.Scalar]) {
        let t = table
        var low = 0
        var high = t.starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if t.starts[mid] <= scalar.value { low = mid } else { high = mid - 1 }
        }
        return (t.statuses[low], t.mappings[low])
    }

    private static func nfc(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        Array(String(String.UnicodeScalarView(scalars)).precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    /// Right-to-left scripts' blocks (Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, their
    /// presentation forms, and the supplementary right-to-left blocks).
    private static func rightToLeft(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// UTS 46 section 4.1's validity criteria for one label, with the URL standard's flags.
    private static func valid(_ label: [Unicode.Scalar]) -> Bool {
        if label != nfc(label) { return false }
        if label.count >= 4, String(String.UnicodeScalarView(label[0..<4])).lowercased() == "xn--" { return false }
        if label.contains(".") { return false }
        if let first = label.first {
            switch first.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return false
            default: break
            }
        }
        for (i, scalar) in label.enumerated() {
            switch lookup(scalar).status {
            case .valid, .deviation: break
            default: return false
            }
            if scalar.value == 0x200C || scalar.value == 0x200D {
                guard i > 0, label[i - 1].properties.canonicalCombiningClass.rawValue == 9 else { return false }
            }
            if rightToLeft(scalar) { return false }
        }
        return true
    }

    /// UTS 46 ToASCII; nil on any error.
    static func toASCII(_ domain: String) -> String? {
        var mapped: [Unicode.Scalar] = []
        for scalar in domain.unicodeScalars {
            let entry = lookup(scalar)
            switch entry.status {
            case .valid, .deviation: mapped.append(scalar)
            case .mapped: mapped += entry.mapping
            case .ignored: continue
            case .disallowed: return nil
            }
        }
        var labels: [String] = []
        for label in nfc(mapped).split(separator: ".", omittingEmptySubsequences: false).map(Array.init) {
            var checked = label
            if label.count >= 4, String(String.UnicodeScalarView(label[0..<4])).lowercased() == "xn--" {
                // A Punycode label: ASCII, decodable, not empty and not all ASCII once decoded, and valid.
                guard label.allSatisfy({ $0.isASCII }), let decoded = Punycode.decode(String(String.UnicodeScalarView(label[4...]))) else { return nil }
                checked = Array(decoded.unicodeScalars)
                if checked.isEmpty || checked.allSatisfy({ $0.isASCII }) { return nil }
                guard valid(checked) else { return nil }
                labels.append(String(String.UnicodeScalarView(label)))
                continue
            }
            guard valid(checked) else { return nil }
            if checked.allSatisfy({ $0.isASCII }) {
                labels.append(String(String.UnicodeScalarView(checked)))
            } else {
                guard let encoded = Punycode.encode(checked.map { Int($0.value) }) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }
}
