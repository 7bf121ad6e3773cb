// Each protocol's wire constants and HTTP routes (constants.ts) and its index.ts, as TypeScript
// modules (ts-file.ts).
import { numberLiteral } from "../../emit/number-literal.js";
import type { Protocol } from "../../model/types.js";
import { jsdocText } from "./ts-doc.js";
import { TsFile } from "./ts-file.js";

/** A constant's literal: numbers through the shared exact-literal helper, strings and booleans as JSON. */
function tsLiteral(value: string | number | boolean): string {
  return typeof value === "number" ? numberLiteral(value, "ts").literal : JSON.stringify(value);
}

export function constantsModule(protocol: Protocol): TsFile {
  const f = new TsFile(`${protocol.id}/constants.ts`, [protocol.location.file]);
  for (const group of protocol.constants) {
    const doc = (item: (typeof group.items)[number]): string => `/** ${jsdocText(item.description)}${item.unit ? ` (${item.unit})` : ""} */`;
    f.print(
      `/** ${jsdocText(group.description)} */`,
      `export const ${group.group}: {`,
      ...group.items.map((item) => `  ${doc(item)}\n  readonly ${item.name}: ${tsLiteral(item.value)};`),
      "} = Object.freeze({",
      ...group.items.map((item) => `  ${item.name}: ${tsLiteral(item.value)},`),
      "});",
      "",
    );
  }
  const routes = Object.fromEntries(protocol.routes.map((r) => [r.id, r]));
  f.print(
    "export interface RouteResponse { readonly status: number; readonly message?: string; readonly contentType?: string; readonly description: string }",
    "export interface Route { readonly id: string; readonly method: string; readonly path: string; readonly auth: string; readonly description: string; readonly request?: string; readonly requestContentType?: string; readonly responses: readonly RouteResponse[] }",
    "",
    "/** HTTP routes with their auth and every response status. */",
    `export const routes: { readonly [id: string]: Route } = Object.freeze(${JSON.stringify(routes, null, 2)});`,
  );
  return f;
}

/** `<protocol>/index.ts`: the protocol's whole API, as the root index exports it under one namespace. */
export function protocolIndexModule(protocol: Protocol, sources: readonly string[], hasSigning: boolean): TsFile {
  const f = new TsFile(`${protocol.id}/index.ts`, sources);
  f.print('export * from "./messages.js";', 'export * from "./constants.js";');
  if (hasSigning) f.print('export * from "./signing.js";');
  if (protocol.lifecycles.length > 0) f.print('export * as lifecycles from "./lifecycles/index.js";');
  f.print('export type * from "./types.js";');
  return f;
}
