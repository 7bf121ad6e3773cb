// Usage errors for a protocol or message name the bindings do not have: each names what exists.
import { UsageError } from "./io.js";

export function knownProtocols(messages: readonly { protocol: string }[]): string[] {
  return [...new Set(messages.map((m) => m.protocol))].sort();
}

/** Throws a UsageError listing the known protocols, or the protocol's messages, when the pair is unknown. */
export function checkMessageName(messages: readonly { protocol: string; name: string }[], protocol: string, name: string): void {
  if (messages.some((m) => m.protocol === protocol && m.name === name)) return;
  const known = messages.filter((m) => m.protocol === protocol).map((m) => m.name);
  if (known.length === 0) throw new UsageError(`unknown protocol ${protocol}; known: ${knownProtocols(messages).join(", ")}`);
  throw new UsageError(`unknown message ${name}; ${protocol} has ${known.join(", ")}`);
}
