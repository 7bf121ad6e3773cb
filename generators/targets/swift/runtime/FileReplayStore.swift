// A durable replay store in one local file, for an app or a single host: records survive a restart
// and a killed process, and several processes may share the file. It is a file, not SQLite, so the
// package keeps no outside dependency on any platform (SQLite on Linux would need a system-library
// target and the libsqlite3 headers on every build machine).
//
// Format: one line per record, `<retainUntilMs>\t<scope>\t<key>\n`, appended. Scope and key are
// JSON arrays of JSON strings (`joinKey`), which escape every control character, so neither holds
// a tab or a newline. A later line for the same (scope, key) replaces an earlier one. Every
// operation holds an exclusive `flock` on `<path>.lock` (other processes) and an NSLock (other
// threads), reads what other processes appended since the last call, and appends with `fsync`
// before answering `.recorded`. A line cut short by a killed writer has no newline; it was never
// answered `.recorded`, so the next holder of the lock truncates it. When more than half of the
// lines are dead, the live records are written to `<path>.tmp` and renamed over the file.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the file store could not answer; the guard then refuses the message (`.storeUnavailable`).
public enum FileReplayStoreError: Error, Equatable, Sendable {
    /// A system call failed (`operation`, errno).
    case io(operation: String, errno: Int32)
    /// Another process held the lock longer than `lockTimeoutMs`.
    case lockTimeout
    /// A complete line that is not a record: the file was written by something else.
    case corrupt(lineNumber: Int)
}

public final class FileReplayStore: ReplayStore, @unchecked Sendable {
    public let path: String
    private let maxEntries: Int
    private let maxEntriesPerScope: Int
    private let lockTimeoutMs: Int
    private let compactionMinLines: Int
    private let lockFD: Int32
    private let lock = NSLock()
    // What this instance has read of the file: its inode, how many bytes and lines, and the records.
    private var inode: UInt64 = 0
    private var offset: Int64 = 0
    private var lines = 0
    private var records: [String: (until: Int64, scope: String)] = [:]
    private var perScope: [String: Int] = [:]

    /// Opens (or creates) the store at `path`; the folder must exist. Throws FileReplayStoreError.
    /// The file is rewritten once it has more than `compactionMinLines` lines and more than twice
    /// as many lines as live records.
    public init(path: String, maxEntries: Int = 100_000, maxEntriesPerScope: Int? = nil, lockTimeoutMs: Int = 5_000,
                compactionMinLines: Int = 1_024) throws
    {
        self.path = path
        self.maxEntries = maxEntries
        self.maxEntriesPerScope = maxEntriesPerScope ?? max(1, maxEntries / 10)
        self.lockTimeoutMs = lockTimeoutMs
        self.compactionMinLines = compactionMinLines
        lockFD = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lockFD < 0 { throw FileReplayStoreError.io(operation: "open lock", errno: errno) }
    }

    deinit {
        close(lockFD)
    }

    public func checkAndRecord(scope: String, key: String, retainUntilMs: Int64, nowMs: Int64) async throws -> ReplayRecordOutcome {
        try exclusive { fd in
            let id = scope + "\t" + key
            if let held = records[id], held.until > nowMs { return .replayed }
            if records[id] == nil && overQuota(scope) {
                dropExpired(nowMs)
                if overQuota(scope) {
                    try compactIfSparse()
                    return .full
                }
            }
            try append(fd, "\(retainUntilMs)\t\(scope)\t\(key)\n")
            apply(id: id, scope: scope, until: retainUntilMs)
            // Last, since it replaces the file `fd` appends to.
            try compactIfSparse()
            return .recorded
        }
    }

    @discardableResult
    public func evictExpired(nowMs: Int64) async throws -> Int {
        try exclusive { _ in
            let dropped = dropExpired(nowMs)
            try compactIfSparse()
            return dropped
        }
    }

    public func count() async throws -> Int {
        try exclusive { _ in records.count }
    }

    private func overQuota(_ scope: String) -> Bool {
        records.count >= maxEntries || perScope[scope, default: 0] >= maxEntriesPerScope
    }

