// The coverage table: generated/coverage.md and coverage.json.
import { COMMENT_SYNTAX, defineTarget, notJson } from "../target.js";
import { emitCoverage } from "./emit-coverage.js";

export const coverageTarget = defineTarget({
  id: "coverage",
  summary: "Coverage of each source document's sections by spec items (markdown and JSON)",
  outDir: "generated",
  owns: [],
  header: notJson,
  comments: COMMENT_SYNTAX,
  inputs: () => undefined,
  emit: (model) => emitCoverage(model),
});
