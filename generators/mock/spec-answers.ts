// What the spec says an answer must be: the route a request reaches (method and path, path
// parameters in braces), the response the route declares for a status, and a check of a body
// against that response's message. The generic routes answer from it, and the mock's tests hold
// every recorded answer to it.
import type { Model, Protocol, Route, RouteResponse } from "../model/types.js";
import { bindingsOf, type SpecBindings } from "../cli/spec-bindings.js";

/** Routes whose path is a URL path the mock serves itself ("/v1/inbox"), not a URL the peer configures. */
export function servedRoutes(protocol: Protocol): Route[] {
  return protocol.routes.filter((r) => r.path.startsWith("/"));
}

function templateMatches(template: string, path: string): boolean {
  const t = template.split("/");
  const p = path.split("/");
  return t.length === p.length && t.every((part, i) => (/^\{[^}]+\}$/.test(part) ? p[i] !== "" : part === p[i]));
}

/** The route of `method path` (query ignored); literal paths win over templates. */
export function routeFor(routes: readonly Route[], method: string, path: string): Route | undefined {
  const bare = path.split("?")[0]!;
  const candidates = routes.filter((r) => r.method === method && templateMatches(r.path, bare));
  return candidates.find((r) => !r.path.includes("{")) ?? candidates[0];
}

export function responseFor(route: Route, status: number): RouteResponse | undefined {
  return route.responses.find((r) => r.status === status);
}

export interface SpecChecker {
  model: Model;
  protocol: Protocol;
  /** Validation errors of `value` as `message`, or [] when it is one. */
  check(message: string, value: unknown): string[];
  /** Errors of `bytes` parsed strictly (the generated parse<Message>), or [] when they are one. */
  parse(message: string, bytes: Uint8Array): string[];
}

export function specChecker(model: Model, protocolId: string): SpecChecker {
  const protocol = model.protocols.find((p) => p.id === protocolId);
  if (protocol === undefined) throw new Error(`no protocol ${protocolId}`);
  let bindings: SpecBindings | undefined;
  type Verdict = { ok: boolean; errors?: { instancePath: string; message: string }[] };
  const run = (fn: string, message: string, input: unknown): string[] => {
    bindings ??= bindingsOf(model);
    const f = bindings.protocol(protocolId)?.[`${fn}${message}`] as ((v: unknown) => Verdict) | undefined;
    if (f === undefined) return [`${protocolId} has no message ${message}`];
    const r = f(input);
    return r.ok ? [] : (r.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  };
  return {
    model,
    protocol,
    check: (message, value) => run("validate", message, value),
    parse: (message, bytes) => run("parse", message, bytes),
  };
}
