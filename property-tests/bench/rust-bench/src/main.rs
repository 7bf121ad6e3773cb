//! Usage: agent-contracts-rust-bench <inputs-dir> <out.json> [rounds] [ms-per-round]
//! <inputs-dir> is what property-tests/bench/native-inputs.ts wrote; the results are one JSON array
//! of {"name", "param", "impl", "opsPerSec": [per round]} for rust.ts to lay out. Rounds of
//! back-to-back timing on this process's CPU time, as the Swift and TypeScript benches do: in each
//! round every subject of a case runs for the same CPU time, after one warm-up pass.

use agent_contracts::agent_connector::ConnectorPackage;
use agent_contracts::agent_provider::{ActionProposal, AgentTriggerRequest};
use agent_contracts::agent_service::WorkflowRequest;
use agent_contracts::runtime::canonical_json::canonicalize;
use agent_contracts::runtime::crypto::{base64_std_nopad_decode, sha256, HmacSha256Key};
use agent_contracts::runtime::hmac_v1::{verify_hmac_v1, HmacV1Error};
use agent_contracts::runtime::message::{parse_validated, ContractMessage};
use agent_contracts::runtime::replay::{MemoryReplayStore, ReplayOutcome, ReplayStore};
use agent_contracts::runtime::strict_json::parse_strict_json;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;

/// CPU time of this process in seconds: a shared machine distorts it less than the wall clock.
fn cpu_seconds() -> f64 {
    let mut spec = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into the pointer it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut spec) };
    spec.tv_sec as f64 + spec.tv_nsec as f64 / 1e9
}

struct Subject<'a> {
    name: &'static str,
    run: Box<dyn FnMut() -> usize + 'a>,
}

fn subject<'a>(name: &'static str, run: impl FnMut() -> usize + 'a) -> Subject<'a> {
    Subject { name, run: Box::new(run) }
}

struct Bench {
    rounds: usize,
    seconds: f64,
    results: Vec<Value>,
}

fn time(subject: &mut Subject<'_>, seconds: f64) -> f64 {
    // Batches of calls between clock reads, so the clock's own cost does not count.
    let (mut batch, mut calls, mut sink) = (1usize, 0usize, 0usize);
    let start = cpu_seconds();
    let mut elapsed = 0.0;
    while elapsed < seconds {
        for _ in 0..batch {
            sink = sink.wrapping_add((subject.run)());
        }
        calls += batch;
        elapsed = cpu_seconds() - start;
        if elapsed < seconds / 50.0 {
            batch *= 2;
        }
    }
    black_box(sink);
    calls as f64 / elapsed
}

impl Bench {
    fn measure(&mut self, name: &str, param: &str, mut subjects: Vec<Subject<'_>>) {
        for s in subjects.iter_mut() {
            time(s, self.seconds / 3.0);
        }
        let mut rates: Vec<Vec<f64>> = vec![Vec::new(); subjects.len()];
        for _ in 0..self.rounds {
            for (i, s) in subjects.iter_mut().enumerate() {
                rates[i].push(time(s, self.seconds));
            }
        }
        for (s, ops) in subjects.iter().zip(rates) {
            self.results.push(json!({"name": name, "param": param, "impl": s.name, "opsPerSec": ops}));
        }
        eprintln!("rust bench: {name} {param} done");
    }
}

fn fail(why: String) -> ! {
    eprintln!("rust bench: {why}");
    std::process::exit(1)
}

