// The Kotlin bench: the generated Kotlin bindings (property-tests/bench/kotlin, a Maven project of
// its own, JMH benchmark classes run interleaved by Interleaved.java) on the same inputs as the
// TypeScript bench, read back from JMH's JSON shape and
// laid out as the TypeScript tables, with the same goals where they apply.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./fixtures.js";
import type { MeasureOptions } from "./measure.js";
import { writeNativeInputs } from "./native-inputs.js";
import { sumOfTimes, type AreaTable, type CaseRow, type Series } from "./table.js";

const PROJECT = join(ROOT, "property-tests/bench/kotlin");

interface JmhResult {
  benchmark: string;
  params?: Record<string, string>;
  primaryMetric: { scoreUnit: string; rawData: number[][] };
}

/** ops/s per measurement iteration, by "Class.method" and parameter. */
export type JmhSeries = (benchmark: string, param?: string) => number[];

export function readJmh(results: readonly JmhResult[]): JmhSeries {
  const byKey = new Map<string, number[]>();
  for (const r of results) {
    if (r.primaryMetric.scoreUnit !== "ops/s") throw new Error(`${r.benchmark}: unit ${r.primaryMetric.scoreUnit}, expected ops/s`);
    const name = r.benchmark.replace(/^dev\.agentcontracts\.bench\./, "");
    byKey.set(`${name}|${r.params?.["input"] ?? ""}`, r.primaryMetric.rawData.flat());
  }
  return (benchmark, param = "") => {
    const found = byKey.get(`${benchmark}|${param}`);
    if (found === undefined) throw new Error(`JMH gave no result for ${benchmark} ${param}`);
    return found;
  };
}

/**
 * Builds the project and runs every case in one JVM (Interleaved.java: the JMH classes' setups and
 * methods, subjects back to back within each round, on the process's CPU time), read back in JMH's
 * JSON shape.
 */
