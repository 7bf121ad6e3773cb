// The rules issue 5 asks of each machine, checked on the spec itself (the generated code is
// checked against the same spec by property-tests/lifecycles).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadLifecycles } from "./load.js";
import { pathsFilePath, renderPaths } from "./paths.js";
import { evaluate } from "./semantics.js";
import type { Lifecycle } from "../model/lifecycle.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const all = ["agent-connector", "agent-provider", "provider-integration", "agent-service"].flatMap((id) => loadLifecycles(ROOT, id).lifecycles);
const get = (name: string): Lifecycle => all.find((l) => l.name === name)!;

/** Every event sequence (up to `depth`) from `from`; yields the events taken to reach `to`. */
function* walks(l: Lifecycle, from: string, to: string, depth: number, seen: string[] = []): Generator<string[]> {
  if (from === to) yield seen;
  if (depth === 0) return;
  for (const t of l.transitions.filter((x) => x.from === from)) yield* walks(l, t.to, to, depth - 1, [...seen, t.event]);
}

describe("issue 5 rules on the machines", () => {
  it("request-admission: the identity is never checked before the key", () => {
    const l = get("request-admission");
    expect(evaluate(l, "received", "check_identity", { identityUnambiguous: true })).toMatchObject({ ok: false, refusal: "event_not_allowed" });
    for (const path of walks(l, "received", "admitted", 5)) expect(path.indexOf("check_key")).toBeLessThan(path.indexOf("check_identity"));
  });

  it("execution: running and awaiting approval alternate; every non-terminal state can fail or be cancelled", () => {
    const l = get("execution");
    expect(evaluate(l, "running", "await_approval", {})).toMatchObject({ ok: true, state: "awaiting_approval" });
    expect(evaluate(l, "awaiting_approval", "resume", {})).toMatchObject({ ok: true, state: "running" });
    expect(evaluate(l, "awaiting_approval", "complete", {})).toMatchObject({ ok: false });
    for (const s of l.states.filter((x) => !x.terminal)) {
      expect(evaluate(l, s.name, "fail", {})).toMatchObject({ ok: true, state: "failed" });
      expect(evaluate(l, s.name, "cancel", {})).toMatchObject({ ok: true, state: "cancelled" });
    }
  });

  it("pending-interaction: refused answers leave it pending, a valid one is single use", () => {
    const l = get("pending-interaction");
    const valid = { isOwner: true, answerValid: true, isCancellation: false, runAlive: true };
    expect(evaluate(l, "pending", "answer", { ...valid, isOwner: false })).toMatchObject({ ok: true, state: "pending", effects: ["replyForbidden"] });
    expect(evaluate(l, "pending", "answer", { ...valid, answerValid: false })).toMatchObject({ ok: true, state: "pending", effects: ["replyUnprocessable"] });
    expect(evaluate(l, "pending", "answer", valid)).toMatchObject({ ok: true, state: "answered" });
    expect(evaluate(l, "answered", "answer", valid)).toMatchObject({ ok: false, refusal: "terminal" });
  });

  it("approval-token: a consumed token's replay is refused; a refused execution does not burn it", () => {
    const l = get("approval-token");
    expect(evaluate(l, "minted", "execute", { tokenValid: false })).toMatchObject({ ok: true, state: "minted", effects: ["recordNonce", "rollBack"] });
    expect(evaluate(l, "minted", "execute", { tokenValid: true })).toMatchObject({ ok: true, state: "consumed" });
    expect(evaluate(l, "consumed", "execute", { tokenValid: true })).toMatchObject({ ok: false, refusal: "terminal" });
  });

  it("proposal-record: results after a terminal state are rejected; a late success is expired", () => {
    const l = get("proposal-record");
    for (const s of ["succeeded", "failed", "canceled", "expired"]) {
      expect(evaluate(l, s, "submit_result", { statusSucceeded: true, statusFailed: false, statusCanceled: false, late: false })).toMatchObject({ ok: false, refusal: "terminal" });
    }
    expect(evaluate(l, "pending", "submit_result", { statusSucceeded: true, statusFailed: false, statusCanceled: false, late: true })).toMatchObject({ state: "expired" });
  });

  it("provider-proposal-handling: an untrusted proposal never runs silently", () => {
    const l = get("provider-proposal-handling");
    expect(evaluate(l, "untrusted", "proceed_quietly", { quietAllowed: true })).toMatchObject({ ok: false, refusal: "event_not_allowed" });
    for (const path of walks(l, "untrusted", "executed", 6)) expect(path).toContain("confirm");
    for (const s of ["replayed", "expired", "signature_invalid", "invalid"]) {
      for (const path of walks(l, s, "executed", 8)) expect(path, s).toEqual([]); // unreachable
    }
  });

  it("install-handshake: only an acceptable result is registered", () => {
    const l = get("install-handshake");
    const none = { requestExpired: false, echoMismatch: false, notSucceeded: false, acceptable: false };
    expect(evaluate(l, "result_received", "verify", { ...none, requestExpired: true })).toMatchObject({ state: "expired" });
    expect(evaluate(l, "result_received", "verify", { ...none, echoMismatch: true })).toMatchObject({ state: "mismatched" });
    expect(evaluate(l, "result_received", "verify", { ...none, notSucceeded: true })).toMatchObject({ state: "failed" });
    expect(evaluate(l, "result_received", "verify", { ...none, acceptable: true })).toMatchObject({ state: "verified" });
    expect(evaluate(l, "result_received", "verify", { ...none, acceptable: true, requestExpired: true })).toMatchObject({ ok: false, refusal: "guards_conflict" });
    expect(evaluate(l, "request_issued", "register", {})).toMatchObject({ ok: false, refusal: "event_not_allowed" });
  });

  it("trigger-handling: a trigger runs only after verification", () => {
    const l = get("trigger-handling");
    for (const path of walks(l, "submitted", "accepted", 6)) expect(path).toContain("verify");
    expect(evaluate(l, "received", "verify", { triggerValid: false })).toMatchObject({ state: "rejected" });
  });

  it("connection: authentication, missing-runtime and disabled failures are distinct states; Ready needs whoami", () => {
    const l = get("connection");
    expect(evaluate(l, "verified", "check_runtime", { runtimeAvailable: false, integrationEnabled: true })).toMatchObject({ state: "runtime_missing" });
    expect(evaluate(l, "verified", "check_runtime", { runtimeAvailable: true, integrationEnabled: false })).toMatchObject({ state: "disabled" });
    expect(evaluate(l, "approved", "whoami", { authenticated: true, addressMatches: false })).toMatchObject({ state: "authentication_failed" });
    for (const path of walks(l, "authorizing", "ready", 6)) expect(path).toContain("whoami");
  });

  it("inbox-handling: the handled position advances only after the runtime finished (or past an entry needing none)", () => {
    const l = get("inbox-handling");
    const advancing = l.transitions.filter((t) => t.effects.includes("advanceHandledPosition")).map((t) => `${t.from}/${t.event}`);
    expect(advancing).toEqual(["reading/page_received", "pending/page_received", "reading/page_received", "pending/page_received", "handling/runtime_finished"]);
    expect(l.transitions.find((t) => t.event === "page_received" && t.effects.includes("advanceHandledPosition"))!.guards).toContainEqual({ guard: "needsRuntime", negated: true });
    expect(evaluate(l, "handling", "runtime_interrupted", {})).toEqual(expect.objectContaining({ ok: true, state: "idle", effects: [] }));
    // A hint during a read is kept (pending), during handling it changes nothing.
    for (const e of ["notify", "live_changed", "connected"]) {
      expect(evaluate(l, "reading", e, {})).toMatchObject({ ok: true, state: "pending", effects: [] });
      expect(evaluate(l, "handling", e, {})).toMatchObject({ ok: true, state: "handling", effects: [] });
    }
    expect(evaluate(l, "pending", "page_received", { hasEntry: false, needsRuntime: false, poison: false })).toMatchObject({ ok: true, state: "reading", effects: ["readInbox"] });
  });

  it("paths files are 2-space JSON with a trailing newline, the same bytes every time", () => {
    for (const l of all) {
      const text = renderPaths(l);
      expect(text.endsWith("}\n")).toBe(true);
      expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + "\n");
      expect(renderPaths(l)).toBe(text);
      expect(pathsFilePath(l)).toBe(`spec/${l.protocol}/lifecycles/${l.name}.paths.json`);
    }
  });
});
