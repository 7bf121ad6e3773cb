//! The Redis and PostgreSQL replay stores (cargo features `redis`, `postgres`) against real servers
//! started here on loopback, data in a temporary folder, never mocks: the replay contract and the
//! key layout the TypeScript and Kotlin stores use, 4 racing workers recording each key exactly
//! once, records surviving a crash and restart, the guard refusing while a server is down,
//! replicas with clocks 3 s apart, an evicting policy set at runtime and one met on reconnect, a
//! replica promoted in WAIT mode, a required synchronous standby that is not there, and ids of 3000 characters or holding U+0000 (the same verdict
//! as the memory and SQLite stores). Expectations: issue 40's requirements and the Kotlin suite's
//! (FleetReplayStoresTest.kt) sequences. `make rust` enables the features when redis-server and
//! PostgreSQL are installed; without them this prints one line and passes, unless
//! AGENT_CONTRACTS_REQUIRE_SERVERS=1 (CI), when it fails.
#![cfg(all(feature = "redis", feature = "postgres", feature = "sqlite"))]

use agent_contracts::runtime::fleet_support::{FleetStoreError, StoreSafetyProblem};
use agent_contracts::runtime::replay::{system_now_ms, MemoryReplayStore, ReplayDeclaration, ReplayGuard, ReplayOutcome, ReplayStore};
use agent_contracts::runtime::replay_postgres::{PostgresReplayStore, PostgresReplayStoreOptions};
use agent_contracts::runtime::replay_redis::{RedisReplayStore, RedisReplayStoreOptions, WaitForReplicas};
use agent_contracts::runtime::replay_sqlite::SqliteReplayStore;
use serde_json::{json, Map, Value};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Barrier;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A child process killed (SIGKILL) when dropped, as a crash would.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Servers {
    dir: PathBuf,
    redis_binary: PathBuf,
    redis: Option<Killed>,
    redis_port: u16,
    pg_bin: PathBuf,
    pg_port: u16,
    as_root: bool,
}

impl Drop for Servers {
    fn drop(&mut self) {
        self.redis = None;
        let _ = self.pg_ctl(&["-m", "fast", "-w", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

fn wait_for_port(port: u16) {
    let until = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "no server on port {port}");
        sleep(Duration::from_millis(50));
    }
}

fn run(command: &str, args: &[&str], dir: &Path) -> Result<String, String> {
    let output = Command::new(command).args(args).current_dir(dir).output().map_err(|e| format!("{command}: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!("{command} {}: {}{}", args.join(" "), String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout)))
    }
}

fn start_redis(binary: &Path, port: u16, dir: &Path, extra: &[&str]) -> Killed {
    let port_text = port.to_string();
    let mut args = vec!["--port", port_text.as_str(), "--bind", "127.0.0.1", "--dir", dir.to_str().unwrap(), "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "no"];
    args.extend_from_slice(extra);
    let child = Command::new(binary).args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("redis-server starts");
    let child = Killed(child);
    wait_for_port(port);
    child
}

impl Servers {
    /// Both servers, or None (after one line saying why) when one is not installed.
    fn start() -> Option<Servers> {
        let redis_binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].iter().map(PathBuf::from).find(|p| p.exists());
        let pg_bin = std::fs::read_dir("/usr/lib/postgresql").ok().and_then(|versions| {
            versions.filter_map(|v| v.ok()).map(|v| v.path().join("bin")).filter(|bin| bin.join("initdb").exists()).max_by_key(|bin| bin.parent().and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok()).unwrap_or(0))
        });
        let (Some(redis_binary), Some(pg_bin)) = (redis_binary, pg_bin) else {
            assert!(std::env::var("AGENT_CONTRACTS_REQUIRE_SERVERS").as_deref() != Ok("1"), "fleet store suite needs redis-server and PostgreSQL (AGENT_CONTRACTS_REQUIRE_SERVERS=1)");
            println!("Rust fleet store suite skipped: redis-server or PostgreSQL not installed");
            return None;
        };
        let dir = std::env::temp_dir().join(format!("rust-fleet-stores-{}-{}", std::process::id(), system_now_ms()));
        std::fs::create_dir_all(&dir).unwrap();
        let as_root = run("id", &["-u"], &dir).map(|u| u.trim() == "0").unwrap_or(false);
        if as_root {
            // PostgreSQL refuses to run as root: it runs as the postgres user the package created.
            run("chown", &["postgres:postgres", dir.to_str().unwrap()], &dir).expect("chown to postgres");
        }
        let redis_port = free_port();
        let redis = Some(start_redis(&redis_binary, redis_port, &dir, &[]));
        let mut servers = Servers { dir, redis_binary, redis, redis_port, pg_bin, pg_port: free_port(), as_root };
        let data = servers.dir.join("pg");
        servers.pg(&servers.pg_bin.join("initdb"), &["-D", data.to_str().unwrap(), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]).expect("initdb");
        servers.start_pg();
        Some(servers)
    }

    fn pg(&self, command: &Path, args: &[&str]) -> Result<String, String> {
        let command = command.to_str().unwrap();
        if self.as_root {
            let mut full = vec!["-u", "postgres", "--", command];
            full.extend_from_slice(args);
            run("runuser", &full, &self.dir)
        } else {
            run(command, args, &self.dir)
        }
    }

    fn pg_ctl(&self, args: &[&str]) -> Result<String, String> {
        let data = self.dir.join("pg");
        let mut full = vec!["-D", data.to_str().unwrap()];
        full.extend_from_slice(args);
        self.pg(&self.pg_bin.join("pg_ctl"), &full)
    }

    fn start_pg(&mut self) {
        let options = format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=on", self.pg_port, self.dir.display());
        let log = self.dir.join("pg.log");
        self.pg_ctl(&["-o", &options, "-l", log.to_str().unwrap(), "-w", "-t", "30", "start"]).expect("pg_ctl start");
    }

    fn redis_url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.redis_port)
    }

