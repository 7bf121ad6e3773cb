// trust-store.ts against the rules of research/agent-connector-and-myagent-implementations.md § A4
// (import, upgrade, the audit entry format, load and replay), written out by hand: what an import
// accepts, the 128-package limit, which upgrades are valid, and which logged entries a replay
// refuses (AUDIT_INVALID at the entry's index). The chain itself is built with appendAuditEntry, so
// each refused log below has valid links and only the entry's own content is wrong.
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { CONNECTOR_AUDIT_CHAIN, appendAuditEntry, type AuditHead } from "../../generators/targets/ts/runtime/src/audit-chain.js";
import type { JsonObject, JsonValue } from "../../generators/targets/ts/runtime/src/json-value.js";
import { DEFAULT_MAX_PACKAGES, TrustStore, type TrustPackage } from "../../generators/targets/ts/runtime/src/trust-store.js";

const hex = (text: string) => createHash("sha256").update(text).digest("hex");
const pkg = (name: string, connectorId = "local-echo", connectorVersion = "1.0.0"): TrustPackage => ({
  packageId: `connector-package-${hex(name)}`,
  manifestId: `connector-manifest-${hex(name)}`,
  connectorId,
  connectorVersion,
});
const ORIGIN = { originFilename: "echo.connector.json", originSha256: hex("bytes") };
const T0 = "2026-08-10T00:00:00.000Z";

/** A valid chain of the given entry bodies (everything but eventId, previousEventId, sequence). */
function chain(bodies: JsonObject[]): JsonObject[] {
  let head: AuditHead | null = null;
  return bodies.map((body) => {
    const next = appendAuditEntry(CONNECTOR_AUDIT_CHAIN, head, body);
    head = next.head;
    return next.entry;
  });
}
const body = (action: JsonValue, packageId: JsonValue, details: JsonValue = {}, extra: JsonObject = {}): JsonObject => ({
  action,
  details,
  packageId,
  recordType: "agent-connector-package-audit",
  schemaVersion: 1,
  timestamp: T0,
  ...extra,
});
const A = pkg("a");
const B = pkg("b", "local-echo", "1.1.0");
const imported = (p: TrustPackage, origin: JsonObject = ORIGIN as unknown as JsonObject) => body("imported", p.packageId, origin);

function refusedAt(bodies: JsonObject[], options: Parameters<typeof TrustStore.replay>[1] = {}) {
  const r = TrustStore.replay(chain(bodies), options);
  if (r.ok) throw new Error("replay accepted the log");
  expect(r.error.code).toBe("AUDIT_INVALID");
  return r.error;
}

