// The declarations the runtimes are driven by: every one in the vector files matches
// spec/meta/signing.schema.json, and the YAML
// annotations in the message files are exactly these declarations (a missing one fails).
import { existsSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, readJson } from "./helpers.js";

const schema = readJson("spec/meta/signing.schema.json");
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(schema);
const check = (def: string, value: unknown): unknown => {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
  if (validate === undefined) throw new Error(`no ${def}`);
  return validate(value) ? true : validate.errors;
};

const provider = readJson("spec/agent-provider/vectors/hmac-sha256-v1.json");
const service = readJson("spec/agent-service/vectors/approval-token.json");

const expected: Array<[string, string, string, unknown]> = [
  ["spec/agent-provider/messages/ActionProposal.yaml", "x-signature", "Signature", provider.declarations.ActionProposal],
  ["spec/agent-provider/messages/ActionProposal.yaml", "x-replay", "Replay", provider.replay.ActionProposal],
  ["spec/agent-provider/messages/AgentTriggerRequest.yaml", "x-signature", "Signature", provider.declarations.AgentTriggerRequest],
  ["spec/agent-provider/messages/AgentTriggerRequest.yaml", "x-replay", "Replay", provider.replay.AgentTriggerRequest],
  ["spec/agent-service/messages/ApprovalTokenClaims.yaml", "x-approval-token", "ApprovalToken", service.declaration],
  ["spec/agent-service/messages/ApprovalTokenClaims.yaml", "x-replay", "Replay", service.replay],
];

describe("declarations", () => {
  for (const [file, key, def, declaration] of expected) {
    it(`${file} ${key} is a valid ${def}`, () => expect(check(def, declaration)).toBe(true));
    it(`${file} ${key} equals the vector file's declaration`, () => {
      const path = `${ROOT}${file}`;
      expect(existsSync(path), path).toBe(true);
      const annotation = parse(readFileSync(path, "utf8"))?.[key];
      expect(annotation, `${file} has no ${key}`).toBeDefined();
      expect(annotation).toEqual(declaration);
    });
  }
  it("annotation-blocks.yaml (the text handed to the lead) holds exactly these declarations", () => {
    const blocks = parse(readFileSync(`${ROOT}property-tests/signing/annotation-blocks.yaml`, "utf8"));
    for (const [file, key, , declaration] of expected) expect(blocks[file][key]).toEqual(declaration);
    expect(Object.values(blocks).flatMap((b) => Object.keys(b as object))).toHaveLength(expected.length);
  });
  it("the schema refuses an unknown scheme and a hex signature encoding", () => {
    const good = provider.declarations.ActionProposal;
    expect(check("Signature", { ...good, scheme: "hmac-sha256-v2" })).not.toBe(true);
    expect(check("Signature", { ...good, signatureEncoding: "hex" })).not.toBe(true);
  });
});
