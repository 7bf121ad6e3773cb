// <Protocol>Lifecycles.swift: per lifecycle an enum conforming to LifecycleMachine (runtime/
// Lifecycle.swift) with State, Event, Guard and Effect enums and the transition table.
import type { Lifecycle } from "../../model/lifecycle.js";
import { docComment, identifier, lowerCamel, stringLiteral, upperCamel } from "./naming.js";

export function lifecycleTypeName(lifecycle: Lifecycle): string {
  return `${upperCamel(lifecycle.name)}Lifecycle`;
}

function nameEnum(name: string, doc: string, values: { name: string; description: string }[], indent: string): string {
  const lines: string[] = [];
  if (values.length === 0) {
    lines.push(
      docComment(`${doc} (None are declared.)`, indent) + `${indent}public enum ${name}: RawRepresentable, Hashable, CaseIterable, Sendable {`,
      `${indent}    public init?(rawValue: String) {`,
      `${indent}        return nil`,
      `${indent}    }`,
      "",
      `${indent}    public var rawValue: String {`,
      `${indent}        switch self {}`,
      `${indent}    }`,
      `${indent}}`,
    );
    return lines.join("\n");
  }
  lines.push(docComment(doc, indent) + `${indent}public enum ${name}: String, CaseIterable, Codable, Sendable {`);
  for (const v of values) {
    const swift = identifier(lowerCamel(v.name));
    lines.push(docComment(v.description, `${indent}    `) + (swift.replace(/`/g, "") === v.name ? `${indent}    case ${swift}` : `${indent}    case ${swift} = ${stringLiteral(v.name)}`));
  }
  lines.push(`${indent}}`);
  return lines.join("\n");
}

export function renderLifecycles(namespace: string, lifecycles: readonly Lifecycle[]): string {
  const out: string[] = ["import Foundation", "", `extension ${namespace} {`];
  for (const l of lifecycles) {
    const i1 = "        ";
    const member = (name: string): string => `.${identifier(lowerCamel(name))}`;
    out.push(docComment(`${l.title}: ${l.description} Role: ${l.role}.`, "    ") + `    public enum ${lifecycleTypeName(l)}: LifecycleMachine {`);
    out.push(nameEnum("State", "The machine's states; terminal ones refuse every event.", l.states, i1), "");
    out.push(nameEnum("Event", "The events the machine reacts to.", l.events, i1), "");
    out.push(nameEnum("Guard", "Conditions the caller evaluates and passes to `transition`.", l.guards, i1), "");
    out.push(nameEnum("Effect", "Side effects a transition must have.", l.effects, i1), "");
    out.push(`${i1}public static let protocolID = ${stringLiteral(l.protocol)}`);
    out.push(`${i1}public static let name = ${stringLiteral(l.name)}`);
    out.push(`${i1}public static let initial: State = ${member(l.initial)}`);
    const terminal = l.states.filter((s) => s.terminal).map((s) => member(s.name));
    out.push(`${i1}public static let terminalStates: Set<State> = [${terminal.join(", ")}]`);
    out.push(`${i1}/// Groups of guards of which at most one holds at a time (the spec's mutuallyExclusive).`);
    out.push(`${i1}public static let mutuallyExclusive: [Set<Guard>] = [${l.mutuallyExclusive.map((g) => `[${g.map(member).join(", ")}]`).join(", ")}]`);
    out.push(`${i1}public typealias Transition = LifecycleTransition<State, Event, Guard, Effect>`, "");
    out.push(`${i1}public static let transitions: [Transition] = [`);
    for (const t of l.transitions) {
      const guards = t.guards.map((g) => `${g.negated ? ".not" : ".holds"}(${member(g.guard)})`).join(", ");
      const parts = [`from: ${member(t.from)}`, `event: ${member(t.event)}`, `to: ${member(t.to)}`];
      if (t.guards.length > 0) parts.push(`guards: [${guards}]`);
      if (t.effects.length > 0) parts.push(`effects: [${t.effects.map(member).join(", ")}]`);
      out.push(`${i1}    Transition(${parts.join(", ")}),`);
    }
    out.push(`${i1}]`, "    }", "");
  }
  out.push("}", "");
  return out.join("\n");
}
