// Case conversion, once for every target: words from kebab-case, snake_case and camelCase names,
// and the casings the languages use. The per-language namers (targets/<id>/naming) add keywords,
// acronyms and collisions on top of these.

/** `agent-connector` -> `agentConnector`, `request_id` -> `requestId`. */
export function camel(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `agent-connector` -> `AgentConnector`. */
export function pascal(name: string): string {
  const c = camel(name);
  return c.charAt(0).toUpperCase() + c.slice(1);
}

/** `ConnectorPackage` -> `CONNECTOR_PACKAGE`, `request_id` -> `REQUEST_ID`, `not-started` -> `NOT_STARTED`. */
export function screamingSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[-\s]+/g, "_").toUpperCase();
}
