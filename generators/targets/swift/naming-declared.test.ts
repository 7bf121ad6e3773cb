// Every name the generated Swift package declares, runtime included, checked against the Swift API
// Design Guidelines (swift.org/documentation/api-design-guidelines): types UpperCamelCase,
// everything else lowerCamelCase, initialisms uniformly cased. The namer's hand-written tables are
// in naming.test.ts (fast, no model: the mutation group uses that file).
import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { emitSwift } from "./emit.js";
import { readSwiftCases, readSwiftRuntime } from "./inputs.js";

/** Initialisms the guidelines want uniformly cased; a mixed-case spelling of one inside a name is a violation. */
const MIXED_CASE_INITIALISM = /(?:^|[a-z0-9])(Id|Url|Uri|Http|Https|Json|Jcs|Sha|Hmac|Api|Sdk|Ttl|Uuid|Sse|Pii|Llm|Mcp|Acp|Cli|Ios|Jwt|Tls|Html|Rfc)(?=[A-Z0-9]|s?$|s[A-Z])/;

/** Declared names of a Swift source: types and members (keywords in backticks are exempt). */
function declarations(text: string): { types: string[]; members: string[] } {
  // Comments and string literals (raw ones hold the schemas) are prose, not declarations.
  const source = text.replace(/\/\/.*$/gm, "").replace(/#+"[\s\S]*?"#+/g, '""').replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  const types = [...source.matchAll(/\b(?:struct|enum|class|protocol|typealias|associatedtype|actor)\s+([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  const members = [
    ...[...source.matchAll(/^\s*(?:(?:public|private|fileprivate|internal|static|mutating|override|nonisolated)\s+)*(?:var|let|func)\s+([A-Za-z_][A-Za-z0-9_]*)/gm)].map((m) => m[1]!),
    ...[...source.matchAll(/^\s*case\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:[=(,]|$)/gm)].map((m) => m[1]!),
  ].filter((name) => name !== "let" && name !== "var");
  return { types, members };
}

describe("every name the Swift package declares", () => {
  const result = loadModel(REPO_ROOT);
  if (!result.ok) throw new Error("spec has errors");
  const files = emitSwift(result.model, readSwiftRuntime(REPO_ROOT), readSwiftCases(REPO_ROOT, result.model)).filter((f) => f.path.startsWith("Sources/") && f.path.endsWith(".swift"));
  const types = new Set<string>();
  const members = new Set<string>();
  for (const f of files) {
    const found = declarations(f.contents);
    found.types.forEach((t) => types.add(t));
    found.members.forEach((m) => members.add(m));
  }

  it("finds the declarations (the extraction can see them)", () => {
    expect(types.size).toBeGreaterThan(150);
    expect(members.size).toBeGreaterThan(300);
    for (const t of ["HTTPJSONRequest", "IOSInstallBinding", "Status", "JSONValue", "HMACSHA256V1"]) expect(types).toContain(t);
    for (const m of ["requestID", "installURL", "hostInstanceID", "unknown"]) expect(members).toContain(m);
    expect(types).not.toContain("Statu");
  });

  it("flags a name that breaks the guidelines (the check can fail)", () => {
    expect("requestId").toMatch(MIXED_CASE_INITIALISM);
    expect("HttpJsonRequest").toMatch(MIXED_CASE_INITIALISM);
    expect("IdPrefixes").toMatch(MIXED_CASE_INITIALISM);
    expect("attachmentIds").toMatch(MIXED_CASE_INITIALISM);
    expect("identity").not.toMatch(MIXED_CASE_INITIALISM);
    expect("sharedSecret").not.toMatch(MIXED_CASE_INITIALISM);
    expect(declarations("public struct A {\n    public var requestId: String\n    case x = \"y\"\n}").members).toEqual(["requestId", "x"]);
  });

  it.each([...types].sort())("type %s is UpperCamelCase with uniform initialisms", (name) => {
    expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    expect(name).not.toMatch(MIXED_CASE_INITIALISM);
  });

  it.each([...members].sort())("member %s is lowerCamelCase with uniform initialisms", (name) => {
    expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(name).not.toMatch(MIXED_CASE_INITIALISM);
  });
});
