// The project's identity and policy (spec/project.yaml, shape in spec/meta/project.schema.json):
// the names every target writes its package under, the $id prefix of the schemas, and which of
// the optional policy lints run. No target names this repository's packages itself: they all read
// them from here, so a spec project of another team gets its own names everywhere.
import type { JsonValue } from "./json.js";

export interface ProjectIdentity {
  /** Docs site title, README headings. */
  name: string;
  /** Semantic version written into every package. */
  version: string;
  /** `$id` prefix: spec/<protocol>/messages/<Name>.yaml has `$id` `<schemaBase><protocol>/<Name>.json`. */
  schemaBase: string;
  packages: {
    npm: string;
    maven: { groupId: string; artifactId: string; package: string };
    swift: { package: string; module: string };
  };
}

/** A lint that states this repository's policy rather than a rule of the spec format: off unless spec/project.yaml switches it on. */
export interface PolicyLint {
  id: PolicyLintId;
  summary: string;
  defaultOn: false;
}

export type PolicyLintId = "document-file-name" | "x-source-required" | "x-invalid-examples-required" | "section-coverage";

export const POLICY_LINTS: readonly PolicyLint[] = [
  { id: "document-file-name", summary: "protocol.yaml's document and every x-source document is a NNN_<16 hex>.txt file name (x-source also research/<name>.md)", defaultOn: false },
  { id: "x-source-required", summary: "every message file and lifecycle machine carries x-source: where in the source document it comes from", defaultOn: false },
  { id: "x-invalid-examples-required", summary: "every message file carries at least one x-invalid-examples entry", defaultOn: false },
  { id: "section-coverage", summary: "protocol.yaml has sections, and they name every message and lifecycle of the protocol", defaultOn: false },
];

export type PolicyLints = ReadonlySet<PolicyLintId>;

/** The identity of a checked project file (its shape was validated against the meta-schema). */
export function projectIdentity(value: JsonValue | undefined): ProjectIdentity {
  const project = (value as { project?: ProjectIdentity } | null | undefined)?.project;
  if (project === undefined) throw new Error("spec/project.yaml has no project: the check stage should have refused it");
  return project;
}

/** The policy lints spec/project.yaml switches on; none for a tree without one. */
export function enabledPolicyLints(value: JsonValue | undefined): PolicyLints {
  const lints = (value as { lints?: Record<string, boolean> } | null | undefined)?.lints ?? {};
  return new Set(POLICY_LINTS.filter((lint) => lints[lint.id] ?? lint.defaultOn).map((lint) => lint.id));
}
