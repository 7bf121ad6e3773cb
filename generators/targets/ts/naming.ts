// The TypeScript target's names, in one place: how a protocol id, message name or lifecycle name
// becomes an identifier of generated/ts, which words JavaScript reserves, and which names must
// stay distinct within a module.
import { assertDistinct, camel, pascal, screamingSnake } from "../../emit/case.js";

/**
 * Words that cannot be a binding or namespace name in an ES module (strict mode, ES2022: the
 * reserved words, plus `eval` and `arguments`, which strict code may not bind).
 */
const RESERVED = new Set([
  "arguments", "eval",
  "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
  "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements",
  "import", "in", "instanceof", "interface", "let", "new", "null", "package", "private", "protected",
  "public", "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var",
  "void", "while", "with", "yield",
]);

function binding(kind: string, name: string, spelled: string): string {
  if (spelled === "" || /^[0-9]/.test(spelled)) throw new Error(`TypeScript: ${kind} '${name}' gives no valid identifier ('${spelled}')`);
  if (RESERVED.has(spelled)) throw new Error(`TypeScript: ${kind} '${name}' becomes the reserved word '${spelled}'`);
  return spelled;
}

/** `agent-connector` -> `agentConnector`, the namespace the root index exports the protocol as. */
export function protocolNamespace(protocolId: string): string {
  return binding("protocol", protocolId, camel(protocolId));
}

/** `ConnectorPackage` -> `CONNECTOR_PACKAGE_RULES`, the frozen x-rules table in messages.js. */
export function rulesConstant(messageName: string): string {
  return `${screamingSnake(messageName)}_RULES`;
}

/** `proposal-record` -> `proposalRecord`, the lifecycle's namespace in `<protocol>/lifecycles/index.js`. */
export function lifecycleNamespace(lifecycleName: string): string {
  return binding("lifecycle", lifecycleName, camel(lifecycleName));
}

/** `proposal-record` -> `ProposalRecord`, the prefix of the lifecycle's State/Event/Guard types. */
export function lifecycleTypePrefix(lifecycleName: string): string {
  return pascal(lifecycleName);
}

/** Checks a whole model's worth of names for collisions before anything is emitted. */
export function checkTsNames(protocols: readonly { id: string; lifecycles: readonly { name: string }[] }[]): void {
  assertDistinct("TypeScript root index", protocols.map((p) => p.id), protocolNamespace);
  for (const p of protocols) assertDistinct(`TypeScript ${p.id}/lifecycles`, p.lifecycles.map((l) => l.name), lifecycleNamespace);
}
