// The JSON-Schema-Test-Suite (draft 2020-12, required) as a spec project, so its cases run through
// the validators `generate` makes (TypeScript, Kotlin, Swift, Rust) and not only through the
// runtimes' interpreters. One message per test group: the group's schema is the message's `value`
// property (a message is an object), its local references moved under /properties/value, its
// first valid test the message's example; every test of the group becomes a `validate` case whose
// expected verdict is the suite's (valid or not). A group the project cannot express is listed with
// the reason, never silently dropped: refused keywords and formats (runtime-keywords.json), other
// documents (remotes, embedded $id), no valid test to be the example, and whatever the spec check
// refuses (its own error message).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, loadModel, schemaSupportOf } from "../../generators/pipeline.js";
import { protocolShapes, ShapeError } from "../../generators/model/shapes.js";
import { TARGETS } from "../../generators/targets/registry.js";
import { checkRuntimeKeywords, runtimeKeywords, SchemaKeywordError } from "../../generators/model/runtime-keywords.js";
import type { JsonSchema } from "../../generators/model/types.js";
import { committedRefusals, DIALECT, FORMAT_FILE, suiteGroups, type SuiteGroup } from "./suite.js";

export const SUITE_PROTOCOL = "suite";
const SCHEMA_BASE = "https://json-schema-test-suite.agent-contracts.invalid/";

export interface SuiteMessage {
  name: string;
  group: SuiteGroup;
  schema: JsonSchema;
}
export interface Unexpressed {
  file: string;
  group: string;
  tests: number;
  reason: string;
}
export interface SuiteCase {
  id: string;
  kind: "validate";
  protocol: string;
  message: string;
  instance: unknown;
  /** The suite's verdict. */
  valid: boolean;
}

/** The message name of the group at `index` (0-based) of suiteGroups(). */
export function messageName(index: number): string {
  return `Group${String(index + 1).padStart(4, "0")}`;
}

// "#" and "#/..." point into the group's schema, which the message holds at /properties/value.
function moveLocalReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(moveLocalReferences);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  // defineProperty: a member named "__proto__" (the suite has them) stays a member.
  const put = (key: string, value: unknown): void => void Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && (value === "#" || value.startsWith("#/"))) put(key, `#/properties/value${value.slice(1)}`);
    else if (key === "const" || key === "enum" || key === "default" || key === "examples") put(key, value);
    else put(key, moveLocalReferences(value));
  }
  return out;
}

// Why the group's schema needs more than one document, or undefined: a reference that is not
// local, an embedded resource ($id) or an anchor, or another dialect.
function otherDocuments(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const why = otherDocuments(item);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  if (node === null || typeof node !== "object") return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === "const" || key === "enum" || key === "default" || key === "examples") continue;
    if (key === "$ref" && typeof value === "string" && value !== "#" && !value.startsWith("#/")) return `$ref ${JSON.stringify(value)} leaves the message's document (a message is one document)`;
    if (key === "$id" || key === "$anchor") return `${key} makes a resource of its own inside the message's document`;
    if (key === "$schema" && value !== DIALECT) return `$schema ${JSON.stringify(value)}: another dialect`;
    const why = otherDocuments(value);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Every group as a message, or the reason it cannot be one (before the spec check). */
export function suiteMessages(): { messages: SuiteMessage[]; unexpressed: Unexpressed[] } {
  const refused = new Set(committedRefusals().map((r) => `${r.file}\u0000${r.group}`));
  const declared = runtimeKeywords();
  const messages: SuiteMessage[] = [];
  const unexpressed: Unexpressed[] = [];
  suiteGroups().forEach((group, index) => {
    const skip = (reason: string): void => void unexpressed.push({ file: group.file, group: group.description, tests: group.tests.length, reason });
    if (group.file === FORMAT_FILE) return skip("format.json: the suite makes format an annotation, the runtimes assert the declared formats (the listed difference)");
    if (refused.has(`${group.file}\u0000${group.description}`)) return skip("refused by every runtime (refused.json: $dynamicRef, $dynamicAnchor or $vocabulary)");
    const other = otherDocuments(group.schema);
    if (other !== undefined) return skip(other);
    try {
      checkRuntimeKeywords([group.schema as JsonSchema], declared);
    } catch (error) {
      if (error instanceof SchemaKeywordError) return skip(`outside runtime-keywords.json: ${error.message}`);
      throw error;
    }
    const example = group.tests.find((t) => t.valid);
    if (example === undefined) return skip("no valid test: a message needs one valid example");
    const name = messageName(index);
    const value = typeof group.schema === "boolean" ? group.schema : moveLocalReferences(group.schema);
    const schema: JsonSchema = {
      $schema: DIALECT,
      $id: `${SCHEMA_BASE}${SUITE_PROTOCOL}/${name}.json`,
      title: name,
      description: `JSON-Schema-Test-Suite ${group.file}: ${group.description}`,
      type: "object",
      additionalProperties: false,
      required: ["value"],
      properties: { value: value as JsonSchema },
      examples: [{ value: example.data as JsonSchema }],
    };
    messages.push({ name, group, schema });
  });
  return { messages, unexpressed };
}

