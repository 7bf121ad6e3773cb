// Swift names against the Swift API Design Guidelines (swift.org/documentation/api-design-guidelines):
// types UpperCamelCase, everything else lowerCamelCase, and acronyms and initialisms uniformly
// upper- or lower-cased by position (`requestID`, `installURL`, `id`, `HTTPJSONRequest`); keywords
// and string escapes against The Swift Programming Language, "Lexical Structure". Every expectation
// is written by hand; naming-declared.test.ts checks every name the generated package declares.
import { describe, expect, it } from "vitest";
import { docComment, docText, identifier, lowerCamel, rawStringLiteral, singular, stringLiteral, typeName, uniqueNames, upperCamel } from "./naming.js";

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


// TSPL "Lexical Structure" > Keywords and Punctuation: the keywords reserved outside any context
// (declarations, statements, expressions and types). Each must be backticked to name a member.
const RESERVED_KEYWORDS = [
  "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import",
  "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup", "protocol",
  "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
  "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
  "repeat", "return", "throw", "switch", "where", "while",
  "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
];
// Keywords reserved only in a context, which the namer escapes too (a backticked name is always
// valid, and these read as modifiers at the start of a member declaration).
const ESCAPED_CONTEXTUAL = [
  "Type", "Protocol", "some", "any", "required", "convenience", "dynamic", "final", "lazy", "mutating", "nonmutating",
  "optional", "override", "unowned", "weak", "indirect",
];
// Names a spec uses that are no keyword (or a contextual one valid as a member name): left bare.
const BARE = ["status", "value", "type", "get", "set", "didSet", "willSet", "async", "none", "left", "right", "package", "id", "Class", "selfie"];

describe("Swift keywords", () => {
  it.each([...RESERVED_KEYWORDS, ...ESCAPED_CONTEXTUAL])("%s is backticked", (word) => expect(identifier(word)).toBe(`\`${word}\``));
  it.each(BARE)("%s stays bare", (word) => expect(identifier(word)).toBe(word));
});

describe("Swift casing edges", () => {
  const lower: [string, string][] = [
    ["", "value"],
    ["--", "value"],
    ["2fa", "v2fa"],
    ["IDS", "ids"],
    ["user_IDS", "userIDs"],
    ["sha256", "sha256"],
    ["key_sha256", "keySHA256"],
    ["jwts", "jwts"],
    ["token_jwts", "tokenJWTs"],
    ["api_v2", "apiV2"],
    ["http2_push", "http2Push"],
    ["uses_https", "usesHTTPS"],
    ["status_URL", "statusURL"],
    ["BIG_word", "bigWord"],
    ["HTTPServer", "httpServer"],
    ["x_2id", "x2id"],
    ["user_ids2", "userIDs2"],
    ["client_oauth2", "clientOAUTH2"],
    ["ssid", "ssid"],
    ["wifi_ssid", "wifiSsid"],
  ];
  it.each(lower)("lowerCamel(%j) is %s", (spec, swift) => expect(lowerCamel(spec)).toBe(swift));
  const upper: [string, string][] = [
    ["", "Value"],
    ["3d_secure", "V3dSecure"],
    ["JSON", "JSON"],
    ["JSON_value", "JSONValue"],
    ["BIG_word", "BigWord"],
    ["url_ids", "URLIDs"],
    ["IDs", "IDs"],
    ["Sha256Digest", "SHA256Digest"],
  ];
  it.each(upper)("upperCamel(%j) is %s", (spec, swift) => expect(upperCamel(spec)).toBe(swift));
  const plural: [string, string][] = [
    ["policies", "policy"],
    ["bus", "bus"],
    ["classes", "class"],
    ["taxes", "tax"],
    ["matches", "match"],
    ["wishes", "wish"],
    ["statuses", "status"],
    ["names", "name"],
    ["name", "name"],
    ["iesx", "iesx"],
    ["xies_a", "xies_a"],
    ["chess", "chess"],
    ["axis", "axis"],
    ["cases", "case"],
    // Each suffix counts only at the end of the name.
    ["iesas", "iesa"],
    ["speciesentries", "speciesentry"],
    ["taxesons", "taxeson"],
    ["messboxes", "messbox"],
  ];
  it.each(plural)("singular(%s) is %s", (many, one) => expect(singular(many)).toBe(one));
  it("numbers later duplicates from 2, however often a name repeats", () => {
    expect(uniqueNames(["a", "b", "a", "a", "b"])).toEqual(["a", "b", "a2", "a3", "b2"]);
    expect(uniqueNames([])).toEqual([]);
  });
  it("never gives a duplicate a name already in the list", () => {
    // `a-b`, `a_b` and `aB2` meet as aB, aB, aB2: the second aB must not become a second aB2.
    expect(uniqueNames(["aB", "aB", "aB2"])).toEqual(["aB", "aB3", "aB2"]);
    expect(uniqueNames(["x2", "x", "x", "x3", "x"])).toEqual(["x2", "x", "x4", "x3", "x5"]);
  });
  // Every word the namer treats as an initialism: each is upper case inside a name, lower case as
  // the first word of a member, with a plural `s` and digits kept.
  const INITIALISM_WORDS = [
    "id", "url", "uri", "http", "https", "json", "jcs", "sha", "hmac", "api", "sdk", "ttl", "uuid", "sse", "pii", "llm",
    "mcp", "acp", "cli", "ios", "jwt", "tls", "html", "rfc", "oauth",
  ];
  it.each(INITIALISM_WORDS)("%s is an initialism", (word) => {
    expect(lowerCamel(`x_${word}`)).toBe(`x${word.toUpperCase()}`);
    expect(lowerCamel(`${word}_x`)).toBe(`${word}X`);
    expect(upperCamel(`${word}_x`)).toBe(`${word.toUpperCase()}X`);
    expect(lowerCamel(`x_${word}2`)).toBe(`x${word.toUpperCase()}2`);
  });
  it.each([["ssid"], ["idea"], ["ur"], ["htt"]])("%s is no initialism", (word) => {
    expect(upperCamel(word)).toBe(word.charAt(0).toUpperCase() + word.slice(1).replace(/_x$/, "X"));
  });
});

