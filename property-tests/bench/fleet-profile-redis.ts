// Where the Redis replay store's time goes, against its floor (a bare `SET NX PXAT` on the same
// client): the store, and optionally the store of another build of the runtime (a folder holding
// replay-redis.js, e.g. a copy of generated/ts/runtime taken before a change), interleaved in many
// rounds on one client and one server, with the client's CPU time per check beside throughput.
// Run: node --import tsx property-tests/bench/fleet-profile-redis.ts [callers] [rounds] [roundMs] [other runtime folder]
// REDIS_APPENDFSYNC=everysec takes the disk out (the bench's server fsyncs every write), so the
// client's CPU, which is what the store adds, decides the ratio even when other work shares the disk.
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";
import { createClient } from "redis";
import { RedisReplayStore } from "../../generated/ts/runtime/replay-redis.js";
import { startRedis } from "../fleet/servers.js";

const [callers = 64, rounds = 8, roundMs = 1000] = process.argv.slice(2, 5).map(Number);
const otherRuntime = process.argv[5];

async function closedLoop(op: (i: number) => Promise<unknown>, ms: number): Promise<{ ops: number; cpuUsPerOp: number }> {
  let n = 0;
  let done = 0;
  const cpu = process.cpuUsage();
  const until = performance.now() + ms;
  await Promise.all(Array.from({ length: callers }, async () => {
    while (performance.now() < until) { await op(n++); done++; }
  }));
  const used = process.cpuUsage(cpu);
  return { ops: done / (ms / 1000), cpuUsPerOp: (used.user + used.system) / done };
}

const server = await startRedis(process.env["REDIS_APPENDFSYNC"] === undefined ? [] : ["--appendfsync", process.env["REDIS_APPENDFSYNC"]]);
try {
  const client = createClient({ url: server.url });
  await client.connect();
  let run = 0;
  const store = new RedisReplayStore({ client });
  const variants: Record<string, (i: number) => Promise<unknown>> = {
    floor: (i) => client.sendCommand(["SET", `bare:${run}-${i}`, "1", "NX", "PXAT", String(Date.now() + 60_000)]),
    store: (i) => store.checkAndRecord("bench", `s${run}-${i}`, Date.now() + 60_000, Date.now()),
  };
  if (otherRuntime !== undefined) {
    const other = (await import(pathToFileURL(join(resolve(otherRuntime), "replay-redis.js")).href)) as { RedisReplayStore: typeof RedisReplayStore };
    const otherStore = new other.RedisReplayStore({ client });
    variants["other store"] = (i) => otherStore.checkAndRecord("bench", `o${run}-${i}`, Date.now() + 60_000, Date.now());
  }
  for (const op of Object.values(variants)) await closedLoop(op, 300); // checks, connections and JIT out of the timed rounds
  const results = new Map<string, { ops: number[]; cpu: number[] }>();
  const names = Object.keys(variants);
  for (let r = 0; r < rounds; r++) {
    // Rotate the order every round so no variant always meets a warmer (or fuller) server.
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length]!;
      run++;
      const load = await closedLoop(variants[name]!, roundMs);
      const entry = results.get(name) ?? { ops: [], cpu: [] };
      entry.ops.push(load.ops);
      entry.cpu.push(load.cpuUsPerOp);
      results.set(name, entry);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = results.get("floor")!.ops;
  console.log(`callers ${callers}, ${rounds} rounds of ${roundMs} ms${otherRuntime === undefined ? "" : `, other store from ${otherRuntime}`}`);
  for (const [name, e] of results) {
    const ratios = e.ops.map((ops, r) => ops / floor[r]!);
    console.log(`${name.padEnd(12)} ${median(e.ops).toFixed(0).padStart(6)}/s  ${median(ratios).toFixed(2)}x floor (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})  client CPU ${median(e.cpu).toFixed(1)} us/check`);
  }
  await client.close();
} finally {
  await server.stop();
}
