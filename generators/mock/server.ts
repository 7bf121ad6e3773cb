// `agent-contracts mock`: one protocol's HTTP side on 127.0.0.1, answering as the spec says.
// The protocols the CLI ships have built-in behaviours (agent-service: the whole x-auth admission,
// the workflow SSE stream and the interactions; provider-integration: the notification endpoint
// at /notify; agent-connector: an sdk.http-json.v1 endpoint at /run); every route with a URL path
// and a declared success message is also answered from the spec (generic-routes.ts), which is all
// a protocol of another spec gets. The scenario picks the server state and credential of the
// conformance suite, scripts answers and injects faults.
import { realpathSync } from "node:fs";
import type http from "node:http";
import { CLI_HOME } from "../cli/project.js";
import { loadSuite } from "../conformance/load.js";
import type { Model } from "../model/types.js";
import { agentServiceHandler, agentServiceUnauthorized } from "./agent-service.js";
import { connectorEndpointHandler, connectorUnauthorized } from "./connector-endpoint.js";
import { withFaults } from "./faults.js";
import { genericRoutes } from "./generic-routes.js";
import { listen, sendText, type Running } from "./http-support.js";
import { notificationUnauthorized, providerEndpointHandler, type ProviderState } from "./provider-endpoint.js";
import { EMPTY_SCENARIO, loadScenario, type Scenario } from "./scenario.js";
import { specChecker } from "./spec-answers.js";

export const NOTIFY_PATH = "/notify";
export const CONNECTOR_PATH = "/run";

/** The mock cannot start: the protocol, the spec or the scenario is not one it can serve. */
export class MockError extends Error {}

/** One answer as the handler wrote it (before any fault), for tests and logs. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

export interface MockOptions {
  /** The spec project (a folder holding spec/). */
  root: string;
  model: Model;
  protocol: string;
  port?: number;
  scenarioFile?: string;
  onAnswer?: (answer: RecordedAnswer) => void;
}

export interface RunningMock extends Running {
  /** The URLs a client points at, by what they are ("base", "notification endpoint", ...). */
  endpoints: { name: string; url: string }[];
  serverState: string | undefined;
  key: string;
  notServed: string[];
}

interface Behaviour {
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** Answers the protocol's 401 when the request is one of the behaviour's; false when not. */
  unauthorized(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  endpoints: { name: string; path: string }[];
  stop(): void;
}

const sameFolder = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
};

export async function startMock(options: MockOptions): Promise<RunningMock> {
  const { root, model, protocol } = options;
  if (!model.protocols.some((p) => p.id === protocol)) throw new MockError(`no protocol ${protocol}; known: ${model.protocols.map((p) => p.id).join(", ")}`);
  const checker = specChecker(model, protocol);
  const suite = loadSuite(root, protocol);
  const states = suite.ok ? Object.keys(suite.suite.suite.serverStates) : [];
  const scenario: Scenario = options.scenarioFile === undefined ? EMPTY_SCENARIO : loadScenario(options.scenarioFile, checker, states);
  const serverState = scenario.serverState ?? (suite.ok ? suite.suite.suite.defaultServerState : undefined);
  const key = scenario.key ?? (suite.ok ? suite.suite.suite.credential?.default : undefined) ?? "test-key";
  const generic = genericRoutes(checker, scenario, key);
  const builtIn = sameFolder(root, CLI_HOME) ? builtInBehaviour(protocol, scenario, serverState, key) : undefined;
  if (builtIn === undefined && generic.served.length === 0) {
    throw new MockError(`${protocol} has no HTTP route the mock can answer: ${generic.notServed.map((n) => `${n.route.id} (${n.why})`).join(", ") || "it declares no routes"}`);
  }
  const app: http.RequestListener = (req, res) => {
    if (builtIn?.handle(req, res)) return;
    if (generic.handle(req, res)) return;
    req.resume();
    sendText(res, 404, "no route");
  };
  const unauthorized = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (builtIn?.unauthorized(req, res)) return;
    if (generic.unauthorized(req, res)) return;
    sendText(res, 401, "");
  };
  const running = await listen(withFaults(options.onAnswer ? recording(app, options.onAnswer) : app, scenario.faults, unauthorized), options.port ?? 0);
  const endpoints = [{ name: "base", url: running.url }, ...(builtIn?.endpoints ?? []).map((e) => ({ name: e.name, url: `${running.url}${e.path}` }))];
  return {
    ...running,
    endpoints,
    serverState,
    key,
    notServed: builtIn === undefined || protocol === "provider-integration" ? generic.notServed.filter((n) => !(builtIn && n.route.path.startsWith("{"))).map((n) => `${n.route.id}: ${n.why}`) : [],
    close: async () => {
      builtIn?.stop();
      await running.close();
    },
  };
}

