// The vitest suites that exercise the hand-written TS runtime (generators/targets/ts/runtime/src)
// directly, for Stryker. Suites that only reach the runtime through generated/ts copies, start
// child processes or render the whole pipeline are left out: they cannot see a mutant and only slow
// every run down.
import { defineConfig } from "vitest/config";

// MUTATION_TESTS=<file,...> narrows the suites (with MUTATE narrowing the mutated files).
const narrowed = process.env.MUTATION_TESTS?.split(",");

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
    pool: "forks",
    fileParallelism: false,
    // One worker keeps the imported modules between mutant runs (Stryker switches mutants through a
    // global, so no re-import is needed): a fresh module graph per run cost 30 s+ on 2 busy cores.
    isolate: false,
  },
});
