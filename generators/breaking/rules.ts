// The breaking-change rules as data: `breaking --list-rules` and the docs site print this table,
// and every finding names one of these ids. Categories run from strictest to most lenient.

export const CATEGORIES = ["SOURCE", "WIRE", "SECURITY", "LIFECYCLE"] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_PURPOSE: Record<Category, string> = {
  SOURCE: "Code written against the generated TypeScript, Kotlin or Swift API stops compiling.",
  WIRE: "A peer on the old spec and a peer on the new one disagree on some JSON instance, in either direction.",
  SECURITY: "Existing signatures, content ids or approval tokens stop verifying, or replay protection changes meaning.",
  LIFECYCLE: "A peer on the old state machine makes a move the new one refuses, or ends in a state the other does not.",
};

export interface Rule {
  id: string;
  category: Category;
  purpose: string;
}

const rule = (id: string, category: Category, purpose: string): Rule => ({ id, category, purpose });

export const RULES: readonly Rule[] = [
  rule("SOURCE_TYPE_REMOVED", "SOURCE", "A message or titled schema (a generated type) was removed or renamed."),
  rule("SOURCE_FIELD_REMOVED", "SOURCE", "A property of a generated type was removed or renamed."),
  rule("SOURCE_FIELD_TYPE_CHANGED", "SOURCE", "A property's language type changed (JSON type, integer/number, referenced type, enum, array item type)."),
  rule("SOURCE_FIELD_MADE_REQUIRED", "SOURCE", "A property became required, or a required property was added: constructors gain a mandatory parameter."),
  rule("SOURCE_ENUM_CASE_REMOVED", "SOURCE", "A value of an enum (a generated enum case) was removed."),
  rule("SOURCE_CONSTANT_REMOVED", "SOURCE", "A constant of protocol.yaml (a generated const) was removed or renamed."),
  rule("SOURCE_LIFECYCLE_REMOVED", "SOURCE", "A lifecycle machine (its generated state and event types) was removed."),
  rule("SOURCE_STATE_REMOVED", "SOURCE", "A lifecycle state (a generated state case) was removed or renamed."),
  rule("SOURCE_EVENT_REMOVED", "SOURCE", "A lifecycle event (a generated event case) was removed or renamed."),
  rule("WIRE_MESSAGE_REMOVED", "WIRE", "A message schema was removed: new readers have nothing to accept what old writers send."),
  rule("WIRE_FIELD_REMOVED", "WIRE", "A property was removed from a closed object: new readers reject old instances that carry it."),
  rule("WIRE_PROPERTY_ADDED_CLOSED", "WIRE", "A property was added to a closed object: old readers reject new instances that carry it."),
  rule("WIRE_REQUIRED_ADDED", "WIRE", "A property became required (or was added as required): new readers reject old instances without it."),
  rule("WIRE_REQUIRED_REMOVED", "WIRE", "A required property became optional: old readers reject new instances without it."),
  rule("WIRE_OBJECT_CLOSED", "WIRE", "additionalProperties was closed: new readers reject the extra properties old writers may send."),
  rule("WIRE_OBJECT_OPENED", "WIRE", "additionalProperties was opened: old readers reject the extra properties new writers may send."),
  rule("WIRE_TYPE_CHANGED", "WIRE", "The JSON type set was narrowed or widened (including integer versus number)."),
  rule("WIRE_ENUM_VALUE_REMOVED", "WIRE", "An enum value was removed (or an enum introduced): new readers reject what old writers send."),
  rule("WIRE_ENUM_VALUE_ADDED", "WIRE", "An enum value was added (or the enum dropped): old readers reject what new writers send."),
  rule("WIRE_CONST_CHANGED", "WIRE", "A const was changed, added or removed."),
  rule("WIRE_DISCRIMINATOR_CHANGED", "WIRE", "A discriminated union's property, or the set of its branch values, changed."),
  rule("WIRE_PATTERN_CHANGED", "WIRE", "A string pattern admits other strings (decided on automata for the regular subset; a pattern outside it, with lookaround or \\b, is not provably included)."),
  rule("WIRE_FORMAT_CHANGED", "WIRE", "A string format was changed, added or removed."),
  rule("WIRE_BOUND_TIGHTENED", "WIRE", "A length, size, count or numeric range was tightened: new readers reject some old instances."),
  rule("WIRE_BOUND_LOOSENED", "WIRE", "A length, size, count or numeric range was loosened: old readers reject some new instances."),
  rule("WIRE_REF_CHANGED", "WIRE", "A $ref now names another schema that accepts different instances."),
  rule("WIRE_RULE_CHANGED", "WIRE", "An x-rules cross-field rule was added, changed or removed (its message text aside): one side refuses instances the other accepts."),
  rule("WIRE_CONSTANT_CHANGED", "WIRE", "A protocol.yaml constant's value changed (a header name, route, limit or fixed text): peers send and expect different values."),
  rule("WIRE_SCHEMA_CHANGED", "WIRE", "A keyword outside the compared subset (allOf, if/then, not, contains, ...) changed: not provably compatible."),
  rule("SECURITY_SIGNATURE_CHANGED", "SECURITY", "An x-signature declaration changed (covered fields, their order, a hashed field, the algorithm, the key)."),
  rule("SECURITY_CONTENT_ADDRESS_CHANGED", "SECURITY", "An x-content-address declaration changed: every existing content id changes."),
  rule("SECURITY_APPROVAL_TOKEN_CHANGED", "SECURITY", "An x-approval-token declaration or the token's claim set changed."),
  rule("SECURITY_REPLAY_CHANGED", "SECURITY", "An x-replay declaration (key, scope, expiry fields, skew) changed."),
  rule("LIFECYCLE_REMOVED", "LIFECYCLE", "A lifecycle machine was removed."),
  rule("LIFECYCLE_STATE_REMOVED", "LIFECYCLE", "A state was removed: a peer may be in, or move to, a state the other does not know."),
  rule("LIFECYCLE_TRANSITION_REMOVED", "LIFECYCLE", "A transition (from, event) was removed or now leads to another state."),
  rule("LIFECYCLE_GUARD_ADDED", "LIFECYCLE", "A guard was added to an existing transition: moves the old machine allows are refused."),
  rule("LIFECYCLE_TERMINAL_CHANGED", "LIFECYCLE", "A terminal state became non-terminal or the reverse."),
  rule("LIFECYCLE_INITIAL_CHANGED", "LIFECYCLE", "The initial state changed."),
];

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

/** Enforcing a category enforces it and every more lenient one after it. */
export function enforcedCategories(category: Category): Category[] {
  return CATEGORIES.slice(CATEGORIES.indexOf(category));
}