function builtInBehaviour(protocol: string, scenario: Scenario, serverState: string | undefined, key: string): Behaviour | undefined {
  if (protocol === "agent-service") {
    const agent = agentServiceHandler({ key, approvals: serverState !== "approvals-off", replies: scenario.replies });
    return {
      handle: (req, res) => (agent.handle(req, res), true),
      unauthorized: (_req, res) => (agentServiceUnauthorized(res), true),
      endpoints: [],
      stop: agent.stop,
    };
  }
  if (protocol === "provider-integration") {
    const endpoint = providerEndpointHandler({ key, state: (serverState ?? "ready") as ProviderState });
    return {
      handle: (req, res) => ((req.url ?? "").split("?")[0] === NOTIFY_PATH ? (endpoint.handle(req, res), true) : false),
      unauthorized: (req, res) => ((req.url ?? "").split("?")[0] === NOTIFY_PATH ? (notificationUnauthorized(res), true) : false),
      endpoints: [{ name: "notification endpoint", path: NOTIFY_PATH }],
      stop: () => {},
    };
  }
  if (protocol === "agent-connector") {
    const endpoint = connectorEndpointHandler({ secret: key, path: CONNECTOR_PATH });
    return {
      handle: (req, res) => (endpoint.handle(req, res), true),
      unauthorized: (_req, res) => (connectorUnauthorized(res), true),
      endpoints: [{ name: "connector endpoint", path: CONNECTOR_PATH }],
      stop: () => {},
    };
  }
  return undefined;
}

/** Wraps `app` so every answer is reported, whole, when it finishes or is cut. */
function recording(app: http.RequestListener, onAnswer: (a: RecordedAnswer) => void): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    type Write = (chunk?: unknown, ...rest: unknown[]) => unknown;
    const keep = (chunk: unknown): void => {
      if (typeof chunk === "string") chunks.push(Buffer.from(chunk, "utf8"));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    let contentType: string | undefined;
    const writeHead = res.writeHead.bind(res) as Write;
    (res as { writeHead: Write }).writeHead = (status, ...rest) => {
      const headers = rest.find((r) => typeof r === "object" && r !== null) as Record<string, unknown> | undefined;
      const type = headers && Object.entries(headers).find(([k]) => k.toLowerCase() === "content-type")?.[1];
      if (typeof type === "string") contentType = type;
      return writeHead(status, ...rest);
    };
    const write = res.write.bind(res) as Write;
    const end = res.end.bind(res) as Write;
    (res as { write: Write }).write = (chunk, ...rest) => (keep(chunk), write(chunk, ...rest));
    let reported = false;
    (res as { end: Write }).end = (chunk, ...rest) => {
      if (typeof chunk !== "function") keep(chunk);
      if (!reported) {
        reported = true;
        const type = res.getHeader("content-type");
        onAnswer({ method: req.method ?? "", path: req.url ?? "", status: res.statusCode, contentType: contentType ?? (typeof type === "string" ? type : undefined), body: Buffer.concat(chunks) });
      }
      return end(chunk, ...rest);
    };
    app(req, res);
  };
}
