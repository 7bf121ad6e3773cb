// The coverage table: each section of each source document, and the spec items that cover it.
// Built from protocol.yaml `sections` (whose references the check stage has resolved); the
// reverse direction (an item no section names) is the check stage's `coverage` lint.
import type { Model, OutputFile } from "../../model/types.js";

export function emitCoverage(model: Model): OutputFile[] {
  const lines: string[] = [
    "# Coverage of the source documents",
    "",
    "Each section of each protocol document and the spec items that cover it. Every section is",
    "covered by at least one item, and every message and lifecycle is named by a section.",
  ];
  const json: Record<string, { document: string; sections: { title: string; coveredBy: string[] }[] }> = {};
  for (const protocol of model.protocols) {
    lines.push("", `## ${protocol.title} (\`${protocol.id}\`, ${protocol.document})`, "", "| section | covered by |", "|---|---|");
    for (const section of protocol.sections) {
      lines.push(`| ${escapeCell(section.title)} | ${section.coveredBy.map((ref) => `\`${ref}\``).join(", ")} |`);
    }
    const uncovered = protocol.sections.filter((s) => s.coveredBy.length === 0);
    lines.push("", `Uncovered sections: ${uncovered.length === 0 ? "none" : uncovered.map((s) => s.title).join(", ")}.`);
    json[protocol.id] = { document: protocol.document, sections: protocol.sections };
  }
  const sources = model.protocols.map((p) => p.location.file);
  return [
    { path: "coverage.md", contents: lines.join("\n") + "\n", sources },
    { path: "coverage.json", contents: JSON.stringify(json, null, 2) + "\n", sources },
  ];
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|");
}
