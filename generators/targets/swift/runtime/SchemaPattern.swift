// A backtracking matcher for the ECMAScript patterns of the schemas, over Unicode scalars, for the
// generated validators: the generator parses each pattern (generators/targets/swift/schema-pattern.ts)
// into these nodes, classes already turned into code point ranges. It searches as RegExp.test does
// (unanchored, greedy quantifiers, alternatives in order, an empty iteration past the minimum ends
// a loop). On Linux NSRegularExpression bridges every string to UTF-16 and costs microseconds per
// call; this costs what the pattern needs. The spec's patterns pass a ReDoS check (recheck, in the
// spec lint), which holds for any backtracking engine. A pattern whose nesting would recurse past
// `maxDepth` on some input is answered by NSRegularExpression for that input instead (a stack
// overflow is no verdict), with the same meaning (SchemaRegistry.icuPattern).

import Foundation

/// Sorted, disjoint code point ranges, as [low, high, low, high, ...].
struct PatternClass: Sendable {
    let bounds: [UInt32]

    init(_ bounds: [UInt32]) {
        self.bounds = bounds
    }

    @inline(__always) func contains(_ scalar: UInt32) -> Bool {
        var i = 0
        while i < bounds.count {
            if scalar < bounds[i] { return false }
            if scalar <= bounds[i + 1] { return true }
            i += 2
        }
        return false
    }
}

// Not `indirect`: the groups' arrays already hold nested nodes out of line, and a boxed payload
// cost a retain and a release at every node the matcher visits.
enum PatternNode: Sendable {
    case start
    case end
    /// One scalar of the class, repeated min...max times (max -1: unbounded).
    case scalars(PatternClass, min: Int, max: Int)
    /// Alternatives, repeated min...max times (max -1: unbounded).
    case group([[PatternNode]], min: Int, max: Int)
}

struct SchemaPattern: Sendable {
    /// Nested group iterations deeper than this hand the input to NSRegularExpression.
    static let maxDepth = 200

    let source: String
    let alternatives: [[PatternNode]]
    /// Every alternative starts with `^`: only position 0 can match.
    private let anchored: Bool
    /// Per alternative: one greedy pass decides it (SchemaPattern.isLinear).
    private let linear: [Bool]

    init(source: String, alternatives: [[PatternNode]]) {
        self.source = source
        self.alternatives = alternatives
        anchored = alternatives.allSatisfy { if case .start? = $0.first { return true }; return false }
        linear = alternatives.map(SchemaPattern.isLinear)
    }

    /// No group, and every class repeated a fixed number of times but perhaps the last, which only
    /// `$` may follow: giving back a scalar can then never let the rest match (a fixed count has
    /// nothing to give back; after the last class, `$` needs the end the greedy run stopped short
    /// of), so the backtracking search and one greedy pass agree. Most of the spec's patterns are
    /// this shape (hex digests, base64 signatures, timestamps, ids).
    static func isLinear(_ nodes: [PatternNode]) -> Bool {
        var variableSeen = false
        for node in nodes {
            switch node {
            case .start: if variableSeen { return false }
            case .end: break
            case let .scalars(_, min, max):
                if variableSeen { return false }
                if min != max { variableSeen = true }
            case .group: return false
            }
        }
        return true
    }

    /// ECMAScript `RegExp.test`: does the pattern match anywhere in `text`?
    func test(_ text: String) -> Bool {
        // The UTF-8 length bounds the scalar count: one allocation, no regrowth. ASCII bytes are
        // their scalars; from the first other byte on, the text is decoded scalar by scalar.
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex, bytes[index] < 0x80 {
            scalars.append(UInt32(bytes[index]))
            bytes.formIndex(after: &index)
        }
        // A lead byte: a scalar boundary, where the scalar view carries on.
        if index != bytes.endIndex { for scalar in text.unicodeScalars[index...] { scalars.append(scalar.value) } }
        let run = Run(scalars)
        for start in 0...run.scalars.count {
            for (k, alternative) in alternatives.enumerated() {
                if linear[k] ? run.greedyPass(alternative, start) : run.sequence(alternative, 0, start, 0, { _ in true }) { return true }
            }
            if run.gaveUp { return CompiledSchema.matches(CompiledSchema.pattern(source), text) }
            if anchored { break }
        }
        return false
    }

    private final class Run {
        let scalars: [UInt32]
        var gaveUp = false

        init(_ scalars: [UInt32]) {
            self.scalars = scalars
        }

        /// A linear alternative (isLinear) at `position`, in one pass.
        func greedyPass(_ nodes: [PatternNode], _ position: Int) -> Bool {
            var at = position
            for node in nodes {
                switch node {
                case .start: if at != 0 { return false }
                case .end: if at != scalars.count { return false }
                case let .scalars(set, min, max):
                    var end = at
                    while end < scalars.count && (max < 0 || end - at < max) && set.contains(scalars[end]) { end += 1 }
                    if end - at < min { return false }
                    at = end
                case .group: return sequence(nodes, 0, position, 0, { _ in true })
                }
            }
            return true
        }

        /// Matches `nodes[index...]` at `position`, then the continuation `next` from where it ended.
        func sequence(_ nodes: [PatternNode], _ index: Int, _ position: Int, _ depth: Int, _ next: (Int) -> Bool) -> Bool {
            if index == nodes.count { return next(position) }
            switch nodes[index] {
            case .start:
                return position == 0 && sequence(nodes, index + 1, position, depth, next)
            case .end:
                return position == scalars.count && sequence(nodes, index + 1, position, depth, next)
            case let .scalars(set, min, max):
                // Greedy: as many as match, then give them back one at a time.
                var end = position
                while end < scalars.count && (max < 0 || end - position < max) && set.contains(scalars[end]) { end += 1 }
                if end - position < min { return false }
                while true {
                    if sequence(nodes, index + 1, end, depth, next) { return true }
                    if end - position == min || gaveUp { return false }
                    end -= 1
                }
            case let .group(alternatives, min, max):
                return repeated(alternatives, min, max, 0, position, depth) { self.sequence(nodes, index + 1, $0, depth, next) }
            }
        }

        /// One more iteration of the group first (greedy), then what follows it.
        private func repeated(_ alternatives: [[PatternNode]], _ min: Int, _ max: Int, _ count: Int, _ position: Int, _ depth: Int, _ next: (Int) -> Bool) -> Bool {
            if depth > SchemaPattern.maxDepth {
                gaveUp = true
                return false
            }
            if max < 0 || count < max {
                for alternative in alternatives {
                    let matched = sequence(alternative, 0, position, depth + 1) { end in
                        // An iteration that matched nothing, once the minimum is met, ends the loop (ECMAScript).
                        if end == position && count >= min { return false }
                        return self.repeated(alternatives, min, max, count + 1, end, depth + 1, next)
                    }
                    if matched { return true }
                    if gaveUp { return false }
                }
            }
            return count >= min && next(position)
        }
    }
}
