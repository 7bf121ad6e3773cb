// A reference sdk.http-json.v1 connector endpoint, written against the generated bindings: it
// parses the HttpJsonRequest (parseHttpJsonRequest), checks the Bearer secret when one is
// configured, and answers a validated HttpJsonResponse within MAX_HTTP_RESPONSE_BYTES.
import { timingSafeEqual } from "node:crypto";
import { agentConnector as C } from "../../generated/ts/index.js";
import { headerValues, listen, readBody, sendJson, type Running } from "./http-support.js";

/** The refusal of a wrong secret (any non-2xx fails the run; the body is not part of the contract). */
export function connectorUnauthorized(res: import("node:http").ServerResponse): void {
  sendJson(res, 401, { error: "unauthorized" });
}

export interface ConnectorEndpointOptions {
  /** The auth-slot secret; null accepts requests without authorization. */
  secret?: string | null;
  path?: string;
  variant?: {
    /** Answers every run with a redirect to another path. */
    redirect?: boolean;
    /** Answers sessionRef null (the provider rejects it). */
    nullSessionRef?: boolean;
  };
}

export async function startConnectorEndpoint(options: ConnectorEndpointOptions = {}): Promise<Running & { endpoint: string; runs: number }> {
  const handler = connectorEndpointHandler(options);
  const running = await listen(handler.handle);
  return {
    ...running,
    endpoint: `${running.url}${handler.path}`,
    get runs() {
      return handler.runs;
    },
  };
}

/** The connector endpoint as a request handler, the path it serves and the runs it answered. */
export function connectorEndpointHandler(options: ConnectorEndpointOptions = {}): { handle: import("node:http").RequestListener; path: string; readonly runs: number } {
  const secret = options.secret === undefined ? "test-connector-secret" : options.secret;
  const path = options.path ?? "/run";
  const variant = options.variant ?? {};
  const state = { runs: 0 };
  const handle: import("node:http").RequestListener = (req, res) => {
    void (async () => {
      const { body, tooLarge } = await readBody(req, 2 * C.limits.MAX_PROMPT_BYTES);
      if (req.url !== path) return sendJson(res, 404, { error: "not found" });
      if (req.method !== "POST") return sendJson(res, 405, { error: "method not allowed" });
      if (secret !== null) {
        const auth = headerValues(req, "authorization");
        const expected = Buffer.from(`${C.httpHeaders.AUTHORIZATION_SCHEME} ${secret}`, "latin1");
        const got = Buffer.from(auth[0] ?? "", "latin1");
        if (auth.length !== 1 || got.length !== expected.length || !timingSafeEqual(got, expected)) return connectorUnauthorized(res);
      }
      const parsed = tooLarge ? undefined : C.parseHttpJsonRequest(body);
      if (!parsed || !parsed.ok) return sendJson(res, 400, { error: "not an HttpJsonRequest" });
      if (variant.redirect) {
        res.writeHead(307, { location: `${path}/elsewhere` }).end();
        return;
      }
      state.runs++;
      const request = parsed.value as { prompt: string; sessionRef: string | null };
      const reply: Record<string, unknown> = { text: `Received ${Buffer.byteLength(request.prompt, "utf8")} bytes.`, sessionRef: request.sessionRef ?? `session-${state.runs}` };
      if (variant.nullSessionRef) reply["sessionRef"] = null;
      else {
        const checked = C.validateHttpJsonResponse(reply);
        if (!checked.ok) throw new Error(`invalid HttpJsonResponse ${JSON.stringify(checked.errors[0])}`);
      }
      sendJson(res, 200, reply);
    })().catch((e: Error) => {
      if (!res.headersSent) sendJson(res, 500, { error: e.message });
    });
  };
  return {
    handle,
    path,
    get runs() {
      return state.runs;
    },
  };
}