describe("importPackage (§ A4 Import)", () => {
  it("appends one imported entry with the origin as details, in the documented entry format", () => {
    const store = new TrustStore({ now: () => T0 });
    const r = store.importPackage(A, ORIGIN);
    expect(r).toMatchObject({ ok: true, state: "imported" });
    const entry = r.ok ? r.entries[0]! : {};
    expect(Object.keys(entry).sort()).toEqual(["action", "details", "eventId", "packageId", "previousEventId", "recordType", "schemaVersion", "sequence", "timestamp"]);
    expect(entry).toMatchObject({ action: "imported", details: ORIGIN, packageId: A.packageId, previousEventId: "", recordType: "agent-connector-package-audit", schemaVersion: 1, sequence: 1, timestamp: T0 });
    expect(store.head()).toEqual({ sequence: 1, eventId: entry.eventId });
    expect(store.entries()).toEqual([entry]);
  });
  it("a known packageId, even removed, returns its state and appends nothing", () => {
    const store = new TrustStore();
    store.importPackage(A, ORIGIN);
    store.remove(A.packageId);
    expect(store.importPackage(A, ORIGIN)).toEqual({ ok: true, state: "removed", entries: [] });
    expect(store.entries().length).toBe(2);
  });
  it("timestamps default to the system time as Date#toISOString() writes it", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-05-27T10:11:12.345Z"));
      const r = new TrustStore().importPackage(A, ORIGIN);
      expect(r.ok ? r.entries[0]!.timestamp : r.error).toBe("2026-05-27T10:11:12.345Z");
    } finally {
      vi.useRealTimers();
    }
  });
  it("refuses a packageId that is not connector-package-<64 hex>", () => {
    for (const packageId of ["connector-package-" + "A".repeat(64), "connector-package-" + "a".repeat(63), "x-connector-package-" + "a".repeat(64), "connector-package-" + "a".repeat(65)]) {
      const r = new TrustStore().importPackage({ ...A, packageId }, ORIGIN);
      expect(r.ok ? "ok" : r.error).toEqual({ code: "ORIGIN_INVALID", message: "packageId is not a connector package id" });
    }
  });
  it("origin filename: a base name of 1-255 characters without control characters; the digest 64 lowercase hex", () => {
    const accepted = ["a", "x".repeat(255), "my package.json", "...", "é.json"];
    const refused = ["", "x".repeat(256), ".", "..", "dir/a.json", "dir\\a.json", "a\u0000", "a\u001f", "\u007f", "a\nb"];
    for (const originFilename of accepted) expect(new TrustStore().importPackage(A, { ...ORIGIN, originFilename }).ok, originFilename).toBe(true);
    for (const originFilename of refused) {
      const r = new TrustStore().importPackage(A, { ...ORIGIN, originFilename });
      expect(r.ok ? "ok" : r.error.code, JSON.stringify(originFilename)).toBe("ORIGIN_INVALID");
      expect(r.ok ? "" : r.error.message).toMatch(/origin filename must be a base name/);
    }
    for (const originSha256 of ["A".repeat(64), "a".repeat(63), "a".repeat(65), "g".repeat(64), ` ${"a".repeat(64)}`]) {
      expect(new TrustStore().importPackage(A, { ...ORIGIN, originSha256 }).ok, originSha256).toBe(false);
    }
  });
  it(`at most ${DEFAULT_MAX_PACKAGES} packages by default (PACKAGE_LIMIT), or maxPackages`, () => {
    expect(DEFAULT_MAX_PACKAGES).toBe(128);
    const store = new TrustStore();
    for (let i = 0; i < 128; i++) expect(store.importPackage(pkg(`p${i}`), ORIGIN).ok).toBe(true);
    expect(store.importPackage(pkg("p128"), ORIGIN)).toEqual({ ok: false, error: { code: "PACKAGE_LIMIT", message: "at most 128 packages" } });
    // A known one still answers with its state.
    expect(store.importPackage(pkg("p0"), ORIGIN)).toEqual({ ok: true, state: "imported", entries: [] });
    const two = new TrustStore({ maxPackages: 2 });
    expect([pkg("x"), pkg("y"), pkg("z")].map((p) => two.importPackage(p, ORIGIN).ok)).toEqual([true, true, false]);
  });
});

describe("transitions and their errors", () => {
  it("unknown packages, refused moves and in-use removals say what happened; nothing is appended", () => {
    const inUse = new Set<string>();
    const store = new TrustStore({ isInUse: (m) => inUse.has(m) });
    expect(store.approve(A.packageId)).toEqual({ ok: false, error: { code: "PACKAGE_NOT_FOUND", message: `unknown package ${A.packageId}` } });
    store.importPackage(A, ORIGIN);
    expect(store.install(A.packageId)).toEqual({ ok: false, error: { code: "TRANSITION_INVALID", message: "cannot install a package that is imported" } });
    inUse.add(A.manifestId);
    expect(store.remove(A.packageId)).toEqual({ ok: false, error: { code: "IN_USE", message: "remove the package's connector instances first" } });
    // disable and revoke are not blocked by instances (§ A4 Facade rules).
    expect(store.revoke(A.packageId)).toMatchObject({ ok: true, state: "revoked" });
    expect(store.entries().map((e) => e.action)).toEqual(["imported", "revoked"]);
    inUse.clear();
    const r = store.remove(A.packageId);
    expect(r).toMatchObject({ ok: true, state: "removed" });
    expect(r.ok && r.entries.map((e) => [e.action, e.details, e.sequence])).toEqual([["removed", {}, 3]]);
  });
  it("installedPackages lists the installed ones in import order; packageIds every one", () => {
    const store = new TrustStore();
    const [x, y, z] = [pkg("x", "cx"), pkg("y", "cy"), pkg("z", "cz")];
    for (const p of [x, y, z]) store.importPackage(p, ORIGIN);
    for (const p of [z, x]) (store.approve(p.packageId), store.install(p.packageId));
    expect(store.packageIds()).toEqual([x.packageId, y.packageId, z.packageId]);
    expect(store.installedPackages()).toEqual([x.packageId, z.packageId]);
    expect(store.state(y.packageId)).toBe("imported");
    expect(store.state("connector-package-" + "0".repeat(64))).toBeUndefined();
  });
});

