// `agent-contracts mock <protocol>`: a server on loopback answering as the spec says, for SDK tests.
import { parseArgs, UsageError, type Command, type Io } from "./io.js";
import { findSpecRoot } from "./project.js";

export const mockCommand: Command = {
  usage: "mock <protocol> [--spec DIR] [--port N] [--scenario FILE]",
  summary: "Serve a protocol's HTTP side on 127.0.0.1 from the spec, for client tests.",
  help: `
Starts a server on 127.0.0.1 that answers a protocol's HTTP routes as the spec says, prints one
line per URL a client points at ("mock <protocol>: <name> <url>"), then "ready", and serves
until SIGINT or SIGTERM (exit 0). Every answer is one the spec declares for its route and
status; requests are refused as the contract says (wrong credential, malformed bodies, limits).

Protocols the CLI ships:
  agent-service          the agent's routes: x-auth in its order (service key, identity,
                         x-request-id), /version, the workflow SSE stream with a scripted agent
                         ("Show me ticket TKT-1001", "Change TKT-1001 to high" opens the approval
                         interactions), POST /executions/{e}/interactions/{i}/response
  provider-integration   the notification endpoint at <base>/notify, and the routes a runtime
                         calls (connect, whoami, inbox, bookmark, messages) answered with the
                         spec's examples
  agent-connector        an sdk.http-json.v1 connector endpoint at <base>/run
Another spec's protocol (--spec): its routes with a URL path, answered from its examples.
The conformance kit passes every case against it (agent-contracts conformance <protocol> --url
<the printed URL> --server-state <the scenario's state>).

Options:
  --port N           port to listen on (default 0: any free port; the URL is printed)
  --scenario FILE    a scenario (YAML or JSON, at most 256 KiB):
                       serverState: <one of the conformance suite's server states>
                       key: <the credential to accept; default: the suite's default>
                       replies: [{ match: text, chunks: [answer chunk, ...] }]   (agent-service)
                       routes: { <route id>: { body: <the 200 body, checked against its message> } }
                       faults: [{ match: { method, path, times }, unauthorized: true
                                  | slow: { delayMs } | drop: { afterWrites } }]
                     A fault applies to the first "times" requests it matches (all when absent):
                     unauthorized answers the protocol's 401; slow delays every write of the
                     answer; drop closes the connection after that many writes (0: before the
                     response head; an SSE frame is one write, a JSON answer is one).
  --spec DIR         the spec project (default: the nearest project at or above the current
                     folder holding spec/, else the spec the CLI ships with)
Limits: request head 10 s, whole request 30 s, bodies as the contract bounds them (agent-service
2 MiB, interaction answers 16 KiB), 1 MiB on a generic route.`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--spec", "--port", "--scenario"] });
    if (positionals.length !== 1) throw new UsageError("expected exactly one <protocol>");
    const protocol = positionals[0]!;
    const rawPort = flags.get("--port");
    let port = 0;
    if (rawPort !== undefined) {
      if (typeof rawPort !== "string" || !/^[0-9]{1,5}$/.test(rawPort) || Number(rawPort) > 65535) throw new UsageError("--port must be an integer from 0 to 65535");
      port = Number(rawPort);
    }
    const scenario = flags.get("--scenario");
    if (scenario === true) throw new UsageError("--scenario needs a file");
    const { root } = findSpecRoot(io.root, flags.get("--spec"));
    const running = await start(io, root, protocol, port, scenario);
    if (typeof running === "number") return running;
    for (const e of running.endpoints) io.out(`mock ${protocol}: ${e.name} ${e.url}`);
    if (running.serverState !== undefined) io.out(`mock ${protocol}: server state ${running.serverState}`);
    for (const n of running.notServed) io.err(`mock ${protocol}: not served: ${n}`);
    io.out("ready");
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    await running.close();
    return 0;
  },
};

async function start(io: Io, root: string, protocol: string, port: number, scenarioFile: string | undefined) {
  const { loadModel } = await import("../pipeline.js");
  const { startMock, MockError } = await import("../mock/server.js");
  const { ScenarioError } = await import("../mock/scenario.js");
  const { formatSpecError } = await import("./io.js");
  const loaded = loadModel(root);
  if (!loaded.ok) {
    io.err(loaded.errors.slice(0, 20).map(formatSpecError).join("\n"));
    return 1;
  }
  try {
    return await startMock({ root, model: loaded.model, protocol, port, scenarioFile });
  } catch (error) {
    if (error instanceof ScenarioError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof MockError) throw new UsageError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES") throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${code}`);
    throw error;
  }
}
