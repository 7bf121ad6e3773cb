// Rewrites property-tests/fuzz/corpus/*.json from corpus.ts with TypeScript's verdicts.
// Run: node --import tsx property-tests/fuzz/write-corpus.ts (review the diff of every verdict).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildCorpus } from "./corpus.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";

for (const [name, file] of Object.entries(buildCorpus())) {
  writeFileSync(join(REPO_ROOT, "property-tests/fuzz/corpus", name), `${JSON.stringify(file, null, 1)}\n`);
  console.log(`${name}: ${file.cases.length} cases`);
}