    /// Runs `body` with both locks held and this instance caught up with the file (opened for appending).
    private func exclusive<T>(_ body: (Int32) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try lockFile()
        defer { _ = flock(lockFD, LOCK_UN) }
        let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileReplayStoreError.io(operation: "open", errno: errno) }
        defer { close(fd) }
        try catchUp(fd)
        return try body(fd)
    }

    private func lockFile() throws {
        // Never block forever on a peer that holds the lock: poll, then fail closed. The wait blocks
        // the calling thread (at most lockTimeoutMs); peers hold the lock only for one read and append.
        var waitedMs = 0
        while flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EAGAIN || errno == EINTR else { throw FileReplayStoreError.io(operation: "flock", errno: errno) }
            if waitedMs >= lockTimeoutMs { throw FileReplayStoreError.lockTimeout }
            usleep(2_000)
            waitedMs += 2
        }
    }

    /// Reads the lines appended since the last call; starts over when the file was replaced or shrunk.
    private func catchUp(_ fd: Int32) throws {
        var info = stat()
        if fstat(fd, &info) != 0 { throw FileReplayStoreError.io(operation: "fstat", errno: errno) }
        let size = Int64(info.st_size)
        if UInt64(info.st_ino) != inode || size < offset {
            inode = UInt64(info.st_ino)
            offset = 0
            lines = 0
            records = [:]
            perScope = [:]
        }
        if size == offset { return }
        var bytes = [UInt8](repeating: 0, count: Int(size - offset))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw FileReplayStoreError.io(operation: "read", errno: n < 0 ? errno : EIO) }
            done += n
        }
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 0x0A {
            try parseLine(bytes[start..<i])
            start = i + 1
        }
        offset += Int64(start)
        if start < bytes.count {
            // A torn last line from a writer killed mid-append: it was never answered, so drop it.
            if ftruncate(fd, off_t(offset)) != 0 { throw FileReplayStoreError.io(operation: "ftruncate", errno: errno) }
        }
    }

    private func parseLine(_ line: ArraySlice<UInt8>) throws {
        lines += 1
        let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let until = Int64(String(decoding: fields[0], as: UTF8.self)) else {
            throw FileReplayStoreError.corrupt(lineNumber: lines)
        }
        let scope = String(decoding: fields[1], as: UTF8.self)
        apply(id: scope + "\t" + String(decoding: fields[2], as: UTF8.self), scope: scope, until: until)
    }

    private func apply(id: String, scope: String, until: Int64) {
        if records[id] == nil { perScope[scope, default: 0] += 1 }
        records[id] = (until, scope)
    }

    @discardableResult
    private func dropExpired(_ nowMs: Int64) -> Int {
        let before = records.count
        for (id, record) in records where record.until <= nowMs {
            records[id] = nil
            let n = perScope[record.scope, default: 1] - 1
            perScope[record.scope] = n == 0 ? nil : n
        }
        return before - records.count
    }

    private func append(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        try writeAll(fd, bytes)
        offset += Int64(bytes.count)
        lines += 1
    }

    /// write(2) until done, then fsync: `.recorded` is answered only once the record would survive
    /// a crash of the machine, not only of the process (on Apple platforms fsync does not flush the
    /// drive's own cache; F_FULLFSYNC would, at a much higher cost).
    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw FileReplayStoreError.io(operation: "write", errno: n < 0 ? errno : EIO) }
            done += n
        }
        if fsync(fd) != 0 { throw FileReplayStoreError.io(operation: "fsync", errno: errno) }
    }

    /// Rewrites the file with the records held when dead lines outnumber them (and there are many).
    private func compactIfSparse() throws {
        guard lines > compactionMinLines && lines > 2 * records.count else { return }
        let temporary = path + ".tmp"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if out < 0 { throw FileReplayStoreError.io(operation: "open tmp", errno: errno) }
        var text = ""
        for (id, record) in records.sorted(by: { $0.key < $1.key }) {
            text += "\(record.until)\t\(id)\n"
        }
        do {
            try writeAll(out, Array(text.utf8))
        } catch {
            close(out)
            throw error
        }
        close(out)
        if rename(temporary, path) != 0 { throw FileReplayStoreError.io(operation: "rename", errno: errno) }
        // The next call sees a new inode and reads the compacted file from the start.
        inode = 0
    }
}
