import type { Mutant } from "./summary.mjs";
export interface MutationGroup {
  name: string;
  tool: "stryker" | "pit";
  note?: string;
  mutate?: string[];
  sources?: string[];
  classes?: string[];
  tests: string[];
  /** The mutated files (mutate for Stryker, sources for PIT), each once. */
  files: string[];
  /** The lines mutated per entry (a whole file: from 1 to Infinity). */
  ranges: LineRange[];
}
export interface LineRange {
  path: string;
  from: number;
  to: number;
}
export function mutateRange(entry: string): LineRange;
export interface GroupStamp {
  sources: Record<string, string>;
  tests: Record<string, string>;
}
export const ROOT: string;
export const GROUPS_DIR: string;
export const RESULTS_DIR: string;
export function loadGroups(): MutationGroup[];
export function groupStamp(group: MutationGroup): GroupStamp;
export function readResult(name: string): (GroupStamp & { group: string; tool: string; mutants: Mutant[] }) | undefined;
export function resultState(group: MutationGroup): "missing" | "stale" | "current";
export function writeResult(group: MutationGroup, stamp: GroupStamp, mutants: Mutant[]): void;
export function readStrykerReport(path: string): Mutant[];
export function readPitReport(path: string): Mutant[];
export function readAllMutants(): Mutant[];