describe("upgrade (§ A4 Upgrade)", () => {
  const setUp = (old: TrustPackage, target: TrustPackage, options: ConstructorParameters<typeof TrustStore>[0] = {}) => {
    const store = new TrustStore(options);
    store.importPackage(old, ORIGIN);
    store.approve(old.packageId);
    store.install(old.packageId);
    store.importPackage(target, ORIGIN);
    store.approve(target.packageId);
    return store;
  };
  const invalid = { ok: false, error: { code: "UPGRADE_INVALID", message: "exactly one other version of the connector must be installed, and this version must be newer" } };
  it("needs a strictly greater SemVer version than the one installed package of the same connectorId", () => {
    expect(setUp(pkg("o", "c", "1.0.0"), pkg("t", "c", "1.0.0")).upgrade(pkg("t").packageId)).toEqual(invalid);
    expect(setUp(pkg("o", "c", "1.1.0"), pkg("t", "c", "1.0.0")).upgrade(pkg("t").packageId)).toEqual(invalid);
    expect(setUp(pkg("o", "c", "1.0.0"), pkg("t", "other", "2.0.0")).upgrade(pkg("t").packageId)).toEqual(invalid);
    // Not SemVer: no order, no upgrade.
    expect(setUp(pkg("o", "c", "1.0"), pkg("t", "c", "2.0.0")).upgrade(pkg("t").packageId)).toEqual(invalid);
    // A prerelease of a greater version is greater (SemVer § 11): allowed.
    const rc = setUp(pkg("o", "c", "1.0.0"), pkg("t", "c", "1.1.0-rc.1"));
    const r = rc.upgrade(pkg("t").packageId);
    expect(r.ok && r.entries.map((e) => [e.action, e.packageId, e.details])).toEqual([
      ["disabled", pkg("o").packageId, {}],
      ["upgraded", pkg("t").packageId, { fromPackageId: pkg("o").packageId }],
    ]);
    expect(rc.installedPackages()).toEqual([pkg("t").packageId]);
    expect(rc.state(pkg("o").packageId)).toBe("disabled");
    expect(rc.upgradePredecessor(pkg("t").packageId)).toBeUndefined();
  });
  it("two installed versions (allowed by plain install) make an upgrade ambiguous", () => {
    const store = setUp(pkg("o", "c", "1.0.0"), pkg("t", "c", "2.0.0"));
    store.importPackage(pkg("m", "c", "1.5.0"), ORIGIN);
    store.approve(pkg("m").packageId);
    expect(store.install(pkg("m").packageId).ok).toBe(true);
    expect(store.upgrade(pkg("t").packageId)).toEqual(invalid);
  });
  it("refused with IN_USE while instances reference the replaced package, not the target", () => {
    const old = pkg("o", "c", "1.0.0");
    const target = pkg("t", "c", "2.0.0");
    const inUse = new Set([old.manifestId]);
    const store = setUp(old, target, { isInUse: (m) => inUse.has(m) });
    expect(store.upgrade(target.packageId)).toEqual({ ok: false, error: { code: "IN_USE", message: "remove the replaced package's connector instances first" } });
    inUse.clear();
    inUse.add(target.manifestId);
    expect(store.upgrade(target.packageId)).toMatchObject({ ok: true, state: "installed" });
  });
  it("a replayed store without the package facts cannot upgrade", () => {
    const store = setUp(pkg("o", "c", "1.0.0"), pkg("t", "c", "2.0.0"));
    const replayed = TrustStore.replay(store.entries());
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(replayed.store.upgrade(pkg("t").packageId)).toEqual(invalid);
    const withFacts = TrustStore.replay(store.entries(), { packages: [pkg("o", "c", "1.0.0"), pkg("t", "c", "2.0.0")] });
    expect(withFacts.ok && withFacts.store.upgrade(pkg("t").packageId).ok).toBe(true);
  });
});

