// The Kotlin target: generated/kotlin, a self-contained Maven project (pom.xml included).
import { generatorHome } from "../../write/generator-home.mjs";
import { COMMENT_SYNTAX, defineTarget } from "../target.js";
import { kotlinNaming, protocolPackage } from "./kotlin-names.js";
import { emitKotlin, emitKotlinProject } from "./emit.js";
import { emitKotlinRuntime, emitKotlinRuntimeResources, emitKotlinTests, readKotlinRuntimeResources, readKotlinSources } from "./emit-runtime.js";
import { emitKotlinTestData, readKotlinTestData } from "./emit-test-data.js";
import { relocateKotlin } from "./package-identity.js";
import { KOTLIN_SCHEMA_SUPPORT } from "./schema-support.js";

export const kotlinTarget = defineTarget({
  id: "kotlin",
  summary: "Kotlin Maven project: kotlinx.serialization classes, validation, lifecycles, signing, JUnit suites",
  outDir: "generated/kotlin",
  naming: kotlinNaming,
  owns: ["generated/kotlin"],
  // Kotlin sources and the README get the header; pom.xml carries its own XML comment (a `//` line
  // is not XML), and the copied test data stays byte for byte what the tests compare.
  header: (path) => path.endsWith(".kt") || path === "README.md",
  comments: COMMENT_SYNTAX,
  schemaSupport: KOTLIN_SCHEMA_SUPPORT,
  inputs: (root, model) => ({
    runtime: readKotlinSources(generatorHome(root), "runtime"),
    runtimeResources: readKotlinRuntimeResources(generatorHome(root)),
    tests: readKotlinSources(generatorHome(root), "tests"),
    testData: readKotlinTestData(root, model),
  }),
  emit: (model, inputs) =>
    relocateKotlin([
      ...emitKotlinRuntime(inputs.runtime),
      ...emitKotlinRuntimeResources(inputs.runtimeResources),
      ...emitKotlinTests(inputs.tests, new Set(model.protocols.map((p) => protocolPackage(p.id))), new Set(inputs.testData.map((f) => f.path))),
      ...emitKotlinTestData(inputs.testData),
      ...emitKotlinProject(model),
      ...emitKotlin(model),
    ], model.project.packages.maven.package),
});
