// Real Redis and PostgreSQL servers for the fleet store suites, started on 127.0.0.1 on free ports
// with their data under a temporary folder, and stopped by the suite. Never a mock: the point of
// these suites is what the servers themselves do (atomicity, persistence, restarts, refusals).
//
// Where a server is not installed the suite is skipped with one line saying so, unless
// AGENT_CONTRACTS_REQUIRE_SERVERS=1 (set by .ci/run, which installs both), when it fails instead.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REQUIRE_SERVERS = process.env["AGENT_CONTRACTS_REQUIRE_SERVERS"] === "1";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await sleep(50);
  }
}

// ---- Redis ----------------------------------------------------------------------------------

export function redisBinary(): string | undefined {
  for (const candidate of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) if (existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export interface RedisServer {
  url: string;
  port: number;
  /** SIGKILL, as a crash would; the AOF on disk is all that remains. */
  kill(): Promise<void>;
  /** Starts again on the same port and data folder. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: the process stays, but answers nothing (a stalled replica). */
  pause(): void;
  resume(): void;
}

/** `extraArgs` are added to the server's command line, e.g. ["--replicaof", "127.0.0.1", "6379"]. */
export async function startRedis(extraArgs: string[] = []): Promise<RedisServer> {
  const binary = redisBinary();
  if (binary === undefined) throw new Error("redis-server is not installed");
  const dir = mkdtempSync(join(tmpdir(), "agent-contracts-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const ping = (): boolean => spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), "PING"], { encoding: "utf8" }).stdout?.trim() === "PONG";
  const start = async (): Promise<void> => {
    // appendfsync always: every acknowledged SET is on disk before the reply.
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--maxmemory-policy", "noeviction", "--protected-mode", "no", ...extraArgs];
    child = spawn(binary, args, { stdio: "ignore" });
    await waitFor(ping, "redis-server");
  };
  const kill = async (): Promise<void> => {
    const c = child;
    // Already gone (an exit code, or killed by a signal): its exit event has fired.
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((r) => {
      c.once("exit", () => r());
      c.kill("SIGKILL");
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    pause: () => void child?.kill("SIGSTOP"),
    resume: () => void child?.kill("SIGCONT"),
    stop: async () => {
      child?.kill("SIGCONT");
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- PostgreSQL -----------------------------------------------------------------------------

export function postgresBinDir(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin");
}

export interface PostgresServer {
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate`: no shutdown checkpoint, as after a crash; WAL replay on start. */
  crash(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error("PostgreSQL server binaries are not installed (/usr/lib/postgresql/*/bin)");
  const dir = mkdtempSync(join(tmpdir(), "agent-contracts-pg-"));
  const data = join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, run it as the postgres user the package created.
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]): void => {
    const full = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    const result = spawnSync(full[0] as string, full[1] as string[], { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  };
  if (asRoot) {
    const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gids = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (ids.status !== 0) throw new Error("running as root and there is no postgres user to run PostgreSQL as");
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`;
  const start = async (): Promise<void> => run(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "30", "start"]);
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash: async () => run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]),
    start,
    stop: async () => {
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresStandbyPair {
  primary: PostgresServer;
  /** A streaming standby the primary names in synchronous_standby_names: commits wait for it. */
  standby: PostgresServer;
  /** The rows pg_stat_replication shows on the primary: application name and sync state. */
  replication(): string;
  /** `pg_ctl promote` on the standby: it leaves recovery and accepts writes. */
  promote(): Promise<void>;
  /**
   * A partition: SIGSTOP of the standby's postmaster and children, then the primary's walsenders
   * terminated, so that nothing more reaches the standby (not even WAL already in a socket buffer).
   */
  pauseStandby(): void;
  resumeStandby(): void;
  stop(): Promise<void>;
}

/**
 * A primary with `wal_level=replica` and `synchronous_standby_names='standby1'`, and a standby made
 * by pg_basebackup that streams from it as `standby1`; resolves once the primary reports the
 * standby as `sync`.
 */
export async function startPostgresStandbyPair(): Promise<PostgresStandbyPair> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error("PostgreSQL server binaries are not installed (/usr/lib/postgresql/*/bin)");
  const dir = mkdtempSync(join(tmpdir(), "agent-contracts-pg-pair-"));
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]): string => {
    const full = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    const result = spawnSync(full[0] as string, full[1] as string[], { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primaryData = join(dir, "primary");
  const standbyData = join(dir, "standby");
  run(join(bin, "initdb"), ["-D", primaryData, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const common = `-k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=50`;
  const primaryOptions = `-p ${primaryPort} ${common} -c wal_level=replica -c max_wal_senders=4 -c synchronous_standby_names=standby1`;
  const standbyOptions = `-p ${standbyPort} ${common} -c hot_standby=on`;
  const pgCtl = (data: string, args: string[]): string => run(join(bin, "pg_ctl"), ["-D", data, ...args]);
  const startPrimary = async (): Promise<void> => void pgCtl(primaryData, ["-o", primaryOptions, "-l", join(dir, "primary.log"), "-w", "-t", "30", "start"]);
  const startStandby = async (): Promise<void> => void pgCtl(standbyData, ["-o", standbyOptions, "-l", join(dir, "standby.log"), "-w", "-t", "30", "start"]);
  await startPrimary();
  // -R writes standby.signal and primary_conninfo; the application name is the one the primary waits for.
  run(join(bin, "pg_basebackup"), ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", standbyData, "-R", "-X", "stream", "-d", `host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby1`]);
  await startStandby();
  const psql = (port: number, sql: string): string => run(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-At", "-c", sql]);
  const replication = (): string => psql(primaryPort, "SELECT application_name || ':' || sync_state FROM pg_stat_replication");
  await waitFor(() => replication().trim() === "standby1:sync", "the synchronous standby", 30_000);
  const pidOf = (data: string): number => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  const signalStandby = (signal: string): void => {
    // The postmaster and its children (walreceiver, startup): stopping only the postmaster would keep streaming.
    const pid = pidOf(standbyData);
    spawnSync("sh", ["-c", `kill -${signal} ${pid}; pkill -${signal} -P ${pid}`]);
  };
  const server = (data: string, port: number, start: () => Promise<void>): PostgresServer => ({
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash: async () => void pgCtl(data, ["-m", "immediate", "-w", "stop"]),
    start,
    stop: async () => {
      try {
        pgCtl(data, ["-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
    },
  });
  const primary = server(primaryData, primaryPort, startPrimary);
  const standby = server(standbyData, standbyPort, startStandby);
  return {
    primary,
    standby,
    replication,
    promote: async () => {
      pgCtl(standbyData, ["-w", "-t", "30", "promote"]);
    },
    pauseStandby: () => {
      signalStandby("STOP");
      psql(primaryPort, "SELECT pg_terminate_backend(pid) FROM pg_stat_replication");
    },
    resumeStandby: () => signalStandby("CONT"),
    stop: async () => {
      signalStandby("CONT");
      await Promise.all([primary.stop(), standby.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why a suite cannot run here, or undefined when both servers can be started. */
export function missingServers(): string | undefined {
  const missing: string[] = [];
  if (redisBinary() === undefined) missing.push("redis-server");
  if (postgresBinDir() === undefined) missing.push("PostgreSQL");
  if (missing.length === 0) return undefined;
  return `${missing.join(" and ")} not installed (Debian: apt-get install redis-server postgresql)`;
}