describe("replay refuses entries the format does not allow (§ A4 Audit entry format, Load and replay)", () => {
  const cases: [string, JsonObject[], number, RegExp][] = [
    ["an extra key", [imported(A), body("approved", A.packageId, {}, { note: "x" })], 1, /exactly the nine audit keys/],
    ["a renamed key (still nine)", [imported(A), (({ details: _d, ...rest }) => ({ ...rest, detail: {} }))(body("approved", A.packageId))], 1, /exactly the nine audit keys/],
    ["a missing key", [(({ timestamp: _t, ...rest }) => rest)(imported(A))], 0, /exactly the nine audit keys/],
    ["another recordType", [imported(A), body("approved", A.packageId, {}, { recordType: "agent-connector-audit" })], 1, /wrong recordType or schemaVersion/],
    ["schemaVersion 2", [imported(A), body("approved", A.packageId, {}, { schemaVersion: 2 })], 1, /wrong recordType or schemaVersion/],
    ["a numeric packageId", [imported(A), body("approved", 7)], 1, /packageId is not a connector package id/],
    ["a malformed packageId", [body("imported", "connector-package-xyz", ORIGIN as unknown as JsonObject)], 0, /packageId is not a connector package id/],
    ["a numeric timestamp", [body("imported", A.packageId, ORIGIN as unknown as JsonObject, { timestamp: 1786320000000 })], 0, /timestamp is not an ISO instant/],
    ["a timestamp without milliseconds", [imported(A), body("approved", A.packageId, {}, { timestamp: "2026-08-10T00:00:00Z" })], 1, /timestamp is not an ISO instant/],
    ["a timestamp that is no date", [imported(A), body("approved", A.packageId, {}, { timestamp: "yesterday" })], 1, /timestamp is not an ISO instant/],
    ["a timestamp with an offset", [imported(A), body("approved", A.packageId, {}, { timestamp: "2026-08-10T02:00:00.000+02:00" })], 1, /timestamp is not an ISO instant/],
    ["details that are an array", [imported(A), body("approved", A.packageId, [])], 1, /details is not an object/],
    ["details that are a string", [imported(A), body("approved", A.packageId, "x")], 1, /details is not an object/],
    ["imported without the digest", [body("imported", A.packageId, { originFilename: "a.json" })], 0, /imported details must be/],
    ["imported with an extra detail", [body("imported", A.packageId, { ...ORIGIN, path: "/tmp" })], 0, /imported details must be/],
    ["imported with a numeric filename", [body("imported", A.packageId, { ...ORIGIN, originFilename: 5 })], 0, /imported details are invalid/],
    ["imported with a numeric digest", [body("imported", A.packageId, { ...ORIGIN, originSha256: 5 })], 0, /imported details are invalid/],
    ["imported with a path", [body("imported", A.packageId, { ...ORIGIN, originFilename: "dir/a.json" })], 0, /imported details are invalid/],
    ["imported twice", [imported(A), imported(A)], 1, /package imported twice/],
    ["an unknown action", [imported(A), body("hacked", A.packageId)], 1, /unknown action/],
    ["an inherited property name as action", [imported(A), body("toString", A.packageId)], 1, /unknown action/],
    ["a numeric action", [imported(A), body(3, A.packageId)], 1, /unknown action/],
    ["approved with details", [imported(A), body("approved", A.packageId, { by: "me" })], 1, /approved details must be \{\}/],
    ["an action on a package never imported", [imported(A), body("approved", B.packageId)], 1, /package was never imported/],
    ["an action its state does not allow", [imported(A), body("approved", A.packageId), body("approved", A.packageId)], 2, /cannot approve a package that is approved/],
    ["upgraded without details", [imported(A), body("upgraded", A.packageId)], 1, /upgraded details must be \{fromPackageId\}/],
    ["upgraded from a malformed id", [imported(A), body("upgraded", A.packageId, { fromPackageId: "connector-package-1" })], 1, /upgraded details must be \{fromPackageId\}/],
    ["upgraded from a numeric id", [imported(A), body("upgraded", A.packageId, { fromPackageId: 1 })], 1, /upgraded details must be \{fromPackageId\}/],
    ["upgraded with an extra detail", [imported(A), body("upgraded", A.packageId, { fromPackageId: B.packageId, why: "x" })], 1, /upgraded details must be \{fromPackageId\}/],
  ];
  for (const [name, bodies, index, message] of cases) {
    it(name, () => {
      const error = refusedAt(bodies);
      expect(error.index).toBe(index);
      expect(error.message).toMatch(message);
      expect(error.message).toContain(`(entry ${index + 1})`);
    });
  }

  // An upgrade must follow the disabling of the replaced package (the `disablePrevious` effect).
  const upgradeLog = (disableOld: boolean, from = A.packageId) => [
    imported(A),
    body("approved", A.packageId),
    body("installed", A.packageId),
    imported(B),
    body("approved", B.packageId),
    ...(disableOld ? [body("disabled", A.packageId)] : []),
    body("upgraded", B.packageId, { fromPackageId: from }),
  ];
  it("an upgrade that follows the disabling of the replaced package replays", () => {
    const r = TrustStore.replay(chain(upgradeLog(true)));
    expect(r.ok && [r.store.state(A.packageId), r.store.state(B.packageId)]).toEqual(["disabled", "installed"]);
  });
  it("an upgrade whose replaced package is still installed, or is itself, is refused", () => {
    expect(refusedAt(upgradeLog(false))).toMatchObject({ index: 5, message: expect.stringMatching(/upgrade does not follow the disabling/) });
    expect(refusedAt(upgradeLog(true, B.packageId))).toMatchObject({ index: 6, message: expect.stringMatching(/upgrade does not follow the disabling/) });
  });
  it("more packages than maxPackages is refused", () => {
    expect(refusedAt([imported(A), imported(B)], { maxPackages: 1 })).toMatchObject({ index: 1, message: "more than 1 packages (entry 2)" });
    expect(TrustStore.replay(chain([imported(A), imported(B)]), { maxPackages: 2 }).ok).toBe(true);
  });
  it("a broken chain is AUDIT_INVALID with the chain's index", () => {
    const entries = chain([imported(A), body("approved", A.packageId), body("installed", A.packageId)]);
    const r = TrustStore.replay([entries[0]!, entries[2]!]);
    expect(r.ok ? "ok" : [r.error.code, r.error.index]).toEqual(["AUDIT_INVALID", 1]);
  });
  it("a replayed store continues the chain: its head, entries and states are the log's", () => {
    const entries = chain([imported(A), body("approved", A.packageId), body("installed", A.packageId), body("disabled", A.packageId)]);
    const r = TrustStore.replay(entries, { now: () => "2026-08-10T00:00:09.000Z", packages: [A] });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.store.entries()).toEqual(entries);
    expect(r.store.head()).toEqual({ sequence: 4, eventId: entries[3]!.eventId });
    const next = r.store.install(A.packageId);
    expect(next.ok && next.entries[0]).toMatchObject({ previousEventId: entries[3]!.eventId, sequence: 5, timestamp: "2026-08-10T00:00:09.000Z" });
    // The head of a log that ends in an import is that import.
    const one = TrustStore.replay(entries.slice(0, 1));
    expect(one.ok && one.store.head()).toEqual({ sequence: 1, eventId: entries[0]!.eventId });
  });
});

