// Preloaded (node --require) into the processes generation.ts times: on exit, reports the whole
// process's CPU time (all threads, e.g. tsx's loader worker) on stderr, which a busy shared machine
// distorts far less than the wall clock.
const { isMainThread } = require("node:worker_threads");
if (isMainThread) {
  process.on("exit", () => {
    const usage = process.cpuUsage();
    process.stderr.write(`\nBENCH_CPU_US ${usage.user + usage.system} BENCH_SYS_US ${usage.system}\n`);
  });
}
