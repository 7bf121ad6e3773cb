// <Protocol>Constants.swift: the protocol's named constants and its HTTP routes.
import { numberLiteral } from "../../emit/number-literal.js";
import type { Protocol } from "../../model/types.js";
import { docComment, docText, identifier, lowerCamel, stringLiteral, upperCamel } from "./naming.js";
import { swiftLiteral } from "./emit-support.js";

export function renderConstants(protocol: Protocol, namespace: string): string {
  const out: string[] = ["import Foundation", "", `extension ${namespace} {`];
  for (const group of protocol.constants) {
    out.push(docComment(group.description, "    ") + `    public enum ${upperCamel(group.group)} {`);
    for (const item of group.items) {
      const doc = `${docText(item.description)}${item.unit ? ` (${item.unit})` : ""}`;
      const { type, literal } = typeof item.value === "number" ? numberLiteral(item.value, "swift") : { type: typeof item.value === "string" ? "String" : "Bool", literal: swiftLiteral(item.value) };
      out.push(docComment(doc, "        ") + `        public static let ${identifier(lowerCamel(item.name))}: ${type} = ${literal}`);
    }
    out.push("    }", "");
  }
  if (protocol.routes.length > 0) {
    out.push("    /// HTTP routes with their auth and every response status.", "    public enum Routes {");
    for (const route of protocol.routes) {
      const responses = route.responses
        .map((r) => `RouteResponse(status: ${r.status}, message: ${r.message === undefined ? "nil" : stringLiteral(r.message)}, contentType: ${r.contentType === undefined ? "nil" : stringLiteral(r.contentType)})`)
        .join(", ");
      out.push(
        docComment(route.description, "        ") +
          `        public static let ${identifier(lowerCamel(route.id))} = Route(id: ${stringLiteral(route.id)}, method: ${stringLiteral(route.method)}, path: ${stringLiteral(route.path)}, auth: ${stringLiteral(route.auth)}, request: ${route.request === undefined ? "nil" : stringLiteral(route.request)}, responses: [${responses}])`,
      );
    }
    out.push(`        public static let all: [Route] = [${protocol.routes.map((r) => identifier(lowerCamel(r.id))).join(", ")}]`);
    out.push("    }");
  }
  out.push("}", "");
  return out.join("\n");
}
