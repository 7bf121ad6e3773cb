// Runs an ECMAScript `u`-mode pattern (what JSON Schema `pattern` means, and what ajv compiles)
// on ICU (NSRegularExpression). Both match code points; the constructs whose meaning differs are
// rewritten:
//   - `$` outside a class: end of input in ECMAScript, but also before a final line break in ICU → `\z`;
//   - `.`: ECMAScript excludes only \n, \r, U+2028, U+2029 (ICU also excludes U+000B, U+000C, U+0085);
//   - `\d`, `\w`: ASCII in ECMAScript, Unicode in ICU; `\s` / `\S`: ECMAScript's white space list;
//   - `\b` / `\B`: word boundaries over ASCII `\w`, spelled with lookarounds (inside a class `\b` is U+0008);
//   - `[` and `&` inside a class are literal in ECMAScript but nest or intersect in ICU;
//   - `\u{…}` is ICU's `\x{…}`.

import Foundation

extension SchemaRegistry {
    private static let space = #"\t\n\u000B\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF"#
    private static let digit = "0-9"
    private static let word = "A-Za-z0-9_"
    private static let boundary = "(?:(?<=[\(word)])(?![\(word)])|(?<![\(word)])(?=[\(word)]))"
    private static let notBoundary = "(?:(?<=[\(word)])(?=[\(word)])|(?<![\(word)])(?![\(word)]))"

    /// An ECMAScript pattern in ICU syntax, with ECMAScript's meaning (see the list above).
    static func icuPattern(_ pattern: String) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var out = ""
        var inClass = false
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "\\", i + 1 < scalars.count {
                let escaped = scalars[i + 1]
                i += 2
                switch escaped {
                case "d": out += inClass ? digit : "[\(digit)]"
                case "D": out += "[^\(digit)]"
                case "w": out += inClass ? word : "[\(word)]"
                case "W": out += "[^\(word)]"
                case "s": out += inClass ? space : "[\(space)]"
                case "S": out += "[^\(space)]"
                case "b": out += inClass ? #"\x{8}"# : boundary
                case "B": out += notBoundary
                case "u" where i < scalars.count && scalars[i] == "{":
                    out += #"\x"#
                default:
                    out += "\\"
                    out.unicodeScalars.append(escaped)
                }
                continue
            }
            if inClass {
                switch c {
                case "]": inClass = false; out += "]"
                case "[": out += #"\["#
                case "&": out += #"\&"#
                default: out.unicodeScalars.append(c)
                }
            } else {
                switch c {
                case "[":
                    inClass = true
                    out += "["
                    if i + 1 < scalars.count, scalars[i + 1] == "^" {
                        out += "^"
                        i += 1
                    }
                case "$": out += #"\z"#
                case ".": out += #"[^\n\r\u2028\u2029]"#
                default: out.unicodeScalars.append(c)
                }
            }
            i += 1
        }
        return out
    }
}
