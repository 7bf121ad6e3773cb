// src/<protocol>/lifecycles.rs: per lifecycle a module holding State, Event, Guard and Effect enums
// and a machine type implementing runtime::lifecycle::LifecycleMachine (its transition table);
// `transition` returns Result<Transitioned, Refused>.
import type { Lifecycle } from "../../model/lifecycle.js";
import { docComment, identifier, snakeCase, stringLiteral, uniqueNames, upperCamel } from "./naming.js";

export function lifecycleTypeName(lifecycle: Lifecycle): string {
  return `${upperCamel(lifecycle.name)}Lifecycle`;
}

function nameEnum(name: string, doc: string, values: readonly { name: string; description: string }[]): string[] {
  const variants = uniqueNames(values.map((v) => upperCamel(v.name)), "");
  const out = [docComment(doc, "    ") + "    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]", `    pub enum ${name} {`];
  values.forEach((v, i) => out.push(docComment(v.description, "        ") + `        ${variants[i]},`));
  out.push("    }", "");
  out.push(`    impl LifecycleName for ${name} {`);
  out.push(`        const ALL: &'static [Self] = &[${variants.map((v) => `Self::${v}`).join(", ")}];`, "");
  out.push("        fn as_str(self) -> &'static str {");
  if (values.length === 0) out.push("            match self {}");
  else out.push("            match self {", ...values.map((v, i) => `                Self::${variants[i]} => ${stringLiteral(v.name)},`), "            }");
  out.push("        }", "    }", "");
  return out;
}

export function renderLifecycles(lifecycles: readonly Lifecycle[]): string {
  // GuardLiteral only where a transition has a guard, so clippy's unused-import lint holds.
  const guarded = lifecycles.some((l) => l.transitions.some((t) => t.guards.length > 0));
  const out: string[] = [`use crate::runtime::lifecycle::{${guarded ? "GuardLiteral, " : ""}LifecycleMachine, LifecycleName, Transition};`, ""];
  for (const l of lifecycles) {
    const module = identifier(snakeCase(l.name));
    const machine = lifecycleTypeName(l);
    const variant = (name: string): string => upperCamel(name);
    out.push(docComment(`${l.title}: ${l.description} Role: ${l.role}.`, "") + `pub mod ${module} {`, "    use super::*;", "");
    out.push(...nameEnum("State", "The machine's states; terminal ones refuse every event.", l.states));
    out.push(...nameEnum("Event", "The events the machine reacts to.", l.events));
    out.push(...nameEnum("Guard", "Conditions the caller evaluates and passes to `transition`.", l.guards));
    out.push(...nameEnum("Effect", "Side effects a transition must have.", l.effects));
    out.push(docComment(`${l.title} (spec/${l.protocol}/lifecycles/${l.name}.machine.yaml).`, "    ") + `    pub struct ${machine};`, "");
    out.push(`    impl ${machine} {`, "        /// Groups of guards of which at most one holds at a time (the spec's mutuallyExclusive).", `        pub const MUTUALLY_EXCLUSIVE: &'static [&'static [Guard]] = &[${l.mutuallyExclusive.map((g) => `&[${g.map((n) => `Guard::${variant(n)}`).join(", ")}]`).join(", ")}];`, "    }", "");
    out.push(`    impl LifecycleMachine for ${machine} {`);
    out.push("        type State = State;", "        type Event = Event;", "        type Guard = Guard;", "        type Effect = Effect;");
    out.push(`        const PROTOCOL: &'static str = ${stringLiteral(l.protocol)};`, `        const NAME: &'static str = ${stringLiteral(l.name)};`);
    out.push(`        const INITIAL: State = State::${variant(l.initial)};`);
    out.push(`        const TERMINAL: &'static [State] = &[${l.states.filter((s) => s.terminal).map((s) => `State::${variant(s.name)}`).join(", ")}];`);
    out.push("        const TRANSITIONS: &'static [Transition<State, Event, Guard, Effect>] = &[");
    for (const t of l.transitions) {
      const guards = t.guards.map((g) => `GuardLiteral { guard: Guard::${variant(g.guard)}, negated: ${g.negated} }`).join(", ");
      out.push(`            Transition { from: State::${variant(t.from)}, event: Event::${variant(t.event)}, to: State::${variant(t.to)}, guards: &[${guards}], effects: &[${t.effects.map((e) => `Effect::${variant(e)}`).join(", ")}] },`);
    }
    out.push("        ];", "    }", "}", "");
  }
  return out.join("\n");
}
