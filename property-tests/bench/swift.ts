// The Swift bench: property-tests/bench/swift-bench (an executable package depending on generated/swift
// by path), built in release mode and run through the Swift toolchain script (swift on PATH, or
// the Debian 13 root), on the same inputs as the TypeScript bench. Its JSON becomes tables laid
// out as the TypeScript ones, with the same goals where they apply.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./fixtures.js";
import type { MeasureOptions } from "./measure.js";
import { writeNativeInputs } from "./native-inputs.js";
import { sumOfTimes, type AreaTable, type CaseRow, type Series } from "./table.js";

export interface SwiftResult {
  name: string;
  param: string;
  impl: string;
  opsPerSec: number[];
}

export interface SwiftRun {
  /** Why nothing was measured (no toolchain here), when so. */
  skipped?: string;
  results: SwiftResult[];
  toolchain: string;
}

const SCRIPT = join(ROOT, "generators/targets/swift/toolchain/swift-test.sh");

export function runSwiftBench(options: MeasureOptions): SwiftRun {
  const inputs = writeNativeInputs();
  const out = join(inputs, "swift-results.json");
  rmSync(out, { force: true });
  // The repository is what gets mounted into the Swift root, so the bench package sees
  // generated/swift at ../../../generated/swift and the inputs at their own path.
  const command = `cd property-tests/bench/swift-bench && swift --version 2>&1 | head -n 1 > ${JSON.stringify(join(inputs, "swift-version.txt"))} && swift build -c release && .build/release/AgentContractsBench ${JSON.stringify(inputs)} ${JSON.stringify(out)} ${options.rounds} ${Math.max(300, options.timeMs)}`;
  const log = execFileSync("bash", [SCRIPT, ROOT], { env: { ...process.env, SWIFT_COMMAND: command }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (!existsSync(out)) {
    const skipped = /Swift suite skipped: (.*)/.exec(log)?.[1];
    if (skipped !== undefined) return { skipped, results: [], toolchain: "none" };
    throw new Error(`the Swift bench wrote no results; its output:\n${log}`);
  }
  const version = readFileSync(join(inputs, "swift-version.txt"), "utf8").trim();
  return { results: JSON.parse(readFileSync(out, "utf8")) as SwiftResult[], toolchain: `${version}, release build (-O)` };
}

export function swiftTables(results: readonly SwiftResult[]): AreaTable[] {
  const get = (name: string, param: string, impl: string): Series => {
    const found = results.find((r) => r.name === name && r.param === param && r.impl === impl);
    if (found === undefined) throw new Error(`the Swift bench gave no ${name} ${param} ${impl}`);
    return { impl, opsPerSec: found.opsPerSec };
  };
  const size = (name: string): number => readFileSync(join(ROOT, "property-tests/bench/.native-inputs", name)).length;
  const messages = ["ActionProposal", "WorkflowRequest", "ConnectorPackage"];
  const VALIDATE = "validate";
  const SCHEMA = "schema only";
  const INTERPRETER = "interpreter";
  const validation: CaseRow[] = messages.flatMap((m) =>
    ["valid", "invalid"].map((kind) => ({
      label: `${m} (${kind}, ${size(`${m}-${kind}.json`)} B)`,
      series: [get("validation", `${m}/${kind}`, VALIDATE), get("validation", `${m}/${kind}`, SCHEMA), get("validation", `${m}/${kind}`, INTERPRETER)],
    })),
  );
  const DECODE = "decode(json:)";
  const JSONDECODER = "JSONDecoder";
  const typed: CaseRow[] = messages.map((m) => ({
    label: `${m} (valid, ${size(`${m}-valid.json`)} B)`,
    series: [get("validation", `${m}/valid`, DECODE), get("validation", `${m}/valid`, JSONDECODER)],
  }));
  const sizes = [
    ["small", "small: ActionProposal"],
    ["medium", "medium: ConnectorPackage"],
    ["large", "large: 1 MiB document"],
  ] as const;
  const STRICT = "StrictJSON.parseStrictJSON";
  const DECODER_TREE = "JSONDecoder(JSONValue)";
  const SERIALIZATION = "JSONSerialization";
  const parse: CaseRow[] = sizes.map(([s, label]) => ({
    label: `${label} (${size(`${s}.json`)} B)`,
    series: [get("parse", s, STRICT), get("parse", s, DECODER_TREE), get("parse", s, SERIALIZATION)],
  }));
  const JCS = "CanonicalJSON.canonicalize";
  const SERIALIZE = "JSONSerialization.data";
  const canonical: CaseRow[] = sizes.map(([s, label]) => ({ label: `${label} (${size(`${s}.jcs`)} B)`, series: [get("canonicalize", s, JCS), get("canonicalize", s, SERIALIZE)] }));
  const VERIFY = "verifySignature";
  const RAW = "HMAC over signing input";
  const FLOOR = "+ SHA-256 of payload JCS";
  const BUILD = "buildSigningInput alone";
  const RAW_PLUS_BUILD = "HMAC over signing input + building it (sum)";
  const verify: CaseRow[] = [
    ["trigger", "AgentTriggerRequest (real vector)"],
    ["proposal", "ActionProposal (real vector)"],
  ].map(([p, label]) => {
    const raw = get("verify", p as string, RAW);
    const build = get("verify", p as string, BUILD);
    return { label: label as string, series: [get("verify", p as string, VERIFY), raw, get("verify", p as string, FLOOR), build, { impl: RAW_PLUS_BUILD, opsPerSec: sumOfTimes(raw.opsPerSec, build.opsPerSec) }] };
  });
  const STORE = "InMemoryReplayStore.checkAndRecord";
  const DICT = "Dictionary get+set";
  const replay: CaseRow[] = [
    { label: "in memory, a fresh key per call", series: [get("replay", "", STORE), get("replay", "", DICT)], throughputGoals: [{ impl: STORE, atLeastOpsPerSec: 1_500_000 }] },
  ];
  const timing = "Timed on this process's CPU time (clock_gettime), subjects back to back within each round, after a warm-up pass.";
  return [
    {
      title: "Swift: validation",
      ours: VALIDATE,
      impls: [VALIDATE, SCHEMA, INTERPRETER],
      ratios: [{ anchor: INTERPRETER, kind: "speedup" }],
      rows: validation,
      notes: [
        "`validate` is `Message.validate(JSONValue)`: the schema's generated code (Validators/, one function per schema object) then the x-rules; `schema only` is the generated code alone (`validateSchema`); `interpreter` is the package's JSON Schema interpreter (Runtime/SchemaValidator.swift) on the same document, which validated messages before issue 36 and is now the generated code's test oracle. " +
          "No JSON Schema validator for Swift is available offline here, so there is no third-party anchor; the validate + decode table below is measured against Foundation's JSONDecoder, with its goal. " + timing,
      ],
    },
    {
      title: "Swift: validate + decode (anchor: JSONDecoder)",
      ours: DECODE,
      impls: [DECODE, JSONDECODER],
      ratios: [{ anchor: JSONDECODER, kind: "slowdown", goal: 1 }],
      rows: typed,
      notes: [
        "The validation anchor for Swift (issue 36): `JSONDecoder` decodes the same bytes into the same generated type and validates nothing, so it is the floor; the goal is the whole validated receive at no more than its time. " +
          "`decode(json:)` is that whole receiving path: strict parse, the generated schema code, x-rules, then the generated `init(jsonValue:)` of the type reading the parsed value member by member (Runtime/JSONValueDecodable.swift; earlier in issue 36 a Codable decoder over the parsed value, and before it the value re-encoded canonically for JSONDecoder). `AgentContractsBench <inputs> --phases` prints each piece alone (property-tests/bench/limits-swift.md).",
      ],
    },
    {
      title: "Swift: strict parse",
      ours: STRICT,
      impls: [STRICT, DECODER_TREE, SERIALIZATION],
      ratios: [
        { anchor: DECODER_TREE, kind: "slowdown", goal: 2.5 },
        { anchor: SERIALIZATION, kind: "slowdown" },
      ],
      rows: parse,
      notes: ["`JSONDecoder(JSONValue)` decodes the bytes into the package's own JSONValue through Codable, with none of the strict parser's checks (duplicate keys, lone surrogates, BOM, inexact integers, depth)."],
    },
    {
      title: "Swift: canonicalization (RFC 8785 JCS)",
      ours: JCS,
      impls: [JCS, SERIALIZE],
      ratios: [{ anchor: SERIALIZE, kind: "slowdown", goal: 2 }],
      rows: canonical,
      notes: ["`JSONSerialization.data` serializes the Foundation tree of the same input without sorting keys or ES6 number formatting: the floor, as JSON.stringify is in TypeScript. Each canonical text is checked equal to the TypeScript one before timing."],
    },
    {
      title: "Swift: signature verify (hmac-sha256-v1)",
      ours: VERIFY,
      impls: [VERIFY, RAW, FLOOR, BUILD, RAW_PLUS_BUILD],
      ratios: [
        { anchor: RAW, kind: "slowdown" },
        { anchor: FLOOR, kind: "slowdown", goal: 1.15 },
        { anchor: RAW_PLUS_BUILD, kind: "slowdown" },
      ],
      rows: verify,
      notes: [
        "Ours is `verifySignature(_:key: HMACSHA256Key)`: the signing input from the message's generated `buildSigningInput` and a key prepared once. The HMAC anchor is the same prepared key's `mac` called bare over the finished signing input (CryptoKit's keyed HMAC where it exists; on Linux, without CryptoKit or swift-crypto, the package's software SHA-256 from the keyed states) and `Crypto.constantTimeEqual`; the floor adds the SHA-256 of the payload's canonical text. `buildSigningInput alone` is the generated builder by itself (member lookups, the JCS and SHA-256 of the hashed member, the lines), checked equal to the vector's signing input first; the sum column adds its time to the bare HMAC's, round by round: the least a verifier that is handed nothing must spend, so `ours ÷ sum` is the verifier's own overhead.",
      ],
    },
    {
      title: "Swift: replay store",
      ours: STORE,
      impls: [STORE, DICT],
      ratios: [{ anchor: DICT, kind: "slowdown" }],
      rows: replay,
      notes: ["Through the async `ReplayStore` interface, called from a nonisolated async function as `ReplayGuard.admit` calls it (no executor hop per call), 256 calls per clock read; the Dictionary does the same key building and get-then-set with no lock, quota or sweep; both start empty each round and see a new key on every call."],
    },
  ];
}