fn validation<M: ContractMessage>(bench: &mut Bench, inputs: &PathBuf, message: &str) {
    let raw = std::fs::read(inputs.join(format!("{message}-valid.json"))).unwrap_or_else(|e| fail(format!("{message}: {e}")));
    let value = parse_strict_json(&raw).unwrap_or_else(|e| fail(format!("{message}: {e}")));
    if parse_validated::<M>(&raw).is_err() || serde_json::from_slice::<M>(&raw).is_err() {
        fail(format!("{message}-valid.json does not decode"));
    }
    let invalid = std::fs::read(inputs.join(format!("{message}-invalid.json"))).unwrap_or_else(|e| fail(format!("{message}: {e}")));
    if parse_validated::<M>(&invalid).is_ok() {
        fail(format!("{message}-invalid.json is accepted"));
    }
    bench.measure(
        "validation",
        &format!("{message}/valid"),
        vec![
            subject("parse_validated", || usize::from(parse_validated::<M>(black_box(&raw)).is_ok())),
            subject("validate_json", || usize::from(M::validate_json(black_box(&value)).is_ok())),
            subject("serde_json::from_slice", || usize::from(serde_json::from_slice::<M>(black_box(&raw)).is_ok())),
        ],
    );
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    if arguments.len() < 3 {
        fail("usage: agent-contracts-rust-bench <inputs-dir> <out.json> [rounds] [ms]".into());
    }
    let inputs = PathBuf::from(&arguments[1]);
    let rounds = arguments.get(3).and_then(|r| r.parse().ok()).unwrap_or(5);
    let seconds = arguments.get(4).and_then(|m| m.parse::<f64>().ok()).unwrap_or(300.0) / 1000.0;
    let mut bench = Bench { rounds, seconds, results: Vec::new() };
    let read = |name: &str| std::fs::read(inputs.join(name)).unwrap_or_else(|e| fail(format!("{name}: {e}")));

    validation::<ActionProposal>(&mut bench, &inputs, "ActionProposal");
    validation::<WorkflowRequest>(&mut bench, &inputs, "WorkflowRequest");
    validation::<ConnectorPackage>(&mut bench, &inputs, "ConnectorPackage");

    // Strict parse vs serde_json's parser, and JCS vs serde_json's writer, per input size.
    for size in ["small", "medium", "large"] {
        let raw = read(&format!("{size}.json"));
        let value = parse_strict_json(&raw).unwrap_or_else(|e| fail(format!("{size}: {e}")));
        if serde_json::from_slice::<Value>(&raw).ok().as_ref() != Some(&value) {
            fail(format!("{size}: parsers disagree"));
        }
        if canonicalize(&value).as_bytes() != read(&format!("{size}.jcs")) {
            fail(format!("{size}: canonical text differs from the TypeScript one"));
        }
        bench.measure(
            "parse",
            size,
            vec![
                subject("parse_strict_json", || usize::from(parse_strict_json(black_box(&raw)).is_ok())),
                subject("serde_json::from_slice", || usize::from(serde_json::from_slice::<Value>(black_box(&raw)).is_ok())),
            ],
        );
        bench.measure(
            "canonicalize",
            size,
            vec![
                subject("canonicalize", || canonicalize(black_box(&value)).len()),
                subject("serde_json::to_string", || serde_json::to_string(black_box(&value)).map_or(0, |s| s.len())),
            ],
        );
    }

    // Verify: each message's generated verifier with a key prepared once, vs the bare HMAC over the
    // finished signing input with the same prepared key, and the floor that adds the SHA-256 of the
    // payload's canonical text. The interpreter (the declaration walked, keyed per call) for scale.
    type Verifier = fn(&Value, &HmacSha256Key) -> Result<(), HmacV1Error>;
    type Builder = fn(&serde_json::Map<String, Value>) -> Result<String, HmacV1Error>;
    let signed: [(&str, Verifier, Builder, _); 2] = [
        ("trigger", AgentTriggerRequest::verify_signature, AgentTriggerRequest::signing_input, AgentTriggerRequest::signature_declaration()),
        ("proposal", ActionProposal::verify_signature, ActionProposal::signing_input, ActionProposal::signature_declaration()),
    ];
    for (name, verify, build, declaration) in signed {
        let vector: Value = serde_json::from_slice(&read(&format!("signature-{name}.json"))).unwrap_or_else(|e| fail(format!("{name}: {e}")));
        let text = |member: &str| vector[member].as_str().unwrap_or_else(|| fail(format!("signature-{name}.json has no {member}"))).to_string();
        let (secret, input, body, signature) = (text("secret_utf8"), text("signing_input"), text("canonical_body_json"), text("expected_signature"));
        let message = vector["signed_object"].clone();
        let expected = base64_std_nopad_decode(&signature).unwrap_or_else(|| fail(format!("{name}: signature")));
        let key = HmacSha256Key::new(secret.as_bytes());
        if verify(&message, &key).is_err() || verify_hmac_v1(&declaration, &message, secret.as_bytes()).is_err() || !key.matches(input.as_bytes(), &expected) {
            fail(format!("{name}: the vector does not verify"));
        }
        let object = message.as_object().unwrap_or_else(|| fail(format!("{name}: signed_object is not an object")));
        if build(object).ok().as_deref() != Some(input.as_str()) {
            fail(format!("{name}: the generated signing input differs from the vector's"));
        }
        bench.measure(
            "verify",
            name,
            vec![
                subject("verify_signature", || usize::from(verify(black_box(&message), &key).is_ok())),
                subject("HMAC over signing input", || usize::from(key.matches(black_box(input.as_bytes()), &expected))),
                subject("+ SHA-256 of payload JCS", || sha256(black_box(body.as_bytes())).len() + usize::from(key.matches(black_box(input.as_bytes()), &expected))),
                subject("verify_hmac_v1 (interpreter)", || usize::from(verify_hmac_v1(&declaration, black_box(&message), secret.as_bytes()).is_ok())),
                subject("signing_input alone", || build(black_box(object)).map_or(0, |text| text.len())),
            ],
        );
    }

    // Replay: check-and-record with a fresh key per call vs a bare HashMap doing the same get-then-set,
    // each starting empty every round (replay_rates).
    let rates = replay_rates(rounds, seconds);
    for (name, ops) in rates {
        bench.results.push(json!({"name": "replay", "param": "", "impl": name, "opsPerSec": ops}));
    }
    eprintln!("rust bench: replay done");

    let out = serde_json::to_string_pretty(&bench.results).unwrap_or_default();
    std::fs::write(&arguments[2], out).unwrap_or_else(|e| fail(format!("{}: {e}", arguments[2])));
}

