// Hostile servers for the conformance kit's own tests: each answers every request on 127.0.0.1
// (port 0) with one misbehaviour and records, per connection, how many bytes it wrote and whether
// the kit closed the socket. Writers respect backpressure (write, wait for "drain") so the
// server's own memory stays small whatever the kit does.
import type http from "node:http";
import { listen, type Running } from "../../generators/mock/http-support.js";

export interface Hostile extends Running {
  /** Resolves when the first connection the kit opened has been closed (by either side). */
  closed: Promise<void>;
  /** Bytes written to the response bodies so far (accepted by the socket, not necessarily read). */
  written(): number;
}

type Writer = (res: http.ServerResponse, alive: () => boolean, count: (n: number) => void) => Promise<void>;

async function start(status: number, headers: Record<string, string>, writer: Writer): Promise<Hostile> {
  let written = 0;
  let markClosed!: () => void;
  const closed = new Promise<void>((r) => (markClosed = r));
  const running = await listen((req, res) => {
    req.resume();
    let alive = true;
    req.socket.on("close", () => {
      alive = false;
      markClosed();
    });
    res.writeHead(status, headers);
    res.flushHeaders();
    writer(res, () => alive && !res.destroyed, (n) => (written += n)).catch(() => undefined);
  });
  return { ...running, closed, written: () => written };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function drained(res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes `unit` again and again, as fast as the socket accepts it, until the peer goes away. */
function endless(unit: string, pauseMs = 0): Writer {
  const chunk = Buffer.from(unit.repeat(Math.max(1, Math.floor(16384 / unit.length))), "utf8");
  return async (res, alive, count) => {
    while (alive()) {
      const piece = pauseMs > 0 ? Buffer.from(unit, "utf8") : chunk;
      const ok = res.write(piece);
      count(piece.length);
      if (pauseMs > 0) await sleep(pauseMs);
      else if (!ok) await drained(res);
    }
  };
}

/** A wrong status, then a body that never ends. */
export const wrongStatusEndlessBody = (): Promise<Hostile> => start(500, { "content-type": "application/json" }, endless('{"x":1}'));

/** The right status, then a body that never ends. */
export const endlessBody = (): Promise<Hostile> => start(200, { "content-type": "application/json" }, endless("[1]"));

const SSE = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** An event stream of comment blocks, forever, as fast as possible. */
export const endlessSseComments = (): Promise<Hostile> => start(200, SSE, endless(": keep-alive\n\n"));

/** An event stream of `[DONE]` answer frames, one every 5 ms, forever (each gap well under any idle timeout). */
export const endlessDone = (): Promise<Hostile> => start(200, SSE, endless("data: [DONE]\n\n", 5));

/** One byte every 500 ms: never idle for long, never done. */
export const trickle = (): Promise<Hostile> => start(200, SSE, endless(":", 500));

/** A data line that never ends: no line separator, no block terminator. */
export const unterminatedBlock = (): Promise<Hostile> => start(200, SSE, async (res, alive, count) => {
  res.write("data: ");
  await endless("x")(res, alive, count);
});

/** Echoes the credential it was sent (and cookies) in a header and a 401 JSON body. */
export async function echoCredentials(): Promise<Hostile> {
  let markClosed!: () => void;
  const closed = new Promise<void>((r) => (markClosed = r));
  const running = await listen((req, res) => {
    req.resume();
    req.socket.on("close", () => markClosed());
    const auth = req.headers.authorization ?? "";
    const key = auth.replace(/^Bearer /, "");
    const body = JSON.stringify({ error: `bad credential ${auth}`, key, headers: { authorization: auth, cookie: "session=s3cr3t-cookie-value" }, raw: `Authorization: ${auth}` });
    res.writeHead(401, { "content-type": "application/json", "x-echo": auth, "set-cookie": "session=s3cr3t-cookie-value" });
    res.end(body);
  });
  return { ...running, closed, written: () => 0 };
}
