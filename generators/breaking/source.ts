// SOURCE: what the generated TypeScript, Kotlin and Swift APIs expose. Types are named by their
// titles (README: names in every language come from titles), fields by property names.
import type { JsonValue } from "../model/types.js";
import { canonical, filePosition, finding, type Finding } from "./finding.js";
import { isObj, resolveRef, type Obj, type SchemaDoc, type SpecTree } from "./tree.js";

interface Titled {
  doc: SchemaDoc;
  pointer: string;
  schema: Obj;
}

const SKIP = new Set(["examples", "x-invalid-examples", "default", "const", "enum"]);
const esc = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");

function walk(value: JsonValue, pointer: string, visit: (node: Obj, pointer: string) => void): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${pointer}/${i}`, visit));
  else if (isObj(value)) {
    visit(value, pointer);
    for (const [k, v] of Object.entries(value)) if (!SKIP.has(k) && !k.startsWith("x-")) walk(v, `${pointer}/${esc(k)}`, visit);
  }
}

/** Generated types by "<owner>/<title>". */
function titledTypes(tree: SpecTree): Map<string, Titled> {
  const out = new Map<string, Titled>();
  for (const doc of tree.schemas) {
    walk(doc.file.value, "", (node, pointer) => {
      if (typeof node.title === "string" && !out.has(`${doc.owner}/${node.title}`)) out.set(`${doc.owner}/${node.title}`, { doc, pointer, schema: node });
    });
  }
  return out;
}

/** The language type a property maps to, as a comparable key. */
export function languageType(tree: SpecTree, doc: SchemaDoc, s: JsonValue | undefined, seen: ReadonlySet<string> = new Set()): string {
  if (!isObj(s)) return "any";
  if (typeof s.$ref === "string") {
    const t = resolveRef(tree, doc, s.$ref);
    if (!t) return `ref:${s.$ref}`;
    if (isObj(t.schema) && typeof t.schema.title === "string") return `type ${t.schema.title}`;
    // An untitled $ref cycle is one recursive type, whichever schema it is entered at; nesting is
    // bounded by the loader's depth limit.
    if (seen.has(t.uri)) return `recursive ${t.uri}`;
    return languageType(tree, t.doc, t.schema, new Set([...seen, t.uri]));
  }
  if (typeof s.title === "string") return `type ${s.title}`;
  if (s.const !== undefined) return `const ${canonical(s.const)}`;
  if (Array.isArray(s.enum)) return "enum";
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) return "union";
  const types = Array.isArray(s.type) ? s.type.map(String).sort().join("|") : typeof s.type === "string" ? s.type : isObj(s.properties) ? "object" : "any";
  if (types === "array") return `array<${languageType(tree, doc, s.items, seen)}>`;
  return types;
}

export function compareSource(oldTree: SpecTree, newTree: SpecTree): Finding[] {
  const out: Finding[] = [];
  const ot = titledTypes(oldTree);
  const nt = titledTypes(newTree);
  const nearest = (owner: string) => newTree.schemas.find((d) => d.owner === owner);
  for (const [key, o] of ot) {
    const n = nt.get(key);
    const oldPos = filePosition(o.doc.file, o.pointer);
    if (!n) {
      const near = newTree.byId.get(o.doc.id) ?? nearest(o.doc.owner);
      const at = near ? filePosition(near.file, "") : oldPos;
      out.push(finding("SOURCE_TYPE_REMOVED", at, `type ${String(o.schema.title)} (${o.doc.owner}) was removed or renamed`, { old: oldPos, removed: true }));
      continue;
    }
    const op = isObj(o.schema.properties) ? o.schema.properties : {};
    const np = isObj(n.schema.properties) ? n.schema.properties : {};
    const or = new Set(Array.isArray(o.schema.required) ? o.schema.required.map(String) : []);
    const nr = new Set(Array.isArray(n.schema.required) ? n.schema.required.map(String) : []);
    const title = String(o.schema.title);
    for (const name of Object.keys(op)) {
      const oPos = filePosition(o.doc.file, `${o.pointer}/properties/${esc(name)}`);
      if (!(name in np)) {
        out.push(finding("SOURCE_FIELD_REMOVED", filePosition(n.doc.file, `${n.pointer}/properties`), `field ${title}.${name} was removed or renamed`, { old: oPos, removed: true }));
        continue;
      }
      const a = languageType(oldTree, o.doc, op[name]);
      const b = languageType(newTree, n.doc, np[name]);
      if (a !== b) out.push(finding("SOURCE_FIELD_TYPE_CHANGED", filePosition(n.doc.file, `${n.pointer}/properties/${esc(name)}`), `field ${title}.${name} changed type: ${a} -> ${b}`, { old: oPos }));
    }
    for (const name of nr) {
      if (or.has(name)) continue;
      const what = name in op ? "became required" : "was added as required";
      out.push(finding("SOURCE_FIELD_MADE_REQUIRED", filePosition(n.doc.file, `${n.pointer}/required`), `field ${title}.${name} ${what}: constructors gain a mandatory parameter`, { old: filePosition(o.doc.file, `${o.pointer}/required`) }));
    }
  }
  // Enum cases, at the same pointer of the same file.
  for (const od of oldTree.schemas) {
    const nd = newTree.byId.get(od.id);
    if (!nd) continue;
    walk(od.file.value, "", (node, pointer) => {
      if (!Array.isArray(node.enum)) return;
      const other = nodeAtPointer(nd.file.value, pointer);
      if (!isObj(other) || !Array.isArray(other.enum)) return;
      const keep = new Set(other.enum.map(canonical));
      for (const v of node.enum) {
        if (!keep.has(canonical(v))) out.push(finding("SOURCE_ENUM_CASE_REMOVED", filePosition(nd.file, `${pointer}/enum`), `enum case ${JSON.stringify(v)} was removed`, { old: filePosition(od.file, `${pointer}/enum`), removed: true }));
      }
    });
  }
  out.push(...compareConstants(oldTree, newTree));
  return out;
}

function nodeAtPointer(value: JsonValue, pointer: string): JsonValue | undefined {
  let cur: JsonValue | undefined = value;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const t = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    cur = Array.isArray(cur) ? cur[Number(t)] : isObj(cur) ? cur[t] : undefined;
  }
  return cur;
}

function compareConstants(oldTree: SpecTree, newTree: SpecTree): Finding[] {
  const out: Finding[] = [];
  const index = (v: JsonValue) => {
    const m = new Map<string, string>();
    const groups = isObj(v) && Array.isArray(v.constants) ? v.constants : [];
    groups.forEach((g, gi) => {
      if (!isObj(g) || !Array.isArray(g.items)) return;
      g.items.forEach((item, ii) => {
        if (isObj(item)) m.set(`${String(g.group)}.${String(item.name)}`, `/constants/${gi}/items/${ii}`);
      });
    });
    return m;
  };
  for (const [id, of] of oldTree.protocols) {
    const nf = newTree.protocols.get(id);
    const nm = nf ? index(nf.value) : new Map<string, string>();
    for (const [name, pointer] of index(of.value)) {
      if (nm.has(name)) continue;
      out.push(finding("SOURCE_CONSTANT_REMOVED", nf ? filePosition(nf, "/constants") : filePosition(of, pointer), `constant ${id} ${name} was removed or renamed`, { old: filePosition(of, pointer), removed: true }));
    }
  }
  return out;
}
