// A reference provider notification endpoint (provider-integration route notifyProvider), written
// against the generated bindings: parseNotificationEvent, validateNotificationAcceptance, the
// notificationResults-shaped answers. The kit's stand-in authentication is "Bearer <key>".
import { timingSafeEqual } from "node:crypto";
import { providerIntegration as P } from "../../generated/ts/index.js";
import { headerValues, listen, readBody, sendJson, type Running } from "./http-support.js";

/** NotificationAuthenticationFailed (also what a scenario's `unauthorized` fault sends). */
export function notificationUnauthorized(res: import("node:http").ServerResponse): void {
  const body = { result: P.notificationResults.AUTHENTICATION_FAILED };
  const checked = P.validateNotificationAcceptance(body);
  if (!checked.ok) throw new Error(`invalid NotificationAcceptance ${JSON.stringify(checked.errors[0])}`);
  sendJson(res, 401, body);
}

export type ProviderState = "ready" | "integration-disabled" | "runtime-missing";

export interface ProviderEndpointOptions {
  key?: string;
  state?: ProviderState;
  variant?: {
    /** Forgets event ids: a retried notification is scheduled again, never answered as a duplicate. */
    noDedupe?: boolean;
    /** Validates the body before authenticating (an unauthenticated bad body gets 400). */
    bodyBeforeAuth?: boolean;
  };
}

export interface RunningProviderEndpoint extends Running {
  /** Event ids the runtime was scheduled for, in order. */
  scheduled: string[];
}

export async function startProviderEndpoint(options: ProviderEndpointOptions = {}): Promise<RunningProviderEndpoint> {
  const handler = providerEndpointHandler(options);
  return { ...(await listen(handler.handle)), scheduled: handler.scheduled };
}

/** The notification endpoint as a request handler, and the event ids it scheduled. */
export function providerEndpointHandler(options: ProviderEndpointOptions = {}): { handle: import("node:http").RequestListener; scheduled: string[] } {
  const expected = Buffer.from(`Bearer ${options.key ?? "test-notification-key"}`, "latin1");
  const state = options.state ?? "ready";
  const variant = options.variant ?? {};
  const seen = new Set<string>();
  const scheduled: string[] = [];

  const answer = (res: import("node:http").ServerResponse, status: number, body: Record<string, unknown>): void => {
    const checked = P.validateNotificationAcceptance(body);
    if (!checked.ok) throw new Error(`invalid NotificationAcceptance ${JSON.stringify(checked.errors[0])}`);
    sendJson(res, status, body);
  };

  const handle: import("node:http").RequestListener = (req, res) => {
    void (async () => {
      const { body, tooLarge } = await readBody(req, 64 * 1024);
      const auth = headerValues(req, "authorization");
      const got = Buffer.from(auth[0] ?? "", "latin1");
      const authenticated = auth.length === 1 && got.length === expected.length && timingSafeEqual(got, expected);
      const parsed = tooLarge ? undefined : P.parseNotificationEvent(body);
      const badBody = req.method !== "POST" || !parsed || !parsed.ok;
      if (variant.bodyBeforeAuth && badBody) return sendJson(res, 400, { error: "not a NotificationEvent" });
      if (!authenticated) return notificationUnauthorized(res);
      if (badBody) return sendJson(res, 400, { error: "not a NotificationEvent" });
      const event = (parsed as { ok: true; value: { event_id: string } }).value;
      if (state === "integration-disabled") return answer(res, 403, { result: "disabled_integration", event_id: event.event_id });
      if (state === "runtime-missing") return answer(res, 503, { result: "missing_runtime", event_id: event.event_id });
      if (seen.has(event.event_id) && !variant.noDedupe) return answer(res, 202, { result: "accepted", event_id: event.event_id, duplicate: true });
      seen.add(event.event_id);
      scheduled.push(event.event_id);
      answer(res, 202, { result: "accepted", event_id: event.event_id });
    })().catch((e: Error) => {
      if (!res.headersSent) sendJson(res, 500, { error: e.message });
    });
  };
  return { handle, scheduled };
}
