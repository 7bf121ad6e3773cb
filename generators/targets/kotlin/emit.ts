// Kotlin bindings: wire constants and kotlinx.serialization message classes, rendered from the
// handlebars templates beside this file. Pure: model in, files out (paths relative to
// generated/kotlin). The hand-written runtime is emitted separately by emit-runtime.ts.
import { numberLiteral } from "../../emit/number-literal.js";
import { unsignedSummary } from "../../emit/prose.js";
import { templateFolder, templateRenderer } from "../../emit/render.js";
import type { ConstantItem, Message, Model, OutputFile, Protocol } from "../../model/types.js";
import { kotlinDeclarations, type KotlinDeclaration } from "./kotlin-types.js";
import { dropUnusedImports } from "./kotlin-imports.js";
import { camelCase, checkDistinct, kdoc, lifecycleObjectName, lifecyclePackage, pascalCase, protocolPackage, registryName, screamingSnake, signingName, sourceFile, stringLiteral, unsignedName, validatorsName } from "./kotlin-names.js";
import { emitSchemaResource, schemaCodeOf, schemasContext, schemasName, validatorsContext } from "./emit-validation.js";
import { signingContext } from "./emit-signing.js";
import { emitValidationCases } from "./emit-validation-cases.js";
import { lifecycleContext } from "./emit-lifecycles.js";
// From the package root, not this file: compiled, every target shares dist/cli/ (generator-home.mjs).
import { packageFileUrl } from "../../write/generator-home.mjs";

export function emitKotlin(model: Model): OutputFile[] {
  // `agent-hub` and `agenthub` would share one package and overwrite each other's files.
  checkDistinct("packages", model.protocols.map((p) => p.id), protocolPackage);
  const files: OutputFile[] = [];
  for (const protocol of model.protocols) {
    // Every protocol gets the same: message classes, validators, lifecycles, signing.
    files.push(emitConstants(protocol));
    files.push(...emitMessages(model, protocol));
    files.push(...emitValidation(model, protocol));
    files.push(...emitLifecycles(protocol));
    files.push(...emitSigningObject(protocol));
  }
  const names = (p: Protocol) => ({ package: protocolPackage(p.id), objectName: registryName(p.id), validatorsName: validatorsName(p.id), idLiteral: stringLiteral(p.id) });
  files.push(...emitEnumOpennessTest(model));
  // The declarations of every signed, content-addressed and approval-token message by `<protocol>/<message>` (the
  // shared-case driver looks them up by name); each <Protocol>Signing object is imported when used.
  const declared = (pick: (m: Message) => boolean, suffix: string) =>
    model.protocols.flatMap((p) => p.messages.filter(pick).map((m) => ({ keyLiteral: stringLiteral(`${p.id}/${m.name}`), constant: `${signingName(p.id)}.${screamingSnake(m.name)}_${suffix}`, signing: `${protocolPackage(p.id)}.${signingName(p.id)}` })));
  const signatures = declared((m) => m.signature !== undefined, "SIGNATURE");
  const contentAddresses = declared((m) => m.contentAddress !== undefined, "CONTENT_ADDRESS");
  const approvalTokens = declared((m) => m.approvalToken !== undefined, "TOKEN");
  files.push({
    path: sourceFile("dev.agentcontracts", "Protocols"),
    contents: render("protocols.kt", {
      protocols: model.protocols.map(names),
      lifecycles: model.protocols.flatMap((p) => p.lifecycles.map((l) => `${lifecyclePackage(p.id)}.${lifecycleObjectName(l.name)}`)),
      signingImports: [...new Set([...signatures, ...contentAddresses, ...approvalTokens].map((d) => d.signing))].sort(),
      signatures,
      contentAddresses,
      approvalTokens,
    }),
    sources: model.protocols.map((p) => p.location.file),
  });
  return files;
}

