// The Rust bench: property-tests/bench/rust-bench (an executable crate depending on generated/rust
// by path), copied outside the repository as the consumer crate is, built in release mode with the
// crate's pinned Cargo.lock, and run on the same inputs as the TypeScript bench. Its JSON becomes
// tables laid out as the Swift ones, with the same goals where they apply; anchors are serde_json
// (parse, serialize, typed decode) and the HMAC floor (verify).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./fixtures.js";
import type { MeasureOptions } from "./measure.js";
import { NATIVE_INPUTS, writeNativeInputs } from "./native-inputs.js";
import { sumOfTimes, type AreaTable, type CaseRow, type Series } from "./table.js";

export interface RustResult {
  name: string;
  param: string;
  impl: string;
  opsPerSec: number[];
}

export interface RustRun {
  /** Why nothing was measured (no cargo here), when so. */
  skipped?: string;
  results: RustResult[];
  toolchain: string;
}

const CRATE = join(ROOT, "generated/rust");

function cargoEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${process.env["PATH"] ?? ""}:${join(homedir(), ".cargo/bin")}`, CARGO_TARGET_DIR: process.env["CARGO_TARGET_DIR"] ?? join(homedir(), ".cache/agent-contracts/rust-target") };
}

export function runRustBench(options: MeasureOptions): RustRun {
  const env = cargoEnv();
  const version = spawnSync("cargo", ["--version"], { env, encoding: "utf8" });
  if (version.status !== 0) return { skipped: "no cargo on PATH or in ~/.cargo/bin", results: [], toolchain: "none" };
  const rustc = spawnSync("rustc", ["--version"], { env, encoding: "utf8" }).stdout.trim();
  const inputs = writeNativeInputs();
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-rust-bench-"));
  try {
    cpSync(join(ROOT, "property-tests/bench/rust-bench/src"), join(work, "src"), { recursive: true });
    writeFileSync(join(work, "Cargo.toml"), readFileSync(join(ROOT, "property-tests/bench/rust-bench/Cargo.toml"), "utf8").replace(`path = "CRATE_PATH"`, `path = ${JSON.stringify(CRATE)}`));
    // The crate's lock pins every shared dependency; cargo adds only the bench's own entry.
    cpSync(join(CRATE, "Cargo.lock"), join(work, "Cargo.lock"));
    execFileSync("cargo", ["build", "--release", "--quiet"], { cwd: work, env, stdio: ["ignore", "inherit", "inherit"] });
    const out = join(inputs, "rust-results.json");
    rmSync(out, { force: true });
    const binary = join(env["CARGO_TARGET_DIR"] as string, "release/agent-contracts-rust-bench");
    execFileSync(binary, [inputs, out, String(options.rounds), String(Math.max(300, options.timeMs))], { env, stdio: ["ignore", "inherit", "inherit"] });
    if (!existsSync(out)) throw new Error("the Rust bench wrote no results");
    return { results: JSON.parse(readFileSync(out, "utf8")) as RustResult[], toolchain: `${rustc}, release build (opt-level 3)` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function rustTables(results: readonly RustResult[]): AreaTable[] {
  const get = (name: string, param: string, impl: string): Series => {
    const found = results.find((r) => r.name === name && r.param === param && r.impl === impl);
    if (found === undefined) throw new Error(`the Rust bench gave no ${name} ${param} ${impl}`);
    return { impl, opsPerSec: found.opsPerSec };
  };
  const size = (name: string): number => readFileSync(join(NATIVE_INPUTS, name)).length;
  const VALIDATED = "parse_validated";
  const SCHEMA = "validate_json";
  const SERDE_DECODE = "serde_json::from_slice";
  const typed: CaseRow[] = ["ActionProposal", "WorkflowRequest", "ConnectorPackage"].map((m) => ({
    label: `${m} (valid, ${size(`${m}-valid.json`)} B)`,
    series: [get("validation", `${m}/valid`, VALIDATED), get("validation", `${m}/valid`, SCHEMA), get("validation", `${m}/valid`, SERDE_DECODE)],
  }));
  const sizes = [
    ["small", "small: ActionProposal"],
    ["medium", "medium: ConnectorPackage"],
    ["large", "large: 1 MiB document"],
  ] as const;
  const STRICT = "parse_strict_json";
  const SERDE_PARSE = "serde_json::from_slice";
  const parse: CaseRow[] = sizes.map(([s, label]) => ({ label: `${label} (${size(`${s}.json`)} B)`, series: [get("parse", s, STRICT), get("parse", s, SERDE_PARSE)] }));
  const JCS = "canonicalize";
  const SERIALIZE = "serde_json::to_string";
  const canonical: CaseRow[] = sizes.map(([s, label]) => ({ label: `${label} (${size(`${s}.jcs`)} B)`, series: [get("canonicalize", s, JCS), get("canonicalize", s, SERIALIZE)] }));
  const VERIFY = "verify_signature";
  const INTERPRETED = "verify_hmac_v1 (interpreter)";
  const RAW = "HMAC over signing input";
  const FLOOR = "+ SHA-256 of payload JCS";
  const BUILD = "signing_input alone";
  const RAW_PLUS_BUILD = "HMAC over signing input + building it (sum)";
  const verify: CaseRow[] = [
    ["trigger", "AgentTriggerRequest (real vector)"],
    ["proposal", "ActionProposal (real vector)"],
  ].map(([p, label]) => {
    const raw = get("verify", p as string, RAW);
    const build = get("verify", p as string, BUILD);
    return {
      label: label as string,
      series: [get("verify", p as string, VERIFY), raw, get("verify", p as string, FLOOR), get("verify", p as string, INTERPRETED), build, { impl: RAW_PLUS_BUILD, opsPerSec: sumOfTimes(raw.opsPerSec, build.opsPerSec) }],
    };
  });
  const STORE = "MemoryReplayStore::check_and_record";
  const MAP = "HashMap get+set";
  const replay: CaseRow[] = [{ label: "in memory, a fresh key per call", series: [get("replay", "", STORE), get("replay", "", MAP)], throughputGoals: [{ impl: STORE, atLeastOpsPerSec: 1_500_000 }] }];
  const timing = "Timed on this process's CPU time (clock_gettime), subjects back to back within each round, after a warm-up pass.";
  return [
    {
      title: "Rust: validate + decode (anchor: serde_json)",
      ours: VALIDATED,
      impls: [VALIDATED, SCHEMA, SERDE_DECODE],
      ratios: [
        { anchor: SERDE_DECODE, kind: "slowdown" },
        { subject: SCHEMA, anchor: SERDE_DECODE, kind: "slowdown" },
      ],
      rows: typed,
      notes: [
        "`parse_validated::<T>` is the whole receiving path: strict parse, the message's JSON Schema (the `jsonschema` crate over the generated registry), then serde into the generated type. `validate_json` is the schema check alone on an already parsed value. " +
          "`serde_json::from_slice::<T>` decodes the same bytes into the same generated type and validates nothing (no schema, no strict-JSON checks): the floor, as JSONDecoder is for Swift. No goal: the crate does not check x-rules yet. " +
          timing,
      ],
    },
    {
      title: "Rust: strict parse",
      ours: STRICT,
      impls: [STRICT, SERDE_PARSE],
      ratios: [{ anchor: SERDE_PARSE, kind: "slowdown", goal: 2.5 }],
      rows: parse,
      notes: ["`serde_json::from_slice::<Value>` (serde_json 1.0.154 with `preserve_order`, as the crate uses it) parses the same bytes with none of the strict parser's checks (duplicate keys, lone surrogates, BOM, inexact integers, depth, size)."],
    },
    {
      title: "Rust: canonicalization (RFC 8785 JCS)",
      ours: JCS,
      impls: [JCS, SERIALIZE],
      ratios: [{ anchor: SERIALIZE, kind: "slowdown", goal: 2 }],
      rows: canonical,
      notes: ["`serde_json::to_string` writes the same value without sorting keys by UTF-16 units or ES6 number formatting: the floor, as JSON.stringify is in TypeScript. Each canonical text is checked equal to the TypeScript one before timing."],
    },
    {
      title: "Rust: signature verify (hmac-sha256-v1)",
      ours: VERIFY,
      impls: [VERIFY, RAW, FLOOR, INTERPRETED, BUILD, RAW_PLUS_BUILD],
      ratios: [
        { anchor: RAW, kind: "slowdown" },
        { anchor: FLOOR, kind: "slowdown", goal: 1.15 },
        { subject: INTERPRETED, anchor: FLOOR, kind: "slowdown" },
        { anchor: RAW_PLUS_BUILD, kind: "slowdown" },
      ],
      rows: verify,
      notes: [
        "Ours is the message's generated `verify_signature(value, &HmacSha256Key)` on the received value: its covered members found in one pass, the signing input written by generated code (the payload's RFC 8785 text hashed), the MAC from a key prepared once (the `hmac` crate's keyed state, cloned per MAC) compared in constant time. The HMAC anchor is the same prepared key's `matches` over the finished signing input; the floor adds the SHA-256 of the payload's canonical text. `verify_hmac_v1` is the interpreter (the declaration's lines walked, the key hashed on each call), the generated code's oracle in the tests. `signing_input alone` is the generated builder by itself (member lookups, the payload's RFC 8785 text and its SHA-256, the lines), checked equal to the vector's signing input first; the sum column adds its time to the bare HMAC's, round by round: the least a verifier that is handed nothing must spend, so `ours ÷ sum` is the verifier's own overhead.",
      ],
    },
    {
      title: "Rust: replay store",
      ours: STORE,
      impls: [STORE, MAP],
      ratios: [{ anchor: MAP, kind: "slowdown" }],
      rows: replay,
      notes: ["Through the `ReplayStore` trait, 256 calls per clock read; the HashMap does the same key building and get-then-set with no quota or sweep; both start empty each round and see a new key on every call."],
    },
  ];
}
