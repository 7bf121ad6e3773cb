// Usage: AgentContractsBench <inputs-dir> <out.json | --phases> [rounds] [ms-per-round]
//        AgentContractsBench <inputs-dir> --loop <message | parse:message | decode:message> <seconds>
// <inputs-dir> is what property-tests/bench/native-inputs.ts wrote; the results are one JSON
// array of {"name", "param", "impl", "opsPerSec": [per round]} for swift.ts to lay out.
import AgentContracts
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: AgentContractsBench <inputs-dir> <out.json> [rounds] [ms]\n".utf8))
    exit(2)
}
let inputs = URL(fileURLWithPath: arguments[1])
let settings = Settings(rounds: arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5, seconds: (arguments.count > 4 ? Double(arguments[4]) ?? 300 : 300) / 1000)

func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: inputs.appendingPathComponent(name))) }
func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }
func tree(_ name: String) throws -> JSONValue { try StrictJSON.parseStrictJSON(try bytes(name)) }

struct Failure: Error, CustomStringConvertible { let description: String }

// `--loop <message> <seconds>`: validate that message's valid input in a loop (parse: its strict
// parse, decode: the whole decode(json:)), for a sampling profiler outside the Swift root (perf
// record on the host sees the same binary by its path).
if arguments[2] == "--loop", arguments.count > 4, let seconds = Double(arguments[4]) {
    let name = String(arguments[3].split(separator: ":").last ?? "")
    let value = try tree("\(name)-valid.json")
    let raw = try bytes("\(name)-valid.json")
    let validate: (JSONValue) -> Int
    switch arguments[3] {
    case "ActionProposal": validate = { AgentProvider.ActionProposal.validate($0).count }
    case "WorkflowRequest": validate = { AgentService.WorkflowRequest.validate($0).count }
    case "ConnectorPackage": validate = { AgentConnector.ConnectorPackage.validate($0).count }
    case "parse:ActionProposal": validate = { _ in (try? StrictJSON.parseStrictJSON(raw)) == nil ? 1 : 0 }
    case "decode:ConnectorPackage": validate = { _ in (try? AgentConnector.ConnectorPackage.decode(json: raw)) == nil ? 1 : 0 }
    case "decode:ActionProposal": validate = { _ in (try? AgentProvider.ActionProposal.decode(json: raw)) == nil ? 1 : 0 }
    default: throw Failure(description: "--loop: no message \(arguments[3])")
    }
    let end = Date().addingTimeInterval(seconds)
    var calls = 0
    while Date() < end { for _ in 0..<100 { calls += validate(value) + 1 } }
    print("\(calls) validate calls")
    exit(0)
}

if arguments[2] == "--phases" {
    for (name, declaration) in [("trigger", AgentProvider.AgentTriggerRequest.signatureDeclaration), ("proposal", AgentProvider.ActionProposal.signatureDeclaration)] {
        guard case .object(let vector) = try tree("signature-\(name).json") else { throw Failure(description: "signature-\(name).json") }
        try verifyPhases(name, declaration: declaration, vector: vector, settings: settings)
    }
    try replayPhases(settings)
    try decodePhases(AgentProvider.ActionProposal.self, try bytes("ActionProposal-valid.json"), settings)
    try decodePhases(AgentService.WorkflowRequest.self, try bytes("WorkflowRequest-valid.json"), settings)
    try decodePhases(AgentConnector.ConnectorPackage.self, try bytes("ConnectorPackage-valid.json"), settings)
    exit(0)
}

var results: [[String: Any]] = []
func record(_ name: String, _ param: String, _ measured: [String: [Double]]) {
    for (impl, ops) in measured.sorted(by: { $0.key < $1.key }) {
        results.append(["name": name, "param": param, "impl": impl, "opsPerSec": ops])
    }
    FileHandle.standardError.write(Data("swift bench: \(name) \(param) done\n".utf8))
}

// Validation: validate (generated schema code + x-rules), the generated schema code alone, the
// schema interpreter it replaced, and decoding the checked bytes into the message type
// (decode(json:): strict parse, schema, rules, the typed read of the parsed value) vs JSONDecoder alone.
func validation<M: ContractMessage>(_ type: M.Type, _ message: String) throws {
    for kind in ["valid", "invalid"] {
        let file = "\(message)-\(kind).json"
        let value = try tree(file)
        let raw = try bytes(file)
        let data = Data(raw)
        let expectValid = kind == "valid"
        guard M.validate(value).isEmpty == expectValid else { throw Failure(description: "\(message) \(kind): validate disagrees") }
        var subjects = [
            Subject(impl: "validate", run: { M.validate(value).count }),
            Subject(impl: "schema only", run: { M.validateSchema(value).count }),
            Subject(impl: "interpreter", run: { M.schemaRegistry.validate(value, against: M.schemaID).count }),
        ]
        if expectValid {
            subjects.append(Subject(impl: "decode(json:)", run: { _ = try M.decode(json: raw); return 1 }))
            subjects.append(Subject(impl: "JSONDecoder", run: { _ = try JSONDecoder().decode(M.self, from: data); return 1 }))
        }
        record("validation", "\(message)/\(kind)", try measure(subjects, settings))
    }
}

