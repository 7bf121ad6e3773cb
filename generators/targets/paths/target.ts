// The language-neutral lifecycle test suites: spec/<protocol>/lifecycles/<name>.paths.json, beside
// the machines they exercise (every runtime replays them). The renderer is a shared stage
// (generators/lifecycles/paths.ts), because the Kotlin and Swift targets also ship the suites as
// test resources.
import { pathsFiles } from "../../lifecycles/paths.js";
import { defineTarget } from "../target.js";

export const pathsTarget = defineTarget({
  id: "paths",
  summary: "Lifecycle paths suites (spec/<protocol>/lifecycles/*.paths.json) every runtime replays",
  outDir: "",
  owns: [],
  header: () => false,
  inputs: () => undefined,
  emit: (model) => pathsFiles(model.protocols.flatMap((p) => p.lifecycles)),
});
