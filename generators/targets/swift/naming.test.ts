// Swift names against the Swift API Design Guidelines (swift.org/documentation/api-design-guidelines):
// types UpperCamelCase, everything else lowerCamelCase, and acronyms and initialisms uniformly
// upper- or lower-cased by position (`requestID`, `installURL`, `id`, `HTTPJSONRequest`). Two
// tables: spec names with the Swift name a reviewer expects (written by hand), and every name the
// generated package declares, runtime included, checked against the rules.
import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { emitSwift } from "./emit.js";
import { readSwiftCases, readSwiftRuntime } from "./inputs.js";
import { identifier, lowerCamel, singular, typeName, uniqueNames, upperCamel } from "./naming.js";

const MEMBERS: [string, string][] = [
  ["request_id", "requestID"],
  ["install_url", "installURL"],
  ["host_instance_id", "hostInstanceID"],
  ["hostInstanceId", "hostInstanceID"],
  ["id", "id"],
  ["url", "url"],
  ["ids", "ids"],
  ["attachment_ids", "attachmentIDs"],
  ["consumedRequestIds", "consumedRequestIDs"],
  ["api_url_env", "apiURLEnv"],
  ["payload_sha256", "payloadSHA256"],
  ["hmac-sha256-v1", "hmacSHA256V1"],
  ["x-request-id", "xRequestID"],
  ["tokenPayloadNotBase64Url", "tokenPayloadNotBase64URL"],
  ["identity", "identity"],
  ["idempotencyMode", "idempotencyMode"],
  ["https_only", "httpsOnly"],
  ["callback_uris", "callbackURIs"],
  ["WORKFLOW_START", "workflowStart"],
  ["sdk.local-echo.v1", "sdkLocalEchoV1"],
  ["status", "status"],
  ["3ds", "v3ds"],
];

const TYPES: [string, string][] = [
  ["HttpJsonRequest", "HTTPJSONRequest"],
  ["IosInstallBinding", "IOSInstallBinding"],
  ["AndroidInstallLaunchUriParameters", "AndroidInstallLaunchURIParameters"],
  ["ConnectPollStatuses", "ConnectPollStatuses"],
  ["agent-provider", "AgentProvider"],
  ["live_channel", "LiveChannel"],
  ["id_prefixes", "IDPrefixes"],
  ["provider_ids", "ProviderIDs"],
  ["sse_fields", "SSEFields"],
  ["RFC3339", "RFC3339"],
  ["Status", "Status"],
];

const SINGULAR: [string, string][] = [
  ["status", "status"],
  ["statuses", "status"],
  ["items", "item"],
  ["entries", "entry"],
  ["address", "address"],
  ["boxes", "box"],
  ["analysis", "analysis"],
  ["permissions", "permission"],
];

describe("Swift naming service", () => {
  it.each(MEMBERS)("member %s -> %s", (spec, swift) => expect(lowerCamel(spec)).toBe(swift));
  it.each(TYPES)("type %s -> %s", (spec, swift) => expect(typeName(spec)).toBe(swift));
  it.each(SINGULAR)("singular %s -> %s", (plural, one) => expect(singular(plural)).toBe(one));
  it("escapes keywords and separates collisions", () => {
    expect(identifier("default")).toBe("`default`");
    expect(identifier("self")).toBe("`self`");
    expect(identifier("status")).toBe("status");
    expect(uniqueNames(["requestID", "requestID", "other"])).toEqual(["requestID", "requestID2", "other"]);
    // request_id and requestId meet as one Swift name; the second gets a suffix, never a clash.
    expect(uniqueNames(["request_id", "requestId"].map(lowerCamel))).toEqual(["requestID", "requestID2"]);
    expect(upperCamel("")).toBe("Value");
  });
});

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
