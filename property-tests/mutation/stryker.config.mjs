// Stryker over the hand-written TS runtime. `make mutation` runs it (not `make test`: too slow).
// Incremental: reports/mutation/ts/incremental.json keeps the previous results, so a rerun after a
// small change only tests the mutants in changed code. MUTATE=<glob,glob> narrows the files.
const mutate = process.env.MUTATE
  ? process.env.MUTATE.split(",")
  : ["generators/targets/ts/runtime/src/**/*.ts", "!generators/targets/ts/runtime/src/index.ts"];
// STRYKER_OUT=<folder> gives each group (run.mjs) its own report and incremental file.
const out = process.env.STRYKER_OUT ?? "reports/mutation/ts";

export default {
  packageManager: "npm",
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "property-tests/mutation/vitest.mutation.config.ts", related: false },
  mutate,
  coverageAnalysis: "perTest",
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
  // A group's timeoutMS (run.mjs passes it here) shortens the wait on mutants that turn a scan loop
  // quadratic or endless; the default leaves room for slow property tests under load.
  timeoutMS: Number(process.env.STRYKER_TIMEOUT_MS ?? 20_000),
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  reporters: ["html", "json", "clear-text", "progress"],
  htmlReporter: { fileName: `${out}/index.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  tempDirName: `${out}/.stryker-tmp`,
  cleanTempDir: true,
  ignorePatterns: ["reports", "docs-site/dist", "generated/kotlin/target", "generated/swift/.build", "property-tests/bench/swift-bench/.build", "property-tests/bench/kotlin/target", ".cache"],
  thresholds: { high: 90, low: 80, break: null },
};
