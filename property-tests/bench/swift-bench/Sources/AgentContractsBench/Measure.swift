// Rounds of back-to-back timing, as the TypeScript bench does: in each round every subject of a
// case runs for the same CPU time, so a ratio is formed from numbers taken moments apart.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time of this process in seconds: a shared machine distorts it less than the wall clock.
func cpuSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Keeps results alive so the optimiser cannot drop a call.
var sink = 0

struct Subject {
    let impl: String
    let run: () throws -> Int
}

struct Settings {
    let rounds: Int
    let seconds: Double
}

/// ops/s of each subject in each round, after one warm-up pass.
func measure(_ subjects: [Subject], _ settings: Settings) throws -> [String: [Double]] {
    var out: [String: [Double]] = [:]
    for subject in subjects { _ = try time(subject, seconds: settings.seconds / 3) }
    for _ in 0..<settings.rounds {
        for subject in subjects { out[subject.impl, default: []].append(try time(subject, seconds: settings.seconds)) }
    }
    return out
}

private func time(_ subject: Subject, seconds: Double) throws -> Double {
    // Batches of calls between clock reads, so the clock's own cost does not count.
    var batch = 1
    var calls = 0
    let start = cpuSeconds()
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<batch { sink &+= try subject.run() }
        calls += batch
        elapsed = cpuSeconds() - start
        if elapsed < seconds / 50 { batch *= 2 }
    }
    return Double(calls) / elapsed
}