const REPLAY_SCOPE: &str = "[\"provider\",\"host-instance-1\"]";
const RETAIN_UNTIL: i64 = 1_893_456_060_000;
const NOW: i64 = 1_780_000_000_000;
const REPLAY_BATCH: usize = 256;

/// Calls per CPU second of `MemoryReplayStore::check_and_record`, each with a new key, from empty.
fn store_rate(seconds: f64) -> f64 {
    let mut store = MemoryReplayStore::new(50_000_000, Some(50_000_000));
    let (mut n, mut recorded) = (0u64, 0u64);
    let start = cpu_seconds();
    let mut elapsed = 0.0;
    while elapsed < seconds {
        for _ in 0..REPLAY_BATCH {
            n += 1;
            if store.check_and_record(REPLAY_SCOPE, &format!("k{n}"), RETAIN_UNTIL, NOW) == Ok(ReplayOutcome::Recorded) {
                recorded += 1;
            }
        }
        elapsed = cpu_seconds() - start;
    }
    if recorded != n {
        fail("replay: the store refused a fresh key".into());
    }
    n as f64 / elapsed
}

/// The same key building and get-then-set on a HashMap, with no quota or sweep, from empty.
fn map_rate(seconds: f64) -> f64 {
    let mut map: HashMap<String, i64> = HashMap::new();
    let (mut n, mut recorded) = (0u64, 0u64);
    let start = cpu_seconds();
    let mut elapsed = 0.0;
    while elapsed < seconds {
        for _ in 0..REPLAY_BATCH {
            n += 1;
            let id = format!("{REPLAY_SCOPE}\u{0}k{n}");
            if map.get(&id).is_some_and(|held| *held > NOW) {
                continue;
            }
            map.insert(id, RETAIN_UNTIL);
            recorded += 1;
        }
        elapsed = cpu_seconds() - start;
    }
    black_box(recorded + map.len() as u64);
    n as f64 / elapsed
}

/// Rounds of the two back to back, after one short warm-up of each.
fn replay_rates(rounds: usize, seconds: f64) -> [(&'static str, Vec<f64>); 2] {
    store_rate(seconds / 3.0);
    map_rate(seconds / 3.0);
    let (mut store, mut map) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        store.push(store_rate(seconds));
        map.push(map_rate(seconds));
    }
    [("MemoryReplayStore::check_and_record", store), ("HashMap get+set", map)]
}
