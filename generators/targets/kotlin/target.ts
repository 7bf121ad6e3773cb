// The Kotlin target: generated/kotlin, a self-contained Maven project (pom.xml included).
import { generatorHome } from "../../write/generator-home.mjs";
import { defineTarget } from "../target.js";
import { kotlinNaming } from "./kotlin-names.js";
import { emitKotlin, emitKotlinProject } from "./emit.js";
import { emitKotlinRuntime, emitKotlinTests, readKotlinSources } from "./emit-runtime.js";
import { emitKotlinTestData, readKotlinTestData } from "./emit-test-data.js";

export const kotlinTarget = defineTarget({
  id: "kotlin",
  summary: "Kotlin Maven project: kotlinx.serialization classes, validation, lifecycles, signing, JUnit suites",
  outDir: "generated/kotlin",
  naming: kotlinNaming,
  owns: ["generated/kotlin"],
  // Kotlin sources and the README get the header; pom.xml carries its own XML comment (a `//` line
  // is not XML), and the copied test data stays byte for byte what the tests compare.
  header: (path) => path.endsWith(".kt") || path === "README.md",
  inputs: (root, model) => ({ runtime: readKotlinSources(generatorHome(root), "runtime"), tests: readKotlinSources(generatorHome(root), "tests"), testData: readKotlinTestData(root, model) }),
  emit: (model, inputs) => [
    ...emitKotlinRuntime(inputs.runtime),
    ...emitKotlinTests(inputs.tests),
    ...emitKotlinTestData(inputs.testData),
    ...emitKotlinProject(model),
    ...emitKotlin(model),
  ],
});
