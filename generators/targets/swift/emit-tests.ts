// Tests/AgentContractsTests: the shared case files and every message's examples as resources,
// and the XCTest files rendered from templates/*Tests.swift.hbs.
import type { Lifecycle } from "../../model/lifecycle.js";
import type { Model, OutputFile, Protocol } from "../../model/types.js";
import { rawStringLiteral, stringLiteral, typeName } from "./naming.js";
import { templateFolder } from "../../emit/render.js";
import { packageFileUrl } from "../../write/generator-home.mjs";
import { render, TESTS } from "./emit-support.js";
import { lifecycleTypeName } from "./emit-lifecycles.js";
import type { SharedCaseFile } from "./emit.js";
import { unknownCase } from "./emit-enums.js";
import type { ProtocolTypes, SwiftEnum } from "./types.js";
import { compilePattern } from "./schema-pattern.js";

/** Per protocol: its Swift namespace, each message's root type, and every declaration. */
export type Catalog = { protocol: Protocol; namespace: string; messages: { name: string; type: string }[]; types: ProtocolTypes }[];

const TEST_FILES = ["SharedCases", "SharedCaseDriverTests", "CanonicalJSONTests", "StrictJSONTests", "CryptoTests", "ExampleTests", "LifecycleTests", "SigningTests", "ReplayGuardTests", "DeclarationTests", "EnumTests", "ConnectorRulesTests", "TypedSigningTests", "FileReplayStoreTests", "CompiledRulesTests", "CompiledValidatorTests", "SchemaPatternTests", "CanonicalDialectsTests", "SchemaValidatorAjvTests", "SchemaSuiteTests", "RFC8785Tests", "WhatwgURLWptTests"];

export function emitTests(model: Model, catalog: Catalog, cases: readonly SharedCaseFile[]): OutputFile[] {
  const files: OutputFile[] = [];
  for (const c of cases) files.push({ path: `${TESTS}/Resources/${c.path}`, contents: c.text, sources: [c.source] });
  // Examples: the valid and invalid instances of every message, as data.
  for (const protocol of model.protocols) {
    const examples = protocol.messages.map((m) => ({
      message: m.name,
      valid: m.examples,
      invalid: m.invalidExamples.map((e) => ({ description: e.description, instance: e.instance, error: e.error })),
    }));
    files.push({ path: `${TESTS}/Resources/examples/${protocol.id}.json`, contents: JSON.stringify({ protocol: protocol.id, messages: examples }, null, 1) + "\n", sources: protocol.messages.map((m) => m.location.file) });
  }
  const messageRows = catalog.flatMap((c) => c.messages.map((m) => ({ protocol: c.protocol.id, name: m.name, type: `${c.namespace}.${m.type}` })));
  const lifecycleRows = catalog.flatMap((c) =>
    (c.protocol.lifecycles as Lifecycle[]).map((l) => ({ protocol: c.protocol.id, name: l.name, type: `${c.namespace}.${lifecycleTypeName(l)}`, resource: `${c.protocol.id}/lifecycles/${l.name}.paths.json` })),
  );
  const context = {
    messages: messageRows.map((r) => ({ ...r, protocolLiteral: stringLiteral(r.protocol), nameLiteral: stringLiteral(r.name) })),
    lifecycles: lifecycleRows.map((r) => ({ ...r, resourceLiteral: stringLiteral(r.resource) })),
    protocols: model.protocols.map((p) => ({ resourceLiteral: stringLiteral(`examples/${p.id}.json`) })),
    messageCount: messageRows.length,
    patternCount: matcherPatternCount(model),
    ...ruledContext(catalog),
    lifecycleCount: lifecycleRows.length,
    ...signingContext(catalog, cases),
    ...enumContext(catalog),
  };
  const testSources = ["generators/targets/swift/templates"];
  const present = new Set(cases.map((c) => c.path));
  for (const name of TEST_FILES) {
    // A suite written for one protocol's vectors says which it reads; without them it is left out.
    const missing = readsOf(templateSource(`${name}.swift`)).filter((path) => !present.has(path));
    if (missing.length > 0) continue;
    files.push({ path: `${TESTS}/${name}.swift`, contents: render(`${name}.swift`, context), sources: testSources });
  }
  return files;
}

const templateSource = templateFolder(packageFileUrl("generators/targets/swift/templates/"));

/** The case files a test template declares it reads: `{{!-- reads: a.json b.json --}}` on its first line. */
export function readsOf(template: string): string[] {
  const match = /^\{\{!-- reads: ([^\n]*?) --\}\}\n/.exec(template);
  return match === null ? [] : match[1]!.split(/\s+/);
}

/** The message types with x-rules, whose compiled checkRules the differential test compares. */
function ruledContext(catalog: Catalog): object {
  const ruled = catalog.flatMap((c) =>
    c.protocol.messages.filter((m) => m.rules.length > 0).map((m) => ({ type: `${c.namespace}.${typeName(m.name)}`, protocolLiteral: stringLiteral(c.protocol.id), nameLiteral: stringLiteral(m.name) })),
  );
  return { ruled, ruledCount: ruled.length };
}

