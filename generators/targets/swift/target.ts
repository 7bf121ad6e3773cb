// The Swift target: generated/swift, a SwiftPM package with no outside dependencies.
import { generatorHome } from "../../write/generator-home.mjs";
import { COMMENT_SYNTAX, defineTarget } from "../target.js";
import { swiftNaming } from "./naming.js";
import { emitSwift } from "./emit.js";
import { readSwiftCases, readSwiftRuntime } from "./inputs.js";
import { relocateSwift } from "./package-identity.js";
import { SWIFT_SCHEMA_SUPPORT } from "./schema-support.js";

export const swiftTarget = defineTarget({
  id: "swift",
  summary: "Swift package: Codable messages, validation, constants, lifecycles, signing, XCTest suites",
  outDir: "generated/swift",
  naming: swiftNaming,
  owns: ["generated/swift"],
  // Package.swift must start with its swift-tools-version line; resources and README stay as read.
  header: (path) => path.endsWith(".swift") && path !== "Package.swift",
  comments: COMMENT_SYNTAX,
  schemaSupport: SWIFT_SCHEMA_SUPPORT,
  inputs: (root, model) => ({ runtime: readSwiftRuntime(generatorHome(root)), cases: readSwiftCases(root, model) }),
  emit: (model, inputs) => relocateSwift(emitSwift(model, inputs.runtime, inputs.cases), model.project.packages.swift.module),
});
