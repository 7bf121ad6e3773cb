// The package's README.md and LICENSE: what `npm pack` ships besides the code. The README is
// written from the model (protocols, messages and what each can do), its examples from the spec's
// own examples and declarations, so it names only functions the package exports.
import { templateFolder, templateRenderer } from "../../emit/render.js";
import type { JsonValue, Lifecycle, Message, Model, OutputFile, Protocol } from "../../model/types.js";
import { lifecycleNamespace, lifecycleTypePrefix, protocolNamespace } from "./naming.js";
// From the package root, not this file: compiled, every target shares dist/cli/ (generator-home.mjs).
import { packageFileUrl } from "../../write/generator-home.mjs";

const render = templateRenderer(templateFolder(packageFileUrl("generators/targets/ts/templates/")), { htmlEscape: false });

export function emitPackageDocs(model: Model, licenseText: string): OutputFile[] {
  const protocols = model.protocols.map((p) => ({
    id: p.id,
    title: p.title,
    version: p.version,
    summary: oneLine(p.summary),
    namespace: protocolNamespace(p.id),
    messageCount: p.messages.length,
    messages: p.messages.map((m) => m.name),
    signed: p.messages.filter((m) => m.signature !== undefined).map((m) => m.name),
    replayed: p.messages.filter((m) => m.replay !== undefined).map((m) => m.name),
    addressed: p.messages.filter((m) => m.contentAddress !== undefined).map((m) => m.name),
    lifecycles: p.lifecycles.map((l) => lifecycleNamespace(l.name)),
  }));
  const context = {
    npmName: model.project.packages.npm,
    projectName: model.project.name,
    protocolCount: model.protocols.length,
    protocols,
    parse: parseExample(model),
    signing: signingExample(model),
    replay: replayExample(model),
    lifecycle: lifecycleExample(model),
    address: addressExample(model),
  };
  return [
    { path: "README.md", contents: render("README.md", context), sources: model.sourceFiles },
    // The licence text is not derived from the spec and carries no header (ts/target.ts).
    { path: "LICENSE", contents: licenseText, sources: [] },
  ];
}

type Found = { protocol: Protocol; message: Message } | undefined;

function find(model: Model, wanted: (m: Message) => boolean): Found {
  for (const protocol of model.protocols) for (const message of protocol.messages) if (wanted(message)) return { protocol, message };
  return undefined;
}

function names(found: NonNullable<Found>): { namespace: string; protocol: string; name: string } {
  return { namespace: protocolNamespace(found.protocol.id), protocol: found.protocol.id, name: found.message.name };
}

// A signed message is the interesting one to parse: prefer it, else any message.
function parseExample(model: Model): { namespace: string; protocol: string; name: string } | undefined {
  const found = find(model, (m) => m.signature !== undefined) ?? find(model, () => true);
  return found && names(found);
}

function signingExample(model: Model): object | undefined {
  // Prefer a message that is always signed (its signature field required) over one signed only sometimes.
  const required = (m: Message): boolean => Array.isArray(m.schema["required"]) && m.schema["required"].includes(m.signature!.signatureField);
  const found = find(model, (m) => m.signature !== undefined && m.examples.length > 0 && required(m)) ?? find(model, (m) => m.signature !== undefined && m.examples.length > 0);
  if (found === undefined) return undefined;
  const declaration = found.message.signature!;
  const example = found.message.examples[0] as Record<string, JsonValue>;
  const unsigned = Object.fromEntries(Object.entries(example).filter(([k]) => k !== declaration.signatureField && k !== declaration.algorithmField));
  return {
    ...names(found),
    signatureField: declaration.signatureField,
    algorithmField: declaration.algorithmField,
    firstField: declaration.lines[0]?.field ?? declaration.signatureField,
    exampleJson: JSON.stringify(unsigned, null, 2),
  };
}

function replayExample(model: Model): object | undefined {
  // The message the signing example verified, so the two examples read as one program.
  const signing = signingExample(model) as { name?: string } | undefined;
  const found = find(model, (m) => m.replay !== undefined && m.name === signing?.name) ?? find(model, (m) => m.replay !== undefined);
  return found && names(found);
}

function lifecycleExample(model: Model): object | undefined {
  const lifecycle: Lifecycle | undefined = model.protocols.flatMap((p) => p.lifecycles)[0];
  if (lifecycle === undefined) return undefined;
  const first = lifecycle.transitions.find((t) => t.from === lifecycle.initial);
  if (first === undefined) return undefined;
  // Give each guard the value the transition needs, so the example is a transition that happens.
  const guards = first.guards.map((g) => `${g.guard}: ${g.negated ? "false" : "true"}`);
  return {
    namespace: protocolNamespace(lifecycle.protocol),
    local: lifecycleNamespace(lifecycle.name),
    prefix: lifecycleTypePrefix(lifecycle.name),
    event: first.event,
    to: first.to,
    guardsArg: guards.length === 0 ? "" : `, { ${guards.join(", ")} }`,
    effectsList: first.effects.map((e) => JSON.stringify(e)).join(", "),
  };
}

function addressExample(model: Model): object | undefined {
  const found = find(model, (m) => m.contentAddress !== undefined && m.name.endsWith("Package")) ?? find(model, (m) => m.contentAddress !== undefined);
  return found && { ...names(found), prefix: found.message.contentAddress!.prefix };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