/**
 * The JUnit test of every message enum's openness (the Swift package's EnumTests): open enums keep
 * an unknown value and write it back, closed ones refuse it, and one message carrying an unknown
 * value of an open enum round-trips while its validator refuses it. None when no message has an enum.
 */
function emitEnumOpennessTest(model: Model): OutputFile[] {
  const open: { type: string }[] = [];
  const closed: { type: string }[] = [];
  let openMessage: object | false = false;
  for (const protocol of model.protocols) {
    const pkg = protocolPackage(protocol.id);
    const declarations = kotlinDeclarations(model, protocol, protocol.messages);
    const openEnums = new Set(declarations.filter((d) => d.kind === "enum" && d.closed === undefined).map((d) => d.name));
    for (const d of declarations) if (d.kind === "enum") (d.closed === undefined ? open : closed).push({ type: `${pkg}.${d.name}` });
    for (const message of protocol.messages) {
      const declaration = declarations.find((d) => d.name === message.name);
      const member = declaration?.kind === "class" ? declaration.properties.find((p) => p.constLiteral === undefined && openEnums.has(p.type.replace(/\?$/, ""))) : undefined;
      if (openMessage !== false || member === undefined || message.examples.length === 0) continue;
      openMessage = {
        type: `${pkg}.${message.name}`,
        name: message.name,
        validators: `${pkg}.${validatorsName(protocol.id)}`,
        member: member.wireName,
        memberLiteral: stringLiteral(member.wireName),
        exampleLiteral: stringLiteral(JSON.stringify(message.examples[0])),
      };
    }
  }
  if (open.length + closed.length === 0) return [];
  const byType = (a: { type: string }, b: { type: string }) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);
  return [{
    path: "src/test/kotlin/dev/agentcontracts/bindings/EnumOpennessTest.kt",
    contents: render("EnumOpennessTest.kt", { openEnums: open.sort(byType), closedEnums: closed.sort(byType), openMessage }),
    sources: model.protocols.flatMap((p) => p.messages.map((m) => m.location.file)),
  }];
}

/**
 * `Unsigned<Message>` of a signed message (the TypeScript name): its class without the algorithm
 * and signature members, what a sender fills in and `sign<Message>` completes.
 */
export function unsignedDeclaration(message: Message, own: readonly KotlinDeclaration[]): KotlinDeclaration | undefined {
  const signature = message.signature;
  if (signature === undefined) return undefined;
  const signed = own.find((d) => d.name === message.name);
  if (signed === undefined || signed.kind !== "class") throw new Error(`Kotlin: signed message ${message.name} is not a class`);
  const dropped = new Set([signature.algorithmField, signature.signatureField]);
  return {
    ...signed,
    name: unsignedName(message.name),
    description: unsignedSummary(message.name, [signature.algorithmField, signature.signatureField]),
    properties: signed.properties.filter((p) => !dropped.has(p.wireName)),
    parents: [],
  };
}

/** pom.xml (the project's version and Maven coordinates from spec/project.yaml) and the README consumers read. */
export function emitKotlinProject(model: Model): OutputFile[] {
  const { groupId, artifactId } = model.project.packages.maven;
  const numbers = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
  const protocolCount = numbers[model.protocols.length] ?? String(model.protocols.length);
  const context = { version: model.version, name: model.project.name, groupId, artifactId, protocolCount };
  return [
    { path: "pom.xml", contents: render("pom.xml", context), sources: ["spec/project.yaml"] },
    { path: "README.md", contents: render("README.md", context), sources: ["spec/project.yaml"] },
  ];
}


// --- constants -----------------------------------------------------------------------------------

function emitConstants(protocol: Protocol): OutputFile {
  const groups = protocol.constants.map((group) => ({
    name: pascalCase(group.group),
    doc: kdoc(group.description, ""),
    items: group.items.map((item) => ({
      name: item.name,
      ...constantValue(item),
      doc: kdoc(item.unit === undefined ? item.description : `${item.description} (${item.unit})`, "    "),
    })),
  }));
  return {
    path: sourceFile(protocolPackage(protocol.id), "Constants"),
    contents: render("constants.kt", { package: protocolPackage(protocol.id), groups }),
    sources: [protocol.location.file],
  };
}