    fn redis_store(&self, prefix: &str) -> RedisReplayStore {
        RedisReplayStore::open(&self.redis_url(), RedisReplayStoreOptions { key_prefix: prefix.into(), timeout: Duration::from_secs(5), ..Default::default() }).unwrap()
    }

    fn pg_url(&self) -> String {
        format!("postgresql://postgres@127.0.0.1:{}/postgres", self.pg_port)
    }

    fn pg_store(&self, table: &str) -> PostgresReplayStore {
        PostgresReplayStore::open(&self.pg_url(), PostgresReplayStoreOptions { table: table.into(), timeout: Duration::from_secs(5), ..Default::default() }).unwrap()
    }
}

fn admin(url: &str) -> redis::Connection {
    let client = redis::Client::open(url).unwrap();
    let connection = client.get_connection_with_timeout(Duration::from_secs(5)).unwrap();
    connection.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    connection
}

fn config_set(connection: &mut redis::Connection, name: &str, value: &str) {
    redis::cmd("CONFIG").arg("SET").arg(name).arg(value).query::<()>(connection).unwrap();
}

fn declaration() -> ReplayDeclaration {
    ReplayDeclaration { key_fields: vec!["request_id".into()], scope_fields: vec!["provider_id".into()], expires_at_field: "expires_at".into(), not_before_field: None, time_format: None, skew_seconds: 1, max_lifetime_seconds: None }
}

/// RFC 3339 (UTC, milliseconds) of epoch milliseconds (Howard Hinnant's civil_from_days).
fn rfc3339(ms: i64) -> String {
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z", rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000)
}

fn message(id: &str, expires_at_ms: i64, provider: &str) -> Map<String, Value> {
    json!({"request_id": id, "provider_id": provider, "expires_at": rfc3339(expires_at_ms)}).as_object().unwrap().clone()
}

fn verdict<S: ReplayStore>(guard: &mut ReplayGuard<S>, m: &Map<String, Value>) -> &'static str {
    match guard.admit(m) {
        Ok(()) => "admitted",
        Err(rejection) => rejection.code.as_str(),
    }
}

fn problem(result: Result<ReplayOutcome, FleetStoreError>) -> Option<StoreSafetyProblem> {
    result.err().and_then(|e| e.problem())
}

