// Strict parse vs JSON.parse on the same UTF-8 bytes (JSON.parse gets them decoded, as it must).
import { parseStrictJson } from "../../generated/ts/runtime/strict-json.js";
import { bytes } from "./fixtures.js";
import { measure, type MeasureOptions } from "./measure.js";
import type { AreaTable, CaseRow } from "./table.js";

const OURS = "parseStrictJson(bytes)";
const NATIVE = "JSON.parse(decode(bytes))";

export async function parseArea(options: MeasureOptions): Promise<AreaTable> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const rows: CaseRow[] = [];
  for (const [label, input] of [
    ["small: ActionProposal", bytes.small],
    ["medium: ConnectorPackage", bytes.medium],
    ["large: 1 MiB document", bytes.large],
  ] as const) {
    const parsed = parseStrictJson(input);
    if (!parsed.ok) throw new Error(`${label}: ${parsed.error.message}`);
    if (JSON.stringify(parsed.value) !== JSON.stringify(JSON.parse(decoder.decode(input)))) throw new Error(`${label}: parsers disagree`);
    const series = await measure(
      [
        { impl: OURS, fn: () => parseStrictJson(input) },
        { impl: NATIVE, fn: () => JSON.parse(decoder.decode(input)) },
      ],
      options,
    );
    rows.push({ label: `${label} (${input.length} B)`, series });
  }
  return {
    title: "Strict parse",
    ours: OURS,
    impls: [OURS, NATIVE],
    ratios: [{ anchor: NATIVE, kind: "slowdown", goal: 2.5 }],
    rows,
    notes: [
      "The strict parser also refuses duplicate keys, lone surrogates, a BOM, inexact integers, numbers that overflow and nesting past 64, which JSON.parse does not check. " +
        "It lets JSON.parse build the value, then checks those in one scan of the text and one walk of the value (runtime/strict-json-check.ts); any document it is not sure of, and every error, goes through the character-by-character parser.",
    ],
  };
}