/** Which generated types the signing and replay tests drive, and which vector files they read. */
function signingContext(catalog: { protocol: Protocol; namespace: string }[], cases: readonly SharedCaseFile[]): object {
  const rows = catalog.flatMap((c) => c.protocol.messages.map((m) => ({ m, protocol: c.protocol, namespace: c.namespace, type: `${c.namespace}.${typeName(m.name)}` })));
  const resource = (file: string): string | false => {
    const found = cases.find((c) => c.path.endsWith(`/vectors/${file}`));
    return found === undefined ? false : stringLiteral(found.path);
  };
  const token = rows.find((r) => r.m.approvalToken !== undefined);
  // Which content-addressed messages the content-id vectors have cases for.
  const contentCases = cases.find((c) => c.path.endsWith("/vectors/content-ids.json"));
  const contentTypes = new Set<string>(contentCases === undefined ? [] : (JSON.parse(contentCases.text) as { cases: { message_type: string }[] }).cases.map((c) => c.message_type));
  return {
    signed: rows.filter((r) => r.m.signature !== undefined).map((r) => ({ protocol: r.protocol.id, name: r.m.name, type: r.type, namespace: r.namespace, unsigned: `${r.namespace}.Unsigned${typeName(r.m.name)}`, nameLiteral: stringLiteral(r.m.name), signatureFieldLiteral: stringLiteral(r.m.signature!.signatureField), algorithmFieldLiteral: stringLiteral(r.m.signature!.algorithmField) })),
    replayed: rows.filter((r) => r.m.replay !== undefined).map((r) => ({ name: r.m.name, type: r.type })),
    tokened: rows.filter((r) => r.m.approvalToken !== undefined).map((r) => ({ protocol: r.protocol.id, name: r.m.name, type: r.type })),
    addressed: rows
      .filter((r) => r.m.contentAddress !== undefined)
      .map((r) => ({
        protocol: r.protocol.id,
        name: r.m.name,
        type: r.type,
        namespace: r.namespace,
        nameLiteral: stringLiteral(r.m.name),
        idFieldLiteral: stringLiteral(r.m.contentAddress!.idField),
        examplesResource: stringLiteral(`examples/${r.protocol.id}.json`),
        canonicalInput: r.m.contentAddress!.canonicalInput === true,
        hasContentVectors: contentTypes.has(r.m.name),
      })),
    tokenType: token === undefined ? false : token.type,
    // Whether a vector file holds replay declarations, which the declaration tests must then read.
    replayVectors: resource("hmac-sha256-v1.json") !== false || (token !== undefined && resource("approval-token.json") !== false),
    hmacResource: resource("hmac-sha256-v1.json"),
    tokenResource: token === undefined ? false : resource("approval-token.json"),
    contentResource: resource("content-ids.json"),
    auditResource: resource("audit-chain.json"),
  };
}

/** Every message enum by qualified Swift name, open or closed, and one message to decode with an unknown value. */
function enumContext(catalog: Catalog): object {
  const enums: { type: string; decl: SwiftEnum }[] = [];
  let openMessage: object | false = false;
  for (const c of catalog) {
    const roots = new Map(c.protocol.messages.map((m) => [typeName(m.name), m]));
    for (const decl of c.types.decls.values()) {
      if (decl.kind === "enum") enums.push({ type: `${c.namespace}.${decl.name}`, decl });
      if (decl.kind !== "struct") continue;
      for (const nested of decl.nested) enums.push({ type: `${c.namespace}.${decl.name}.${nested.name}`, decl: nested });
      const message = roots.get(decl.name);
      const member = decl.properties.find((p) => p.constant === undefined && decl.nested.some((e) => e.name === p.type && e.closed === undefined));
      if (openMessage === false && message !== undefined && member !== undefined && message.examples.length > 0) {
        openMessage = {
          type: `${c.namespace}.${decl.name}`,
          member: member.json,
          memberLiteral: stringLiteral(member.json),
          swift: member.swift,
          unknown: unknownCase(decl.nested.find((e) => e.name === member.type)!),
          exampleLiteral: rawStringLiteral(JSON.stringify(message.examples[0])),
        };
      }
    }
  }
  enums.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  const open = enums.filter((e) => e.decl.closed === undefined).map((e) => ({ type: e.type }));
  return { openEnums: open, closedEnums: enums.filter((e) => e.decl.closed !== undefined).map((e) => ({ type: e.type })), openMessage };
}

/** How many distinct `pattern` values of the spec's schemas the generated matcher takes (SchemaPatternTests' floor). */
function matcherPatternCount(model: Model): number {
  const patterns = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") patterns.add(value);
      visit(value);
    }
  };
  for (const schema of [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))]) visit(schema);
  return [...patterns].filter((p) => compilePattern(p) !== undefined).length;
}
