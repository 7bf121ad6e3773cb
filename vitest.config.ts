import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["generators/**/*.test.ts", "property-tests/**/*.test.ts", "docs-site/test/**/*.test.ts"],
    // The shared-case drivers compile the Kotlin and Swift packages: `make drivers` runs them
    // (property-tests/drivers/vitest.config.ts), after the main run. The example projects' test
    // generates and compiles two whole projects: `make examples` runs it (AGENT_CONTRACTS_EXAMPLES=1),
    // so `make test` runs it once.
    exclude: ["**/node_modules/**", "property-tests/drivers/drivers.test.ts", ...(process.env.AGENT_CONTRACTS_EXAMPLES === "1" ? [] : ["generators/test/example-projects.test.ts"])],
    // `--spec` builds are cached on disk (generators/cli/spec-cache.ts); the suites' many temporary
    // projects go to a cache of their own, not the user's ~/.cache (the CLIs they start inherit it).
    env: { AGENT_CONTRACTS_CACHE_DIR: join(tmpdir(), "agent-contracts-test-cache") },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