try validation(AgentProvider.ActionProposal.self, "ActionProposal")
try validation(AgentService.WorkflowRequest.self, "WorkflowRequest")
try validation(AgentConnector.ConnectorPackage.self, "ConnectorPackage")

// Strict parse vs Foundation's parsers, and JCS vs Foundation's serializer, per input size.
for size in ["small", "medium", "large"] {
    let raw = try bytes("\(size).json")
    let data = Data(raw)
    let value = try StrictJSON.parseStrictJSON(raw)
    guard try JSONDecoder().decode(JSONValue.self, from: data) == value else { throw Failure(description: "\(size): parsers disagree") }
    guard try CanonicalJSON.canonicalize(value) == (try text("\(size).jcs")) else { throw Failure(description: "\(size): canonical text differs from the TypeScript one") }
    let foundation = try JSONSerialization.jsonObject(with: data)
    record("parse", size, try measure([
        Subject(impl: "StrictJSON.parseStrictJSON", run: { if case .object = try StrictJSON.parseStrictJSON(raw) { return 1 }; return 0 }),
        Subject(impl: "JSONDecoder(JSONValue)", run: { if case .object = try JSONDecoder().decode(JSONValue.self, from: data) { return 1 }; return 0 }),
        Subject(impl: "JSONSerialization", run: { try JSONSerialization.jsonObject(with: data) is NSDictionary ? 1 : 0 }),
    ], settings))
    record("canonicalize", size, try measure([
        Subject(impl: "CanonicalJSON.canonicalize", run: { try CanonicalJSON.canonicalize(value).utf8.count }),
        Subject(impl: "JSONSerialization.data", run: { try JSONSerialization.data(withJSONObject: foundation).count }),
    ], settings))
}

// Verify: the generated verifier vs the runtime's bare HMAC over the finished signing input (on
// Linux the package's own SHA-256; CryptoKit where it exists) and the floor that adds the
// SHA-256 of the payload's canonical text. Both key once, as a receiver holding one key per
// install binding does: the same prepared HMACSHA256Key.
for (name, verify, build) in [
    ("trigger", AgentProvider.AgentTriggerRequest.verifySignature as (JSONObject, HMACSHA256Key) throws -> Void,
     AgentProvider.AgentTriggerRequest.buildSigningInput as (JSONObject) throws -> String),
    ("proposal", AgentProvider.ActionProposal.verifySignature as (JSONObject, HMACSHA256Key) throws -> Void,
     AgentProvider.ActionProposal.buildSigningInput as (JSONObject) throws -> String),
] {
    guard case .object(let vector) = try tree("signature-\(name).json"),
          case .object(let message)? = vector["signed_object"],
          case .string(let secret)? = vector["secret_utf8"],
          case .string(let input)? = vector["signing_input"],
          case .string(let body)? = vector["canonical_body_json"],
          case .string(let signature)? = vector["expected_signature"],
          let expected = Base64.decode(signature, alphabet: .standard)
    else { throw Failure(description: "signature-\(name).json is not a signature vector") }
    let key = HMACSHA256Key(secret)
    let signingInput = Array(input.utf8)
    let canonicalBody = Array(body.utf8)
    try verify(message, key)
    let raw = { Crypto.constantTimeEqual(key.mac(signingInput), expected) ? 1 : 0 }
    guard raw() == 1 else { throw Failure(description: "\(name): bare HMAC does not match the vector") }
    guard try build(message) == input else { throw Failure(description: "\(name): the generated signing input differs from the vector's") }
    record("verify", name, try measure([
        Subject(impl: "verifySignature", run: { try verify(message, key); return 1 }),
        Subject(impl: "HMAC over signing input", run: raw),
        Subject(impl: "+ SHA-256 of payload JCS", run: { Crypto.sha256(canonicalBody).count + raw() }),
        Subject(impl: "buildSigningInput alone", run: { try build(message).utf8.count }),
    ], settings))
}

// Replay: check-and-record with a fresh key per call vs a bare Dictionary (ReplayBench.swift).
record("replay", "", try await replayRates(settings, nowMs: Int64(Date().timeIntervalSince1970 * 1000)))

let json = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
try json.write(to: URL(fileURLWithPath: arguments[2]))
