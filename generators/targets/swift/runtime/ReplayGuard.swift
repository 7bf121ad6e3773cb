// Replay protection behind one asynchronous protocol, so an app can keep the records in memory
// (below), in the Keychain or in a database reached over the network. A message is admitted once: the guard rejects expired and
// not-yet-valid messages first, then atomically records its key. Expiry is strict, but a record is
// kept until expiry plus the declared skew: longer than the guard would accept the message
// itself, so dropping it can never readmit a still-valid message.

import Foundation

/// The `x-replay` declaration (spec/meta/signing.schema.json#/$defs/Replay).
public struct ReplayDeclaration: Sendable, Equatable {
    public enum TimeFormat: String, Sendable {
        case rfc3339
        case unixSeconds = "unix-seconds"
    }

    /// Fields whose values together form the single-use key.
    public var keyFields: [String]
    /// Fields naming the instance the key is unique within.
    public var scopeFields: [String]
    public var expiresAtField: String
    /// Creation field, checked against the clock for messages from the future.
    public var notBeforeField: String?
    public var timeFormat: TimeFormat
    /// Clock tolerance, and how long past expiry records are kept.
    public var skewSeconds: Int64
    /// Optional ceiling on expires_at - now.
    public var maxLifetimeSeconds: Int64?

    public init(keyFields: [String], scopeFields: [String], expiresAtField: String, notBeforeField: String? = nil,
                timeFormat: TimeFormat = .rfc3339, skewSeconds: Int64, maxLifetimeSeconds: Int64? = nil)
    {
        self.keyFields = keyFields
        self.scopeFields = scopeFields
        self.expiresAtField = expiresAtField
        self.notBeforeField = notBeforeField
        self.timeFormat = timeFormat
        self.skewSeconds = skewSeconds
        self.maxLifetimeSeconds = maxLifetimeSeconds
    }
}

public enum ReplayRejection: String, Error, Sendable {
    case fieldMissing = "field-missing"
    case invalidTimestamp = "invalid-timestamp"
    case expired = "expired"
    case notYetValid = "not-yet-valid"
    case lifetimeExceeded = "lifetime-exceeded"
    case replayed = "replayed"
    case capacityExceeded = "capacity-exceeded"
    /// The store threw: with no answer the message is refused, never admitted (fail closed).
    case storeUnavailable = "store-unavailable"
}

public enum ReplayDecision: Equatable, Sendable {
    case admitted
    case rejected(ReplayRejection)

    /// "admitted" or the rejection code every language reports (e.g. "replayed", "expired").
    public var code: String {
        switch self {
        case .admitted: return "admitted"
        case let .rejected(reason): return reason.rawValue
        }
    }
}

public enum ReplayRecordOutcome: Sendable {
    case recorded
    case replayed
    case full
}

/// Atomic check-and-record; an implementation must make the check and the write one step
/// (a transaction, a unique index, a lock). The methods are `async throws` so a store may wait on
/// I/O; a throw from `checkAndRecord` makes the guard refuse the message as `.storeUnavailable`.
public protocol ReplayStore: AnyObject, Sendable {
    /// Records (scope, key) until `retainUntilMs`, or reports that a record for it is still held at
    /// `nowMs`, or that no room can be made without dropping a live record.
    func checkAndRecord(scope: String, key: String, retainUntilMs: Int64, nowMs: Int64) async throws -> ReplayRecordOutcome
    /// Drops records whose retention has passed; returns how many.
    @discardableResult
    func evictExpired(nowMs: Int64) async throws -> Int
    /// Records currently held.
    func count() async throws -> Int
}

/// Milliseconds since the Unix epoch.
public typealias ReplayClock = @Sendable () -> Int64

public final class ReplayGuard: Sendable {
    private let declaration: ReplayDeclaration
    private let store: ReplayStore
    private let now: ReplayClock

