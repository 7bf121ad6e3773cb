// Meldwork's own records (property-tests/vectors/agent-connector, produced by running the real
// parser) through the generated validators: valid files validate; files the real parser refused
// for a schema reason fail here too, naming the field.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-ignore: generated JavaScript with its own declarations
import { parseMessage } from "../../generated/ts/index.js";
import { REPO_ROOT } from "./fixture.js";

const DIR = `${REPO_ROOT}/property-tests/vectors/agent-connector/generated`;
const messageFor = (file: string) => (file.endsWith(".manifest.json") ? "ConnectorManifest" : "ConnectorPackage");

// The field each schema-reason failure must name (our reading of each mutation, checked by hand
// against the file: the real parser only says SCHEMA_INVALID).
const SCHEMA_FAILURES: Record<string, string> = {
  "unknown-top-level-field.package.json": "",
  "executable-in-provider-config.package.json": "/provider/config",
  "unsupported-provider.package.json": "/provider/id",
  "local-echo-undeclared-input-capability.package.json": "/manifest/inputTypes",
  "http-endpoint-origin-not-declared.package.json": "/provider/config/endpoint",
  "http-endpoint-plain-http.package.json": "/provider/config/endpoint",
  "http-endpoint-query.package.json": "/provider/config/endpoint",
  "http-auth-slot-undeclared.package.json": "/provider/config/authSlotId",
  "http-auth-slot-null-but-credentials-declared.package.json": "/manifest/credentials/mode",
  "provider-manifest-recipe-mismatch.package.json": "/manifest/transport/type",
  "sdk-version-incompatible.package.json": "/manifest/upstream/minVersion",
};

describe("valid Meldwork records", () => {
  const files = readdirSync(`${DIR}/valid`).filter((f) => f.endsWith(".json") && f !== "EXPECTED.json");
  it("reads every file", () => expect(files.length).toBe(8));
  for (const file of files) {
    it(file, () => {
      const r = parseMessage("agent-connector", messageFor(file), readFileSync(`${DIR}/valid/${file}`));
      expect(r.ok ? [] : r.errors).toEqual([]);
    });
  }
});

describe("invalid Meldwork records", () => {
  const expected = JSON.parse(readFileSync(`${DIR}/invalid/EXPECTED.json`, "utf8")) as Record<string, string>;
  const schemaCases = Object.entries(expected).filter(([, code]) => code === "AGENT_CONNECTOR_PACKAGE_SCHEMA_INVALID" ).map(([f]) => f).filter((f) => f !== "forged-manifest-id.package.json");
  it("covers every schema-reason file the real parser refused (the forged nested id is a content-id check)", () => {
    expect(schemaCases.sort()).toEqual(Object.keys(SCHEMA_FAILURES).sort());
  });
  for (const file of schemaCases) {
    it(`${file} fails at ${SCHEMA_FAILURES[file] || "(root)"}`, () => {
      const r = parseMessage("agent-connector", "ConnectorPackage", readFileSync(`${DIR}/invalid/${file}`));
      expect(r.ok).toBe(false);
      expect(r.ok ? undefined : r.errors[0].instancePath).toBe(SCHEMA_FAILURES[file]);
    });
  }
  for (const file of ["empty.package.json", "bom-prefixed.package.json"]) {
    it(`${file} is refused by the strict parser (real: JSON_INVALID)`, () => {
      expect(expected[file]).toBe("AGENT_CONNECTOR_PACKAGE_JSON_INVALID");
      const r = parseMessage("agent-connector", "ConnectorPackage", readFileSync(`${DIR}/invalid/${file}`));
      expect(r.ok ? undefined : r.errors[0].keyword).toBe("json");
    });
  }
});
