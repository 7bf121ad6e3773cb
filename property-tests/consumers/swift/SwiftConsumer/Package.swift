// swift-tools-version:5.9
// A consumer of the generated Swift package, written from docs-site/guides/using-swift.md only.
// The path is the repository layout; swift-test.sh copies this folder and generated/swift into
// the same layout elsewhere, so the build never reads the repository.
import PackageDescription

let package = Package(
    name: "SwiftConsumer",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(name: "AgentContracts", path: "../../../../generated/swift")],
    targets: [
        .executableTarget(name: "SwiftConsumer", dependencies: [.product(name: "AgentContracts", package: "AgentContracts")]),
    ]
)