function constantValue(item: ConstantItem): { type: string; literal: string } {
  const value = item.value;
  if (typeof value === "string") return { type: "String", literal: stringLiteral(value) };
  if (typeof value === "boolean") return { type: "Boolean", literal: String(value) };
  return numberLiteral(value, "kotlin");
}

// --- messages ------------------------------------------------------------------------------------

function emitMessages(model: Model, protocol: Protocol): OutputFile[] {
  const declarations = kotlinDeclarations(model, protocol, protocol.messages);
  const pkg = protocolPackage(protocol.id);
  const files: OutputFile[] = [];
  // One file per message, holding the message and the $defs declared in its schema file.
  for (const message of protocol.messages) {
    const own = declarations.filter((d) => d.file === message.name);
    const unsigned = unsignedDeclaration(message, own);
    if (unsigned !== undefined) own.push(unsigned);
    files.push({
      path: sourceFile(pkg, message.name),
      contents: render("message.kt", { package: pkg, declarations: own.map((d) => declarationContext(d, pkg)) }).trimEnd() + "\n",
      sources: [message.location.file],
    });
  }
  const shared = declarations.filter((d) => !protocol.messages.some((m) => m.name === d.file));
  if (shared.length > 0) {
    throw new Error(`Kotlin: ${shared.map((d) => d.name).join(", ")} come from shared schemas, which have no Kotlin package yet`);
  }
  files.push({
    path: sourceFile(pkg, registryName(protocol.id)),
    contents: render("registry.kt", {
      package: pkg,
      protocolId: protocol.id,
      objectName: registryName(protocol.id),
      messages: protocol.messages.map((m) => ({ name: m.name, nameLiteral: stringLiteral(m.name) })),
    }),
    sources: protocol.messages.map((m) => m.location.file),
  });
  return files;
}

/** The schema resource, the `<Protocol>Validators` object and the examples that test both. */
function emitValidation(model: Model, protocol: Protocol): OutputFile[] {
  const sources = protocol.messages.map((m) => m.location.file);
  const code = schemaCodeOf(model, protocol);
  return [
    emitSchemaResource(model, protocol),
    { path: sourceFile(protocolPackage(protocol.id), schemasName(protocol.id)), contents: render("schemas.kt", schemasContext(protocol, code)), sources: [...model.shared.map((s) => s.location.file), ...sources] },
    { path: sourceFile(protocolPackage(protocol.id), validatorsName(protocol.id)), contents: render("validators.kt", validatorsContext(protocol, code)), sources },
    emitExamples(protocol),
    emitValidationCases(protocol),
  ];
}

/** The catch-all case of an open enum (Swift's `unknown`): Kotlin's enum constants are SCREAMING_SNAKE, so no value takes this name. */
export const OPEN_ENUM_UNKNOWN = "Unknown";

