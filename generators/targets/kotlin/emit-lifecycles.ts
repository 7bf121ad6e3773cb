// Lifecycle machines for the Kotlin bindings: per lifecycle an object with State, Event, Guard
// and Effect enums and the transition table, run by runtime/LifecycleMachine.kt; plus the
// language-neutral paths suites (generators/lifecycles/paths.ts) as test resources. Pure.
import type { Lifecycle } from "../../model/lifecycle.js";
import type { OutputFile, Protocol } from "../../model/types.js";
import { kdoc, lifecycleObjectName, lifecyclePackage, screamingSnake, stringLiteral } from "./kotlin-names.js";


/** Template context of one lifecycle object (templates/lifecycle.kt.hbs). */
export function lifecycleContext(protocol: Protocol, lifecycle: Lifecycle): object {
  const constant = (name: string): string => screamingSnake(name);
  const enumOf = (name: string, doc: string, items: readonly { name: string; description: string }[]) => ({
    name,
    doc: kdoc(doc, "    "),
    values: items.map((item) => ({ constant: constant(item.name), wireLiteral: stringLiteral(item.name), doc: kdoc(item.description, "        ") })),
  });
  const terminal = lifecycle.states.filter((s) => s.terminal).map((s) => `State.${constant(s.name)}`);
  return {
    package: lifecyclePackage(protocol.id),
    objectName: lifecycleObjectName(lifecycle.name),
    doc: kdoc(`${lifecycle.title} (role: ${lifecycle.role}). ${lifecycle.description}`, ""),
    protocolLiteral: stringLiteral(lifecycle.protocol),
    nameLiteral: stringLiteral(lifecycle.name),
    initial: constant(lifecycle.initial),
    terminal: terminal.join(", "),
    mutuallyExclusive: listOrEmpty(lifecycle.mutuallyExclusive.map((group) => `setOf(${group.map((g) => `Guard.${constant(g)}`).join(", ")})`)),
    enums: [
      enumOf("State", "The machine's states; terminal ones refuse every event.", lifecycle.states),
      enumOf("Event", "The events the machine reacts to.", lifecycle.events),
      enumOf("Guard", "Conditions the caller evaluates and passes to `transition`.", lifecycle.guards),
      enumOf("Effect", "Side effects a transition must have.", lifecycle.effects),
    ],
    transitions: lifecycle.transitions.map((t) => ({
      from: constant(t.from),
      event: constant(t.event),
      to: constant(t.to),
      guards: listOrEmpty(t.guards.map((l) => `LifecycleMachine.Literal(Guard.${constant(l.guard)}${l.negated ? ", negated = true" : ""})`)),
      effects: listOrEmpty(t.effects.map((e) => `Effect.${constant(e)}`)),
    })),
  };
}

function listOrEmpty(items: string[]): string {
  return items.length === 0 ? "emptyList()" : `listOf(${items.join(", ")})`;
}
