// The fleet stores against their floors, on real servers started here (loopback, temp folders):
// RedisReplayStore against a bare `SET key 1 NX PX ttl` from the same client, PostgresReplayStore
// against a bare `INSERT ... ON CONFLICT DO NOTHING` (prepared) on the same pool, each at 1, 8 and 64
// concurrent callers (closed loop: every caller awaits its answer before the next check).
// Throughput ratios per round, with p50/p99 latency beside them. Goal: >= 0.8x the floor.
// A round is SLICES short runs of each side, alternating, so that a slow second of the machine
// (fsync stalls, other work on its 2 cores) falls on both sides of a round instead of one.
import { createClient } from "redis";
import pg from "pg";
import { PostgresReplayStore } from "../../generated/ts/runtime/replay-postgres.js";
import { RedisReplayStore } from "../../generated/ts/runtime/replay-redis.js";
import { missingServers, startPostgres, startRedis } from "../fleet/servers.js";
import { markdownTable, median, ratioStat, formatOps, formatRatio, verdict, type Verdict } from "./table.js";

const CONCURRENCY = [1, 8, 64] as const;
const GOAL = 0.8;
const SLICES = 4;

interface Load {
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `callers` closed loops of `op` for `ms`, adding each check's latency to `latencies`; returns the wall time taken. */
async function closedLoop(op: (i: number) => Promise<unknown>, callers: number, ms: number, latencies: number[] = []): Promise<number> {
  let n = 0;
  const start = performance.now();
  const until = start + ms;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await op(n++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return performance.now() - start;
}

/** One round: SLICES alternating runs of each side, `ms` in all per side; throughput and latency percentiles per side. */
async function round(a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>, callers: number, ms: number, aFirst: boolean, nextRun: () => void): Promise<[Load, Load]> {
  const sides = [
    { op: a, latencies: [] as number[], wallMs: 0 },
    { op: b, latencies: [] as number[], wallMs: 0 },
  ];
  for (let slice = 0; slice < SLICES; slice++) {
    const order = (slice % 2 === 0) === aFirst ? sides : [sides[1]!, sides[0]!];
    for (const side of order) {
      nextRun();
      side.wallMs += await closedLoop(side.op, callers, ms / SLICES, side.latencies);
    }
  }
  const load = ({ latencies, wallMs }: (typeof sides)[number]): Load => {
    latencies.sort((x, y) => x - y);
    const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] as number;
    return { opsPerSec: latencies.length / (wallMs / 1000), p50Ms: at(0.5), p99Ms: at(0.99) };
  };
  return [load(sides[0]!), load(sides[1]!)];
}

export interface FleetResult {
  markdown: string;
  verdicts: { row: string; goal: string; verdict: Verdict }[];
}

export async function fleetArea(rounds = 3, roundMs = 700): Promise<FleetResult> {
  const missing = missingServers();
  // `make bench` installs the servers first (as `make test` does); without them the rows are a missed goal, not a silent gap.
  if (missing !== undefined) return { markdown: `### Fleet stores\n\nNot run: ${missing}.\n`, verdicts: [{ row: "every row", goal: "the servers start (make servers)", verdict: "missed" }] };
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
    // The floor writes the same table shape the store does (a 32-byte digest as primary key, the
    // original pair as text, and the expiry index the bounded sweep needs), so the ratio is the
    // store's own cost, not the layout's. What the digest layout itself costs against the earlier
    // (scope, key) layout is a row of its own, without a goal.
    await pool.query("CREATE TABLE IF NOT EXISTS bare_replay (id bytea PRIMARY KEY, original text NOT NULL, retain_until_ms bigint NOT NULL)");
    await pool.query("CREATE INDEX IF NOT EXISTS bare_replay_retain_until_idx ON bare_replay (retain_until_ms)");
    await pool.query("CREATE TABLE IF NOT EXISTS bare_replay_pair (scope text NOT NULL, key text NOT NULL, retain_until_ms bigint NOT NULL, PRIMARY KEY (scope, key))");
    await pool.query("CREATE INDEX IF NOT EXISTS bare_replay_pair_retain_until_idx ON bare_replay_pair (retain_until_ms)");
    // A distinct 32-byte id per check without hashing: the digest is the store's work, not the floor's.
    const bareId = (tag: number, i: number): Buffer => {
      const id = Buffer.alloc(32);
      id.writeUInt32BE(tag, 0);
      id.writeInt32BE(run, 4);
      id.writeInt32BE(i, 8);
      return id;
    };
    const pgStore = new PostgresReplayStore({ client: pool });
    let run = 0;
    // Prepared, as the store's statements are: the faster form, so the floor stays the minimum.
    const bareInsert = (i: number) => pool.query({ name: "bare_insert", text: "INSERT INTO bare_replay (id, original, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", values: [bareId(1, i), `["bench","b${run}-${i}"]`, Date.now() + 60_000] });
    const subjects = [
      {
        name: "Redis",
        floor: "bare SET NX PXAT",
        callers: CONCURRENCY,
        goal: true,
        ours: (i: number) => redisStore.checkAndRecord("bench", `r${run}-${i}`, Date.now() + 60_000, Date.now()),
        bare: (i: number) => client.sendCommand(["SET", `bare:${run}-${i}`, "1", "NX", "PXAT", String(Date.now() + 60_000)]),
      },
      {
        name: "PostgreSQL",
        floor: "bare INSERT … ON CONFLICT",
        callers: CONCURRENCY,
        goal: true,
        ours: (i: number) => pgStore.checkAndRecord("bench", `p${run}-${i}`, Date.now() + 60_000, Date.now()),
        bare: bareInsert,
      },
      {
        name: "PostgreSQL layout: digest key ÷ (scope, key) key, both bare",
        floor: "bare INSERT, (scope, key) layout",
        callers: [64] as const,
        goal: false,
        ours: bareInsert,
        bare: (i: number) => pool.query({ name: "bare_insert_pair", text: "INSERT INTO bare_replay_pair (scope, key, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", values: ["bench", `q${run}-${i}`, Date.now() + 60_000] }),
      },
    ];
    for (const s of subjects) {
      await s.ours(-1); // migration and policy check out of the timed rounds
      for (const callers of s.callers) {
        const ours: Load[] = [];
        const bare: Load[] = [];
        // Untimed, both: the pool opens its connections for this many callers (and each prepares
        // its statements) here, not in the first timed round, which would charge them to
        // whichever side runs first.
        run++;
        await closedLoop(s.ours, callers, 200);
        await closedLoop(s.bare, callers, 200);
        for (let r = 0; r < rounds; r++) {
          // Alternate which goes first, so neither always meets a warmer server.
          const [o, b] = await round(s.ours, s.bare, callers, roundMs, r % 2 === 0, () => run++);
          ours.push(o);
          bare.push(b);
        }
        const stat = ratioStat(ours.map((l) => l.opsPerSec), bare.map((l) => l.opsPerSec), "speedup");
        const p = (loads: Load[], k: "p50Ms" | "p99Ms"): string => `${median(loads.map((l) => l[k])).toFixed(2)} ms`;
        const v = s.goal ? verdict(stat, "speedup", GOAL) : undefined;
        const shown = v === undefined ? "(no goal)" : v === "met" ? "met" : v === "missed" ? "**MISSED**" : "borderline";
        rows.push([s.name, String(callers), `${formatOps(median(ours.map((l) => l.opsPerSec)))}/s`, `${formatOps(median(bare.map((l) => l.opsPerSec)))}/s`, `${formatRatio(stat)} ${shown}`, `${p(ours, "p50Ms")} / ${p(ours, "p99Ms")}`, `${p(bare, "p50Ms")} / ${p(bare, "p99Ms")}`]);
        if (v !== undefined) verdicts.push({ row: `${s.name}, ${callers} callers`, goal: `store ≥ ${GOAL}× ${s.floor}`, verdict: v });
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
    `${rounds} rounds per row, each ${SLICES} alternating slices of ${roundMs / SLICES} ms per side; floors use the same client or pool as the store. ` +
    "The PostgreSQL floor writes the store's layout (digest key, original text); the layout row compares that bare insert with one into the earlier (scope, key) layout.";
  return { markdown: `### Fleet stores (Redis, PostgreSQL)\n\n${table}\n\n${notes}\n`, verdicts };
}
