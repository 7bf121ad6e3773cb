export function applyMutant(source: string, mutant: { replacement: string; location: { start: { line: number; column: number }; end: { line: number; column: number } } }): string;
