// The connector trust store against the generated `trust` machine: the real Meldwork audit logs
// replay to the same final states (and are reproduced byte for byte), tampering is refused, and
// random command sequences never make the store and the machine disagree.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { CONNECTOR_AUDIT_CHAIN, appendAuditEntry, verifyAuditChain } from "../../generators/targets/ts/runtime/src/audit-chain.js";
import { canonicalize } from "../../generators/targets/ts/runtime/src/canonical-json.js";
import type { JsonObject } from "../../generators/targets/ts/runtime/src/json-value.js";
import { TrustStore, type TrustCommand, type TrustPackage, type TrustStoreResult } from "../../generators/targets/ts/runtime/src/trust-store.js";
import { ROOT, importMachine, materialize, type GeneratedMachineModule } from "./support.js";

const VECTORS = join(ROOT, "property-tests/vectors/agent-connector/generated");

function packageFacts(file: string): TrustPackage {
  const pkg = JSON.parse(readFileSync(join(VECTORS, "valid", file), "utf8")) as {
    packageId: string;
    manifest: { manifestId: string; connectorId: string; connectorVersion: string };
  };
  return { packageId: pkg.packageId, manifestId: pkg.manifest.manifestId, connectorId: pkg.manifest.connectorId, connectorVersion: pkg.manifest.connectorVersion };
}

const PACKAGES: TrustPackage[] = [
  packageFacts("local-echo-1.0.0.package.json"),
  packageFacts("local-echo-1.1.0.package.json"),
  packageFacts("local-echo-0.9.0.package.json"),
  packageFacts("http-json-test.package.json"),
];

function readLog(name: string): { text: string; entries: JsonObject[] } {
  const text = readFileSync(join(VECTORS, "audit", name), "utf8");
  return { text, entries: text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as JsonObject) };
}

/** The log's lines, without the final line break. */
function lines(name: string): string[] {
  return readLog(name).text.split("\n").filter(Boolean);
}

/** A clock like the one the vectors were made with: 2026-08-10T00:00:00.000Z, then +1 s per call. */
function vectorClock(): () => string {
  let t = Date.parse("2026-08-10T00:00:00.000Z");
  return () => {
    const s = new Date(t).toISOString();
    t += 1000;
    return s;
  };
}

const EVENT_OF: Record<string, TrustCommand> = {
  approved: "approve",
  installed: "install",
  disabled: "disable",
  revoked: "revoke",
  removed: "remove",
  upgraded: "upgrade",
};

let machine: GeneratedMachineModule;
beforeAll(async () => {
  machine = await importMachine(materialize(), "agent-connector", "trust");
});

