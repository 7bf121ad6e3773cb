// Where the PostgreSQL replay store's time goes, against its floor: variants that each add one
// thing a store statement can carry (preparing, RETURNING, DO UPDATE ... WHERE, two deadlines),
// then the store itself, prepared and not,
// interleaved in many rounds on one pool, with the client's CPU time per check beside throughput.
// Run: node --import tsx property-tests/bench/fleet-profile.ts [callers] [rounds] [roundMs] [poolSize] [variant,...]
import pg from "pg";
import { PostgresReplayStore } from "../../generated/ts/runtime/replay-postgres.js";
import { withDeadline } from "../../generated/ts/runtime/store-support.js";
import { startPostgres } from "../fleet/servers.js";

const [callers = 64, rounds = 8, roundMs = 1000, poolSize = 64] = process.argv.slice(2, 6).map(Number);
// A 5th argument runs only the variants it names (comma-separated), e.g. under node --cpu-prof.
const only = process.argv[6]?.split(",");

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

const server = await startPostgres();
try {
  const pool = new pg.Pool({ connectionString: server.url, max: poolSize });
  pool.on("error", () => {}); // idle clients see the server stop at the end
  const table = (t: string) => `CREATE TABLE IF NOT EXISTS ${t} (scope text NOT NULL, key text NOT NULL, retain_until_ms bigint NOT NULL, PRIMARY KEY (scope, key)); CREATE INDEX IF NOT EXISTS ${t}_r ON ${t} (retain_until_ms)`;
  for (const t of ["v_floor", "v_ret", "v_upd", "v_dl", "v_prep", "v_unprep"]) await pool.query(table(t));
  const store = new PostgresReplayStore({ client: pool });
  await store.checkAndRecord("bench", "warm", Date.now() + 60_000, Date.now());
  let run = 0;
  const upd = (t: string) => `INSERT INTO ${t} (scope, key, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = EXCLUDED.retain_until_ms WHERE ${t}.retain_until_ms <= $4 RETURNING 1`;
  const unprepared = new PostgresReplayStore({ client: pool, table: "v_unprep", prepare: false });
  await unprepared.checkAndRecord("bench", "warm", Date.now() + 60_000, Date.now());
  const variants: Record<string, (i: number) => Promise<unknown>> = {
    floor: (i) => pool.query("INSERT INTO v_floor (scope, key, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", ["bench", `${run}-${i}`, Date.now() + 60_000]),
    "floor prepared": (i) => pool.query({ name: "floorp", text: "INSERT INTO v_prep (scope, key, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", values: ["bench", `${run}-${i}`, Date.now() + 60_000] }),
    "+RETURNING": (i) => pool.query({ name: "ret", text: "INSERT INTO v_ret (scope, key, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1", values: ["bench", `${run}-${i}`, Date.now() + 60_000] }),
    "DO UPDATE WHERE": (i) => pool.query({ name: "upd", text: upd("v_upd"), values: ["bench", `${run}-${i}`, Date.now() + 60_000, Date.now()] }),
    "+deadline x2": (i) => withDeadline(Promise.resolve(pool), 2000, "c").then(() => withDeadline(pool.query({ name: "dl", text: upd("v_dl"), values: ["bench", `${run}-${i}`, Date.now() + 60_000, Date.now()] }), 2000, "q")),
    "store prepare:false": (i) => unprepared.checkAndRecord("bench", `${run}-${i}`, Date.now() + 60_000, Date.now()),
    store: (i) => store.checkAndRecord("bench", `${run}-${i}`, Date.now() + 60_000, Date.now()),
  };
  const results = new Map<string, { ops: number[]; cpu: number[] }>();
  const names = Object.keys(variants).filter((name) => only === undefined || only.includes(name));
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
  const floor = median((results.get("floor prepared") ?? [...results.values()][0]!).ops);
  console.log(`callers ${callers}, pool ${poolSize}, ${rounds} rounds of ${roundMs} ms`);
  for (const [name, e] of results) console.log(`${name.padEnd(16)} ${median(e.ops).toFixed(0).padStart(6)}/s  ${(median(e.ops) / floor).toFixed(2)}x prepared floor  client CPU ${median(e.cpu).toFixed(0)} us/check`);
  await pool.end();
} finally {
  await server.stop();
}
