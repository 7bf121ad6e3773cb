// Stage 3: turn checked spec files into the one IR (types.ts) every emitter reads.
import type { Lifecycle } from "./lifecycle.js";
import type { LoadedSpec } from "../load/load-spec.js";
import { projectIdentity } from "./project.js";
import type { SpecFile } from "../load/spec-file.js";
import type { ApprovalTokenDeclaration, ContentAddress, CrossFieldRule, InferredFromClients, ReplayDeclaration, SignatureDeclaration, Divergence, DocumentRef, InvalidExample, JsonSchema, JsonValue, Message, Model, Protocol, SharedSchema, SourceLocation } from "./types.js";

export function buildModel(spec: LoadedSpec, lifecyclesOf: (protocolId: string) => Lifecycle[] = () => []): Model {
  const shared: SharedSchema[] = spec.common.map((file) => {
    const schema = file.value as JsonSchema;
    return { id: String(schema["$id"]), name: String(schema["title"]), schema, location: locationOf(file) };
  });
  const protocols: Protocol[] = spec.protocols.map((loaded) => {
    const doc = loaded.protocolFile.value as JsonSchema;
    const messages = loaded.messageFiles.map((file) => buildMessage(loaded.id, file)).sort((a, b) => a.name.localeCompare(b.name, "en"));
    return {
      kind: "protocol",
      id: loaded.id,
      title: String(doc["title"]),
      version: String(doc["version"]),
      document: String(doc["document"]),
      summary: String(doc["summary"]),
      transports: (doc["transports"] ?? []) as unknown as Protocol["transports"],
      constants: (doc["constants"] ?? []) as unknown as Protocol["constants"],
      routes: (doc["routes"] ?? []) as unknown as Protocol["routes"],
      secrets: (doc["secrets"] ?? []) as unknown as Protocol["secrets"],
      divergences: (doc["divergences"] ?? []) as unknown as Divergence[],
      sections: (doc["sections"] ?? []) as unknown as Protocol["sections"],
      extensions: Object.fromEntries(Object.entries(doc).filter(([k]) => k.startsWith("x-"))),
      messages,
      lifecycles: lifecyclesOf(loaded.id),
      location: locationOf(loaded.protocolFile),
    };
  });
  const sourceFiles = [
    ...spec.common.map((f) => f.file),
    ...spec.protocols.flatMap((p) => [p.protocolFile.file, ...p.messageFiles.map((f) => f.file)]),
  ].sort();
  const project = projectIdentity(spec.project?.value);
  return { version: project.version, project, protocols, shared, sourceFiles };
}

function buildMessage(protocol: string, file: SpecFile): Message {
  const schema = file.value as JsonSchema;
  // The check stage has validated every x- annotation against spec/meta: the casts state its result.
  return {
    kind: "message",
    protocol,
    name: String(schema["title"]),
    id: String(schema["$id"]),
    description: String(schema["description"]),
    schema,
    examples: (schema["examples"] ?? []) as JsonValue[],
    invalidExamples: (schema["x-invalid-examples"] ?? []) as unknown as InvalidExample[],
    rules: (schema["x-rules"] ?? []) as unknown as CrossFieldRule[],
    contentAddress: schema["x-content-address"] as unknown as ContentAddress | undefined,
    signature: schema["x-signature"] as unknown as SignatureDeclaration | undefined,
    replay: schema["x-replay"] as unknown as ReplayDeclaration | undefined,
    approvalToken: schema["x-approval-token"] as unknown as ApprovalTokenDeclaration | undefined,
    inferredFromClients: schema["x-inferred-from-clients"] as unknown as InferredFromClients | undefined,
    divergences: (schema["x-divergences"] ?? []) as unknown as Divergence[],
    sources: (schema["x-source"] ?? []) as unknown as DocumentRef[],
    validationCases: [],
    location: locationOf(file),
  };
}

function locationOf(file: SpecFile): SourceLocation {
  return { file: file.file, pointer: "", line: 1, column: 1 };
}
