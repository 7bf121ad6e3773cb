// Where spec items come from and what a defect in them looks like: the leaf types every other
// model module (types.ts, lifecycle.ts) builds on.
import type { JsonValue } from "./json.js";

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
