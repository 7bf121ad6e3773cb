// What a new SwiftPM project does with AgentContracts on day one, each step checked against
// values written down from the spec's vectors (see ../../../README.md), never from running this code.
//
//   SwiftConsumer check <fixtures-dir> <state-dir>   every step; exit 1 on the first wrong answer
//   SwiftConsumer record <store-file>                admits the trigger request, prints "admitted",
//                                                    then waits to be killed
//   SwiftConsumer replay <store-file>                exit 0 only if the request is rejected as "replayed"
import AgentContracts
import Foundation

/// spec/agent-provider/vectors/hmac-sha256-v1.json, case "ios_provider_sdk_trigger" (the Napaxi
/// iOS provider SDK's signature, property-tests/vectors/agent-provider/computed_signature_vectors.json).
let secret = "secret-1"
let expectedSignature = "R7ecHeVQJ/m+QESeLg1n9s8ElgLZLZXRP6TYSw6nXcQ"
/// 2026-05-27T00:05:00Z in milliseconds (Python: datetime(2026,5,27,0,5,tzinfo=utc).timestamp()*1000),
/// inside the request's created_at..expires_at window.
let fiveMinutesIn: Int64 = 1_779_840_300_000
/// spec/agent-connector/vectors/content-ids.json, case "local-echo-1.0.0.package.json" (the id
/// Meldwork's own code wrote, property-tests/vectors/agent-connector/generated/valid/EXPECTED.json).
let expectedPackageID = "connector-package-f4908cee8fa7acf5d17a403b39bd58cb8d4a1dfec3fbfb43c62c5727ee793cd4"

struct CheckFailed: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ what: String) throws {
    guard condition else { throw CheckFailed(description: "FAILED: \(what)") }
    print("ok: \(what)")
}

func triggerRequest() -> AgentProvider.UnsignedAgentTriggerRequest {
    AgentProvider.UnsignedAgentTriggerRequest(
        protocolVersion: 2, requestID: "trigger-1", providerID: "wallet.provider", agentID: "wallet.agent",
        message: "Review today spending.", source: "virtual_wallet", eventType: "review_spending_requested",
        payload: ["view": .string("today_spending")], createdAt: "2026-05-27T00:00:00Z",
        expiresAt: "2026-05-27T00:10:00Z", nonce: "nonce-trigger", idempotencyKey: "trigger-1",
        hostInstanceID: "host-instance-1")
}

func replayGuard(_ storeFile: String) throws -> ReplayGuard {
    AgentProvider.createAgentTriggerRequestReplayGuard(store: try FileReplayStore(path: storeFile), now: { fiveMinutesIn })
}

func readBytes(_ folder: String, _ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name)))
}

func checkProposal(_ fixtures: String) throws {
    // The first example of spec/agent-provider/messages/ActionProposal.yaml.
    let proposal = try AgentProvider.ActionProposal.decode(json: try readBytes(fixtures, "action-proposal.json"))
    try check(proposal.toolName == "app_action_order_create" && proposal.risk == .high, "ActionProposal example parses and validates")
    // Its first x-invalid-example: error { instancePath: /tool_name, keyword: pattern }.
    do {
        _ = try AgentProvider.ActionProposal.decode(json: try readBytes(fixtures, "action-proposal-bad-tool-name.json"))
        try check(false, "ActionProposal with a bad tool_name is refused")
    } catch let failure as ValidationFailure {
        try check(failure.errors.first?.instancePath == "/tool_name" && failure.errors.first?.keyword == "pattern",
                  "ActionProposal with a bad tool_name is refused at /tool_name (pattern)")
    }
}

func checkSigning() throws -> AgentProvider.AgentTriggerRequest {
    let request = try AgentProvider.signAgentTriggerRequest(triggerRequest(), secret: secret)
    try check(request.signature == expectedSignature, "signAgentTriggerRequest gives the iOS SDK's signature")
    try check(AgentProvider.verifyAgentTriggerRequest(request, secret: secret) == .valid, "verifyAgentTriggerRequest: valid")
    var tampered = request
    tampered.message = "Review all spending."
    try check(AgentProvider.verifyAgentTriggerRequest(tampered, secret: secret) == .invalid(.signatureMismatch),
              "a changed message: signature-mismatch")
    try check(AgentProvider.verifyAgentTriggerRequest(request, secret: "secret-2") == .invalid(.signatureMismatch),
              "another secret: signature-mismatch")
    do {
        _ = try AgentProvider.signAgentTriggerRequest(triggerRequest(), secret: "")
        try check(false, "an empty secret is refused")
    } catch let failure as SigningFailure {
        try check(failure == .signing(.keyMissing), "an empty secret is refused (key-missing)")
    }
    return request
}

