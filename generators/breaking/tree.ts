// One version of the spec as the breaking-change rules see it: every schema file by $id (with
// positions, from generators/load), every protocol file and every lifecycle machine read as plain
// data. Deliberately no check stage: an old commit's spec may fail today's meta-schemas and must
// still be comparable.
import { existsSync, readdirSync } from "node:fs";
import { loadSpec } from "../load/load-spec.js";
import { readSpecFile, type SpecFile } from "../load/spec-file.js";
import type { JsonValue, SpecError } from "../model/types.js";

export type Obj = { [key: string]: JsonValue };
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export interface SchemaDoc {
  id: string;
  /** "common" or the protocol id. */
  owner: string;
  /** Message name (file name without extension) or the common file's name. */
  name: string;
  kind: "message" | "common";
  file: SpecFile;
}

export interface MachineDoc {
  protocol: string;
  name: string;
  file: SpecFile;
}

export interface SpecTree {
  root: string;
  schemas: SchemaDoc[];
  byId: Map<string, SchemaDoc>;
  protocols: Map<string, SpecFile>;
  machines: MachineDoc[];
  /** spec/project.yaml (its version is what `--suggest-version` bumps); older trees may lack it. */
  project?: SpecFile;
  errors: SpecError[];
}

export function loadTree(root: string): SpecTree {
  const { spec, errors } = loadSpec(root);
  const schemas: SchemaDoc[] = [];
  const baseName = (file: string) => file.slice(file.lastIndexOf("/") + 1).replace(/\.(ya?ml|json)$/, "");
  for (const f of spec.common) schemas.push({ id: idOf(f), owner: "common", name: baseName(f.file), kind: "common", file: f });
  for (const p of spec.protocols) for (const f of p.messageFiles) schemas.push({ id: idOf(f), owner: p.id, name: baseName(f.file), kind: "message", file: f });
  const byId = new Map(schemas.map((s) => [s.id, s]));
  const protocols = new Map(spec.protocols.map((p) => [p.id, p.protocolFile]));
  const machines: MachineDoc[] = [];
  for (const p of spec.protocols) {
    const dir = `${root}/spec/${p.id}/lifecycles`;
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".machine.yaml")) continue;
      const read = readSpecFile(root, `spec/${p.id}/lifecycles/${name}`);
      if (!read.ok) {
        errors.push(...read.errors);
        continue;
      }
      machines.push({ protocol: p.id, name: name.slice(0, -".machine.yaml".length), file: read.spec });
    }
  }
  return { root, schemas, byId, protocols, machines, project: spec.project, errors };
}

/** The file's $id, or a stand-in derived from its path so a file without one still compares. */
function idOf(f: SpecFile): string {
  const id = isObj(f.value) ? f.value["$id"] : undefined;
  if (typeof id === "string") return id;
  const m = /^spec\/(.+)\/(?:messages\/)?([^/]+)\.(ya?ml|json)$/.exec(f.file);
  return m ? `https://agent-contracts.dev/schemas/${m[1]!.replace(/\/messages$/, "")}/${m[2]}.json` : `file:${f.file}`;
}

/** A schema node together with where it is written. */
export interface Located {
  doc: SchemaDoc;
  pointer: string;
  schema: JsonValue;
}

export function nodeAt(value: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === "") return value;
  let cur: JsonValue | undefined = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur)) cur = cur[Number(token)];
    else if (isObj(cur)) cur = cur[token];
    else return undefined;
  }
  return cur;
}

/** Resolves a $ref written in `from` (relative to its document's $id) to the node it names. */
export function resolveRef(tree: SpecTree, from: SchemaDoc, ref: string): (Located & { uri: string }) | undefined {
  let url: URL;
  try {
    url = new URL(ref, from.id);
  } catch (error) {
    // Only a reference that is no URL resolves to nothing; anything else (a stack overflow in a
    // caller's recursion) must not be swallowed here, where it would end that recursion by chance.
    if (error instanceof TypeError) return undefined;
    throw error;
  }
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ""));
  url.hash = "";
  const doc = tree.byId.get(url.href);
  if (!doc) return undefined;
  const schema = nodeAt(doc.file.value, fragment);
  if (schema === undefined) return undefined;
  return { doc, pointer: fragment, schema, uri: `${doc.id}#${fragment}` };
}
