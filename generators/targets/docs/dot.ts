// A lifecycle as a Graphviz DOT graph: states are boxes (terminal ones doubled, long-lived ones
// dashed), a dot marks the initial state, edges read `event [guards] / effects`.
import { literalText, type Lifecycle } from "../../model/lifecycle.js";

function quote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

export function lifecycleDot(lifecycle: Lifecycle): string {
  const lines: string[] = [
    `digraph ${quote(lifecycle.name)} {`,
    `  graph [rankdir=LR, bgcolor="transparent", fontname="Helvetica", nodesep=0.4, ranksep=0.6];`,
    `  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11, color="#334155", fontcolor="#0f172a"];`,
    `  edge [fontname="Helvetica", fontsize=9, color="#475569", fontcolor="#1e293b"];`,
    `  "__initial" [shape=point, width=0.14, label="", color="#0f172a"];`,
  ];
  for (const state of lifecycle.states) {
    const attrs = [`label=${quote(state.name)}`];
    if (state.terminal) attrs.push("peripheries=2");
    if (state.longLived) attrs.push(`style="rounded,dashed"`);
    lines.push(`  ${quote(state.name)} [${attrs.join(", ")}];`);
  }
  lines.push(`  "__initial" -> ${quote(lifecycle.initial)};`);
  for (const t of lifecycle.transitions) {
    let label = t.event;
    if (t.guards.length > 0) label += `\n[${t.guards.map(literalText).join(" and ")}]`;
    if (t.effects.length > 0) label += `\n/ ${t.effects.join(", ")}`;
    lines.push(`  ${quote(t.from)} -> ${quote(t.to)} [label=${quote(label)}];`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

/** Graphviz SVG made fit to inline in HTML: no XML prolog or doctype, scalable, labelled. */
export function inlineSvg(svg: string, labelId: string): string {
  const start = svg.indexOf("<svg");
  if (start < 0) throw new Error("graphviz returned no <svg> element");
  return svg
    .slice(start)
    .replace(/<!--[\s\S]*?-->\s*/g, "")
    .replace(/^<svg\b/, `<svg role="img" aria-labelledby="${labelId}" class="diagram-svg"`)
    .trim();
}
