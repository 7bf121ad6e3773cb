// Words and casings, once for every target: a name in kebab-case, snake_case, camelCase or
// PascalCase splits into the same words, and each casing joins them. The per-language namers
// (targets/ts/naming.ts, targets/kotlin/kotlin-names.ts) add keywords and collision checks on top.

/** `idempotency_mode`, `idempotency-mode`, `IdempotencyMode` -> [idempotency, mode]; `HTTPServer` -> [HTTP, Server]. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `request_id` -> `requestId`, `agent-connector` -> `agentConnector`; an already camelCase name is kept. */
export function camel(name: string): string {
  const [first = "", ...rest] = words(name);
  return first.charAt(0).toLowerCase() + first.slice(1) + rest.map(capitalize).join("");
}

/** `agent-connector` -> `AgentConnector`. */
export function pascal(name: string): string {
  return words(name).map(capitalize).join("");
}

/** `ConnectorPackage` -> `CONNECTOR_PACKAGE`, `event-stream` -> `EVENT_STREAM`. */
export function screamingSnake(name: string): string {
  return words(name).map((w) => w.toUpperCase()).join("_");
}

/**
 * Fails when two spec names map to one identifier in a scope (say `proposal-record` and
 * `proposal_record` both to `proposalRecord`): the generated code would not compile, or worse,
 * one declaration would silently replace the other.
 */
export function assertDistinct(scope: string, names: readonly string[], spell: (name: string) => string): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    const spelled = spell(name);
    const earlier = seen.get(spelled);
    if (earlier !== undefined && earlier !== name) throw new Error(`${scope}: '${earlier}' and '${name}' both become '${spelled}'`);
    seen.set(spelled, name);
  }
}
