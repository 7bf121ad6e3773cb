// generate, lint and docs are batch runs of a second or a few over a spec. V8 hands a function to
// its optimising compiler (TurboFan, on background threads) once the function has run its
// "interrupt budget" of bytecode; in a run this short most of those compiles finish after the
// function's work is done. In a cold generate of this repository they were a quarter of the
// process's CPU time for no gain on the wall clock (perf: four compiler threads beside the main
// one; the measurements are in property-tests/bench/limits.md). An eight-fold budget leaves
// TurboFan the functions a large spec keeps hot and skips the rest. Long-running commands (mock,
// the conformance kit against a server) keep V8's default.
import { setFlagsFromString } from "node:v8";

/** Node 20's V8 default (66 KiB of bytecode) times eight. */
export const BATCH_INTERRUPT_BUDGET = 8 * 66 * 1024;

let applied = false;

/** Raises V8's interrupt budget for the rest of this process; call it before the pipeline's modules load. */
export function useBatchTiering(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
}
