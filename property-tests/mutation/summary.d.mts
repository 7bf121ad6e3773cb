export interface Mutant {
  tool: "ts" | "kotlin";
  file: string;
  line: number;
  column: number;
  end?: string;
  mutator: string;
  replacement: string;
  status: string;
}
export function readMutants(): Mutant[];
export function survivorLine(m: Mutant): string;