export function runKotlinBench(options: MeasureOptions): JmhSeries {
  const inputs = writeNativeInputs();
  execFileSync("mvn", ["-B", "-ntp", "-q", "-f", join(PROJECT, "pom.xml"), "package"], { stdio: ["ignore", "inherit", "inherit"] });
  const classpath = `${join(PROJECT, "target/classes")}:${readFileSync(join(PROJECT, "target/classpath.txt"), "utf8").trim()}`;
  const dir = mkdtempSync(join(tmpdir(), "bench-kotlin-"));
  try {
    const out = join(dir, "results.json");
    // Rounds of at least 500 ms (C2 needs the time) and a warm-up of at least 1.5 s per subject:
    // the 1 MiB cases take 5-70 ms a call, and with 3 × 0.5 s of JMH warm-up C2 had compiled too
    // little of them (13× kotlinx in one run where a CPU-time probe warmed for 3 s measured 1.4×).
    const roundMs = Math.max(500, options.timeMs);
    const warmMs = Math.max(1500, 3 * options.timeMs);
    execFileSync("java", ["-cp", classpath, "dev.agentcontracts.bench.Interleaved", out, String(options.rounds), String(roundMs), String(warmMs)], {
      env: { ...process.env, BENCH_INPUTS: inputs },
      stdio: ["ignore", "ignore", "inherit"],
    });
    return readJmh(JSON.parse(readFileSync(out, "utf8")) as JmhResult[]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const series = (impl: string, opsPerSec: number[]): Series => ({ impl, opsPerSec });

const size = (name: string): number => readFileSync(join(ROOT, "property-tests/bench/.native-inputs", name)).length;

export function kotlinTables(jmh: JmhSeries): AreaTable[] {
  const OURS = "validateX";
  const GENERATED = "schema code only";
  const SCHEMA = "schema interpreter only";
  const NETWORKNT = "networknt 3.0.9";
  const RULES = "x-rules, compiled";
  const REFERENCE = "x-rules, interpreted";
  const TREE = "validate(name, tree)";
  const DECODE = "kotlinx decode";
  const NETWORKNT_DECODE = "networknt + kotlinx decode (sum)";
  const validation: CaseRow[] = [];
  for (const message of ["ActionProposal", "WorkflowRequest", "ConnectorPackage"]) {
    for (const kind of ["valid", "invalid"]) {
      const input = `${message}/${kind}`;
      validation.push({
        label: `${message} (${kind}, ${size(`${message}-${kind}.json`)} B)`,
        series: [
          series(OURS, jmh("ValidationBench.generated", input)),
          series(GENERATED, jmh("ValidationBench.schemaGenerated", input)),
          series(SCHEMA, jmh("ValidationBench.schemaOnly", input)),
          series(RULES, jmh("ValidationBench.rulesCompiled", input)),
          series(REFERENCE, jmh("ValidationBench.rulesInterpreted", input)),
          series(NETWORKNT, jmh("ValidationBench.networknt", input)),
          series(TREE, jmh("ValidationBench.validateTree", input)),
          // An invalid input does not decode: the pairing is only timed where both sides finish.
          ...(kind === "valid"
            ? [series(DECODE, jmh("ValidationBench.kotlinxDecode", input)), series(NETWORKNT_DECODE, sumOfTimes(jmh("ValidationBench.networknt", input), jmh("ValidationBench.kotlinxDecode", input)))]
            : []),
        ],
      });
    }
  }
  const sizes = [
    ["small", "small: ActionProposal"],
    ["medium", "medium: ConnectorPackage"],
    ["large", "large: 1 MiB document"],
  ] as const;
  const STRICT = "StrictJson.parseStrictJson(bytes)";
  const KPARSE = "Json.parseToJsonElement(String(bytes))";
  const parse: CaseRow[] = sizes.map(([input, label]) => ({
    label: `${label} (${size(`${input}.json`)} B)`,
    series: [series(STRICT, jmh("ParseBench.strictParse", input)), series(KPARSE, jmh("ParseBench.kotlinxParse", input))],
  }));
  const TYPED = "parseConnectorPackage(bytes)";
  const KDECODE = "Json.decodeFromString(ConnectorPackage)";
  parse.push({
    label: `typed, end to end: ConnectorPackage (${size("medium.json")} B)`,
    series: [series(TYPED, jmh("ParseBench.Typed.parseConnectorPackage")), series(KDECODE, jmh("ParseBench.Typed.kotlinxDecode"))],
  });
  const JCS = "CanonicalJson.canonicalize";
  const KENCODE = "Json.encodeToString(JsonElement)";
  const canonical: CaseRow[] = sizes.map(([input, label]) => ({
    label: `${label} (${size(`${input}.jcs`)} B)`,
    series: [series(JCS, jmh("ParseBench.canonicalize", input)), series(KENCODE, jmh("ParseBench.kotlinxEncode", input))],
  }));
  const VERIFY = "verifyXSignature";
  const RAW = "Mac over signing input";
  const FLOOR = "+ SHA-256 of payload JCS";
  const BUILD = "buildXSigningInput alone";
  const RAW_PLUS_BUILD = "Mac over signing input + building it (sum)";
  const verify: CaseRow[] = [
    ["trigger", "AgentTriggerRequest (real vector)"],
    ["proposal", "ActionProposal (real vector)"],
  ].map(([input, label]) => {
    const raw = jmh("VerifyBench.raw", input);
    const build = jmh("VerifyBench.buildInput", input);
    return {
      label: label as string,
      series: [
        series(VERIFY, jmh("VerifyBench.ours", input)),
        series(RAW, raw),
        series(FLOOR, jmh("VerifyBench.floor", input)),
        series(BUILD, build),
        series(RAW_PLUS_BUILD, sumOfTimes(raw, build)),
      ],
    };
  });
  const STORE = "InMemoryReplayStore.checkAndRecordNow";
  const MAP = "HashMap get+put";
  const replay: CaseRow[] = [
    {
      label: "in memory, a fresh key per call",
      series: [series(STORE, jmh("ReplayBench.store")), series(MAP, jmh("ReplayBench.hashMap"))],
      throughputGoals: [{ impl: STORE, atLeastOpsPerSec: 1_500_000 }],
    },
  ];
  const jmhNote =
    "Each case's subjects run in one JVM (OpenJDK, C2), back to back within each round, on the process's CPU time (collector threads included, as `process.cpuUsage()` in TypeScript), after a warm-up of at least 1.5 s of CPU per subject; a round is at least 500 ms per subject (property-tests/bench/kotlin/…/Interleaved.java over the JMH benchmark classes, which `org.openjdk.jmh.Main` can still run on their own). Ratios are formed round by round, as in the TypeScript tables.";
  return [
    {
      title: "Kotlin: validation",
      ours: OURS,
      impls: [OURS, TREE, GENERATED, SCHEMA, RULES, REFERENCE, NETWORKNT, DECODE, NETWORKNT_DECODE],
      ratios: [
        { subject: TREE, anchor: NETWORKNT, kind: "speedup", goal: 1.0 },
        { anchor: NETWORKNT_DECODE, kind: "speedup", goal: 1.0 },
        { anchor: NETWORKNT, kind: "speedup" },
        { subject: GENERATED, anchor: NETWORKNT, kind: "speedup" },
        { subject: SCHEMA, anchor: NETWORKNT, kind: "speedup" },
        { subject: RULES, anchor: REFERENCE, kind: "speedup" },
      ],
      rows: validation,
      notes: [
        "`validateX` is `<Protocol>Validators.validateX(JsonElement)`: the message's generated schema code (`<Protocol>Schemas`, one function per subschema), the x-rules, and the decode into the message class. `validate(name, tree)` is the same validator's `validate(messageName, JsonElement)`: schema code and x-rules without the decode, the like-for-like comparison with networknt, which decodes nothing; `validateX` is held to networknt followed by kotlinx's decode of the same tree into the same class (`networknt + kotlinx decode (sum)`, the two times added round by round; valid inputs only, as an invalid one does not decode). " +
          "`schema code only` is that generated check alone; `schema interpreter only` is `JsonSchemaValidator.firstError` over the same documents (the interpreter the generated code is tested against, and which runs the public suite). `x-rules, compiled` is the message's generated straight-line rule check alone (`check<Message>Rules`), `x-rules, interpreted` the reference evaluation of the same rules (`CrossFieldRules.check`); ActionProposal and WorkflowRequest have no rules. `networknt 3.0.9` validates a Jackson 3 tree against the same schema documents (generated/kotlin's schema resource), Draft 2020-12, format assertions on, fail fast. " +
          "ConnectorPackage (invalid) is refused by an x-rule (endpoint-is-https), which networknt does not know: there it accepts after checking the whole schema. " + jmhNote,
      ],
    },
    {
      title: "Kotlin: strict parse",
      ours: STRICT,
      impls: [STRICT, KPARSE, TYPED, KDECODE],
      ratios: [
        { anchor: KPARSE, kind: "slowdown", goal: 2.5 },
        { subject: TYPED, anchor: KDECODE, kind: "slowdown" },
      ],
      rows: parse,
      notes: ["The strict parser also refuses duplicate keys, lone surrogates, a BOM, inexact integers and nesting past 64, which kotlinx does not check. The typed row is strict parse + validation + decode against kotlinx.serialization's decode alone."],
    },
    {
      title: "Kotlin: canonicalization (RFC 8785 JCS)",
      ours: JCS,
      impls: [JCS, KENCODE],
      ratios: [{ anchor: KENCODE, kind: "slowdown", goal: 2 }],
      rows: canonical,
      notes: ["kotlinx's encoder neither sorts keys nor formats numbers the ES6 way: it is the floor, as JSON.stringify is in TypeScript. Each input's canonical text is checked equal to the TypeScript canonicalizer's before timing."],
    },
    {
      title: "Kotlin: signature verify (hmac-sha256-v1)",
      ours: VERIFY,
      impls: [VERIFY, RAW, FLOOR, BUILD, RAW_PLUS_BUILD],
      ratios: [
        { anchor: RAW, kind: "slowdown" },
        { anchor: FLOOR, kind: "slowdown", goal: 1.15 },
        { anchor: RAW_PLUS_BUILD, kind: "slowdown" },
      ],
      rows: verify,
      notes: [
        "Ours is `verifyXSignature(JsonObject, HmacSha256Key)`: the signing input from the message's generated `buildXSigningInput` and the MAC from a key prepared once (pads hashed when the key is made, each MAC clones two SHA-256 states). " +
          "`Mac over signing input` is one `Mac` keyed in setup, `doFinal` over the finished signing input and `MessageDigest.isEqual` (keying once too, so the comparison is like for like); the floor adds the SHA-256 of the payload's canonical text, which every verifier of these messages must compute. " +
          "`buildXSigningInput alone` is the generated builder by itself (its member lookups, the JCS and SHA-256 of the hashed member, the lines), checked equal to the vector's signing input in setup; the sum column adds its time to the bare MAC's, round by round: what a verifier that is handed nothing must spend at least, so `ours ÷ sum` is the verifier's own overhead.",
      ],
    },
    {
      title: "Kotlin: replay store",
      ours: STORE,
      impls: [STORE, MAP],
      ratios: [{ anchor: MAP, kind: "slowdown" }],
      rows: replay,
      notes: ["Both start empty each iteration and see a new key on every call; the store also holds its lock, keeps a per-scope count and sweeps expired records periodically."],
    },
  ];
}
