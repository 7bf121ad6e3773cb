// Each lint and each error message, proven on a spec broken in exactly one place.
import { describe, expect, it } from "vitest";
import { formatSpecError } from "../cli/io.js";
import { loadModel } from "../pipeline.js";
import { connectorFixture } from "./fixture.js";

const MANIFEST = "spec/agent-connector/messages/ConnectorManifest.yaml";
const PACKAGE = "spec/agent-connector/messages/ConnectorPackage.yaml";
const RESPONSE = "spec/agent-connector/messages/HttpJsonResponse.yaml";

function errorsAfter(breakIt: (f: ReturnType<typeof connectorFixture>) => void): string[] {
  const fixture = connectorFixture();
  breakIt(fixture);
  const result = loadModel(fixture.root);
  return result.ok ? [] : result.errors.map(formatSpecError);
}

describe("the unbroken fixture", () => {
  it("passes every check", () => {
    const result = loadModel(connectorFixture().root);
    expect(result.ok ? [] : result.errors.map(formatSpecError)).toEqual([]);
  });
});

describe("spec lints", () => {
  const cases: { lint: string; file: string; breakIt: (f: ReturnType<typeof connectorFixture>) => void; expected: RegExp }[] = [
    { lint: "syntax", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "type: object\n", "type: object\ntype: string\n"), expected: /HttpJsonResponse\.yaml:\d+:1 \/type duplicate key "type": the value is given twice in this map \[syntax\]/ },
    { lint: "json-schema-2020-12", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "maxLength: 8192", "maxLength: -1"), expected: /HttpJsonResponse\.yaml:\d+:\d+ \/properties\/sessionRef\/maxLength must be >= 0 \[json-schema-2020-12\]/ },
    { lint: "message-meta-schema", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "x-invalid-examples:", "x-unknown: 1\nx-invalid-examples:"), expected: /HttpJsonResponse\.yaml:\d+:1 \/x-unknown key x-unknown is not allowed: must be equal to one of the allowed values.*\[message-meta-schema\]/ },
    { lint: "id-matches-file", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "/HttpJsonResponse.json", "/HttpJsonReply.json"), expected: /HttpJsonResponse\.yaml:2:\d+ \/\$id \$id must be https:\/\/agent-contracts\.dev\/schemas\/agent-connector\/HttpJsonResponse\.json for this file \[id-matches-file\]/ },
    { lint: "title-required", file: MANIFEST, breakIt: (f) => f.edit(MANIFEST, "    title: UpstreamRange\n", ""), expected: /ConnectorManifest\.yaml:\d+:\d+ \/\$defs\/UpstreamRange every \$defs entry needs a title.*\[title-required\]/ },
    { lint: "closed-objects", file: MANIFEST, breakIt: (f) => f.edit(MANIFEST, /    title: Invocation\n    type: object\n    additionalProperties: false\n/, "    title: Invocation\n    type: object\n"), expected: /ConnectorManifest\.yaml:\d+:\d+ \/\$defs\/Invocation object schema must say additionalProperties: false.*\[closed-objects\]/ },
    { lint: "ref-resolves", file: PACKAGE, breakIt: (f) => f.edit(PACKAGE, "$ref: LocalEchoProviderConfig.json", "$ref: LocalEchoConfig.json"), expected: /ConnectorPackage\.yaml:\d+:\d+ \/\$defs\/LocalEchoProvider\/properties\/config\/\$ref \$ref LocalEchoConfig\.json names no loaded schema.*\[ref-resolves\]/ },
    { lint: "discriminator-required", file: PACKAGE, breakIt: (f) => f.edit(PACKAGE, "    discriminator: { propertyName: id }\n", ""), expected: /ConnectorPackage\.yaml:\d+:\d+ \/\$defs\/ConnectorProvider\/oneOf a oneOf must carry discriminator.*\[discriminator-required\]/ },
    { lint: "shared-timestamp", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "properties:\n", "properties:\n  created_at: { type: string }\n"), expected: /HttpJsonResponse\.yaml:\d+:\d+ \/properties\/created_at property created_at looks like a timestamp.*\[shared-timestamp\]/ },
    { lint: "shared-timestamp (format)", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "    pattern: '^[^\\u0000]*$'", "    format: date-time"), expected: /\/properties\/text\/format use \$ref to common\/types\.json#\/\$defs\/Timestamp instead of format: date-time \[shared-timestamp\]/ },
    { lint: "runtime-keywords", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "    pattern: '^[^\\u0000]*$'", "    format: email"), expected: /HttpJsonResponse\.yaml:\d+:\d+ \/properties\/text format "email" is not one the runtimes assert \(generators\/targets\/runtime-keywords\.json\) \[runtime-keywords\]/ },
    { lint: "linear-regex", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "    pattern: '^[^\\u0000]*$'", "    pattern: '^[^\\u0000]*\\s[^\\u0000]*z'"), expected: /HttpJsonResponse\.yaml:\d+:\d+ \/properties\/text\/pattern pattern is not linear-time \(recheck: 2nd degree polynomial; attack .*\[linear-regex\]/ },
    { lint: "integer-range", file: "spec/agent-connector/messages/AuditLogEntry.yaml", breakIt: (f) => f.edit("spec/agent-connector/messages/AuditLogEntry.yaml", "sequence: { type: integer, minimum: 1, maximum: 2048 }", "sequence: { type: integer, minimum: 1 }"), expected: /AuditLogEntry\.yaml:\d+:\d+ \/\$defs\/\w+\/properties\/sequence an integer needs minimum and maximum within .*\[integer-range\]/ },
    { lint: "ref-cycle", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "type: object\nrequired: [text]\n", "type: object\nrequired: [text]\nanyOf: [{ $ref: '#' }]\n"), expected: /HttpJsonResponse\.yaml:\d+:\d+ \/anyOf\/0\/\$ref \$ref # leads back to spec\/agent-connector\/messages\/HttpJsonResponse\.yaml# without reaching into the instance .*\[ref-cycle\]/ },
    { lint: "rule-pointers", file: MANIFEST, breakIt: (f) => f.edit(MANIFEST, "upper: /upstream/maxVersion", "upper: /upstream/highest"), expected: /ConnectorManifest\.yaml:\d+:\d+ \/x-rules\/0\/upper \/upstream\/highest is not a property path of this message \[rule-pointers\]/ },
    { lint: "examples (valid fails)", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "  - { text: 'Hello from the connector.' }", "  - { text: 5 }"), expected: /HttpJsonResponse\.yaml:\d+:\d+ \/examples\/0 valid example fails: \/text type: \/text must be string \[examples\]/ },
    { lint: "examples (invalid passes)", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "instance: { text: ok, sessionRef: null }", "instance: { text: ok }"), expected: /\/x-invalid-examples\/1 invalid example "sessionRef null is refused \(absent or a string\)" passes validation \[examples\]/ },
    { lint: "examples (wrong error)", file: RESPONSE, breakIt: (f) => f.edit(RESPONSE, "{ instancePath: /sessionRef, keyword: type }", "{ instancePath: /sessionRef, keyword: pattern }"), expected: /\/x-invalid-examples\/1\/error invalid example .* fails at \/sessionRef type, declared \/sessionRef pattern/ },
    { lint: "protocol-references", file: "spec/agent-connector/protocol.yaml", breakIt: (f) => f.edit("spec/agent-connector/protocol.yaml", "'message:HttpJsonRequest'", "'message:HttpJsonQuery'"), expected: /protocol\.yaml:\d+:\d+ \/sections\/2\/coveredBy\/2 message:HttpJsonQuery does not resolve to a spec item of agent-connector \[protocol-references\]/ },
    { lint: "section-coverage", file: "spec/agent-connector/protocol.yaml", breakIt: (f) => f.edit("spec/agent-connector/protocol.yaml", "'message:ConnectorResume', ", ""), expected: /protocol\.yaml:\d+:\d+ \/sections message:ConnectorResume is not named by any section \[section-coverage\]/ },
    { lint: "protocol-meta-schema", file: "spec/agent-connector/protocol.yaml", breakIt: (f) => f.edit("spec/agent-connector/protocol.yaml", "    kind: limit\n", "    kind: limits\n"), expected: /protocol\.yaml:\d+:\d+ \/constants\/4\/kind must be equal to one of the allowed values.*\[protocol-meta-schema\]/ },
  ];
  for (const c of cases) {
    it(`${c.lint}: reports file:line:col pointer message`, () => {
      const errors = errorsAfter(c.breakIt);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.join("\n")).toMatch(c.expected);
    });
  }
});

describe("ref-cycle leaves ordinary recursion alone", () => {
  // A $ref back to an enclosing schema through properties or items reaches into the value at each
  // step, so validation ends with the value (JSON Schema 2020-12 core 7.5 allows such cycles).
  it("a message whose property and array items refer back to the message passes every check", () => {
    const errors = errorsAfter((f) => f.edit(RESPONSE, "properties:\n", "properties:\n  next: { $ref: '#' }\n  list: { type: array, items: { $ref: '#' } }\n"));
    expect(errors).toEqual([]);
  });
});