    public init(declaration: ReplayDeclaration, store: ReplayStore,
                now: @escaping ReplayClock = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) })
    {
        self.declaration = declaration
        self.store = store
        self.now = now
    }

    /// Admits the message once; run it after the signature check so forged messages leave no record.
    public func admit(_ message: JSONObject) async -> ReplayDecision {
        let d = declaration
        var keyParts: [String] = []
        var scopeParts: [String] = []
        for field in d.keyFields {
            guard let value = message[field]?.stringValue, !value.isEmpty else { return .rejected(.fieldMissing) }
            keyParts.append(value)
        }
        for field in d.scopeFields {
            guard let value = message[field]?.stringValue, !value.isEmpty else { return .rejected(.fieldMissing) }
            scopeParts.append(value)
        }
        guard let expiresField = readTime(message[d.expiresAtField]) else { return .rejected(.invalidTimestamp) }
        // Unix-seconds expiry is inclusive (the approval token's exp == now passes): valid through that second.
        let expiresAt = d.timeFormat == .unixSeconds ? expiresField + 1000 : expiresField
        let nowMs = now()
        let skewMs = d.skewSeconds * 1000
        if nowMs >= expiresAt { return .rejected(.expired) }
        if let notBefore = d.notBeforeField {
            guard let createdAt = readTime(message[notBefore]) else { return .rejected(.invalidTimestamp) }
            if createdAt > nowMs + skewMs { return .rejected(.notYetValid) }
        }
        if let maxLifetime = d.maxLifetimeSeconds, expiresAt - nowMs > (maxLifetime + d.skewSeconds) * 1000 {
            return .rejected(.lifetimeExceeded)
        }
        let outcome: ReplayRecordOutcome
        do {
            outcome = try await store.checkAndRecord(scope: joinKey(scopeParts), key: joinKey(keyParts), retainUntilMs: expiresAt + skewMs, nowMs: nowMs)
        } catch {
            return .rejected(.storeUnavailable)
        }
        switch outcome {
        case .recorded: return .admitted
        case .replayed: return .rejected(.replayed)
        case .full: return .rejected(.capacityExceeded)
        }
    }

    /// Admits a typed message once, by its JSON form; run it after the signature verifies.
    public func admit<Message: ContractMessage>(_ message: Message) async -> ReplayDecision {
        guard case let .object(object)? = try? message.jsonValue() else { return .rejected(.fieldMissing) }
        return await admit(object)
    }

    private func readTime(_ value: JSONValue?) -> Int64? {
        switch declaration.timeFormat {
        case .unixSeconds:
            guard let seconds = value?.numberValue, seconds == seconds.rounded(.towardZero),
                  seconds.magnitude <= 9_007_199_254_740_991
            else { return nil }
            return Int64(seconds) * 1000
        case .rfc3339:
            guard let text = value?.stringValue else { return nil }
            return RFC3339.epochMilliseconds(text)
        }
    }
}

/// Joins parts so that distinct tuples never produce the same string (a JSON array of strings).
func joinKey(_ parts: [String]) -> String {
    "[" + parts.map { CanonicalJSON.serializeString($0) }.joined(separator: ",") + "]"
}

/// Strict RFC 3339 timestamps: no leap second, no space separator, fraction truncated to milliseconds.
public enum RFC3339 {
    public static func epochMilliseconds(_ text: String) -> Int64? {
        let c = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= c.count else { return nil }
            var value: Int64 = 0
            for i in from..<(from + count) {
                guard c[i] >= 0x30 && c[i] <= 0x39 else { return nil }
                value = value * 10 + Int64(c[i] - 0x30)
            }
            return value
        }
        guard c.count >= 20, c[4] == 0x2D, c[7] == 0x2D, c[10] == 0x54 || c[10] == 0x74, c[13] == 0x3A, c[16] == 0x3A,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        guard (1...12).contains(month), hour <= 23, minute <= 59, second <= 59 else { return nil }
        guard day >= 1 && day <= daysInMonth(year, month) else { return nil }
        var i = 19
        var millis: Int64 = 0
        if c[i] == 0x2E {
            let start = i + 1
            i = start
            while i < c.count && c[i] >= 0x30 && c[i] <= 0x39 { i += 1 }
            let digits = i - start
            guard digits >= 1 && digits <= 9 else { return nil }
            for k in 0..<3 {
                millis = millis * 10 + (k < digits ? Int64(c[start + k] - 0x30) : 0)
            }
        }
        guard i < c.count else { return nil }
        var offsetMinutes: Int64 = 0
        if c[i] == 0x5A || c[i] == 0x7A {
            guard i + 1 == c.count else { return nil }
        } else if c[i] == 0x2B || c[i] == 0x2D {
            guard i + 6 == c.count, c[i + 3] == 0x3A, let oh = number(i + 1, 2), let om = number(i + 4, 2), oh <= 23, om <= 59 else { return nil }
            offsetMinutes = (oh * 60 + om) * (c[i] == 0x2D ? -1 : 1)
        } else {
            return nil
        }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1000 + millis
    }

    private static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// An in-memory store. Memory is bounded by `maxEntries`: when full it first evicts expired
