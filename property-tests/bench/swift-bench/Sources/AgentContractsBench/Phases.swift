// `AgentContractsBench <inputs-dir> --phases`: the profile of the Swift goals that miss, as a
// breakdown by phase (no sampling profiler exists in the Swift root: no perf, no valgrind). Each
// phase is one piece of what the whole call does, timed alone with the same rounds as the bench,
// so the pieces can be set against the whole and against the floor. Printed, not written to the
// bench's results: the limits notes (property-tests/bench/limits-swift.md) quote it.
import AgentContracts
import Foundation

func printPhases(_ title: String, _ measured: [String: [Double]], order: [String]) {
    print("\(title):")
    for impl in order {
        let ops = (measured[impl] ?? []).sorted()
        guard !ops.isEmpty else { continue }
        let median = ops[ops.count / 2]
        print(String(format: "  %-44@ %9.3f µs/op  (%.3f–%.3f)", impl as NSString, 1e6 / median, 1e6 / ops.last!, 1e6 / ops.first!))
    }
}

func verifyPhases(_ name: String, declaration: HMACSHA256V1Declaration, vector: JSONObject, settings: Settings) throws {
    guard case .object(let message)? = vector["signed_object"], case .string(let secret)? = vector["secret_utf8"],
          case .string(let input)? = vector["signing_input"], case .string(let signature)? = vector["expected_signature"]
    else { throw Failure(description: "\(name): not a signature vector") }
    let key = Array(secret.utf8)
    let prepared = HMACSHA256Key(key)
    let signingInput = Array(input.utf8)
    guard let hashed = declaration.lines.first(where: { $0.value == .sha256JCSBase64StdNoPad }), let payload = message[hashed.field]
    else { throw Failure(description: "\(name): no hashed line") }
    let canonical = try CanonicalJSON.canonicalBytes(payload)
    let digest = Crypto.sha256(canonical)
    guard try HMACSHA256V1.hmacV1SigningInput(declaration, message) == input else { throw Failure(description: "\(name): signing input differs") }
    let subjects = [
        Subject(impl: "verify (whole call)", run: { try HMACSHA256V1.verifyHMACV1(declaration, message, key: key); return 1 }),
        Subject(impl: "verify, prepared key", run: { try HMACSHA256V1.verifyHMACV1(declaration, message, key: prepared); return 1 }),
        Subject(impl: "HMAC with the prepared key", run: { prepared.mac(signingInput).count }),
        Subject(impl: "signingInput (lines + JCS + SHA-256 + base64)", run: { try HMACSHA256V1.hmacV1SigningInput(declaration, message).utf8.count }),
        Subject(impl: "CanonicalJSON.canonicalBytes(\(hashed.field))", run: { try CanonicalJSON.canonicalBytes(payload).count }),
        Subject(impl: "SHA-256 of that (\(canonical.count) B)", run: { Crypto.sha256(canonical).count }),
        Subject(impl: "Base64.encode(digest)", run: { Base64.encode(digest, alphabet: .standard).utf8.count }),
        Subject(impl: "HMAC over signing input (\(signingInput.count) B)", run: { Crypto.hmacSHA256(key: key, message: signingInput).count }),
        Subject(impl: "Array(input.utf8)", run: { Array(input.utf8).count }),
        Subject(impl: "Base64.decode(signature)", run: { Base64.decode(signature, alphabet: .standard)?.count ?? 0 }),
    ]
    printPhases("verify \(name)", try measure(subjects, settings), order: subjects.map(\.impl))
}

func replayPhases(_ settings: Settings) throws {
    let scope = "[\"provider\",\"host-instance-1\"]"
    let lock = NSLock()
    var n = 0
    var tuples: [String: (until: Int64, scope: String)] = [:]
    var plain: [String: Int64] = [:]
    let subjects = [
        Subject(impl: "key text \"k\\(n)\"", run: { n += 1; return "k\(n)".utf8.count }),
        Subject(impl: "joinKey-style JSON array of scope and key", run: {
            n += 1
            return ("[" + [scope, "k\(n)"].map { CanonicalJSON.serializeString($0) }.joined(separator: ",") + "]").utf8.count
        }),
        Subject(impl: "scope + NUL + key", run: { n += 1; return (scope + "\u{0}k\(n)").utf8.count }),
        Subject(impl: "NSLock lock + unlock", run: { lock.lock(); lock.unlock(); return 1 }),
        Subject(impl: "Dictionary insert, (Int64, String) value", run: { n += 1; tuples[scope + "\u{0}k\(n)"] = (1, scope); return tuples.count }),
        Subject(impl: "Dictionary insert, Int64 value", run: { n += 1; plain[scope + "\u{0}k\(n)"] = 1; return plain.count }),
    ]
    printPhases("replay pieces (dictionaries grow across the rounds)", try measure(subjects, settings), order: subjects.map(\.impl))
}

/// Where `decode(json:)` spends its time, against JSONDecoder into the same type (issue 36's goal).
func decodePhases<M: ContractMessage>(_ type: M.Type, _ raw: [UInt8], _ settings: Settings) throws {
    let data = Data(raw)
    let value = try StrictJSON.parseStrictJSON(raw)
    guard M.validate(value).isEmpty else { throw Failure(description: "\(M.self): the bench input is invalid") }
    let subjects = [
        Subject(impl: "decode(json:) (whole call)", run: { _ = try M.decode(json: raw); return 1 }),
        Subject(impl: "JSONDecoder().decode (the anchor)", run: { _ = try JSONDecoder().decode(M.self, from: data); return 1 }),
        Subject(impl: "StrictJSON.parseStrictJSON", run: { if case .object = try StrictJSON.parseStrictJSON(raw) { return 1 }; return 0 }),
        Subject(impl: "validateSchema (generated)", run: { M.validateSchema(value).count }),
        Subject(impl: "checkRules", run: { M.checkRules(value).count }),
        Subject(impl: "decode(JSONValue) (validate + typed read)", run: { _ = try M.decode(value); return 1 }),
        Subject(impl: "init(jsonValue:) (the typed read alone)", run: { _ = try M(jsonValue: value); return 1 }),
        Subject(impl: "interpreter (before issue 36)", run: { M.schemaRegistry.validate(value, against: M.schemaID).count }),
    ]
    printPhases("decode \(M.self) (\(raw.count) B)", try measure(subjects, settings), order: subjects.map(\.impl))
}
