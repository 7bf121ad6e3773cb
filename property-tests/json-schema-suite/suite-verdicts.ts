// A driver's verdicts on the JSON-Schema-Test-Suite project's cases against the suite's own:
// the suite says only valid or invalid, so any first error counts as invalid.
import type { SuiteCase } from "./suite-project.js";

/** Each case whose verdict is not the suite's, as one line. */
export function suiteDisagreements(cases: readonly SuiteCase[], verdicts: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  for (const c of cases) {
    const got = verdicts.get(c.id);
    if (got === undefined) lines.push(`${c.id}: no verdict`);
    else if (got.startsWith("error")) lines.push(`${c.id}: ${got}`);
    else if ((got === "valid") !== c.valid) lines.push(`${c.id}: ${got}, the suite says ${c.valid ? "valid" : "invalid"}`);
  }
  return lines;
}
