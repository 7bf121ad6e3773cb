export interface Mutant {
  tool: "ts" | "kotlin";
  file: string;
  line: number;
  column: number;
  end?: string;
  mutator: string;
  replacement: string;
  status: string;
  group?: string;
}
export const GOALS: Record<string, number>;
export function readMutants(): Mutant[];
export function survivorLine(m: Mutant): string;
export function score(list: Mutant[]): { detected: number; valid: number; score: number };
export function scoreTable(mutants: Mutant[]): { lines: string[]; missed: string[] };