// TSPL "Lexical Structure" > String Literals: escapes are \0 \\ \t \n \r \" \' and \u{n} (1-8 hex
// digits); a line break cannot appear raw in a single-line literal; interpolation is \( ).
describe("Swift string literals", () => {
  const table: [string, string][] = [
    ["", '""'],
    ["plain text", '"plain text"'],
    ['say "hi"', '"say \\"hi\\""'],
    ["back\\slash", '"back\\\\slash"'],
    ["a\nb\rc\td", '"a\\nb\\rc\\td"'],
    ["\u0000", '"\\u{0}"'],
    ["\u0008\u001f", '"\\u{8}\\u{1f}"'],
    ["\u007f", '"\\u{7f}"'],
    [" ~", '" ~"'],
    ["\u0080\u00a0é", '"\u0080\u00a0é"'],
    ["\\(x)", '"\\\\(x)"'],
    ["emoji 😀", '"emoji 😀"'],
    ["\ud7ff\ue000", '"\ud7ff\ue000"'],
  ];
  it.each(table)("stringLiteral(%j) is %s", (text, swift) => expect(stringLiteral(text)).toBe(swift));
  it.each([["\ud800"], ["x\udfff"], ["\udc00y"]])("refuses the lone surrogate in %j (no Swift String holds it)", (text) => {
    expect(() => stringLiteral(text)).toThrow(/lone surrogate U\+D[89A-F][0-9A-F]{2}/);
  });

  // Raw strings (SE-0200): `#"..."#` ends at `"#` and interpolates at `\#(`; n hashes need `"` or `\`
  // followed by n hashes to end or escape.
  const raw: [string, string][] = [
    ["", '#""#'],
    ['{"a":"b\\n"}', '#"{"a":"b\\n"}"#'],
    ['ends "# here', '##"ends "# here"##'],
    ["escape \\#(x)", '##"escape \\#(x)"##'],
    ['both "## and \\#', '###"both "## and \\#"###'],
    ['"', '#"""#'],
    ["#", '#"#"#'],
  ];
  it.each(raw)("rawStringLiteral(%j) is %s", (text, swift) => expect(rawStringLiteral(text)).toBe(swift));
  it.each([["a\nb"], ["a\rb"]])("refuses a raw string with a line break %j", (text) => {
    expect(() => rawStringLiteral(text)).toThrow(/cannot hold a line break/);
  });
  it("quotes the first 40 characters of a refused raw string", () => {
    expect(() => rawStringLiteral(`a\n${"x".repeat(50)}`)).toThrow(`Swift: a raw string literal cannot hold a line break ("a\\n${"x".repeat(38)}")`);
  });
});

describe("Swift documentation comments", () => {
  it("collapses whitespace to one line of text", () => {
    expect(docText("  a\n\tb   c ")).toBe("a b c");
    expect(docText(undefined)).toBe("");
  });
  it("writes nothing for no text", () => {
    expect(docComment(undefined, "    ")).toBe("");
    expect(docComment(" \n ", "")).toBe("");
  });
  it("writes /// lines of at most 96 - indent columns of text", () => {
    const w = (n: number, c = "a") => c.repeat(n);
    // 46 + 1 + 49 = 96 columns fits without indent; one more column wraps.
    expect(docComment(`${w(46)} ${w(49, "b")}`, "")).toBe(`/// ${w(46)} ${w(49, "b")}\n`);
    expect(docComment(`${w(46)} ${w(50, "b")}`, "")).toBe(`/// ${w(46)}\n/// ${w(50, "b")}\n`);
    expect(docComment(`${w(46)} ${w(45, "b")}`, "    ")).toBe(`    /// ${w(46)} ${w(45, "b")}\n`);
    expect(docComment(`${w(46)} ${w(46, "b")}`, "    ")).toBe(`    /// ${w(46)}\n    /// ${w(46, "b")}\n`);
    // A word longer than the width stays whole on its own line.
    expect(docComment(`x ${w(120)} y`, "")).toBe(`/// x\n/// ${w(120)}\n/// y\n`);
    expect(docComment(`${w(120)} y`, "  ")).toBe(`  /// ${w(120)}\n  /// y\n`);
  });
});