func checkReplay(_ state: String) async throws {
    let storeFile = URL(fileURLWithPath: state).appendingPathComponent("in-process.log").path
    let request = try AgentProvider.signAgentTriggerRequest(triggerRequest(), secret: secret)
    let beforeRestart = try replayGuard(storeFile)
    let first = await beforeRestart.admit(request)
    try check(first == .admitted, "the first delivery is admitted")
    // A new store on the same file, as after a restart.
    let afterRestart = try replayGuard(storeFile)
    let again = await afterRestart.admit(request)
    try check(again == .rejected(.replayed), "the same request after a restart: replayed")
    var late = triggerRequest()
    late.requestID = "trigger-2"
    let lateRequest = try AgentProvider.signAgentTriggerRequest(late, secret: secret)
    let tenMinutesLater = AgentProvider.createAgentTriggerRequestReplayGuard(store: try FileReplayStore(path: storeFile), now: { fiveMinutesIn + 600_000 })
    let expired = await tenMinutesLater.admit(lateRequest)
    try check(expired.code == "expired", "a request past expires_at: expired")
}

func checkTrust() throws {
    // spec/agent-connector/lifecycles/trust.machine.yaml.
    typealias Trust = AgentConnector.TrustLifecycle
    try check(Trust.transition(from: .imported, on: .approve) == .transitioned(to: .approved, effects: [.auditApproved]), "trust: imported --approve--> approved")
    try check(Trust.transition(from: .approved, on: .install) == .transitioned(to: .installed, effects: [.auditInstalled]), "trust: approved --install--> installed")
    try check(Trust.transition(from: .installed, on: .revoke) == .refused(.eventNotAllowed, guard: nil), "trust: installed cannot be revoked")
    try check(Trust.transition(from: .disabled, on: .remove, guards: [.inUse: true]) == .refused(.guardFailed, guard: "not inUse"), "trust: an in-use package is not removed")
    try check(Trust.transition(from: .disabled, on: .remove, guards: [.inUse: false]) == .transitioned(to: .removed, effects: [.auditRemoved]), "trust: disabled --remove--> removed")
    try check(Trust.transition(from: .removed, on: .install) == .refused(.terminal, guard: nil), "trust: removed is terminal")
}

func checkPackageID(_ fixtures: String) throws {
    let bytes = try readBytes(fixtures, "local-echo-1.0.0.package.json")
    switch AgentConnector.importConnectorPackage(bytes) {
    case let .success(imported):
        try check(imported.id == expectedPackageID && imported.record.packageID == expectedPackageID, "importConnectorPackage: the package id Meldwork wrote")
        try check(try AgentConnector.computeConnectorPackageID(imported.record) == expectedPackageID, "computeConnectorPackageID of the typed record")
    case let .failure(error):
        try check(false, "importConnectorPackage: \(error.code)")
    }
    switch AgentConnector.importConnectorPackage(bytes + Array("\n".utf8)) {
    case .success: try check(false, "a package with a trailing newline is refused")
    case let .failure(error): try check(error.code == "not-canonical", "a package with a trailing newline: not-canonical")
    }
}

@main
struct Consumer {
    static func main() async {
        let args = CommandLine.arguments
        do {
            switch (args.count > 1 ? args[1] : "", args.count) {
            case ("check", 4):
                try checkProposal(args[2])
                _ = try checkSigning()
                try await checkReplay(args[3])
                try checkTrust()
                try checkPackageID(args[2])
            case ("record", 3):
                let request = try AgentProvider.signAgentTriggerRequest(triggerRequest(), secret: secret)
                let recorder = try replayGuard(args[2])
                let decision = await recorder.admit(request)
                try check(decision == .admitted, "record: admitted")
                print("admitted")
                fflush(stdout)
                while true { sleep(60) }   // until SIGKILL
            case ("replay", 3):
                let request = try AgentProvider.signAgentTriggerRequest(triggerRequest(), secret: secret)
                let replayer = try replayGuard(args[2])
                let decision = await replayer.admit(request)
                try check(decision == .rejected(.replayed), "after SIGKILL and a new process: replayed (got \(decision.code))")
            default:
                throw CheckFailed(description: "usage: SwiftConsumer check <fixtures> <state> | record <file> | replay <file>")
            }
        } catch {
            print(error)
            exit(1)
        }
    }
}
