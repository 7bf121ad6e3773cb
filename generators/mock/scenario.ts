// The mock's scenario file (YAML or JSON): the server state and credential the conformance suite
// names, scripted answers, route bodies and faults (401s, slow answers, dropped connections). It
// is read like a spec file (strict YAML, no duplicate keys, depth limit), after a size check made
// from stat, and checked against SCENARIO_SCHEMA; a route body is checked against the message
// the spec declares for it, so a scenario cannot make the mock answer what the spec forbids.
import { readFileSync, statSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parseSpecText } from "../load/spec-file.js";
import type { JsonValue } from "../model/types.js";
import { responseFor, servedRoutes, type SpecChecker } from "./spec-answers.js";

/** Largest scenario file, checked before it is read. */
export const MAX_SCENARIO_BYTES = 256 * 1024;

export interface FaultMatch {
  method?: string;
  path?: string;
  /** Only the first N requests the rule matches get the fault; every one when absent. */
  times?: number;
}

export type Fault =
  | { match: FaultMatch; unauthorized: true }
  | { match: FaultMatch; slow: { delayMs: number } }
  | { match: FaultMatch; drop: { afterWrites: number } };

export interface Scenario {
  /** One of the conformance suite's serverStates; its default when absent. */
  serverState?: string;
  /** The credential the mock accepts; the suite's default credential when absent. */
  key?: string;
  /** agent-service: answer chunks for a latest user message containing `match` (case-insensitive). */
  replies: { match: string; chunks: string[] }[];
  /** Generic routes: the body of the route's 200 answer, by route id (checked against its message). */
  routes: Record<string, { body: JsonValue }>;
  faults: Fault[];
}

export const EMPTY_SCENARIO: Scenario = { replies: [], routes: {}, faults: [] };

const match = {
  type: "object",
  additionalProperties: false,
  properties: {
    method: { enum: ["GET", "POST", "PUT", "DELETE", "PATCH"] },
    path: { type: "string", pattern: "^/", maxLength: 2048 },
    times: { type: "integer", minimum: 1, maximum: 1000000 },
  },
};

/** The scenario format; every limit a scenario can set is bounded here. */
export const SCENARIO_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    serverState: { type: "string", minLength: 1, maxLength: 100 },
    key: { type: "string", minLength: 1, maxLength: 4096, pattern: "^[\\x21-\\x7e]+$" },
    replies: {
      type: "array",
      maxItems: 100,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["match", "chunks"],
        properties: {
          match: { type: "string", minLength: 1, maxLength: 1000 },
          chunks: { type: "array", minItems: 1, maxItems: 1000, items: { type: "string", minLength: 1, maxLength: 65536 } },
        },
      },
    },
    routes: {
      type: "object",
      maxProperties: 100,
      additionalProperties: { type: "object", additionalProperties: false, required: ["body"], properties: { body: {} } },
    },
    faults: {
      type: "array",
      maxItems: 100,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["match"],
        minProperties: 2,
        maxProperties: 2,
        properties: {
          match,
          unauthorized: { const: true },
          slow: { type: "object", additionalProperties: false, required: ["delayMs"], properties: { delayMs: { type: "integer", minimum: 1, maximum: 60000 } } },
          drop: { type: "object", additionalProperties: false, required: ["afterWrites"], properties: { afterWrites: { type: "integer", minimum: 0, maximum: 1000000 } } },
        },
      },
    },
  },
} as const;

export interface ScenarioProblem {
  file: string;
  line: number;
  column: number;
  pointer: string;
  message: string;
}

/** A scenario that cannot be used, with every problem at file:line:col pointer. */
export class ScenarioError extends Error {
  constructor(readonly problems: readonly ScenarioProblem[]) {
    super(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.pointer || "/"} ${p.message}`).join("\n"));
  }
}

let validateScenario: ReturnType<Ajv2020["compile"]> | undefined;

/**
 * Reads and checks the scenario at `path` for `checker`'s protocol. `serverStates` are the
 * states the protocol's conformance suite declares (empty: the protocol has no suite).
 */
export function loadScenario(path: string, checker: SpecChecker, serverStates: readonly string[]): Scenario {
  const fail = (message: string, pointer = "", line = 1, column = 1): never => {
    throw new ScenarioError([{ file: path, line, column, pointer, message }]);
  };
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) fail("not a regular file");
    size = st.size;
  } catch (error) {
    if (error instanceof ScenarioError) throw error;
    return fail(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (size > MAX_SCENARIO_BYTES) fail(`scenario-too-large: ${size} bytes, the limit is ${MAX_SCENARIO_BYTES}`);
  const parsed = parseSpecText(path, readFileSync(path, "utf8"));
  if (!parsed.ok) throw new ScenarioError(parsed.errors);
  const { value, locate } = parsed.spec;
  const at = (pointer: string, message: string): ScenarioProblem => ({ file: path, ...locate(pointer), pointer, message });
  validateScenario ??= new Ajv2020({ allErrors: true, strict: true }).compile(SCENARIO_SCHEMA);
  if (!validateScenario(value)) {
    throw new ScenarioError((validateScenario.errors ?? []).map((e) => at(e.instancePath, `${e.message ?? "invalid"}${e.params && "additionalProperty" in e.params ? ` (${String(e.params["additionalProperty"])})` : ""}`)));
  }
  const raw = value as Partial<Scenario>;
  const problems: ScenarioProblem[] = [];
  if (raw.serverState !== undefined && !serverStates.includes(raw.serverState)) {
    problems.push(at("/serverState", `unknown server state ${raw.serverState}; known: ${serverStates.join(", ") || "(the protocol has no conformance suite)"}`));
  }
  if ((raw.replies ?? []).length > 0 && checker.protocol.id !== "agent-service") problems.push(at("/replies", "replies script the agent-service workflow stream; this protocol has none"));
  const routes = servedRoutes(checker.protocol);
  for (const [id, { body }] of Object.entries(raw.routes ?? {})) {
    const route = routes.find((r) => r.id === id);
    const pointer = `/routes/${id.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (route === undefined) {
      problems.push(at(pointer, `no route ${id} the mock serves; known: ${routes.map((r) => r.id).join(", ")}`));
      continue;
    }
    const ok = responseFor(route, 200);
    if (ok?.message === undefined) {
      problems.push(at(pointer, `route ${id} declares no message for its 200 answer`));
      continue;
    }
    for (const e of checker.check(ok.message, body)) problems.push(at(`${pointer}/body`, `not a ${ok.message}: ${e}`));
  }
  if (problems.length > 0) throw new ScenarioError(problems);
  return { serverState: raw.serverState, key: raw.key, replies: raw.replies ?? [], routes: raw.routes ?? {}, faults: raw.faults ?? [] };
}
