// SECURITY: declarations every signature, content id or approval token depends on. Any change
// at all (order included: signing lines are ordered) invalidates what already exists.
import type { JsonValue } from "../model/types.js";
import { canonical, filePosition, finding, type Finding } from "./finding.js";
import { isObj, type Obj, type SpecTree } from "./tree.js";

const DECLARATIONS: [string, string][] = [
  ["x-signature", "SECURITY_SIGNATURE_CHANGED"],
  ["x-content-address", "SECURITY_CONTENT_ADDRESS_CHANGED"],
  ["x-approval-token", "SECURITY_APPROVAL_TOKEN_CHANGED"],
  ["x-replay", "SECURITY_REPLAY_CHANGED"],
];

function describe(a: JsonValue | undefined, b: JsonValue | undefined): string {
  if (a === undefined) return "declaration added";
  if (b === undefined) return "declaration removed";
  if (!isObj(a) || !isObj(b)) return "declaration changed";
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => canonical(a[k]) !== canonical(b[k]));
  const detail = keys.map((k) => {
    if (k === "lines" && Array.isArray(a.lines) && Array.isArray(b.lines)) {
      const f = (l: JsonValue[]) => l.map((x) => (isObj(x) ? `${String(x.name)}=${String(x.field)}${x.value === "string" ? "" : `(${String(x.value)})`}` : "?")).join(", ");
      return `covered lines [${f(a.lines)}] -> [${f(b.lines)}]`;
    }
    return `${k} ${JSON.stringify(a[k]) ?? "unset"} -> ${JSON.stringify(b[k]) ?? "unset"}`;
  });
  return detail.join("; ");
}

/** The approval token's claim set: the message's property names and which are required. */
function claims(v: Obj): string {
  const props = isObj(v.properties) ? Object.keys(v.properties).sort() : [];
  const req = new Set(Array.isArray(v.required) ? v.required.map(String) : []);
  return props.map((p) => (req.has(p) ? p : `${p}?`)).join(", ");
}

export function compareSecurity(oldTree: SpecTree, newTree: SpecTree): Finding[] {
  const out: Finding[] = [];
  for (const od of oldTree.schemas) {
    const nd = newTree.byId.get(od.id);
    const ov = isObj(od.file.value) ? od.file.value : {};
    const nv = nd && isObj(nd.file.value) ? nd.file.value : undefined;
    for (const [key, rule] of DECLARATIONS) {
      const a = ov[key];
      const b = nv?.[key];
      if (a === undefined && b === undefined) continue;
      if (canonical(a) === canonical(b)) continue;
      const at = nd ? filePosition(nd.file, b === undefined ? "" : `/${key}`) : filePosition(od.file, `/${key}`);
      out.push(finding(rule, at, `${od.name}: ${key} ${nd ? describe(a, b) : "removed with its message"}`, { old: filePosition(od.file, a === undefined ? "" : `/${key}`), removed: b === undefined }));
    }
    if (nv && ov["x-approval-token"] !== undefined && nv["x-approval-token"] !== undefined) {
      const a = claims(ov);
      const b = claims(nv);
      if (a !== b) out.push(finding("SECURITY_APPROVAL_TOKEN_CHANGED", filePosition(nd!.file, "/properties"), `${od.name}: approval-token claim set [${a}] -> [${b}]`, { old: filePosition(od.file, "/properties") }));
    }
  }
  return out;
}
