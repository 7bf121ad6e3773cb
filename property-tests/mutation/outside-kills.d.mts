export function applyMutant(source: string, mutant: { replacement: string; location: { start: { line: number; column: number }; end: { line: number; column: number } } }): string;
export function verdictOf(run: { status: number | null; signal?: string | null; error?: Error; stdout?: string; stderr?: string }): "killed" | "survived";