/// One scenario of the suite, run in order on the same servers.
type Step = (&'static str, fn(&mut Servers));

#[test]
fn fleet_stores_against_real_servers() {
    assert_eq!(rfc3339(1_780_000_000_000), "2026-05-28T20:26:40.000Z");
    let Some(mut servers) = Servers::start() else { return };
    let steps: [Step; 9] = [
        ("contract", contract),
        ("key layout", key_layout),
        ("racing workers", racing_workers),
        ("odd ids", odd_ids),
        ("server down", server_down),
        ("clock skew", clock_skew),
        ("eviction at runtime", eviction_at_runtime),
        ("crash and restart", crash_and_restart),
        ("failover in WAIT mode", failover_in_wait_mode),
    ];
    for (name, step) in steps {
        let started = Instant::now();
        step(&mut servers);
        println!("fleet: {name} passed ({} ms)", started.elapsed().as_millis());
    }
}

fn contract(servers: &mut Servers) {
    let mut redis = servers.redis_store("rs-contract:");
    let mut pg = servers.pg_store("rs_contract");
    let stores: [&mut dyn ReplayStore; 2] = [&mut redis, &mut pg];
    for store in stores {
        let now = system_now_ms();
        assert_eq!(store.check_and_record("s", "k", now + 60_000, now), Ok(ReplayOutcome::Recorded));
        assert_eq!(store.check_and_record("s", "k", now + 60_000, now), Ok(ReplayOutcome::Replayed));
        assert_eq!(store.check_and_record("ab", "c", now + 60_000, now), Ok(ReplayOutcome::Recorded));
        assert_eq!(store.check_and_record("a", "bc", now + 60_000, now), Ok(ReplayOutcome::Recorded));
        assert_eq!(store.size(), Ok(3));
    }
    // This server has no synchronous standby: a store told to require one refuses to record.
    let strict = PostgresReplayStoreOptions { table: "rs_sync".into(), require_synchronous_standby: true, timeout: Duration::from_secs(5), ..Default::default() };
    let now = system_now_ms();
    assert_eq!(problem(PostgresReplayStore::open(&servers.pg_url(), strict).unwrap().record("s", "k", now + 60_000, now)), Some(StoreSafetyProblem::NoSynchronousStandby));
}

fn key_layout(servers: &mut Servers) {
    // The key the TypeScript and Kotlin Redis stores write for ("scope", "key"): base64url in a hash tag.
    assert_eq!(servers.redis_store("agent-contracts:replay:").redis_key("scope", "key"), "agent-contracts:replay:{c2NvcGU}:a2V5");
    // SHA-256 of 00 00 00 00 00 00 00 01 73 6b ("s", "k"), computed with sha256sum from that definition.
    let id: String = PostgresReplayStore::record_id("s", "k").iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(id, "7f50ccf79ef391b6b0e7c23546b3292f08a5afd3dde9d881fa23188a91b08ddd");
    assert_eq!(PostgresReplayStore::original("a\u{0}b", "k"), "[\"a\\u0000b\",\"k\"]");
    // A table the store did not make refuses with a typed error before any statement.
    assert!(matches!(PostgresReplayStore::open(&servers.pg_url(), PostgresReplayStoreOptions { table: "x; DROP TABLE y".into(), ..Default::default() }), Err(FleetStoreError::Options(_))));
    let wait_too_long = RedisReplayStoreOptions { wait_for_replicas: Some(WaitForReplicas { replicas: 1, timeout: Duration::from_secs(5) }), ..Default::default() };
    assert!(matches!(RedisReplayStore::open(&servers.redis_url(), wait_too_long), Err(FleetStoreError::Options(_))));
}

fn racing_workers(servers: &mut Servers) {
    let servers = &*servers;
    for kind in ["redis", "postgres"] {
        let keys: Vec<String> = (0..60).map(|i| format!("key-{i}")).collect();
        let barrier = Barrier::new(4);
        let now = system_now_ms();
        let outcomes: Vec<Vec<ReplayOutcome>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|_| {
                    let mut store: Box<dyn ReplayStore + Send> = if kind == "redis" { Box::new(servers.redis_store("rs-race:")) } else { Box::new(servers.pg_store("rs_race")) };
                    let (keys, barrier) = (&keys, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        keys.iter().map(|k| store.check_and_record("race", k, now + 60_000, system_now_ms()).expect("an answer")).collect::<Vec<_>>()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        for (i, key) in keys.iter().enumerate() {
            let column: Vec<ReplayOutcome> = outcomes.iter().map(|o| o[i]).collect();
            assert_eq!(column.iter().filter(|o| **o == ReplayOutcome::Recorded).count(), 1, "{kind} {key}: {column:?}");
            assert_eq!(column.iter().filter(|o| **o == ReplayOutcome::Replayed).count(), 3, "{kind} {key}: {column:?}");
        }
    }
}

fn odd_ids_on<S: ReplayStore>(name: &str, mut store: S) {
    let long = "x".repeat(3000);
    let with_nul = "a\u{0}b";
    let now = system_now_ms();
    for (scope, key) in [("s", long.as_str()), (long.as_str(), "k"), ("s", with_nul), ("s", "a"), (with_nul, long.as_str())] {
        assert_eq!(store.check_and_record(scope, key, now + 60_000, now), Ok(ReplayOutcome::Recorded), "{name} {:.5} {:.5}", scope, key);
        assert_eq!(store.check_and_record(scope, key, now + 60_000, now), Ok(ReplayOutcome::Replayed), "{name}");
    }
    let mut guard = ReplayGuard::new(declaration(), store);
    for id in [long.as_str(), with_nul] {
        let m = message(id, now + 60_000, with_nul);
        assert_eq!(verdict(&mut guard, &m), "admitted", "{name}");
        assert_eq!(verdict(&mut guard, &m), "replayed", "{name}");
    }
}

fn odd_ids(servers: &mut Servers) {
    odd_ids_on("memory", MemoryReplayStore::default());
    let sqlite = servers.dir.join("odd.sqlite");
    odd_ids_on("sqlite", SqliteReplayStore::open(sqlite.to_str().unwrap()).unwrap());
    odd_ids_on("redis", servers.redis_store("rs-odd:"));
    odd_ids_on("postgres", servers.pg_store("rs_odd"));
}

fn server_down(_servers: &mut Servers) {
    let closed = free_port();
    let m = message("r-down", system_now_ms() + 60_000, "p");
    let fast = Duration::from_secs(1);
    let redis = RedisReplayStore::open(&format!("redis://127.0.0.1:{closed}"), RedisReplayStoreOptions { timeout: fast, ..Default::default() }).unwrap();
    assert_eq!(verdict(&mut ReplayGuard::new(declaration(), redis), &m), "store-unavailable");
    let pg = PostgresReplayStore::open(&format!("postgresql://postgres@127.0.0.1:{closed}/postgres"), PostgresReplayStoreOptions { timeout: fast, ..Default::default() }).unwrap();
    assert_eq!(verdict(&mut ReplayGuard::new(declaration(), pg), &m), "store-unavailable");
}

/// Three replicas, the right clock, one 3 s fast and one 3 s slow, with a declared skew of 1 s:
/// one message is admitted once at most, while the sweep runs after every fast attempt.
fn skew_on<S: ReplayStore>(kind: &str, open: impl Fn() -> S) {
    let (mut right, mut fast, mut slow, mut sweeper) = (open(), open(), open(), open());
    // Connected and checked before the timed part (the fast and slow ones record a key each: their clock is right here).
    for (i, store) in [&mut right, &mut fast, &mut slow, &mut sweeper].into_iter().enumerate() {
        let now = system_now_ms();
        assert_eq!(store.check_and_record("warm", &format!("w{i}"), now + 60_000, now), Ok(ReplayOutcome::Recorded), "{kind}");
    }
    let mut right = ReplayGuard::with_clock(declaration(), right, system_now_ms);
    let mut fast = ReplayGuard::with_clock(declaration(), fast, || system_now_ms() + 3000);
    let mut slow = ReplayGuard::with_clock(declaration(), slow, || system_now_ms() - 3000);
    let t0 = system_now_ms();
    let m = message(&format!("skew-{kind}-{t0}"), t0 + 4000, "p");
    let mut seen: Vec<String> = Vec::new();
    let mut attempt = |who: &str, seen: &mut Vec<String>| {
        let outcome = match who {
            "right" => verdict(&mut right, &m),
            "fast" => verdict(&mut fast, &m),
            _ => verdict(&mut slow, &m),
        };
        seen.push(format!("{who}:{outcome}"));
        if who == "fast" {
            sweeper.evict_expired(system_now_ms() + 3000).expect("the sweep runs");
        }
    };
    let until = |ms: i64| sleep(Duration::from_millis(u64::try_from(t0 + ms - system_now_ms()).unwrap_or(0)));
    attempt("fast", &mut seen);
    until(2500);
    attempt("right", &mut seen);
    attempt("fast", &mut seen);
    attempt("right", &mut seen);
    until(5500);
    attempt("slow", &mut seen);
    attempt("fast", &mut seen);
    attempt("right", &mut seen);
    assert_eq!(seen, ["fast:store-unavailable", "right:admitted", "fast:expired", "right:replayed", "slow:store-unavailable", "fast:expired", "right:expired"], "{kind}");
}

fn clock_skew(servers: &mut Servers) {
    let tag = format!("rs_skew_{}", system_now_ms());
    skew_on("redis", || servers.redis_store(&format!("{tag}:")));
    skew_on("postgres", || servers.pg_store(&tag));
    // The refusal is typed: clock-skew, on both stores.
    let t0 = system_now_ms();
    assert_eq!(problem(servers.redis_store(&tag).record("s", "k", t0 + 60_000, t0 - 3000)), Some(StoreSafetyProblem::ClockSkew));
    assert_eq!(problem(servers.pg_store(&tag).record("s", "k", t0 + 60_000, t0 + 3000)), Some(StoreSafetyProblem::ClockSkew));
}

fn eviction_at_runtime(servers: &mut Servers) {
    let mut commands = admin(&servers.redis_url());
    let options = RedisReplayStoreOptions { key_prefix: "rs-evict:".into(), check_interval: Duration::from_millis(200), ..Default::default() };
    let mut store = RedisReplayStore::open(&servers.redis_url(), options).unwrap();
    let now = system_now_ms();
    assert_eq!(store.record("s", "a", now + 60_000, now), Ok(ReplayOutcome::Recorded));
    config_set(&mut commands, "maxmemory-policy", "allkeys-lru");
    sleep(Duration::from_millis(300));
    let refused = store.record("s", "b", now + 60_000, system_now_ms());
    let message = refused.clone().err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!((problem(refused), message.contains("allkeys-lru")), (Some(StoreSafetyProblem::MayEvict), true), "{message}");
    config_set(&mut commands, "maxmemory-policy", "noeviction");
    config_set(&mut commands, "appendonly", "no");
    sleep(Duration::from_millis(300));
    assert_eq!(problem(store.record("s", "b", now + 60_000, system_now_ms())), Some(StoreSafetyProblem::NotPersistent));
    config_set(&mut commands, "appendonly", "yes");
    assert_eq!(store.record("s", "b", now + 60_000, system_now_ms()), Ok(ReplayOutcome::Recorded));

    // A reconnect reaches a server configured to evict (a failover to a differently configured
    // replica): refused at once, though the check interval is far longer than the test.
    let port = free_port();
    let dir = servers.dir.join("reconnect");
    std::fs::create_dir_all(&dir).unwrap();
    let server = start_redis(&servers.redis_binary, port, &dir, &["--maxmemory-policy", "noeviction"]);
    let options = RedisReplayStoreOptions { key_prefix: "rs-reconnect:".into(), check_interval: Duration::from_secs(600), ..Default::default() };
    let mut store = RedisReplayStore::open(&format!("redis://127.0.0.1:{port}"), options).unwrap();
    assert_eq!(store.record("s", "a", now + 60_000, system_now_ms()), Ok(ReplayOutcome::Recorded));
    drop(server);
    let _server = start_redis(&servers.redis_binary, port, &dir, &["--maxmemory-policy", "allkeys-lru"]);
    // The first call may meet the dead connection (refused, store-unavailable); none may record.
    let mut outcome = store.record("s", "b", now + 60_000, system_now_ms());
    if problem(outcome.clone()).is_none() {
        assert!(outcome.is_err(), "{outcome:?}");
        outcome = store.record("s", "b", now + 60_000, system_now_ms());
    }
    assert_eq!(problem(outcome), Some(StoreSafetyProblem::MayEvict));
}

fn crash_and_restart(servers: &mut Servers) {
    let now = system_now_ms();
    let mut redis = servers.redis_store("rs-restart:");
    let mut pg = servers.pg_store("rs_restart");
    for i in 0..20 {
        assert_eq!(redis.record("r", &format!("k{i}"), now + 120_000, system_now_ms()), Ok(ReplayOutcome::Recorded));
        assert_eq!(pg.record("r", &format!("k{i}"), now + 120_000, system_now_ms()), Ok(ReplayOutcome::Recorded));
    }
    servers.redis = None; // SIGKILL: only the AOF remains
    servers.redis = Some(start_redis(&servers.redis_binary, servers.redis_port, &servers.dir, &[]));
    servers.pg_ctl(&["-m", "immediate", "-w", "stop"]).expect("pg crash");
    servers.start_pg();
    let mut redis = servers.redis_store("rs-restart:");
    let mut pg = servers.pg_store("rs_restart");
    for i in 0..20 {
        assert_eq!(redis.record("r", &format!("k{i}"), now + 120_000, system_now_ms()), Ok(ReplayOutcome::Replayed), "redis k{i}");
        assert_eq!(pg.record("r", &format!("k{i}"), now + 120_000, system_now_ms()), Ok(ReplayOutcome::Replayed), "postgres k{i}");
    }
}

fn failover_in_wait_mode(servers: &mut Servers) {
    let replica_port = free_port();
    let replica_dir = servers.dir.join("replica");
    std::fs::create_dir_all(&replica_dir).unwrap();
    let primary_port = servers.redis_port.to_string();
    let _replica = start_redis(&servers.redis_binary, replica_port, &replica_dir, &["--replicaof", "127.0.0.1", &primary_port]);
    let replica_url = format!("redis://127.0.0.1:{replica_port}");
    let mut probe = admin(&replica_url);
    let until = Instant::now() + Duration::from_secs(20);
    while !redis::cmd("INFO").arg("replication").query::<String>(&mut probe).unwrap().contains("master_link_status:up") {
        assert!(Instant::now() < until, "the replica never synchronised");
        sleep(Duration::from_millis(100));
    }
    let now = system_now_ms();
    let wait = |replicas| RedisReplayStoreOptions { key_prefix: "rs-failover:".into(), wait_for_replicas: Some(WaitForReplicas { replicas, timeout: Duration::from_millis(500) }), ..Default::default() };
    // Two replicas asked for, one there: the record is refused as not replicated.
    let mut greedy = RedisReplayStore::open(&servers.redis_url(), wait(2)).unwrap();
    assert_eq!(problem(greedy.record("f", "greedy", now + 120_000, system_now_ms())), Some(StoreSafetyProblem::NotReplicated));
    let mut store = RedisReplayStore::open(&servers.redis_url(), wait(1)).unwrap();
    for i in 0..30 {
        assert_eq!(store.record("f", &format!("k{i}"), now + 120_000, system_now_ms()), Ok(ReplayOutcome::Recorded));
    }
    servers.redis = None; // the primary dies
    redis::cmd("REPLICAOF").arg("NO").arg("ONE").query::<()>(&mut probe).unwrap();
    let mut promoted = RedisReplayStore::open(&replica_url, RedisReplayStoreOptions { key_prefix: "rs-failover:".into(), ..Default::default() }).unwrap();
    for i in 0..30 {
        assert_eq!(promoted.record("f", &format!("k{i}"), now + 120_000, system_now_ms()), Ok(ReplayOutcome::Replayed), "k{i}");
    }
}