function declarationContext(d: KotlinDeclaration, pkg: string): object {
  const base = {
    name: d.name,
    doc: kdoc(d.description, ""),
    isClass: d.kind === "class",
    isObject: d.kind === "object",
    isClosedEnum: d.kind === "enum" && d.closed !== undefined,
    isOpenEnum: d.kind === "enum" && d.closed === undefined,
    isUnion: d.kind === "union",
  };
  switch (d.kind) {
    case "class": {
      const property = (p: (typeof d.properties)[number]) => ({
        name: p.name,
        type: p.type,
        optional: p.optional,
        doc: kdoc(p.description, "    "),
        // Only where the camelCase Kotlin name differs from the wire name.
        serialNameLiteral: camelCase(p.wireName) === p.wireName ? "" : stringLiteral(p.wireName),
        literal: p.constLiteral ?? "",
      });
      return {
        ...base,
        nameLiteral: stringLiteral(d.name),
        open: d.open,
        supertypes: supertypes(d.parents),
        parameters: d.properties.filter((p) => p.constLiteral === undefined).map(property),
        // A const member is not a constructor parameter: a caller cannot set it to anything else.
        constants: d.properties.filter((p) => p.constLiteral !== undefined).map((p) => ({ ...property(p), type: p.type.replace(/\?$/, "") })),
      };
    }
    case "object":
      return { ...base, open: d.open, supertypes: supertypes(d.parents) };
    case "enum":
      return {
        ...base,
        // A closed enum says why in its doc, as Swift's does; an open one's catch-all case is Unknown.
        doc: kdoc([d.description ?? "", d.closed === undefined ? "" : `Closed: ${d.closed}`].filter((t) => t !== "").join(" "), ""),
        values: d.values.map((v) => ({ constant: v.constant, wireLiteral: stringLiteral(v.wire) })),
        unknown: OPEN_ENUM_UNKNOWN,
        entries: d.values.map((v) => v.constant).join(", "),
        firstConstant: d.values[0]!.constant,
        firstWireLiteral: stringLiteral(d.values[0]!.wire),
        serialNameLiteral: stringLiteral(`${pkg}.${d.name}`),
      };
    case "union":
      return {
        ...base,
        tag: d.tag,
        tagLiteral: stringLiteral(d.tag),
        booleanTag: d.tagType === "boolean",
        branches: d.branches.map((b) => ({ className: b.className, values: b.tagValues.map((v) => (typeof v === "string" ? stringLiteral(v) : String(v))).join(", ") })),
        unknownTagLiteral: stringLiteral(`/${d.tag.replaceAll("~", "~0").replaceAll("/", "~1")}: unknown ${d.name} discriminator value: `),
      };
  }
}

function supertypes(parents: readonly string[]): string {
  return parents.length === 0 ? "" : ` : ${parents.join(", ")}`;
}

/**
 * The spec's examples as JSON test resources: the Kotlin tests cannot read the YAML spec, and
 * must check the same examples as the TypeScript tests.
 */
function emitExamples(protocol: Protocol): OutputFile {
  const messages = protocol.messages.map((m: Message) => ({ name: m.name, examples: m.examples, invalidExamples: m.invalidExamples }));
  return {
    path: `src/test/resources/examples/${protocol.id}.json`,
    contents: `${JSON.stringify({ protocol: protocol.id, messages }, null, 2)}\n`,
    sources: protocol.messages.map((m) => m.location.file),
  };
}

/** `<Protocol>Signing`, when a message of the protocol declares a signature, content address or token. */
function emitSigningObject(protocol: Protocol): OutputFile[] {
  const context = signingContext(protocol);
  if (context === undefined) return [];
  return [{
    path: sourceFile(protocolPackage(protocol.id), signingName(protocol.id)),
    contents: render("signing.kt", context).replace(/\n\n}\n$/, "\n}\n"),
    sources: protocol.messages.map((m) => m.location.file),
  }];
}

/** One object per lifecycle machine, and the paths suites its test replays. */
function emitLifecycles(protocol: Protocol): OutputFile[] {
  return protocol.lifecycles.map((lifecycle) => ({
    path: sourceFile(lifecyclePackage(protocol.id), lifecycleObjectName(lifecycle.name)),
    contents: render("lifecycle.kt", lifecycleContext(protocol, lifecycle)),
    sources: [lifecycle.location.file],
  }));
}

// --- templates -----------------------------------------------------------------------------------

// Kotlin, not HTML: values are escaped by stringLiteral where needed. A template lists every
// import its code may need; each rendered Kotlin file keeps only those it uses (kotlin-imports.ts).
const renderTemplate = templateRenderer(templateFolder(packageFileUrl("generators/targets/kotlin/templates/")), { htmlEscape: false });
const render = (name: string, context: object): string => (name.endsWith(".kt") ? dropUnusedImports(renderTemplate(name, context)) : renderTemplate(name, context));
