// The scenario's faults, applied around the mock's handler: the first rule a request matches
// (method, path without its query, and how many times) answers 401 as the protocol does, slows
// every write of the answer, or drops the connection after a number of writes (0: before the
// response head). The handler below never knows: what it writes is still checked and recorded.
import type http from "node:http";
import type { Fault } from "./scenario.js";

type Write = (chunk?: unknown, ...rest: unknown[]) => unknown;

function matches(fault: Fault, req: http.IncomingMessage): boolean {
  const m = fault.match;
  if (m.method !== undefined && m.method !== req.method) return false;
  return m.path === undefined || m.path === (req.url ?? "/").split("?")[0];
}

/** Delays every write and the end of `res` by `delayMs`, in order. */
function slowDown(res: http.ServerResponse, delayMs: number): void {
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as Write;
  let chain = Promise.resolve();
  const later = (f: () => void): void => {
    chain = chain.then(() => new Promise<void>((resolve) => setTimeout(resolve, delayMs).unref())).then(() => {
      if (!res.destroyed) f();
    });
  };
  (res as { write: Write }).write = (...args) => {
    later(() => write(...args));
    return true;
  };
  (res as { end: Write }).end = (...args) => {
    later(() => end(...args));
    return res;
  };
}

/**
 * Lets `afterWrites` writes through (the head goes with the first), then closes the connection
 * once they are flushed, in the middle of the body: the client sees the answer cut short.
 */
function dropAfter(req: http.IncomingMessage, res: http.ServerResponse, afterWrites: number): void {
  if (afterWrites === 0) {
    req.socket.destroy();
    return;
  }
  let writes = 0;
  let dropped = false;
  const drop = (): void => {
    if (!dropped) req.socket.destroySoon();
    dropped = true;
  };
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as Write;
  (res as { write: Write }).write = (...args) => {
    if (dropped || ++writes > afterWrites) return (drop(), false);
    return write(...args);
  };
  // The end (with or without a last chunk) after afterWrites writes is replaced by the drop; a
  // JSON answer is one end(body), so it goes through whole unless afterWrites is 0.
  (res as { end: Write }).end = (...args) => {
    if (dropped || writes >= afterWrites) return (drop(), res);
    return end(...args);
  };
}

export function withFaults(
  handler: http.RequestListener,
  faults: readonly Fault[],
  unauthorized: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): http.RequestListener {
  const used = faults.map(() => 0);
  return (req, res) => {
    const i = faults.findIndex((f, n) => matches(f, req) && (f.match.times === undefined || used[n]! < f.match.times));
    if (i < 0) return handler(req, res);
    used[i]!++;
    const fault = faults[i]!;
    if ("unauthorized" in fault) {
      req.resume();
      return unauthorized(req, res);
    }
    if ("slow" in fault) slowDown(res, fault.slow.delayMs);
    else {
      dropAfter(req, res, fault.drop.afterWrites);
      if (fault.drop.afterWrites === 0) return;
    }
    return handler(req, res);
  };
}
