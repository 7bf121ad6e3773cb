// Canonicalization (RFC 8785): ours vs the npm `canonicalize` package (a JCS implementation that
// runs on Node 20) vs JSON.stringify, the floor (no key sorting, no checks).
import canonicalizeNpm from "canonicalize";
import { canonicalize } from "../../generated/ts/runtime/canonical-json.js";
import { connectorPackage, large, proposal } from "./fixtures.js";
import { measure, type MeasureOptions } from "./measure.js";
import type { AreaTable, CaseRow } from "./table.js";

const OURS = "ours (canonicalize)";
const NPM = "npm canonicalize@2.1.0";
const STRINGIFY = "JSON.stringify";

// The package is CommonJS (module.exports = fn); under NodeNext its default import is that function.
const npmCanonicalize = ((canonicalizeNpm as unknown as { default?: unknown }).default ?? canonicalizeNpm) as (value: unknown) => string | undefined;

export async function canonicalizationArea(options: MeasureOptions): Promise<AreaTable> {
  const cases = [
    ["small: ActionProposal", proposal],
    ["medium: ConnectorPackage", connectorPackage],
    ["large: 1 MiB document", large],
  ] as const;
  const rows: CaseRow[] = [];
  for (const [label, value] of cases) {
    const ours = canonicalize(value);
    if (npmCanonicalize(value) !== ours) throw new Error(`${label}: ours and the npm package disagree`);
    const series = await measure(
      [
        { impl: OURS, fn: () => canonicalize(value) },
        { impl: NPM, fn: () => npmCanonicalize(value) },
        { impl: STRINGIFY, fn: () => JSON.stringify(value) },
      ],
      options,
    );
    rows.push({ label: `${label} (${ours.length} B)`, series });
  }
  return {
    title: "Canonicalization (RFC 8785 JCS)",
    ours: OURS,
    impls: [OURS, NPM, STRINGIFY],
    ratios: [
      { anchor: NPM, kind: "speedup", goal: 2 },
      { anchor: STRINGIFY, kind: "slowdown", goal: 2 },
    ],
    rows,
    notes: [
      "Each call returns the canonical string (ours and the npm package produce identical text on every input). JSON.stringify neither sorts keys nor checks for lone surrogates, cycles or depth: it is the floor, not a JCS. " +
        "Ours writes piece by piece, but hands an object whose members already come in canonical order (4 or more) to JSON.stringify once a walk has checked its whole subtree; the medium input is canonical throughout, the small one's top level is not, the large one is a third each.",
    ],
  };
}
