import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["generators/**/*.test.ts", "property-tests/**/*.test.ts", "docs-site/test/**/*.test.ts"],
    // The shared-case drivers compile the Kotlin and Swift packages: `make drivers` runs them
    // (property-tests/drivers/vitest.config.ts), after the main run. The example projects' test
    // generates and compiles two whole projects: `make examples` runs it, so `make test` runs it once.
    exclude: ["**/node_modules/**", "property-tests/drivers/drivers.test.ts", "generators/test/example-projects.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
