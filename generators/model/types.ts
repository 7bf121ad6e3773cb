// The one IR every emitter reads. Built by generators/model/build.ts from checked spec files;
// emitters never look at the disk or at raw YAML.
import type { Lifecycle } from "../lifecycles/types.js";
import type { ContentAddressDeclaration as ContentAddress } from "../targets/ts/runtime/src/content-address.js";
import type { CrossFieldRule } from "../targets/ts/runtime/src/rules.js";

/** Where a spec item came from, so errors and generated headers can name it. */
export interface SourceLocation {
  /** Path relative to the repository root, e.g. `spec/agent-connector/messages/ConnectorPackage.yaml`. */
  file: string;
  /** JSON pointer inside the file. */
  pointer: string;
  line: number;
  column: number;
}

/** A defect in the spec. Printed as `file:line:col pointer message [lint]`. */
export interface SpecError {
  file: string;
  line: number;
  column: number;
  pointer: string;
  message: string;
  lint: string;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchema = { [key: string]: JsonValue };

export interface ExpectedError {
  instancePath: string;
  keyword: string;
  rule?: string;
}

export interface InvalidExample {
  description: string;
  instance: JsonValue;
  error: ExpectedError;
}

// The rule kinds and the content-address declaration are defined once, in the TS runtime that
// evaluates them (it ships without the generator, so it cannot import from here).
export type { CrossFieldRule } from "../targets/ts/runtime/src/rules.js";
export type { ContentAddressDeclaration as ContentAddress } from "../targets/ts/runtime/src/content-address.js";
export interface Divergence {
  id: string;
  summary: string;
  rule: string;
  implementations: { name: string; behaviour: string }[];
  /** A platform's JSON writer, as data the signature doctor replays (never used to accept). */
  canonicalization?: JsonValue;
}

export interface DocumentRef {
  document: string;
  section: string;
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
  divergences: Divergence[];
  sources: DocumentRef[];
  /** Every other x- annotation, keyed by its name, for the emitters of later issues. */
  annotations: Record<string, JsonValue>;
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
