// `make drivers`: the shared-case drivers test alone (the main vitest.config.ts leaves it out).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["property-tests/drivers/drivers.test.ts"],
    testTimeout: 3_600_000,
    hookTimeout: 60_000,
  },
});
