// Edges of the secret filter's scan (secret-text.ts) next to secret-text.mutation-kills.test.ts.
// Expectations: the filter's own verdicts in spec/agent-connector/vectors/secret-text.json (for
// containsSecret), Node's base64 codec (canonical means re-encoding gives the text back), RFC 4648
// (the standard alphabet has '/', base64url has '-' and '_'), RFC 7515 (a JOSE header is
// base64url), RFC 7617 (Basic is followed by a space), RFC 7468 (the PEM label line is
// "-----BEGIN <label>-----"), RFC 3986 (a scheme sits right before "://"), and the shape rules
// the boundary tables of secret-text.mutation-kills.test.ts state for each stage; a text that
// shifts one of those vectors or table rows by a prefix gets the same verdict.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { containsSecret, decodeCanonicalBase64, findSecret } from "../../generators/targets/ts/runtime/src/secret-text.js";

const { cases } = JSON.parse(readFileSync("spec/agent-connector/vectors/secret-text.json", "utf8")) as { cases: { text: string; secret: boolean }[] };
const b64url = (text: string) => Buffer.from(text).toString("base64url");

describe("containsSecret is the filter's verdict", () => {
  it("on every vector", () => {
    expect(cases.filter((c) => containsSecret(c.text) !== c.secret).map((c) => c.text)).toEqual([]);
    expect(cases.some((c) => c.secret) && cases.some((c) => !c.secret)).toBe(true);
  });
});

describe("decodeCanonicalBase64 against node's codec", () => {
  const canonical = (text: string) => Buffer.from(text, "base64").toString("base64").replace(/=+$/, "") === text;
  it("a length of 4k+1 is never canonical, even when the last character carries no bits", () => {
    for (const text of ["QQQQA", "AAAAA", "QUFBQUFBQUFBA"]) {
      expect(canonical(text), text).toBe(false);
      expect(decodeCanonicalBase64(text, false), text).toBeUndefined();
    }
  });
  it("the length limit is inclusive: 65 536 characters still decode", () => {
    const text = "A".repeat(65536);
    expect(canonical(text)).toBe(true);
    expect(decodeCanonicalBase64(text, false)).toEqual([...Buffer.from(text, "base64")]);
  });
});

describe("stage edges", () => {
  const table = (rows: [string, string | undefined][]) => {
    for (const [text, shape] of rows) expect(findSecret(text), JSON.stringify(text)).toBe(shape);
  };
  it("basic: the standard alphabet's '/' is a base64 character; 'Basic' needs a space or tab after it", () => {
    expect([...Buffer.from("/Do=", "base64")]).toEqual([0xfc, 0x3a]); // a ':' behind a '/'
    table([["Basic /Do=", "basic"], ["x Basic /Do=", "basic"], ["BasicdTpw", undefined], ["Basic dTpw", "basic"]]);
  });
  it("private keys: the header says BEGIN; an END line starts after the header's closing dashes; a later lone BEGIN changes nothing", () => {
    table([
      ["-----BEGIX PRIVATE KEY----- x -----END PRIVATE KEY-----", undefined],
      ["-----BEGIN PRIVATE KEY-----END PRIVATE KEY-----", undefined],
      ["-----BEGIN PRIVATE KEY----- -----END PRIVATE KEY----- -----BEGIN PRIVATE KEY-----", "private-key"],
    ]);
  });
  it("key prefixes: a leading '_' or '-' elsewhere in the text, a dash run before the key, a run ending in '-'", () => {
    table([
      ["_ sk_abcdefghijklmnop", "api-key-prefix"],
      ["- sk-abcdefghijklmnop", "api-key-prefix"],
      ["-- sk-abcdefghijklmnop", "api-key-prefix"],
      // 11 key characters before the run's last word boundary (the '-' after them is no boundary).
      ["sk-abcdefghijk- x", undefined],
      ["sk-abcdefghijkl- x", "api-key-prefix"],
    ]);
  });
  it("google: 39 key characters without the AIza prefix are no key", () => {
    table([["b".repeat(39), undefined], [`x ${"b".repeat(39)}`, undefined]]);
  });
  it("jose: seven segments are taken five, then two are too few; a trailing dot adds no segment", () => {
    const header = "eyJhbGciOiJIUzI1NiJ9"; // {"alg":"HS256"}
    table([
      [`a.b.c.d.e.${header}.x`, undefined],
      [`a.b.c.d.e.${header}.x.`, undefined],
      [`a.b.c.d.e.${header}.x.y`, "jose"], // eight: five, then three from the header (vector jose-61)
    ]);
  });
  it("jose: the header is base64url ('-' and '_'), a header that is not UTF-8 JSON is none, and a non-blank alg counts", () => {
    const withUrlChars = b64url('{"alg":"HS256","kid":"???>>>"}');
    expect(withUrlChars).toMatch(/[-_]/);
    table([
      [`${withUrlChars}.e30.sig`, "jose"],
      ["_w.e30.abc", undefined], // _w decodes to the byte ff
      [`${b64url('{"alg":" HS256"}')}.e30.sig`, "jose"],
      [`${b64url('{"alg":"H S"}')}.e30.sig`, "jose"],
    ]);
  });
  it("url credentials: the scheme is right before '://'; a '://' at the very start does not end the search", () => {
    table([["a ://u:p@h", undefined], ["://x https://u:p@h", "url-credentials"]]);
  });
  it("assignments: a name is assigned only by a ':' or '=' right after it (two names in one run, a name at the end), a ':' or '=' at the start of the text, a NUL value", () => {
    table([
      ["tokensecret x=1", undefined],
      ["tokensecret=1", "assignment"],
      [":x tokenxy", undefined],
      ["=x tokenxy", undefined],
      [": token: x", "assignment"],
      ["= token=x", "assignment"],
      ["token=\u0000", "assignment"],
    ]);
  });
  it("assignments: the filter's own replacement text is left alone after a separate word too", () => {
    table([["x credential=[redacted]", undefined], ["xcredential=[redacted]", "assignment"]]);
  });
});
