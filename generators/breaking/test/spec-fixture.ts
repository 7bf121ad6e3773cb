// A small spec tree, as data, that the rule fixtures edit in one place. Files are written as JSON
// (valid YAML) so the loader gives them real positions.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { expect, onTestFinished } from "vitest";
import type { JsonValue } from "../../model/types.js";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { checkRules } from "../../targets/ts/runtime/src/rules.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Files = Record<string, any>;

export type Edit = (f: Files) => void;

const ID = "https://agent-contracts.dev/schemas";
export const M = "spec/p/messages/M.yaml";
export const OPEN = "spec/p/messages/Open.yaml";
export const U = "spec/p/messages/U.yaml";
export const S = "spec/p/messages/S.yaml";
export const TYPES = "spec/common/types.yaml";
export const MACHINE = "spec/p/lifecycles/m.machine.yaml";
export const PROTOCOL = "spec/p/protocol.yaml";

export function baseFiles(): Files {
  return {
    [PROTOCOL]: { id: "p", title: "P", constants: [{ group: "g", items: [{ name: "A", value: "a" }, { name: "B", value: "b" }] }] },
    [TYPES]: {
      $id: `${ID}/common/types.json`,
      title: "Common",
      $defs: {
        Id: { title: "Id", type: "string", pattern: "^[a-z0-9-]+$" },
        Id3: { title: "Id3", type: "string", pattern: "^[a-z0-9-]+$" },
        Upper: { title: "Upper", type: "string", pattern: "^[A-Z]+$" },
      },
    },
    [M]: {
      $id: `${ID}/p/M.json`,
      title: "M",
      description: "A closed message.",
      type: "object",
      additionalProperties: false,
      required: ["kind", "name"],
      properties: {
        kind: { enum: ["a", "b"] },
        name: { type: "string", minLength: 1, maxLength: 10, pattern: "^[a-z]+$" },
        count: { type: "integer", minimum: 0, maximum: 10 },
        tags: { type: "array", items: { type: "string" }, maxItems: 5 },
        ref: { $ref: "../common/types.json#/$defs/Id" },
        when: { type: "string", format: "date-time" },
        fixed: { const: "v1" },
      },
      examples: [{ kind: "a", name: "abc", count: 1, tags: ["x"], ref: "r-1", when: "2024-01-01T00:00:00Z", fixed: "v1" }],
    },
    [OPEN]: {
      $id: `${ID}/p/Open.json`,
      title: "Open",
      type: "object",
      "x-open": "peers add fields",
      properties: { a: { type: "string" } },
      "x-rules": [{ id: "b-is-a", kind: "equal", left: "/b", right: "/a", message: "b, when present, must equal a" }],
    },
    [U]: {
      $id: `${ID}/p/U.json`,
      title: "U",
      type: "object",
      required: ["type"],
      discriminator: { propertyName: "type" },
      oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }],
      $defs: {
        A: { title: "UA", type: "object", additionalProperties: false, required: ["type"], properties: { type: { const: "a" }, x: { type: "string" } } },
        B: { title: "UB", type: "object", additionalProperties: false, required: ["type"], properties: { type: { const: "b" }, y: { type: "integer" } } },
      },
    },
    [S]: {
      $id: `${ID}/p/S.json`,
      title: "S",
      type: "object",
      additionalProperties: false,
      required: ["sub", "exp"],
      properties: { sub: { type: "string" }, exp: { type: "integer" }, sig: { type: "string" } },
      "x-signature": { scheme: "hmac-sha256-v1", algorithmId: "a1", algorithmField: "alg", signatureField: "sig", lineSeparator: "\n", lines: [{ name: "sub", field: "sub", value: "string" }, { name: "exp", field: "exp", value: "string" }], key: { source: "k", field: "secret", encoding: "utf8" }, signatureEncoding: "base64-std-nopad" },
      "x-content-address": { idField: "id", prefix: "s-", digest: "sha256-hex", covers: "record-without-id" },
      "x-replay": { keyFields: ["sub"], scopeFields: ["exp"], expiresAtField: "exp", skewSeconds: 30 },
      "x-approval-token": { version: 1, maxLifetimeSeconds: 300, clockSkewSeconds: 5, minTtlSeconds: 1, maxTtlSeconds: 300, defaultTtlSeconds: 60 },
    },
    [MACHINE]: {
      name: "m",
      title: "M machine",
      description: "A machine.",
      initial: "a",
      states: { a: { description: "A" }, b: { description: "B" }, c: { description: "C", terminal: true } },
      events: { go: { description: "go" }, stop: { description: "stop" } },
      guards: { g: { description: "g" }, h: { description: "h" } },
      transitions: [
        { from: "a", event: "go", to: "b" },
        { from: "b", event: "stop", to: "c", guard: "g" },
      ],
    },
  };
}