describe("real Meldwork audit logs", () => {
  const expected: Record<string, Record<string, string>> = {
    "lifecycle.audit.jsonl": { [PACKAGES[0]!.packageId]: "removed" },
    "upgrade.audit.jsonl": { [PACKAGES[0]!.packageId]: "disabled", [PACKAGES[1]!.packageId]: "installed" },
  };

  it.each(Object.keys(expected))("%s replays through the store and the generated machine to the same final states", (name) => {
    const { entries } = readLog(name);
    const replay = TrustStore.replay(entries, { packages: PACKAGES });
    if (!replay.ok) throw new Error(replay.error.message);
    const store = replay.store;
    const storeStates = Object.fromEntries(store.packageIds().map((id) => [id, store.state(id)]));
    expect(storeStates).toEqual(expected[name]);
    expect(store.head()).toEqual({ sequence: entries.length, eventId: entries.at(-1)!.eventId });

    // The same actions through the generated machine, one instance per package.
    const states = new Map<string, string>();
    for (const entry of entries) {
      const id = entry.packageId as string;
      if (entry.action === "imported") {
        expect(states.has(id)).toBe(false);
        states.set(id, machine.initialState);
        continue;
      }
      const out = machine.transition(states.get(id)!, EVENT_OF[entry.action as string]!, { inUse: false, upgradeTarget: true, previousInUse: false });
      expect(out.ok, `${entry.action} from ${states.get(id)}`).toBe(true);
      states.set(id, out.state);
    }
    expect(Object.fromEntries(states)).toEqual(expected[name]);
  });

  it("a store driven with the same commands and clock writes the logs byte for byte", () => {
    const [v100, v110] = PACKAGES as [TrustPackage, TrustPackage];
    const lifecycle = new TrustStore({ now: vectorClock() });
    const origin = { originFilename: "local-echo.connector.json", originSha256: "4b9ca8479c0a9a7614bc22017a753c131512fb2bc9a25f2670ccab4fa9b412ae" };
    const results: TrustStoreResult[] = [
      lifecycle.importPackage(v100, origin),
      lifecycle.approve(v100.packageId),
      lifecycle.install(v100.packageId),
      lifecycle.disable(v100.packageId),
      lifecycle.revoke(v100.packageId),
      lifecycle.remove(v100.packageId),
    ];
    expect(results.every((r) => r.ok)).toBe(true);
    expect(lifecycle.entries().map((e) => canonicalize(e))).toEqual(lines("lifecycle.audit.jsonl"));

    const upgrade = new TrustStore({ now: vectorClock() });
    upgrade.importPackage(v100, { originFilename: "first.json", originSha256: origin.originSha256 });
    upgrade.approve(v100.packageId);
    upgrade.install(v100.packageId);
    upgrade.importPackage(v110, { originFilename: "second.json", originSha256: "941a2fa2310f81d842a169a22a01b8e4aee7a2b503ee41662529157219318e8e" });
    upgrade.approve(v110.packageId);
    const result = upgrade.upgrade(v110.packageId);
    expect(result.ok && result.entries.map((e) => e.action)).toEqual(["disabled", "upgraded"]);
    expect(upgrade.entries().map((e) => canonicalize(e))).toEqual(lines("upgrade.audit.jsonl"));
  });

  it("tampered logs are refused (edit, drop, swap, junk, re-hashed illegal transition, truncated tail with a kept head)", () => {
    const { entries } = readLog("lifecycle.audit.jsonl");
    const edited = entries.map((e, i) => (i === 2 ? { ...e, timestamp: "2026-08-10T00:00:09.000Z" } : e));
    const dropped = entries.filter((_, i) => i !== 2);
    const swapped = [entries[0]!, entries[2]!, entries[1]!, ...entries.slice(3)];
    const junk = [...entries, { tampered: true }];
    for (const log of [edited, dropped, swapped, junk]) {
      const r = TrustStore.replay(log, { packages: PACKAGES });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.code).toBe("AUDIT_INVALID");
    }
    // installed -> revoked is what Meldwork allows and document 004 does not draw: refused even when the chain is valid.
    let head = null as ReturnType<TrustStore["head"]>;
    const rehashed: JsonObject[] = [];
    for (const e of entries.slice(0, 3)) {
      const { eventId: _id, sequence: _s, previousEventId: _p, ...body } = e;
      const next = appendAuditEntry(CONNECTOR_AUDIT_CHAIN, head, body);
      rehashed.push(next.entry);
      head = next.head;
    }
    const illegal = appendAuditEntry(CONNECTOR_AUDIT_CHAIN, head, { ...(({ eventId: _a, sequence: _b, previousEventId: _c, ...b }) => b)(entries[4]!) });
    const log = [...rehashed, illegal.entry];
    expect(verifyAuditChain(CONNECTOR_AUDIT_CHAIN, log).ok).toBe(true);
    const r = TrustStore.replay(log, { packages: PACKAGES });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatchObject({ code: "AUDIT_INVALID", index: 3 });
    // Tail truncation passes the chain alone, and fails against the kept head.
    const truncated = entries.slice(0, 4);
    expect(TrustStore.replay(truncated, { packages: PACKAGES }).ok).toBe(true);
    const kept = { sequence: 6, eventId: entries[5]!.eventId as string };
    expect(TrustStore.replay(truncated, { packages: PACKAGES, expectedHead: kept }).ok).toBe(false);
    expect(TrustStore.replay(entries, { packages: PACKAGES, expectedHead: kept }).ok).toBe(true);
  });
});

