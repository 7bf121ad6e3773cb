// What a failed case is, as a code a script can switch on, and the limits that make every case end:
// the kit talks to servers it does not trust, so no case may run, or buffer, without a bound.

export type FailureCode =
  /** The server answered, and the answer broke an expectation of the case. */
  | "expectation-failed"
  /** The case as a whole did not finish within the deadline (a trickle, an endless stream, a long wait). */
  | "deadline-exceeded"
  /** No response head (connect included) or no body data for the idle timeout. */
  | "idle-timeout"
  /** A body or an event stream was longer than the body cap. */
  | "body-too-large"
  /** One SSE block (terminated or not, so every line of it too) was longer than the event cap. */
  | "sse-event-too-large"
  /** The connection failed: refused, reset, closed before the response head. */
  | "connection-error"
  /** The request could not be built: a path or header value the HTTP client refuses (control characters). */
  | "request-error"
  /** A bug in the kit or the case file (an exception that is none of the above). */
  | "internal-error";

export class KitFailure extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
  }
}

export interface Limits {
  /** Longest silence: before the response head (connect included) and between body chunks. */
  timeoutMs: number;
  /** Longest a case may take, all steps and waits included. */
  deadlineMs: number;
  /** Largest body, and largest event stream, read per request. */
  maxBodyBytes: number;
  /** Largest SSE block (event), terminated or not; every line lies inside one. */
  maxEventBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  timeoutMs: 30_000,
  deadlineMs: 60_000,
  maxBodyBytes: 8 * 1024 * 1024,
  // The strict parser's default cap: a larger event cannot carry a valid payload anyway.
  maxEventBytes: 4 * 1024 * 1024,
});

const REDACTED = "[redacted]";

/**
 * Removes credentials from a failure line: a server may echo the key it was sent (in a body, a
 * header, an error message), and failure lines end up in CI logs. Redacted: the key itself (raw and
 * JSON-escaped) and any 8+ character prefix of it (details cut bodies short, which could leave a
 * prefix), anything after "Bearer ", and the values of Authorization, Proxy-Authorization, Cookie
 * and Set-Cookie fields, quoted or not.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === "") continue;
    const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1)]);
    for (const form of forms) out = out.split(form).join(REDACTED);
    // A prefix left by truncation: longest first, so a shorter one never splits a longer match.
    for (let n = secret.length - 1; n >= Math.min(8, secret.length); n--) out = out.split(secret.slice(0, n)).join(REDACTED);
  }
  out = out.replace(/\b(Bearer|Basic)(\s+|\\u0020)(?!\[redacted\])[^\s"'\\,;}]+/gi, `$1$2${REDACTED}`);
  // Quoted field values ("authorization":"...", \"cookie\": \"...\").
  out = out.replace(/\b((?:proxy-)?authorization|set-cookie|cookie)(\\*["']?\s*[:=]\s*)(\\*["'])((?:(?!\3).)*)/gi, (_m, name: string, sep: string, quote: string) => `${name}${sep}${quote}${REDACTED}`);
  // Unquoted header lines (Cookie: a=b; c=d).
  out = out.replace(/\b((?:proxy-)?authorization|set-cookie|cookie)(\s*:\s*)(?![\s\\"']|\[redacted\])[^\r\n"\\]+/gi, `$1$2${REDACTED}`);
  return out;
}
