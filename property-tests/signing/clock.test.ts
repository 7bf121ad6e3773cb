// No vector expires: every time-dependent check in the tests takes its clock as a parameter. Two
// trigger vectors (android_host_trigger, ios_provider_sdk_trigger) expired in May 2026; here each
// valid signed vector is admitted at its own created_at and refused after its expires_at, and the
// test sources are scanned for verification calls that would fall back to the wall clock.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MemoryReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import { readJson } from "./helpers.js";

const REPO = new URL("../..", import.meta.url).pathname;
const { agentProvider } = (await import(`${REPO}generated/ts/index.js`)) as { agentProvider: Record<string, (...args: unknown[]) => { admit(m: unknown): Promise<{ ok: boolean; error?: { code: string } }> }> };
const spec = readJson("spec/agent-provider/vectors/hmac-sha256-v1.json") as { cases: { name: string; message_type: string; message: Record<string, string>; expect: string }[]; replay: Record<string, { skewSeconds: number; maxLifetimeSeconds?: number }> };

describe("signed vectors at their own clock", () => {
  const valid = spec.cases.filter((c) => c.expect === "valid" && typeof c.message["expires_at"] === "string");
  it("covers the two trigger vectors that expired in May 2026", () => {
    expect(valid.map((c) => c.name)).toEqual(expect.arrayContaining(["android_host_trigger", "ios_provider_sdk_trigger"]));
  });
  for (const c of valid) {
    it(`${c.name}: admitted at its own clock, expired after expires_at + skew`, async () => {
      const factory = agentProvider[`create${c.message_type}ReplayGuard`]!;
      const at = (ms: number) => () => ms;
      // At created_at, or within maxLifetimeSeconds of expires_at for vectors signed with a longer
      // lifetime than x-replay accepts (those are refused as lifetime-exceeded at created_at).
      const created = Date.parse(c.message["created_at"]!);
      const expires = Date.parse(c.message["expires_at"]!);
      const maxLifetimeMs = (spec.replay[c.message_type]!.maxLifetimeSeconds ?? Infinity) * 1000;
      const admitAt = expires - created > maxLifetimeMs ? expires - maxLifetimeMs : created;
      expect(await factory(new MemoryReplayStore(), at(admitAt)).admit(c.message)).toEqual({ ok: true });
      const late = expires + (spec.replay[c.message_type]!.skewSeconds + 1) * 1000;
      expect((await factory(new MemoryReplayStore(), at(late)).admit(c.message)).error?.code).toBe("expired");
    });
  }
});

// Calls that verify against a clock and would read the wall clock when none is passed.
const DEFAULT_CLOCK_CALLS: { language: string; file: RegExp; pattern: RegExp }[] = [
  { language: "ts", file: /\.test\.ts$/, pattern: /new ReplayGuard\([^,()]+,[^,()]+\)|create\w+ReplayGuard\([^,()]*\)|(?:decode|verify)\w*Token\([^,()]+,[^,()]+\)|Date\.now\(\)/ },
  // The conformance servers default to the wall clock (they are servers) but take `now` as an option.
  { language: "ts conformance servers", file: /property-tests\/conformance\/(?!.*\.test\.ts$).*\.ts$/, pattern: /new ReplayGuard\([^,()]+,[^,()]+\)|create\w+ReplayGuard\([^,()]*\)|(?:decode|verify)\w*Token\([^,()]+,[^,()]+\)/ },
  { language: "kotlin", file: /Test\.kt$/, pattern: /ReplayGuard\([^,()]+,[^,()]+\)|(?:decode|verify)\w+Token\([^,()]+,[^,()]+\)|System\.currentTimeMillis\(\)|Instant\.now\(\)|Clock\.systemUTC\(\)/ },
  { language: "swift", file: /Tests\.swift\.hbs$|emit-doctor\.ts$/, pattern: /ReplayGuard\(declaration: [^(),]+, store: [^(),]+\)(?!\s*\.)|\.replayGuard\([^()]*\)|(?<![.\w])Date\(\)/ },
];

// The fleet store suites run against real Redis and PostgreSQL servers, whose expiry runs on the
// servers' own clock: their messages are dated from the wall clock at run time (so they cannot
// expire either), and are exempt from the scan.
const WALL_CLOCK_SUITES = [/property-tests\/fleet\//, /FleetReplayStoresTest\.kt$/];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(path).isDirectory() ? (name === "node_modules" || name === "bench" ? [] : files(path)) : [path];
  });
}

describe("test sources pass a clock to every time-dependent check", () => {
  const roots = ["property-tests", "generators/test", "generators/targets/kotlin/tests", "generators/targets/swift/templates", "generators/targets/swift/emit-doctor.ts"];
  const all = roots.flatMap((r) => (statSync(`${REPO}${r}`).isDirectory() ? files(`${REPO}${r}`) : [`${REPO}${r}`]));
  for (const rule of DEFAULT_CLOCK_CALLS) {
    it(`${rule.language}: no verification call falls back to the wall clock`, () => {
      const scanned = all.filter((f) => rule.file.test(f) && !f.endsWith("clock.test.ts") && !WALL_CLOCK_SUITES.some((w) => w.test(f)));
      expect(scanned.length).toBeGreaterThan(0);
      const found = scanned.flatMap((f) => readFileSync(f, "utf8").split("\n").flatMap((line, i) => (rule.pattern.test(line) ? [`${f.slice(REPO.length)}:${i + 1}: ${line.trim()}`] : [])));
      expect(found).toEqual([]);
    });
  }
  it("the scan finds a default-clock call when there is one", () => {
    expect(DEFAULT_CLOCK_CALLS[0]!.pattern.test("const g = new ReplayGuard(DECL, store);")).toBe(true);
    expect(DEFAULT_CLOCK_CALLS[2]!.pattern.test("val g = ReplayGuard(declaration, store)")).toBe(true);
    expect(DEFAULT_CLOCK_CALLS[3]!.pattern.test("let g = ReplayGuard(declaration: d, store: s)")).toBe(true);
    expect(DEFAULT_CLOCK_CALLS[0]!.pattern.test("const g = new ReplayGuard(DECL, store, () => now);")).toBe(false);
  });
});