describe("every (state, command) pair (§ A4 table, as document 004 draws it: installed -> revoked is refused)", () => {
  const ALLOWED: Record<string, string[]> = {
    approve: ["imported"],
    install: ["approved", "disabled"],
    disable: ["installed"],
    revoke: ["imported", "approved", "disabled"],
    remove: ["imported", "approved", "disabled", "revoked"],
    upgrade: ["approved"],
  };
  const TO: Record<string, string> = { approve: "approved", install: "installed", disable: "disabled", revoke: "revoked", remove: "removed" };
  const ACTION: Record<string, string> = { approve: "approved", install: "installed", disable: "disabled", revoke: "revoked", remove: "removed" };
  const PATH: Record<string, ((s: TrustStore) => unknown)[]> = {
    imported: [],
    approved: [(s) => s.approve(A.packageId)],
    installed: [(s) => s.approve(A.packageId), (s) => s.install(A.packageId)],
    disabled: [(s) => s.approve(A.packageId), (s) => s.install(A.packageId), (s) => s.disable(A.packageId)],
    revoked: [(s) => s.revoke(A.packageId)],
    removed: [(s) => s.remove(A.packageId)],
  };
  const call = (s: TrustStore, command: string) =>
    ({ approve: () => s.approve(A.packageId), install: () => s.install(A.packageId), disable: () => s.disable(A.packageId), revoke: () => s.revoke(A.packageId), remove: () => s.remove(A.packageId), upgrade: () => s.upgrade(A.packageId) })[command]!();
  for (const state of Object.keys(PATH)) {
    for (const command of Object.keys(ALLOWED)) {
      it(`${command} from ${state}`, () => {
        const store = new TrustStore();
        store.importPackage(A, ORIGIN);
        for (const step of PATH[state]!) step(store);
        expect(store.state(A.packageId)).toBe(state);
        const before = store.entries().length;
        const r = call(store, command);
        if (!ALLOWED[command]!.includes(state)) {
          expect(r).toEqual({ ok: false, error: { code: "TRANSITION_INVALID", message: `cannot ${command} a package that is ${state}` } });
          expect(store.entries().length).toBe(before);
        } else if (command === "upgrade") {
          // No other version is installed: the guard refuses.
          expect(r.ok ? "ok" : r.error.code).toBe("UPGRADE_INVALID");
        } else {
          expect(r.ok && [r.state, r.entries.map((e) => [e.action, e.details])]).toEqual([TO[command], [[ACTION[command], {}]]]);
          // The log replays to the same state.
          const replayed = TrustStore.replay(store.entries(), { expectedHead: store.head() });
          expect(replayed.ok && replayed.store.state(A.packageId)).toBe(TO[command]);
        }
      });
    }
  }
});

