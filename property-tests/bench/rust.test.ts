// The Rust bench's tables read only what its executable writes (no timing here): every
// (name, impl) rustTables asks for is a name the bench crate measures, and a missing result stops
// the bench instead of leaving an empty cell.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./fixtures.js";
import { writeNativeInputs } from "./native-inputs.js";
import { type RustResult, rustTables } from "./rust.js";

const main = readFileSync(join(ROOT, "property-tests/bench/rust-bench/src/main.rs"), "utf8");

describe("rustTables", () => {
  writeNativeInputs();

  it("asks only for results the bench crate writes, and lays every one out with its anchors", () => {
    const asked: RustResult[] = [];
    // A results list that answers every lookup, recording what was asked.
    const results = {
      find(match: (r: RustResult) => boolean): RustResult | undefined {
        for (const name of ["validation", "parse", "canonicalize", "verify", "replay"]) {
          for (const impl of main.match(/"[^"\n]+"/g) ?? []) {
            for (const param of ["", "small", "medium", "large", "trigger", "proposal", "ActionProposal/valid", "WorkflowRequest/valid", "ConnectorPackage/valid"]) {
              const candidate = { name, param, impl: impl.slice(1, -1), opsPerSec: [1, 2, 3] };
              if (match(candidate)) {
                asked.push(candidate);
                return candidate;
              }
            }
          }
        }
        return undefined;
      },
    } as unknown as RustResult[];
    const tables = rustTables(results);
    expect(tables.map((t) => t.title)).toEqual(["Rust: validate + decode (anchor: serde_json)", "Rust: strict parse", "Rust: canonicalization (RFC 8785 JCS)", "Rust: signature verify (hmac-sha256-v1)", "Rust: replay store"]);
    expect(new Set(asked.map((a) => a.name))).toEqual(new Set(["validation", "parse", "canonicalize", "verify", "replay"]));
    for (const table of tables) for (const ratio of table.ratios) expect(table.impls, table.title).toContain(ratio.anchor);
  });

  it("refuses a run that lacks a result", () => {
    expect(() => rustTables([])).toThrow(/the Rust bench gave no validation ActionProposal\/valid parse_validated/);
  });
});