/** One `validate` case per test of each message's group, with the suite's verdict. */
export function suiteCases(messages: readonly SuiteMessage[]): SuiteCase[] {
  return messages.flatMap((m) =>
    m.group.tests.map((t, i) => ({ id: `suite ${m.name} ${i}`, kind: "validate" as const, protocol: SUITE_PROTOCOL, message: m.name, instance: { value: t.data }, valid: t.valid })),
  );
}

/** Writes the project's spec/ under `root` (messages as JSON text, which is YAML). */
export function writeSuiteProject(root: string, messages: readonly SuiteMessage[]): void {
  const spec = join(root, "spec");
  mkdirSync(join(spec, SUITE_PROTOCOL, "messages"), { recursive: true });
  writeFileSync(
    join(spec, "project.yaml"),
    [
      "# The JSON-Schema-Test-Suite as a spec project (property-tests/json-schema-suite/suite-project.ts).",
      "project:",
      "  name: json-schema-test-suite",
      "  version: 0.1.0",
      `  schemaBase: ${SCHEMA_BASE}`,
      "  packages:",
      '    npm: "@json-schema-test-suite/contracts"',
      "    maven: { groupId: org.example.suite, artifactId: suite-contracts, package: org.example.suite }",
      "    swift: { package: SuiteContracts, module: SuiteContracts }",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(spec, SUITE_PROTOCOL, "protocol.yaml"),
    [
      `id: ${SUITE_PROTOCOL}`,
      "title: JSON-Schema-Test-Suite",
      'version: "1"',
      "document: JSON-Schema-Test-Suite, draft 2020-12, required tests",
      "summary: One message per test group of the suite.",
      "transports:",
      "  - id: none",
      "    kind: http",
      "    description: The messages are only validated.",
      "constants: []",
      "",
    ].join("\n"),
  );
  for (const m of messages) writeFileSync(join(spec, SUITE_PROTOCOL, "messages", `${m.name}.yaml`), `${JSON.stringify(m.schema, null, 1)}\n`);
}

/**
 * Writes the project under `root` and drops each message the spec check (as generate runs it)
 * refuses or generate stops on, with the first message about that file as the reason, until the
 * project builds (at most as many rounds as there are messages).
 */
export async function writeCheckedSuiteProject(root: string): Promise<{ messages: SuiteMessage[]; unexpressed: Unexpressed[] }> {
  const { messages, unexpressed } = suiteMessages();
  let kept = [...messages];
  for (let round = 0; round <= messages.length; round++) {
    rmSync(join(root, "spec"), { recursive: true, force: true });
    writeSuiteProject(root, kept);
    // As generate checks it: with every target's keyword support (check/keyword-lints.ts).
    const loaded = loadModel(root, { targets: schemaSupportOf(TARGETS) });
    const refused = new Map<string, string>();
    if (loaded.ok) {
      // What every target's type emitter reads: a shape the model cannot give stops generate.
      const protocol = loaded.model.protocols[0]!;
      for (const message of protocol.messages) {
        try {
          protocolShapes(loaded.model, { ...protocol, messages: [message] });
        } catch (error) {
          if (!(error instanceof ShapeError)) throw error;
          refused.set(message.name, `generate stops on it (model/shapes.ts): ${error.message.replace(/^\S+ /, "")}`);
        }
      }
      if (refused.size === 0) {
        // Any other error an emitter throws stops generate: the message it names is dropped.
        try {
          const built = await build(root);
          if (built.ok) return { messages: kept, unexpressed };
        } catch (error) {
          // Emitters name the message's file or one of its types (Group0101Value): the first name in the message.
          const name = /(Group\d{4})/.exec((error as Error).message)?.[1];
          if (name === undefined) throw error;
          refused.set(name, `generate stops on it: ${(error as Error).message.replace(/^spec\/\S+ /, "")}`);
        }
      }
    }
    for (const e of loaded.ok ? [] : loaded.errors) {
      const name = /^spec\/suite\/messages\/(Group\d{4})\.yaml$/.exec(e.file)?.[1];
      if (name === undefined) throw new Error(`the suite project fails the spec check outside a message: ${e.file}:${e.line}:${e.column} ${e.message}`);
      if (!refused.has(name)) refused.set(name, `the spec check: ${e.message}`);
    }
    for (const m of kept) {
      const reason = refused.get(m.name);
      if (reason !== undefined) unexpressed.push({ file: m.group.file, group: m.group.description, tests: m.group.tests.length, reason });
    }
    kept = kept.filter((m) => !refused.has(m.name));
  }
  throw new Error("the suite project never passed the spec check");
}
