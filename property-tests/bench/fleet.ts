// The fleet stores against their floors, on real servers started here (loopback, temp folders):
// RedisReplayStore against a bare `SET key 1 NX PX ttl` from the same client, PostgresReplayStore
// against a bare `INSERT ... ON CONFLICT DO NOTHING` (prepared) on the same pool, each at 1, 8 and 64
// concurrent callers (closed loop: every caller awaits its answer before the next check).
// Throughput ratios per round, with p50/p99 latency beside them. Goal: >= 0.8x the floor.
import { createClient } from "redis";
import pg from "pg";
import { PostgresReplayStore } from "../../generated/ts/runtime/replay-postgres.js";
import { RedisReplayStore } from "../../generated/ts/runtime/replay-redis.js";
import { missingServers, startPostgres, startRedis } from "../fleet/servers.js";
import { markdownTable, median, ratioStat, formatOps, formatRatio, verdict, type Verdict } from "./table.js";

const CONCURRENCY = [1, 8, 64] as const;
const GOAL = 0.8;

interface Load {
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `callers` closed loops of `op` for `ms` and reports throughput and latency percentiles. */
async function closedLoop(op: (i: number) => Promise<unknown>, callers: number, ms: number): Promise<Load> {
  const latencies: number[] = [];
  let n = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await op(n++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] as number;
  return { opsPerSec: latencies.length / (ms / 1000), p50Ms: at(0.5), p99Ms: at(0.99) };
}

export interface FleetResult {
  markdown: string;
  verdicts: { row: string; goal: string; verdict: Verdict }[];
}

export async function fleetArea(rounds = 3, roundMs = 700): Promise<FleetResult> {
  const missing = missingServers();
  if (missing !== undefined) return { markdown: `### Fleet stores\n\nSkipped: ${missing}.\n`, verdicts: [] };
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const rows: string[][] = [];
  const verdicts: FleetResult["verdicts"] = [];
  try {
    const client = createClient({ url: redis.url });
    await client.connect();
    const redisStore = new RedisReplayStore({ client });
    // Idle connections stay open between rows (the default closes them after 10 s idle).
    const pool = new pg.Pool({ connectionString: postgres.url, max: 64, idleTimeoutMillis: 0 });
    pool.on("error", () => {}); // an idle connection the server drops surfaces on the next query, not as a crash
    // The floor writes the same table shape the store does (primary key and the expiry index the
    // bounded sweep needs), so the ratio is the store's own cost, not the index's.
    await pool.query("CREATE TABLE IF NOT EXISTS bare_replay (scope text NOT NULL, key text NOT NULL, retain_until_ms bigint NOT NULL, PRIMARY KEY (scope, key))");
    await pool.query("CREATE INDEX IF NOT EXISTS bare_replay_retain_until_idx ON bare_replay (retain_until_ms)");
    const pgStore = new PostgresReplayStore({ client: pool });
    let run = 0;
    const subjects = [
      {
        name: "Redis",
        floor: "bare SET NX PX",
        ours: (i: number) => redisStore.checkAndRecord("bench", `r${run}-${i}`, Date.now() + 60_000, Date.now()),
        bare: (i: number) => client.sendCommand(["SET", `bare:${run}-${i}`, "1", "NX", "PX", "60000"]),
      },
      {
        name: "PostgreSQL",
        floor: "bare INSERT … ON CONFLICT",
        ours: (i: number) => pgStore.checkAndRecord("bench", `p${run}-${i}`, Date.now() + 60_000, Date.now()),
        // Prepared, as the store's statements are: the faster form, so the floor stays the minimum.
        bare: (i: number) => pool.query({ name: "bare_insert", text: "INSERT INTO bare_replay (scope, key, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", values: ["bench", `b${run}-${i}`, Date.now() + 60_000] }),
      },
    ];
    for (const s of subjects) {
      await s.ours(-1); // migration and policy check out of the timed rounds
      for (const callers of CONCURRENCY) {
        const ours: Load[] = [];
        const bare: Load[] = [];
        // Untimed, both: the pool opens its connections for this many callers (and each prepares
        // its statements) here, not in the first timed round, which would charge them to
        // whichever side runs first.
        run++;
        await closedLoop(s.ours, callers, 200);
        await closedLoop(s.bare, callers, 200);
        for (let r = 0; r < rounds; r++) {
          run++;
          // Alternate which goes first, so neither always meets a warmer server.
          if (r % 2 === 0) {
            ours.push(await closedLoop(s.ours, callers, roundMs));
            bare.push(await closedLoop(s.bare, callers, roundMs));
          } else {
            bare.push(await closedLoop(s.bare, callers, roundMs));
            ours.push(await closedLoop(s.ours, callers, roundMs));
          }
        }
        const stat = ratioStat(ours.map((l) => l.opsPerSec), bare.map((l) => l.opsPerSec), "speedup");
        const v = verdict(stat, "speedup", GOAL);
        const p = (loads: Load[], k: "p50Ms" | "p99Ms"): string => `${median(loads.map((l) => l[k])).toFixed(2)} ms`;
        rows.push([s.name, String(callers), `${formatOps(median(ours.map((l) => l.opsPerSec)))}/s`, `${formatOps(median(bare.map((l) => l.opsPerSec)))}/s`, `${formatRatio(stat)} ${v === "met" ? "met" : v === "missed" ? "**MISSED**" : "borderline"}`, `${p(ours, "p50Ms")} / ${p(ours, "p99Ms")}`, `${p(bare, "p50Ms")} / ${p(bare, "p99Ms")}`]);
        verdicts.push({ row: `${s.name}, ${callers} callers`, goal: `store ≥ ${GOAL}× ${s.floor}`, verdict: v });
      }
    }
    await client.close();
    await pool.end();
  } finally {
    await Promise.all([redis.stop(), postgres.stop()]);
  }
  const table = markdownTable(["store", "callers", "store", "floor", `store ÷ floor (goal ≥ ${GOAL}×)`, "store p50 / p99", "floor p50 / p99"], rows);
  const notes =
    "Servers started by the bench on loopback (Redis with `appendfsync always`, PostgreSQL with fsync on), " +
    `${rounds} rounds of ${roundMs} ms per row; floors use the same client or pool as the store.`;
  return { markdown: `### Fleet stores (Redis, PostgreSQL)\n\n${table}\n\n${notes}\n`, verdicts };
}
