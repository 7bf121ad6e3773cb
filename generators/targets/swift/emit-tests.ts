// Tests/AgentContractsTests: the shared case files and every message's examples as resources,
// and the XCTest files rendered from templates/*Tests.swift.hbs.
import type { Lifecycle } from "../../lifecycles/types.js";
import type { Model, OutputFile, Protocol } from "../../model/types.js";
import { stringLiteral, typeName } from "./naming.js";
import { render, TESTS } from "./emit-support.js";
import { lifecycleTypeName } from "./emit-lifecycles.js";
import type { SharedCaseFile } from "./emit.js";

export function emitTests(model: Model, catalog: { protocol: Protocol; namespace: string; messages: { name: string; type: string }[] }[], cases: readonly SharedCaseFile[]): OutputFile[] {
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
    lifecycleCount: lifecycleRows.length,
    ...signingContext(catalog, cases),
  };
  const testSources = ["generators/targets/swift/templates"];
  for (const name of ["SharedCases", "CanonicalJSONTests", "StrictJSONTests", "CryptoTests", "ExampleTests", "LifecycleTests", "SigningTests", "ReplayGuardTests"]) {
    files.push({ path: `${TESTS}/${name}.swift`, contents: render(`${name}.swift`, context), sources: testSources });
  }
  return files;
}

/** Which generated types the signing and replay tests drive, and which vector files they read. */
function signingContext(catalog: { protocol: Protocol; namespace: string }[], cases: readonly SharedCaseFile[]): object {
  const rows = catalog.flatMap((c) => c.protocol.messages.map((m) => ({ m, protocol: c.protocol, type: `${c.namespace}.${typeName(m.name)}` })));
  const resource = (file: string): string | false => {
    const found = cases.find((c) => c.path.endsWith(`/vectors/${file}`));
    return found === undefined ? false : stringLiteral(found.path);
  };
  const token = rows.find((r) => r.m.annotations["x-approval-token"] !== undefined);
  return {
    signed: rows.filter((r) => r.m.annotations["x-signature"] !== undefined).map((r) => ({ name: r.m.name, type: r.type })),
    replayed: rows.filter((r) => r.m.annotations["x-replay"] !== undefined).map((r) => ({ name: r.m.name, type: r.type })),
    addressed: rows
      .filter((r) => r.m.contentAddress !== undefined)
      .map((r) => ({
        name: r.m.name,
        type: r.type,
        idFieldLiteral: stringLiteral(r.m.contentAddress!.idField),
        examplesResource: stringLiteral(`examples/${r.protocol.id}.json`),
        canonicalInput: r.m.contentAddress!.canonicalInput === true,
      })),
    tokenType: token === undefined ? false : token.type,
    hmacResource: resource("hmac-sha256-v1.json"),
    tokenResource: token === undefined ? false : resource("approval-token.json"),
    contentResource: resource("content-ids.json"),
    auditResource: resource("audit-chain.json"),
  };
}


