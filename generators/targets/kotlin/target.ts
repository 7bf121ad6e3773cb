// The Kotlin target: generated/kotlin, a self-contained Maven project.
import { defineTarget, notJson } from "../target.js";
import { emitKotlin } from "./emit.js";
import { emitKotlinRuntime, emitKotlinTests, readKotlinSources } from "./emit-runtime.js";

export const kotlinTarget = defineTarget({
  id: "kotlin",
  summary: "Kotlin Maven project: kotlinx.serialization classes, validation, lifecycles, signing, JUnit suites",
  outDir: "generated/kotlin",
  // pom.xml is hand-maintained beside the generated sources.
  owns: ["generated/kotlin/src"],
  header: notJson,
  inputs: (root) => ({ runtime: readKotlinSources(root, "runtime"), tests: readKotlinSources(root, "tests") }),
  emit: (model, inputs) => [...emitKotlinRuntime(inputs.runtime), ...emitKotlinTests(inputs.tests), ...emitKotlin(model)],
});
