// The data model of spec/<protocol>/conformance/*.yaml (checked by spec/meta/conformance.schema.json).
import type { CaseStats } from "./case-run.js";
import type { FailureCode } from "./failures.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Suite {
  protocol: string;
  title: string;
  description: string;
  target: string;
  credential?: { description: string; default?: string };
  tags: Record<string, string>;
  serverStates: Record<string, string>;
  defaultServerState: string;
  placeholders?: Record<string, string>;
  notCovered?: string[];
}

export interface CaseFile {
  protocol: string;
  group: string;
  title: string;
  description: string;
  role?: "server" | "client";
  cases: Case[] | ClientCase[];
}

/** A scripted endpoint answer and what a client must make of it (role: client files). */
export interface ClientCase {
  id: string;
  title: string;
  description: string;
  tags: string[];
  source?: string[];
  call: { endpoint: string; authSlotId?: string | null; secret?: string | null; outboundDestinations: string[]; request: Json };
  serve: { status: number; headers?: [string, string][]; body?: Json; bodyText?: string; bodyGen?: RequestSpec["bodyGen"] };
  expect: {
    outcome: "completed" | "failed" | "not-sent";
    code?: string;
    retryable?: boolean;
    text?: string;
    sessionRef?: string;
    request?: { headers?: Record<string, FieldExpect>; message?: string; method?: string };
    otherContacted?: boolean;
  };
}

export interface Case {
  id: string;
  title: string;
  description: string;
  tags: string[];
  source?: string[];
  serverStates?: string[];
  steps: Step[];
}

export interface Step {
  note?: string;
  request?: RequestSpec;
  continue?: string;
  close?: string;
  wait?: number;
  expect?: Expect;
  capture?: Record<string, string>;
}

export interface RequestSpec {
  method: string;
  path: string;
  headers?: [string, string][];
  auth?: boolean;
  body?: Json;
  bodyText?: string;
  bodyGen?: { template: Json; pointer: string; unit?: string; repeat?: number; bytes?: number; cycle?: Json[]; count?: number };
  read?: "all" | "until-interaction";
  stream?: string;
}

export type FieldExpect =
  | string
  | number
  | boolean
  | null
  | {
      equals?: Json;
      notEquals?: Json;
      startsWith?: string;
      contains?: string;
      notContains?: string;
      pattern?: string;
      type?: "string" | "number" | "boolean" | "null" | "object" | "array";
      length?: number;
      present?: boolean;
    };

export interface FrameMatch {
  kind?: FrameKind;
  type?: string;
  name?: string;
  namePrefix?: string;
  fields?: Record<string, FieldExpect>;
}

export interface Expect {
  status?: number;
  statusIn?: number[];
  statusNot?: number[];
  statusRange?: [number, number];
  headers?: Record<string, FieldExpect>;
  body?: {
    empty?: boolean;
    text?: string;
    json?: boolean;
    message?: string;
    equals?: Json;
    fields?: Record<string, FieldExpect>;
    notContains?: string[];
    maxBytes?: number;
  };
  sse?: {
    ordering?: boolean;
    stepTypes?: string[];
    contains?: FrameMatch[];
    absent?: FrameMatch[];
    count?: { match: FrameMatch; n?: number; min?: number; max?: number }[];
    answer?: FieldExpect;
    interaction?: Record<string, FieldExpect>;
    ended?: boolean;
  };
  when?: number[];
}

export type FrameKind = "step" | "answer" | "interaction" | "error";

export interface Frame {
  kind: FrameKind;
  /** The message the payload must be (from x-sse). */
  message: string;
  payload: Json;
  raw: string;
}

export interface LoadedSuite {
  protocol: string;
  suite: Suite;
  files: { path: string; file: CaseFile }[];
  cases: (Case & { group: string; file: string })[];
  clientCases: (ClientCase & { group: string; file: string })[];
}

export type CaseStatus = "pass" | "fail" | "skip";

export interface CaseResult {
  id: string;
  title: string;
  group: string;
  tags: string[];
  status: CaseStatus;
  /** Why it failed (the first failed expectation or the bound hit), as a code. */
  code?: FailureCode;
  /** Why it failed or why it was skipped; credentials redacted. */
  detail?: string;
  ms: number;
  /** What the case held in memory at most (not set for skipped cases). */
  stats?: CaseStats;
}
