export interface Mutant {
  tool: "ts" | "kotlin";
  file: string;
  line: number;
  column: number;
  mutator: string;
  status: string;
}
export function readMutants(): Mutant[];
export function survivorLine(m: Mutant): string;
