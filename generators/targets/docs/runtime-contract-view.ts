// The Runtime contract page: the parity table of the functions every language's runtime offers
// (generators/emit/runtime-contract.ts), with the symbol that implements each in each language
// and "—" where a runtime does not offer it yet. Generated from the contract, never written by hand.
import { RUNTIME_CONTRACT, RUNTIME_LANGUAGES, type RuntimeLanguage } from "../../emit/runtime-contract.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const RUNTIME_FOLDERS: Record<RuntimeLanguage, string> = {
  ts: "generators/targets/ts/runtime/src",
  kotlin: "generators/targets/kotlin/runtime",
  swift: "generators/targets/swift/runtime",
  rust: "generators/targets/rust/runtime",
};

export function runtimeContractHtml(): string {
  const languages = Object.keys(RUNTIME_LANGUAGES) as RuntimeLanguage[];
  const head = `<tr><th>Function</th><th>What it does</th>${languages.map((l) => `<th>${esc(RUNTIME_LANGUAGES[l])}</th>`).join("")}</tr>`;
  const rows = RUNTIME_CONTRACT.map((entry) => {
    const cells = languages.map((l) => {
      const symbol = entry[l];
      if (symbol === null) return `<td class="gap">—</td>`;
      const name = "container" in symbol ? `${symbol.container}.${symbol.name}` : symbol.name;
      return `<td><code>${esc(name)}</code><br><small>${esc(symbol.file)}</small></td>`;
    });
    return `<tr><td><code>${esc(entry.name)}</code></td><td>${esc(entry.does)}</td>${cells.join("")}</tr>`;
  }).join("\n");
  const folders = languages.map((l) => `${esc(RUNTIME_LANGUAGES[l])}: <code>${esc(RUNTIME_FOLDERS[l])}</code>`).join(", ");
  const lede = `<p>The functions each language's hand-written runtime offers, so a new language knows what to implement. The generated code of every target reaches its runtime through this table (generators/emit/runtime-contract.ts), and a test checks every symbol against the runtime's real exports and declarations, and its name against the function's modulo casing (some Kotlin and Swift names, released in 0.1.0, are still to be renamed behind deprecated aliases). Files are relative to the runtime folders (${folders}); "—" marks a function that runtime does not offer yet.</p>`;
  return `${lede}\n<table class="runtime-contract">\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
}
