// The one IR every emitter reads. Built by generators/model/build.ts from checked spec files;
// emitters never look at the disk or at raw YAML.
//
// Leaf modules, re-exported so emitters import the whole model from here. This module and its
// leaves import nothing from a runtime or a target.
import type { ApprovalTokenDeclaration, ContentAddress, CrossFieldRule, InferredFromClients, ReplayDeclaration, SignatureDeclaration } from "./declarations.js";
import type { JsonSchema, JsonValue } from "./json.js";
import type { Lifecycle } from "./lifecycle.js";
import type { Divergence, DocumentRef, SourceLocation } from "./source.js";
import type { ProjectIdentity } from "./project.js";

export type * from "./declarations.js";
export type * from "./json.js";
export type * from "./lifecycle.js";
export type * from "./source.js";
export type { ProjectIdentity } from "./project.js";


export interface ExpectedError {
  instancePath: string;
  keyword: string;
  rule?: string;
}

/**
 * A mutation of a message's first example: the member at `pointer` removed, or replaced by
 * `value`; `expected` is the first error the reference validator reports, or null for "valid".
 */
export interface ValidationCase {
  pointer: string;
  remove: boolean;
  value: JsonValue;
  expected: ExpectedError | null;
}

export interface InvalidExample {
  description: string;
  instance: JsonValue;
  error: ExpectedError;
}

export interface Message {
  kind: "message";
  protocol: string;
  /** Type name in every language; equals the schema title and the file name. */
  name: string;
  id: string;
  description: string;
  /** The schema as authored, minus nothing: emitters decide what they need. */
  schema: JsonSchema;
  examples: JsonValue[];
  invalidExamples: InvalidExample[];
  rules: CrossFieldRule[];
  contentAddress?: ContentAddress;
  signature?: SignatureDeclaration;
  replay?: ReplayDeclaration;
  approvalToken?: ApprovalTokenDeclaration;
  inferredFromClients?: InferredFromClients;
  divergences: Divergence[];
  sources: DocumentRef[];
  /**
   * Differential validation cases over the first example, with the reference validator's verdict
   * (model/validation-cases.ts); empty for a message without examples.
   */
  validationCases: ValidationCase[];
  location: SourceLocation;
}

export interface ConstantItem {
  name: string;
  value: string | number | boolean;
  unit?: string;
  description: string;
}

export interface ConstantGroup {
  group: string;
  kind: string;
  description: string;
  items: ConstantItem[];
}

export interface RouteResponse {
  status: number;
  message?: string;
  contentType?: string;
  description: string;
}

export interface Route {
  id: string;
  method: string;
  path: string;
  auth: string;
  description: string;
  request?: string;
  requestContentType?: string;
  responses: RouteResponse[];
}

export interface Protocol {
  kind: "protocol";
  id: string;
  title: string;
  version: string;
  document: string;
  summary: string;
  transports: { id: string; kind: string; description: string }[];
  constants: ConstantGroup[];
  routes: Route[];
  secrets: { field: string; neverIn: string[]; reason: string }[];
  divergences: Divergence[];
  sections: { title: string; coveredBy: string[] }[];
  /** Top-level x- keys of protocol.yaml (e.g. x-sse), for emitters that know them. */
  extensions: Record<string, JsonValue>;
  messages: Message[];
  /** State machines, filled by the lifecycles stage (generators/lifecycles). */
  lifecycles: Lifecycle[];
  location: SourceLocation;
}

/** A schema shared by all protocols (spec/common). */
export interface SharedSchema {
  id: string;
  name: string;
  schema: JsonSchema;
  location: SourceLocation;
}

export interface Model {
  /** The project's one version (spec/project.yaml), written into every package: project.version. */
  version: string;
  /** The project's identity (spec/project.yaml): package names, $id prefix, docs title. */
  project: ProjectIdentity;
  protocols: Protocol[];
  shared: SharedSchema[];
  /** Every spec file read, relative to the repo root, sorted: the generated headers name them. */
  sourceFiles: string[];
}

/** One file an emitter wants written. Emitters return paths relative to their target folder. */
export interface OutputFile {
  path: string;
  contents: string;
  /** Spec files the contents derive from, for the header. */
  sources: string[];
}