describe("more refusals and corners", () => {
  it("an error without an index has no index member", () => {
    const r = new TrustStore().approve(A.packageId);
    expect(!r.ok && "index" in r.error).toBe(false);
  });
  it("an entry edited without re-hashing breaks the chain, even when its content is a valid transition", () => {
    const entries = chain([imported(A), body("approved", A.packageId)]);
    const edited = [entries[0]!, { ...entries[1]!, timestamp: "2026-08-10T00:00:01.000Z" }];
    const r = TrustStore.replay(edited);
    expect(r.ok ? "ok" : [r.error.code, r.error.index]).toEqual(["AUDIT_INVALID", 1]);
  });
  it("values that only coerce to valid ones are refused (a one-element array is not a string)", () => {
    expect(refusedAt([body("imported", [A.packageId], ORIGIN as unknown as JsonObject)]).message).toMatch(/packageId is not a connector package id/);
    expect(refusedAt([body("imported", A.packageId, { ...ORIGIN, originSha256: [ORIGIN.originSha256] })]).message).toMatch(/imported details are invalid/);
    expect(refusedAt([imported(A), body(["approved"], A.packageId)]).message).toMatch(/unknown action/);
    expect(refusedAt([imported(A), imported(B), body("upgraded", B.packageId, { fromPackageId: [A.packageId] })]).message).toMatch(/upgraded details must be \{fromPackageId\}/);
  });
  it("detail members may come in any order", () => {
    const r = TrustStore.replay(chain([body("imported", A.packageId, { originSha256: ORIGIN.originSha256, originFilename: ORIGIN.originFilename })]));
    expect(r.ok && r.store.state(A.packageId)).toBe("imported");
  });
  it("an upgrade from itself is refused even when the package is disabled", () => {
    const log = [imported(A), body("approved", A.packageId), body("installed", A.packageId), body("disabled", A.packageId), body("upgraded", A.packageId, { fromPackageId: A.packageId })];
    expect(refusedAt(log)).toMatchObject({ index: 4, message: expect.stringMatching(/upgrade does not follow the disabling/) });
  });
  it("only installed packages of the connector count against an upgrade", () => {
    const store = new TrustStore();
    const [old, other, target] = [pkg("o", "c", "1.0.0"), pkg("m", "c", "1.5.0"), pkg("t", "c", "2.0.0")];
    for (const p of [old, other, target]) store.importPackage(p, ORIGIN);
    store.approve(old.packageId);
    store.install(old.packageId);
    store.approve(target.packageId);
    expect(store.upgrade(target.packageId)).toMatchObject({ ok: true, state: "installed" });
  });
  it("installed packages without facts (a replay given only some) are not the connector's", () => {
    const store = new TrustStore();
    const [old, target] = [pkg("o", "c", "1.0.0"), pkg("t", "c", "2.0.0")];
    for (const p of [old, target]) store.importPackage(p, ORIGIN);
    store.approve(old.packageId);
    store.install(old.packageId);
    store.approve(target.packageId);
    const r = TrustStore.replay(store.entries(), { packages: [target] });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.store.upgrade(target.packageId)).toMatchObject({ ok: false, error: { code: "UPGRADE_INVALID" } });
    // Without facts the manifestId is unknown, so no instance can be matched: remove does not crash.
    const blind = TrustStore.replay(store.entries(), { isInUse: () => true });
    if (!blind.ok) throw new Error(blind.error.message);
    expect(() => blind.store.remove(target.packageId)).not.toThrow();
  });
});
