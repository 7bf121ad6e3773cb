// swift-tools-version:5.9
// The Swift side of `make bench` (issue 20; the folder is not named `swift`, which would give it
// the same package identity as generated/swift): an executable that times the generated Swift
// package (../../../generated/swift, by path) against Foundation's JSONDecoder/JSONSerialization
// and the runtime's bare HMAC, on the TypeScript bench's inputs. Built in release mode and run
// by property-tests/bench/swift.ts through generators/targets/swift/toolchain/swift-test.sh.
import PackageDescription

let package = Package(
    name: "AgentContractsBench",
    dependencies: [.package(path: "../../../generated/swift")],
    targets: [
        .executableTarget(
            name: "AgentContractsBench",
            dependencies: [.product(name: "AgentContracts", package: "swift")],
            path: "Sources/AgentContractsBench"
        ),
    ]
)
