// The routes of a protocol answered from the spec alone (provider-integration's routes a runtime
// calls, or any protocol of a user's spec): the route is found by method and path, authenticated
// routes require "Authorization: Bearer <key>" (else the route's 401 answer), a declared request
// message is parsed strictly (else its 400 answer), and the 200 answer is the scenario's body for
// the route or the first example of the declared message. Every body sent is one the spec
// declares for that route and status.
import type http from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { Route } from "../model/types.js";
import { headerValues, readBody, sendJson, sendText } from "./http-support.js";
import type { Scenario } from "./scenario.js";
import { responseFor, routeFor, type SpecChecker } from "./spec-answers.js";

/** Largest request body a generic route reads; a longer one is refused as not being its message. */
export const MAX_GENERIC_BODY_BYTES = 1024 * 1024;

export interface GenericRoutes {
  /** Routes answered, and routes left out with why. */
  served: Route[];
  notServed: { route: Route; why: string }[];
  /** Answers the request when a served route matches it; false when none does. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** Answers the route's declared 401 when a served route matches; false when none does. */
  unauthorized(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

/** Why the mock cannot answer `route` from the spec, or undefined when it can. */
function whyNotServed(route: Route, checker: SpecChecker): string | undefined {
  if (!route.path.startsWith("/")) return `its path is configured by the peer (${route.path})`;
  const ok = route.responses.find((r) => r.status >= 200 && r.status < 300) ?? route.responses.find((r) => r.status === 101);
  if (ok === undefined) return "it declares no success answer";
  if (ok.status === 101) return "it is a WebSocket upgrade";
  if (ok.contentType !== undefined && ok.message === undefined) return `its ${ok.status} body has no message in the spec`;
  if (ok.message !== undefined && messageExample(checker, ok.message) === undefined) return `message ${ok.message} has no example to answer with`;
  for (const status of [400, 401]) {
    const r = responseFor(route, status);
    if (r?.message !== undefined && messageExample(checker, r.message) === undefined) return `message ${r.message} (its ${status} answer) has no example`;
  }
  return undefined;
}

/**
 * A route's `auth` is prose ("bearer agent credential", "service-key then identity"): a route that
 * is not "none" and declares a 401 is authenticated, and the mock's stand-in for its mechanism is
 * "Authorization: Bearer <key>", as the conformance kit's.
 */
function authenticated(route: Route): boolean {
  return !/^none\b/i.test(route.auth.trim()) && responseFor(route, 401) !== undefined;
}

function messageExample(checker: SpecChecker, name: string): unknown {
  return checker.protocol.messages.find((m) => m.name === name)?.examples[0];
}

export function genericRoutes(checker: SpecChecker, scenario: Scenario, key: string): GenericRoutes {
  const served: Route[] = [];
  const notServed: { route: Route; why: string }[] = [];
  for (const route of checker.protocol.routes) {
    const why = whyNotServed(route, checker);
    if (why === undefined) served.push(route);
    else notServed.push({ route, why });
  }
  const expected = Buffer.from(`Bearer ${key}`, "latin1");
  const authorized = (req: http.IncomingMessage): boolean => {
    const values = headerValues(req, "authorization");
    if (values.length !== 1) return false;
    const got = Buffer.from(values[0]!, "latin1");
    return got.length === expected.length && timingSafeEqual(got, expected);
  };
  /** The route's declared answer for `status`: its message's example, or an empty body. */
  const declared = (res: http.ServerResponse, route: Route, status: number): void => {
    const r = responseFor(route, status);
    if (r?.message === undefined) return sendText(res, status, "");
    sendJson(res, status, messageExample(checker, r.message));
  };

  async function answer(route: Route, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { body, tooLarge } = await readBody(req, MAX_GENERIC_BODY_BYTES);
    if (authenticated(route) && !authorized(req)) return declared(res, route, 401);
    if (route.request !== undefined) {
      if (tooLarge || checker.parse(route.request, body).length > 0) return declared(res, route, 400);
    }
    const ok = route.responses.find((r) => r.status >= 200 && r.status < 300)!;
    if (ok.message === undefined) return sendText(res, ok.status, "");
    sendJson(res, ok.status, scenario.routes[route.id]?.body ?? messageExample(checker, ok.message));
  }

  return {
    served,
    notServed,
    handle(req, res) {
      const route = routeFor(served, req.method ?? "", req.url ?? "/");
      if (route === undefined) return false;
      answer(route, req, res).catch((e: Error) => {
        if (!res.headersSent) sendText(res, 500, `mock error: ${e.message}`);
        else res.destroy();
      });
      return true;
    },
    unauthorized(req, res) {
      const route = routeFor(served, req.method ?? "", req.url ?? "/");
      if (route === undefined) return false;
      declared(res, route, 401);
      return true;
    },
  };
}
