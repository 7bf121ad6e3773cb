// Real Redis and PostgreSQL servers for the fleet store suites, started on 127.0.0.1 on free ports
// with their data under a temporary folder, and stopped by the suite. Never a mock: the point of
// these suites is what the servers themselves do (atomicity, persistence, restarts, refusals).
//
// Where a server is not installed the suite is skipped with one line saying so, unless
// AGENT_CONTRACTS_REQUIRE_SERVERS=1 (set by .ci/run, which installs both), when it fails instead.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
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

/** Why a suite cannot run here, or undefined when both servers can be started. */
export function missingServers(): string | undefined {
  const missing: string[] = [];
  if (redisBinary() === undefined) missing.push("redis-server");
  if (postgresBinDir() === undefined) missing.push("PostgreSQL");
  if (missing.length === 0) return undefined;
  return `${missing.join(" and ")} not installed (Debian: apt-get install redis-server postgresql)`;
}