/// records and, if none are, refuses the new message rather than forget a live one (fail closed).
/// Each scope may hold at most `maxEntriesPerScope` records, so one sender with a valid key cannot
/// fill the store and lock the others out. Every access holds `lock` (taken only in synchronous
/// helpers, since a lock must not be held across a suspension point), hence `@unchecked Sendable`.
public final class InMemoryReplayStore: ReplayStore, @unchecked Sendable {
    /// One scope's records, key -> retained until. A class, so a record is written through the
    /// scope's entry without copying its dictionary, and a call hashes the scope once and the key
    /// (not a scope-and-key text built per call); a scope's quota is its dictionary's count.
    private final class ScopeRecords {
        var untilByKey: [String: Int64] = [:]
    }

    private var scopes: [String: ScopeRecords] = [:]
    private var total = 0
    private var nextSweepMs = Int64.min
    private let maxEntries: Int
    private let maxEntriesPerScope: Int
    private let lock = NSLock()

    public init(maxEntries: Int = 100_000, maxEntriesPerScope: Int? = nil) {
        self.maxEntries = maxEntries
        self.maxEntriesPerScope = maxEntriesPerScope ?? max(1, maxEntries / 10)
    }

    private func overQuota(_ records: ScopeRecords?) -> Bool {
        total >= maxEntries || (records?.untilByKey.count ?? 0) >= maxEntriesPerScope
    }

    public func checkAndRecord(scope: String, key: String, retainUntilMs: Int64, nowMs: Int64) async throws -> ReplayRecordOutcome {
        locked { recordLocked(scope: scope, key: key, retainUntilMs: retainUntilMs, nowMs: nowMs) }
    }

    @discardableResult
    public func evictExpired(nowMs: Int64) async throws -> Int {
        locked { evictLocked(nowMs) }
    }

    public func count() async throws -> Int {
        locked { total }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func recordLocked(scope: String, key: String, retainUntilMs: Int64, nowMs: Int64) -> ReplayRecordOutcome {
        var records = scopes[scope]
        let held = records?.untilByKey[key]
        if let held = held, held > nowMs { return .replayed }
        var swept = false
        if held == nil && overQuota(records) {
            evictLocked(nowMs)
            swept = true
            if overQuota(scopes[scope]) { return .full }
        } else if nowMs >= nextSweepMs {
            // A periodic sweep keeps memory close to the live set without scanning on every call.
            evictLocked(nowMs)
            swept = true
            nextSweepMs = nowMs + 60_000
        }
        // A sweep can have dropped the expired record found above, and the scope with it.
        if swept { records = scopes[scope] }
        let target: ScopeRecords
        if let records = records {
            target = records
        } else {
            target = ScopeRecords()
            scopes[scope] = target
        }
        if target.untilByKey.updateValue(retainUntilMs, forKey: key) == nil { total += 1 }
        return .recorded
    }

    @discardableResult
    private func evictLocked(_ nowMs: Int64) -> Int {
        var evicted = 0
        var emptied: [String] = []
        for (scope, records) in scopes {
            let before = records.untilByKey.count
            records.untilByKey = records.untilByKey.filter { $0.value > nowMs }
            evicted += before - records.untilByKey.count
            if records.untilByKey.isEmpty { emptied.append(scope) }
        }
        for scope in emptied { scopes[scope] = nil }
        total -= evicted
        return evicted
    }
}
