// The sdk.http-json.v1 client rules, as a module a test (or a Node host) can call: the endpoint
// is https and its origin declared, one POST of the HttpJsonRequest as JSON (Bearer secret only
// with an auth slot), redirects refused and never followed, the reply read up to 4 MiB, parsed
// and validated as an HttpJsonResponse; non-2xx is AGENT_CONNECTOR_HTTP_FAILED (retryable from
// 500). `resolve` maps the declared https origin to the address actually dialled (like curl
// --resolve), so the rules can be exercised against a plain-HTTP server on 127.0.0.1.
import http from "node:http";
import https from "node:https";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

export interface HttpJsonCall {
  endpoint: string;
  authSlotId?: string | null;
  secret?: string | null;
  outboundDestinations: string[];
  request: unknown;
  /** The base URL (scheme, host, port) the declared origin is dialled at; default: the origin itself. */
  resolve?: (origin: string) => string;
  timeoutMs?: number;
}

export type HttpJsonOutcome =
  | { outcome: "completed"; text: string; sessionRef: string }
  | { outcome: "failed"; code: string; retryable: boolean; reason: string }
  | { outcome: "not-sent"; code: string; reason: string };

export type HttpJsonClient = (call: HttpJsonCall) => Promise<HttpJsonOutcome>;

interface ConnectorBindings {
  agentConnector: {
    validateHttpJsonProviderConfig(v: unknown): { ok: boolean };
    validateHttpJsonRequest(v: unknown): { ok: boolean; errors?: { instancePath: string; message: string }[] };
    parseHttpJsonResponse(input: Uint8Array): { ok: true; value: { text: string; sessionRef?: string } } | { ok: false; errors: { message: string }[] };
    limits: { MAX_HTTP_RESPONSE_BYTES: number; MAX_PROMPT_BYTES: number };
    httpJsonErrorCodes: { HTTP_FAILED: string; HTTP_RESPONSE_INVALID: string; OUTBOUND_DESTINATION_UNSUPPORTED: string };
    httpHeaders: { CONTENT_TYPE: string; AUTHORIZATION_SCHEME: string };
  };
}

/** Not in the spec's httpJsonErrorCodes: the provider's code for any other failure (a redirect, a network error). */
export const UPSTREAM_FAILED = "AGENT_CONNECTOR_UPSTREAM_FAILED";

export async function createHttpJsonClient(root: string): Promise<HttpJsonClient> {
  const entry = `${root}/generated/ts/index.js`;
  if (!existsSync(entry)) throw new Error("generated/ts is missing: run `make` first");
  const { agentConnector: C } = (await import(pathToFileURL(entry).href)) as ConnectorBindings;
  const codes = C.httpJsonErrorCodes;

  return async (call) => {
    if (!C.validateHttpJsonProviderConfig({ endpoint: call.endpoint, authSlotId: call.authSlotId ?? null }).ok) {
      return { outcome: "not-sent", code: codes.OUTBOUND_DESTINATION_UNSUPPORTED, reason: "the endpoint is not an https URL without credentials, query or fragment" };
    }
    const url = new URL(call.endpoint);
    const declared = call.outboundDestinations.some((d) => {
      try {
        return new URL(d).origin === url.origin;
      } catch {
        return false;
      }
    });
    if (!declared) return { outcome: "not-sent", code: codes.OUTBOUND_DESTINATION_UNSUPPORTED, reason: `origin ${url.origin} is not declared` };
    const req = call.request as { prompt: string; sessionRef: string | null; resume: unknown; permissionMode: string; operationId: string };
    const valid = C.validateHttpJsonRequest(req);
    if (!valid.ok) throw new TypeError(`not an HttpJsonRequest: ${JSON.stringify(valid.errors?.[0])}`);
    if (Buffer.byteLength(req.prompt, "utf8") > C.limits.MAX_PROMPT_BYTES) throw new TypeError("prompt over MAX_PROMPT_BYTES");
    const body = Buffer.from(JSON.stringify({ prompt: req.prompt, sessionRef: req.sessionRef || null, resume: req.resume, permissionMode: req.permissionMode, operationId: req.operationId }), "utf8");
    const headers: Record<string, string> = { "content-type": C.httpHeaders.CONTENT_TYPE, "content-length": String(body.length) };
    if (call.authSlotId && call.secret) headers["authorization"] = `${C.httpHeaders.AUTHORIZATION_SCHEME} ${call.secret}`;
    const target = new URL(call.resolve ? call.resolve(url.origin) : url.origin);
    const lib = target.protocol === "https:" ? https : http;
    const max = C.limits.MAX_HTTP_RESPONSE_BYTES;

    return new Promise<HttpJsonOutcome>((resolve) => {
      const r = lib.request(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          path: url.pathname,
          method: "POST",
          headers: { ...headers, host: url.host },
          agent: false,
          timeout: call.timeoutMs ?? 30_000,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            res.destroy();
            return resolve({ outcome: "failed", code: UPSTREAM_FAILED, retryable: false, reason: `redirect ${status} refused` });
          }
          if (status < 200 || status >= 300) {
            res.destroy();
            return resolve({ outcome: "failed", code: codes.HTTP_FAILED, retryable: status >= 500, reason: `status ${status}` });
          }
          const parts: Buffer[] = [];
          let size = 0;
          let over = false;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > max) {
              over = true;
              res.destroy();
              resolve({ outcome: "failed", code: codes.HTTP_RESPONSE_INVALID, retryable: false, reason: `reply over ${max} bytes` });
            } else parts.push(c);
          });
          res.on("end", () => {
            if (over) return;
            const parsed = C.parseHttpJsonResponse(Buffer.concat(parts));
            if (!parsed.ok) return resolve({ outcome: "failed", code: codes.HTTP_RESPONSE_INVALID, retryable: false, reason: parsed.errors[0]?.message ?? "invalid reply" });
            resolve({ outcome: "completed", text: parsed.value.text, sessionRef: parsed.value.sessionRef || "" });
          });
          res.on("error", () => {
            if (!over) resolve({ outcome: "failed", code: UPSTREAM_FAILED, retryable: false, reason: "reply interrupted" });
          });
        },
      );
      // The socket timeout only starts once connected and only measures silence: this one bounds
      // the whole call (connect, request, a trickled reply).
      const total = call.timeoutMs ?? 30_000;
      const deadline = setTimeout(() => r.destroy(new Error(`no complete reply within ${total} ms`)), total);
      r.on("close", () => clearTimeout(deadline));
      r.on("timeout", () => r.destroy(new Error("timeout")));
      r.on("error", (e) => resolve({ outcome: "failed", code: UPSTREAM_FAILED, retryable: false, reason: e.message }));
      r.end(body);
    });
  };
}
