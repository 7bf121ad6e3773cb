// Content addresses: spec vectors, the reference implementation's valid and invalid connector
// records (same verdict, error codes mapped onto the real ones) and content-id properties.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ContentAddressDeclaration,
  type ContentImportErrorCode,
  computeContentId,
  importCanonicalRecord,
  verifyContentId,
} from "../../generators/targets/ts/runtime/src/content-address.js";
import {
  AUDIT_LOG_ENTRY_CONTENT_ADDRESS,
  CONNECTOR_MANIFEST_CONTENT_ADDRESS,
  CONNECTOR_PACKAGE_CONTENT_ADDRESS,
  importConnectorManifest,
  importConnectorPackage,
} from "../../generated/ts/agent-connector/signing.js";
import { canonicalize } from "../../generators/targets/ts/runtime/src/canonical-json.js";
import { OUTSIDE, ijsonValue, python, readJson } from "./helpers.js";

const spec = readJson("spec/agent-connector/vectors/content-ids.json");
// The declarations are the spec's (x-content-address, as generated), not the vector file's copy.
const DECLARATIONS: Record<string, ContentAddressDeclaration> = {
  ConnectorPackage: CONNECTOR_PACKAGE_CONTENT_ADDRESS,
  ConnectorManifest: CONNECTOR_MANIFEST_CONTENT_ADDRESS,
  AuditLogEntry: AUDIT_LOG_ENTRY_CONTENT_ADDRESS,
};
const MANIFEST = CONNECTOR_MANIFEST_CONTENT_ADDRESS;

it("the vector file's declarations are the spec's", () => {
  for (const [name, declaration] of Object.entries<ContentAddressDeclaration>(spec.declarations)) {
    expect(DECLARATIONS[name], name).toBeDefined();
    for (const key of ["idField", "prefix", "digest", "covers"] as const) expect(declaration[key], `${name}.${key}`).toBe(DECLARATIONS[name]![key]);
  }
});

describe("spec/agent-connector/vectors/content-ids.json", () => {
  for (const c of spec.cases) {
    it(c.name, () => {
      const declaration = DECLARATIONS[c.message_type]!;
      expect(computeContentId(declaration, c.record)).toBe(c.expected_id);
      expect(verifyContentId(declaration, c.record)).toBe(true);
      expect(verifyContentId(declaration, { ...c.record, [declaration.idField]: c.expected_id.replace(/.$/, "0") === c.expected_id ? c.expected_id.replace(/.$/, "1") : c.expected_id.replace(/.$/, "0") })).toBe(false);
    });
  }
});

// Imports go through the generated signing module: the generated validator (schema, nested manifest
// id), then the id, then the canonical form. The verdicts come from the reference parser only.
const invalidExpected: Record<string, string> = JSON.parse(readFileSync(`${OUTSIDE}agent-connector/generated/invalid/EXPECTED.json`, "utf8"));

const REAL_CODES: Record<ContentImportErrorCode, string> = {
  "json-invalid": "AGENT_CONNECTOR_PACKAGE_JSON_INVALID",
  "schema-invalid": "AGENT_CONNECTOR_PACKAGE_SCHEMA_INVALID",
  "id-mismatch": "AGENT_CONNECTOR_PACKAGE_ID_MISMATCH",
  "not-canonical": "AGENT_CONNECTOR_PACKAGE_JSON_NOT_CANONICAL",
};

describe("reference connector records (Meldwork generated/)", () => {
  const validExpected = JSON.parse(readFileSync(`${OUTSIDE}agent-connector/generated/valid/EXPECTED.json`, "utf8"));
  for (const [name, expected] of Object.entries<any>(validExpected)) {
    it(`valid/${name} imports with the reference id`, () => {
      const bytes = new Uint8Array(readFileSync(`${OUTSIDE}agent-connector/generated/valid/${name}`));
      const isPackage = name.endsWith(".package.json");
      const result = isPackage ? importConnectorPackage(bytes) : importConnectorManifest(bytes);
      expect(result.ok ? result.id : result.error).toBe(isPackage ? expected.packageId : expected.manifestId);
      if (isPackage && result.ok) expect("manifest" in result.record && result.record.manifest.manifestId).toBe(expected.manifestId);
    });
  }
  for (const [name, code] of Object.entries(invalidExpected)) {
    it(`invalid/${name} -> ${code}`, () => {
      const bytes = new Uint8Array(readFileSync(`${OUTSIDE}agent-connector/generated/invalid/${name}`));
      const result = importConnectorPackage(bytes);
      expect(result.ok ? "OK" : REAL_CODES[result.error.code]).toBe(code);
    });
  }
  it("the shipped sample with its trailing newline is not canonical; without it, it imports", () => {
    const bytes = new Uint8Array(readFileSync(`${OUTSIDE}agent-connector/upstream/local-echo.connector.json`));
    const asShipped = importConnectorPackage(bytes);
    expect(asShipped.ok ? "OK" : asShipped.error.code).toBe("not-canonical");
    expect(importConnectorPackage(bytes.subarray(0, bytes.length - 1)).ok).toBe(true);
  });
  it("ids agree with Python's hashlib over json.dumps(sort_keys, compact)", () => {
    const records = spec.cases.map((c: any) => ({ record: c.record, idField: DECLARATIONS[c.message_type]!.idField }));
    const ids = python<string[]>(
      "import sys,json,hashlib\nprint(json.dumps([hashlib.sha256(json.dumps({k:v for k,v in r['record'].items() if k!=r['idField']},sort_keys=True,separators=(',',':'),ensure_ascii=False).encode()).hexdigest() for r in json.load(sys.stdin)]))",
      records,
    );
    expect(ids).toEqual(spec.cases.map((c: any) => c.expected_id.replace(/^connector-(package|manifest)-/, "")));
  });
});

describe("content id properties", () => {
  const record = fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => k !== "manifestId"), ijsonValue(3), { maxKeys: 6 });
  it("the id changes iff the canonical body changes", () => {
    fc.assert(fc.property(record, record, (a, b) => {
      const same = canonicalize(a) === canonicalize(b);
      return (computeContentId(MANIFEST, a) === computeContentId(MANIFEST, b)) === same;
    }), { numRuns: 200 });
  });
  it("the id field itself is not covered, and the imported canonical bytes round-trip", () => {
    fc.assert(fc.property(record, fc.string(), (body, junk) => {
      const id = computeContentId(MANIFEST, body);
      expect(computeContentId(MANIFEST, { ...body, manifestId: junk })).toBe(id);
      const withId = { ...body, manifestId: id };
      const result = importCanonicalRecord(MANIFEST, canonicalize(withId), () => true);
      expect(result.ok && result.id).toBe(id);
    }), { numRuns: 150 });
  });
  it("any pretty-printed or reordered form of a valid record is refused as not canonical", () => {
    fc.assert(fc.property(record, (body) => {
      const withId = { ...body, manifestId: computeContentId(MANIFEST, body) };
      const pretty = JSON.stringify(withId, null, 1);
      fc.pre(pretty !== canonicalize(withId));
      const result = importCanonicalRecord(MANIFEST, pretty, () => true);
      return !result.ok && result.error.code === "not-canonical";
    }), { numRuns: 150 });
  });
});