describe("model-based: the store never disagrees with the generated machine", () => {
  type Command =
    | { kind: "import"; pkg: number }
    | { kind: "command"; command: TrustCommand; pkg: number }
    | { kind: "instance"; pkg: number; inUse: boolean };

  // Mostly the two local-echo versions that can upgrade one another; sometimes 0.9.0 and another connector.
  const pkgArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 1) }, { weight: 1, arbitrary: fc.constantFrom(2, 3) });
  const commandArb: fc.Arbitrary<Command> = fc.oneof(
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("import" as const), pkg: pkgArb }) },
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("command" as const),
        command: fc.constantFrom<TrustCommand>("approve", "install", "disable", "revoke", "remove", "upgrade"),
        pkg: pkgArb,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("instance" as const), pkg: pkgArb, inUse: fc.boolean() }) },
  );

  it("random command sequences", () => {
    const seen = new Set<string>();
    // Two runs in three start from "1.0.0 installed, 1.1.0 approved", where upgrades are possible.
    const setUp: Command[] = [
      { kind: "import", pkg: 0 },
      { kind: "import", pkg: 1 },
      { kind: "command", command: "approve", pkg: 0 },
      { kind: "command", command: "install", pkg: 0 },
      { kind: "command", command: "approve", pkg: 1 },
    ];
    fc.assert(
      fc.property(fc.nat(2), fc.array(commandArb, { maxLength: 40 }), (prefix, rest) => {
        const inUseOld: Command = { kind: "instance", pkg: 0, inUse: true };
        const commands = prefix === 0 ? rest : prefix === 1 ? [...setUp, ...rest] : [...setUp, inUseOld, ...rest];
        const inUse = new Set<string>();
        const store = new TrustStore({ isInUse: (manifestId) => inUse.has(manifestId), now: vectorClock() });
        const model = new Map<string, string>(); // packageId -> machine state

        for (const c of commands) {
          const pkg = PACKAGES[c.pkg]!;
          if (c.kind === "instance") {
            if (c.inUse) inUse.add(pkg.manifestId);
            else inUse.delete(pkg.manifestId);
            continue;
          }
          const before = store.entries().length;
          if (c.kind === "import") {
            const r = store.importPackage(pkg, { originFilename: "p.json", originSha256: "0".repeat(64) });
            expect(r.ok).toBe(true);
            if (!model.has(pkg.packageId)) {
              model.set(pkg.packageId, machine.initialState);
              expect(store.entries().slice(before).map((e) => e.action)).toEqual(["imported"]);
            } else expect(store.entries().length).toBe(before);
            continue;
          }

          const result = store.apply(c.command, pkg.packageId);
          const state = model.get(pkg.packageId);
          if (state === undefined) {
            expect(result.ok ? "ok" : result.error.code).toBe("PACKAGE_NOT_FOUND");
            continue;
          }
          // The guards, computed from the model's own view of the world.
          const others = PACKAGES.filter((p) => p.packageId !== pkg.packageId && p.connectorId === pkg.connectorId && model.get(p.packageId) === "installed");
          const previous = others.length === 1 && others[0]!.connectorVersion < pkg.connectorVersion ? others[0] : undefined;
          const guards = { inUse: inUse.has(pkg.manifestId), upgradeTarget: previous !== undefined, previousInUse: previous !== undefined && inUse.has(previous.manifestId) };
          const out = machine.transition(state, c.command, guards);

          expect(result.ok, `${c.command} ${state} ${JSON.stringify(guards)}`).toBe(out.ok);
          seen.add(result.ok ? `${c.command}:ok` : `${c.command}:${result.error.code}`);
          const appended = store.entries().slice(before);
          if (!result.ok) {
            expect(appended).toEqual([]);
            const want =
              out.refusal === "guard_failed" ? (out.guard === "upgradeTarget" ? "UPGRADE_INVALID" : "IN_USE") : "TRANSITION_INVALID";
            expect(result.error.code).toBe(want);
            continue;
          }
          model.set(pkg.packageId, out.state);
          expect(result.state).toBe(out.state);
          // Effects: the audit entries the transition must append, in order.
          const expectedActions: [string, string][] = [];
          for (const effect of out.effects ?? []) {
            if (effect === "disablePrevious") {
              const prev = machine.transition(model.get(previous!.packageId)!, "disable", {});
              expect(prev.ok).toBe(true);
              model.set(previous!.packageId, prev.state);
              expectedActions.push(["disabled", previous!.packageId]);
            } else {
              expectedActions.push([effect.replace(/^audit/, "").toLowerCase(), pkg.packageId]);
            }
          }
          expect(appended.map((e) => [e.action, e.packageId])).toEqual(expectedActions);
        }

        for (const [id, s] of model) expect(store.state(id)).toBe(s);
        // The log the store wrote is a valid chain and replays to the same states.
        const replay = TrustStore.replay(store.entries(), { packages: PACKAGES, expectedHead: store.head() });
        if (!replay.ok) throw new Error(replay.error.message);
        for (const [id, s] of model) expect(replay.store.state(id)).toBe(s);
      }),
      {
        numRuns: 150,
        // Fixed sequences that reach every corner, on top of the random ones.
        examples: [
          [1, [{ kind: "command", command: "upgrade", pkg: 1 }]],
          [2, [{ kind: "command", command: "upgrade", pkg: 1 }, { kind: "command", command: "disable", pkg: 0 }, { kind: "command", command: "remove", pkg: 0 }]],
          [1, [{ kind: "import", pkg: 2 }, { kind: "command", command: "approve", pkg: 2 }, { kind: "command", command: "upgrade", pkg: 2 }]],
          [1, [{ kind: "command", command: "revoke", pkg: 0 }, { kind: "command", command: "disable", pkg: 0 }, { kind: "command", command: "remove", pkg: 0 }]],
        ],
      },
    );
    // The runs reached the interesting corners, not only refusals.
    for (const outcome of ["upgrade:ok", "upgrade:UPGRADE_INVALID", "upgrade:IN_USE", "remove:ok", "remove:IN_USE", "install:ok", "revoke:TRANSITION_INVALID"]) {
      expect(seen, outcome).toContain(outcome);
    }
  });
});
