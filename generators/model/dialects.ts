// The canonicalization dialects of a protocol: its divergences that carry a `canonicalization`
// entry, each with its divergence id, in spec order. Every target emits this same list.
import type { Protocol } from "./types.js";

export function canonicalizationDialects(protocol: Protocol): object[] {
  return protocol.divergences
    .filter((d) => d.canonicalization !== undefined)
    .map((d) => ({ divergence: d.id, absentHashedField: "refuse", ...(d.canonicalization as object) }));
}
