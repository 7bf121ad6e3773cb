// Lints on protocol.yaml: every name it uses (messages in routes and secrets, the spec items in
// the coverage sections) must resolve, and no secret field may be declared by a message that must
// never carry it.
import { existsSync, readdirSync } from "node:fs";
import type { LoadedProtocol } from "../load/load-spec.js";
import { joinPointer, readSpecFile } from "../load/spec-file.js";
import type { JsonSchema, JsonValue, SpecError } from "../model/types.js";
import { reporter, walkSchemas } from "./lints.js";

export function checkProtocolReferences(protocol: LoadedProtocol, errors: SpecError[], root = process.cwd(), sectionCoverage = true): void {
  const file = protocol.protocolFile;
  const doc = file.value as JsonSchema;
  const report = reporter(file, "protocol-references", errors);
  const messages = new Map(protocol.messageFiles.map((f) => [String((f.value as JsonSchema)["title"]), f.value as JsonSchema]));
  const groups = new Set(((doc["constants"] ?? []) as JsonSchema[]).map((g) => String(g["group"])));
  const routes = new Set(((doc["routes"] ?? []) as JsonSchema[]).map((r) => String(r["id"])));
  const secrets = new Set(((doc["secrets"] ?? []) as JsonSchema[]).map((s) => String(s["field"])));
  const lifecycles = listLifecycles(root, protocol.id);
  const divergences = new Set<string>(((doc["divergences"] ?? []) as JsonSchema[]).map((d) => String(d["id"])));
  for (const schema of messages.values()) collectDivergences(schema, divergences);
  for (const name of lifecycles) {
    const machine = readSpecFile(root, `spec/${protocol.id}/lifecycles/${name}.machine.yaml`);
    if (machine.ok) collectDivergences(machine.spec.value, divergences);
  }

  const needMessage = (name: unknown, pointer: string): void => {
    if (typeof name === "string" && !messages.has(name)) report(pointer, `no message named ${name} in spec/${protocol.id}/messages`);
  };
  ((doc["routes"] ?? []) as JsonSchema[]).forEach((route, i) => {
    needMessage(route["request"], joinPointer("/routes", i, "request"));
    ((route["responses"] ?? []) as JsonSchema[]).forEach((r, j) => needMessage(r["message"], joinPointer("/routes", i, "responses", j, "message")));
  });
  ((doc["secrets"] ?? []) as JsonSchema[]).forEach((secret, i) => {
    ((secret["neverIn"] ?? []) as string[]).forEach((name, j) => {
      const pointer = joinPointer("/secrets", i, "neverIn", j);
      needMessage(name, pointer);
      const schema = messages.get(name);
      if (schema && declaresProperty(schema, String(secret["field"]))) report(pointer, `${name} declares the secret field ${String(secret["field"])}`);
    });
  });
  ((doc["sections"] ?? []) as JsonSchema[]).forEach((section, i) => {
    ((section["coveredBy"] ?? []) as string[]).forEach((ref, j) => {
      const pointer = joinPointer("/sections", i, "coveredBy", j);
      const [kind, name = ""] = [ref.slice(0, ref.indexOf(":")), ref.slice(ref.indexOf(":") + 1)];
      const ok =
        kind === "message" ? messages.has(name)
        : kind === "constants" ? groups.has(name)
        : kind === "route" ? routes.has(name)
        : kind === "secret" ? secrets.has(name)
        : kind === "lifecycle" ? lifecycles.includes(name)
        : kind === "divergence" ? divergences.has(name)
        : kind === "rule" ? hasRule(messages.get(name.split("/")[0]!), name.split("/")[1] ?? "")
        : kind === "signing" ? isSigned(messages.get(name))
        : false;
      if (!ok) report(pointer, `${ref} does not resolve to a spec item of ${protocol.id}`);
    });
  });
  // The reverse direction (the policy lint section-coverage): nothing in the spec is outside the coverage table.
  if (!sectionCoverage) return;
  const named = new Set(((doc["sections"] ?? []) as JsonSchema[]).flatMap((s) => (s["coveredBy"] ?? []) as string[]));
  const coverage = reporter(file, "section-coverage", errors);
  for (const name of [...messages.keys()].sort()) if (!named.has(`message:${name}`)) coverage("/sections", `message:${name} is not named by any section`);
  for (const name of lifecycles) if (!named.has(`lifecycle:${name}`)) coverage("/sections", `lifecycle:${name} is not named by any section`);
}

function listLifecycles(root: string, protocol: string): string[] {
  const dir = `${root}/spec/${protocol}/lifecycles`;
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => n.endsWith(".machine.yaml")).map((n) => n.replace(/\.machine\.yaml$/, "")).sort();
}

function collectDivergences(node: JsonValue, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((n) => collectDivergences(n, into));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if ((key === "x-divergences" || key === "divergences") && Array.isArray(value)) {
        for (const d of value) if (d && typeof d === "object" && !Array.isArray(d) && typeof d["id"] === "string") into.add(d["id"]);
      } else if (key !== "examples" && key !== "x-invalid-examples") collectDivergences(value, into);
    }
  }
}

function declaresProperty(schema: JsonSchema, field: string): boolean {
  let found = false;
  walkSchemas(schema, "", (s) => {
    const props = s["properties"];
    if (props && typeof props === "object" && !Array.isArray(props) && field in props) found = true;
  });
  return found;
}

function hasRule(schema: JsonSchema | undefined, id: string): boolean {
  return Array.isArray(schema?.["x-rules"]) && (schema["x-rules"] as JsonSchema[]).some((r) => r["id"] === id);
}

function isSigned(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && ["x-content-address", "x-signature", "x-approval-token"].some((k) => schema[k] !== undefined);
}
