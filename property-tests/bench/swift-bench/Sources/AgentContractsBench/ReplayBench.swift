// The replay row: check-and-record with a fresh key per call through the async `ReplayStore`
// interface, against a bare Dictionary doing the same get-then-set. Each subject is a free
// function with its state in locals. The first version kept the state in main.swift's top-level
// globals and ran closures written there: those are main-actor isolated, so every call hopped
// executors, and the "Dictionary" anchor measured that hop (about 35 µs per insert), not a
// Dictionary. A free async function is nonisolated, as `ReplayGuard.admit` is, so the store's
// calls here run as an app's would: on the caller's executor, with no hop per call.
import AgentContracts

private let scope = "[\"provider\",\"host-instance-1\"]"
private let retainUntil: Int64 = 1_893_456_060_000
private let batch = 256

/// Calls per CPU second of `InMemoryReplayStore.checkAndRecord`, each with a new key.
func replayStoreRate(seconds: Double, nowMs: Int64) async throws -> Double {
    let store: any ReplayStore = InMemoryReplayStore(maxEntries: 50_000_000, maxEntriesPerScope: 50_000_000)
    var n = 0
    var recorded = 0
    let start = cpuSeconds()
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<batch {
            n += 1
            if try await store.checkAndRecord(scope: scope, key: "k\(n)", retainUntilMs: retainUntil, nowMs: nowMs) == .recorded { recorded += 1 }
        }
        elapsed = cpuSeconds() - start
    }
    guard recorded == n else { throw Failure(description: "replay: the store refused a fresh key") }
    return Double(n) / elapsed
}

/// The same key building and get-then-set on a Dictionary, with no lock, quota or sweep.
func dictionaryRate(seconds: Double, nowMs: Int64) -> Double {
    var dictionary: [String: Int64] = [:]
    var n = 0
    var recorded = 0
    let start = cpuSeconds()
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<batch {
            n += 1
            let id = scope + "\u{0}k\(n)"
            if let held = dictionary[id], held > nowMs { continue }
            dictionary[id] = retainUntil
            recorded += 1
        }
        elapsed = cpuSeconds() - start
    }
    sink &+= recorded + dictionary.count
    return Double(n) / elapsed
}

/// Rounds of the two back to back, each starting empty, after one short warm-up of each.
func replayRates(_ settings: Settings, nowMs: Int64) async throws -> [String: [Double]] {
    _ = try await replayStoreRate(seconds: settings.seconds / 3, nowMs: nowMs)
    _ = dictionaryRate(seconds: settings.seconds / 3, nowMs: nowMs)
    var out: [String: [Double]] = [:]
    for _ in 0..<settings.rounds {
        out["InMemoryReplayStore.checkAndRecord", default: []].append(try await replayStoreRate(seconds: settings.seconds, nowMs: nowMs))
        out["Dictionary get+set", default: []].append(dictionaryRate(seconds: settings.seconds, nowMs: nowMs))
    }
    return out
}
