// The file-creation floor of a cold generate (generation.ts): the files a cold run wrote, read
// into memory, deleted as a cold run's set-up deletes them (outputs.ts), then created again in
// place the way write-outputs.ts creates one (mkdir of its folder, writeFileSync with "wx"); only
// that last loop's CPU time (user + system) is reported. Usage: node --import tsx write-floor.ts <repo>
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { removableOutputs, removeOutputs } from "./outputs.js";

const repo = process.argv[2]!;
const files = removableOutputs(repo).map((path) => [path, readFileSync(join(repo, path))] as const);
removeOutputs(repo);
const start = process.cpuUsage();
for (const [path, bytes] of files) {
  const full = join(repo, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, bytes, { flag: "wx" });
}
const used = process.cpuUsage(start);
process.stdout.write(`BENCH_FLOOR ${files.length} ${used.user} ${used.system}\n`);