// A tree written inside a test is removed when the test ends; one written for a whole file (at
// import or in a describe body) when the process exits. Mutation runs write hundreds of thousands.
const fileTrees: string[] = [];
process.once("exit", () => fileTrees.forEach((root) => rmSync(root, { recursive: true, force: true })));

export function writeTree(files: Files): string {
  const root = mkdtempSync(`${tmpdir()}/agent-contracts-breaking-fixture-`);
  try {
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  } catch {
    fileTrees.push(root); // not inside a test
  }
  for (const [rel, value] of Object.entries(files)) {
    if (value === undefined) continue;
    mkdirSync(dirname(`${root}/${rel}`), { recursive: true });
    writeFileSync(`${root}/${rel}`, typeof value === "string" ? value : JSON.stringify(value, null, 2) + "\n");
  }
  return root;
}

/** An ajv of its own (not the tool's): does the root schema of `file` in `files` accept `instance`? */
export function accepts(files: Files, file: string, pointer: string, instance: JsonValue): boolean {
  const ajv = new Ajv2020({ strict: false, discriminator: true });
  addFormats(ajv);
  for (const [rel, v] of Object.entries(files)) if (rel.includes("/messages/") || rel.startsWith("spec/common/")) if (v) ajv.addSchema(v as object);
  const schema = files[file];
  if (!schema) return false;
  const validate = ajv.getSchema(pointer === "" ? schema.$id : `${schema.$id}#${pointer}`);
  if (!validate) throw new Error(`no schema ${file}#${pointer}`);
  // A message root's x-rules refuse too (the runtime's rule evaluator, not the tool's wiring of it).
  const rules = pointer === "" && Array.isArray(schema["x-rules"]) ? schema["x-rules"] : [];
  return (validate(instance) as boolean) && checkRules(instance, rules).length === 0;
}

/** The witness, re-checked with an ajv that is not the tool's. */
export function expectWitness(f: Finding, before: Files, after: Files): void {
  expect(f.witness, `${f.rule} at ${f.at.pointer} has a witness`).toBeTruthy();
  if (f.rule === "WIRE_CONSTANT_CHANGED") {
    // A constant is one fixed value: the witness is the old one, which the new version no longer has.
    const valueAt = (files: Files, p: { file: string; pointer: string }) => p.pointer.slice(1).split("/").reduce((v, t) => v?.[t], files[p.file]);
    expect(f.witness!.instance).toEqual(valueAt(before, f.old!));
    expect(valueAt(after, f.at)).not.toEqual(f.witness!.instance);
    return;
  }
  const req = f.witnessRequest!;
  const check = (files: Files, root: typeof req.oldRoot) => (root ? accepts(files, root.doc.file.file, root.pointer, f.witness!.instance) : false);
  const inOld = check(before, req.oldRoot);
  const inNew = check(after, req.newRoot);
  expect(inOld !== inNew, `${JSON.stringify(f.witness!.instance)} separates the versions`).toBe(true);
  expect(f.witness!.acceptedBy).toBe(inOld ? "old" : "new");
}


/**
 * The WIRE findings between two versions of the base fixture: `common` edits both, `old` and
 * `now` one each.
 */
export function wirePair(old: Edit, now: Edit, common: Edit = () => {}): { wire: Finding[]; before: Files; after: Files } {
  const { findings, before, after } = comparePair(old, now, common);
  return { wire: findings.filter((f) => f.category === "WIRE"), before, after };
}

/** Every finding between two versions of the base fixture: `common` edits both, `old` and `now` one each. */
export function comparePair(old: Edit, now: Edit, common: Edit = () => {}, options?: Parameters<typeof compareRoots>[2]): { findings: Finding[]; before: Files; after: Files } {
  const before = baseFiles();
  const after = baseFiles();
  common(before);
  common(after);
  old(before);
  now(after);
  return { findings: compareRoots(writeTree(before), writeTree(after), options).findings, before, after };
}

/** A finding as `RULE file#pointer direction`, the form the WIRE tests compare. */
export const where = (f: Finding) => `${f.rule} ${f.at.file}#${f.at.pointer} ${f.direction}`;
