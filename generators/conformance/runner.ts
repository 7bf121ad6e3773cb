// Runs a loaded conformance suite against a live implementation, one case at a time (case-run.ts),
// each under a deadline; the first failed expectation fails the case. Only the --url host is ever
// contacted. Every failure carries a code (failures.ts) and its line is redacted of credentials.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { CaseRun, type Bindings } from "./case-run.js";
import { DEFAULT_LIMITS, KitFailure, redact, type Limits } from "./failures.js";
import { loadSseSpec } from "./sse.js";
import type { CaseResult, LoadedSuite } from "./types.js";

export { generateBody } from "./body-gen.js";
export type { Bindings, CaseStats } from "./case-run.js";
export { checkField, checkOrdering, deepEqual, getPointer } from "./checks.js";
export { DEFAULT_LIMITS, KitFailure, redact, type FailureCode, type Limits } from "./failures.js";

export async function loadBindings(root: string): Promise<Bindings> {
  const entry = `${root}/generated/ts/index.js`;
  if (!existsSync(entry)) throw new Error("generated/ts is missing: run `make` first");
  return (await import(pathToFileURL(entry).href)) as Bindings;
}

export interface RunOptions extends Partial<Limits> {
  root: string;
  url: string;
  key?: string;
  tags?: string[];
  only?: string[];
  serverState?: string;
  bindings: Bindings;
  onResult?: (result: CaseResult) => void;
}

export interface RunSummary {
  results: CaseResult[];
  passed: number;
  failed: number;
  skipped: number;
}

export function selectCases(suite: LoadedSuite, tags?: string[], only?: string[]): LoadedSuite["cases"] {
  return suite.cases.filter((c) => (!tags || tags.length === 0 || c.tags.some((t) => tags.includes(t))) && (!only || only.length === 0 || only.includes(c.id)));
}

export async function runSuite(suite: LoadedSuite, options: RunOptions): Promise<RunSummary> {
  const base = new URL(options.url);
  const sse = loadSseSpec(options.root, suite.protocol);
  const state = options.serverState ?? suite.suite.defaultServerState;
  const key = options.key ?? suite.suite.credential?.default ?? "";
  const limits: Limits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
    deadlineMs: options.deadlineMs ?? DEFAULT_LIMITS.deadlineMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes,
    maxEventBytes: options.maxEventBytes ?? DEFAULT_LIMITS.maxEventBytes,
  };
  const results: CaseResult[] = [];
  for (const c of selectCases(suite, options.tags, options.only)) {
    const started = Date.now();
    let result: CaseResult;
    if (c.serverStates && !c.serverStates.includes(state)) {
      result = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: "skip", detail: `needs server state ${c.serverStates.join(" or ")}`, ms: 0 };
    } else {
      const run = new CaseRun(suite.protocol, base, key, options.bindings, sse, limits);
      let timer: NodeJS.Timeout | undefined;
      // The race is the guarantee: whatever a step awaits, the case ends at the deadline; abort
      // also closes its sockets and stops any further step from starting.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const reason = new KitFailure("deadline-exceeded", `the case did not finish within ${limits.deadlineMs} ms`);
          run.abort(reason);
          reject(reason);
        }, limits.deadlineMs);
      });
      const execution = run.execute(c);
      execution.catch(() => undefined);
      try {
        await Promise.race([execution, deadline]);
        result = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: "pass", ms: Date.now() - started };
      } catch (error) {
        const failure = error instanceof KitFailure ? error : new KitFailure("internal-error", (error as Error).message);
        const detail = redact(failure.message, key === "" ? [] : [key]);
        result = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: "fail", code: failure.code, detail, ms: Date.now() - started };
      } finally {
        clearTimeout(timer);
        run.closeAll();
      }
      result.stats = { ...run.stats };
    }
    results.push(result);
    options.onResult?.(result);
  }
  return {
    results,
    passed: results.filter((r) => r.status === "pass").length,
    failed: results.filter((r) => r.status === "fail").length,
    skipped: results.filter((r) => r.status === "skip").length,
  };
}

export function formatResult(r: CaseResult): string {
  if (r.status === "pass") return `pass ${r.id} — ${r.title}`;
  if (r.status === "skip") return `skip ${r.id} — ${r.detail ?? ""}`;
  return `FAIL ${r.id} — ${r.title}: ${r.code ?? "expectation-failed"}: ${r.detail ?? ""}`;
}

export function formatSummary(s: { passed: number; failed: number }): string {
  return `${s.passed} passed, ${s.failed} failed`;
}
