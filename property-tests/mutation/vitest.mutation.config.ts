// The vitest suites that exercise the hand-written TS runtime (generators/targets/ts/runtime/src)
// directly, for Stryker. Suites that only reach the runtime through generated/ts copies, start
// child processes or render the whole pipeline are left out: they cannot see a mutant and only slow
// every run down.
import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// MUTATION_TESTS=<file,...> narrows the suites (with MUTATE narrowing the mutated files).
const narrowed = process.env.MUTATION_TESTS?.split(",");

/**
 * Runs the suites in the order the group lists them (vitest's own order puts the longest first).
 * Stryker stops a mutant's run at its first failed test, so a group that lists its fast, pointed
 * suites first spends a killed mutant's time on them, not on a slow suite that also covers it.
 */
class ListedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    if (!narrowed) return super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = narrowed.indexOf(relative(f.project.config.root, f.moduleId));
      return i < 0 ? narrowed.length : i;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: narrowed ?? [
      "property-tests/signing/**/*.test.ts",
      "property-tests/lifecycles/**/*.test.ts",
      "property-tests/runtime/**/*.test.ts",
      // Imports secret-text, whatwg-url and rules from the runtime sources directly.
      "property-tests/spec-data/connector-rules.test.ts",
      "generators/test/generated-signing.test.ts",
    ],
    exclude: ["property-tests/signing/vector-provenance.test.ts", "property-tests/signing/vector-readmes.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: ListedOrder },
    pool: "forks",
    fileParallelism: false,
    // One worker keeps the imported modules between mutant runs (Stryker switches mutants through a
    // global, so no re-import is needed): a fresh module graph per run cost 30 s+ on 2 busy cores.
    isolate: false,
  },
});
