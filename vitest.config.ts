import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["generators/**/*.test.ts", "property-tests/**/*.test.ts", "docs-site/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
