// Every symbol of the runtime contract (generators/emit/runtime-contract.ts) is really there: the
// TypeScript runtime module, imported, exports it as a function or class; the Kotlin, Swift and
// Rust runtime sources declare it (a top-level declaration, or a member of the named object or
// type, read from the source between the container's opening line and its closing brace). And
// each is named as its entry says, modulo casing, but for the renames still listed as owed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { changelogMarkdown } from "../breaking/changelog.js";
import { caseless, NAMES_NOT_YET_ALIGNED, RUNTIME_RENAMES, RUNTIME_CONTRACT, RUNTIME_LANGUAGES, runtimeSymbol, type RuntimeLanguage, type RuntimeSymbol } from "../emit/runtime-contract.js";
import { REPO_ROOT } from "./fixture.js";

const TS_RUNTIME = `${REPO_ROOT}/generators/targets/ts/runtime/src`;

/** The body of a top-level declaration `<keyword> Name` up to the `}` that closes it at column 0. */
function containerBody(source: string, keywords: RegExp, container: string): string | undefined {
  const start = new RegExp(`^(?:${keywords.source}) ${container}\\b[^\\n]*\\{$`, "m").exec(source);
  if (start === null) return undefined;
  const end = source.indexOf("\n}", start.index);
  return source.slice(start.index, end === -1 ? undefined : end);
}

function kotlinDeclares(symbol: RuntimeSymbol): boolean {
  const source = readFileSync(`${REPO_ROOT}/generators/targets/kotlin/runtime/${symbol.file}`, "utf8");
  if (symbol.container === undefined) return new RegExp(`^(?:class|object|interface|fun(?: <[^>]*>)?) ${symbol.name}\\b`, "m").test(source);
  const body = containerBody(source, /object|class/, symbol.container);
  return body !== undefined && new RegExp(`^ {4}(?:suspend )?fun (?:<[^>]*> )?${symbol.name}\\(`, "m").test(body);
}

function swiftDeclares(symbol: RuntimeSymbol): boolean {
  const source = readFileSync(`${REPO_ROOT}/generators/targets/swift/runtime/${symbol.file}`, "utf8");
  if (symbol.container === undefined) return new RegExp(`^public (?:final class|class|struct|enum|protocol|func) ${symbol.name}\\b`, "m").test(source);
  const body = containerBody(source, /public enum|public struct|public final class|extension/, symbol.container);
  return body !== undefined && new RegExp(`^ {4}public static func ${symbol.name}\\(`, "m").test(body);
}

function rustDeclares(symbol: RuntimeSymbol): boolean {
  const source = readFileSync(`${REPO_ROOT}/generators/targets/rust/runtime/${symbol.file}`, "utf8");
  if (symbol.container === undefined) return new RegExp(`^pub (?:fn|struct|trait|enum) ${symbol.name}\\b`, "m").test(source);
  const body = containerBody(source, /impl(?:<[^>]*>)?/, symbol.container);
  return body !== undefined && new RegExp(`^ {4}pub fn ${symbol.name}\\b`, "m").test(body);
}

const LANGUAGES = Object.keys(RUNTIME_LANGUAGES) as RuntimeLanguage[];

/** `<language>:<id>` of every symbol whose name is not its entry's name modulo casing. */
function misnamed(contract: readonly { id: string; name: string; ts: RuntimeSymbol | null; kotlin: RuntimeSymbol | null; swift: RuntimeSymbol | null; rust: RuntimeSymbol | null }[]): string[] {
  return contract.flatMap((entry) => LANGUAGES.filter((l) => entry[l] !== null && caseless(entry[l]!.name) !== caseless(entry.name)).map((l) => `${l}:${entry.id}`));
}

describe("the runtime contract", () => {
  it("names each function once", () => {
    const ids = RUNTIME_CONTRACT.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(RUNTIME_CONTRACT.filter((e) => e.ts !== null).map((e) => [e.id, e.ts as RuntimeSymbol] as const))("TypeScript %s is exported by its module", async (_id, symbol) => {
    expect(symbol.container).toBeUndefined();
    const module = (await import(`${TS_RUNTIME}/${symbol.file}`)) as Record<string, unknown>;
    expect(typeof module[symbol.name]).toBe("function");
  });

  it.each(RUNTIME_CONTRACT.filter((e) => e.kotlin !== null).map((e) => [e.id, e.kotlin!] as const))("Kotlin %s is declared by the runtime", (_id, symbol) => {
    expect(kotlinDeclares(symbol)).toBe(true);
  });

  it.each(RUNTIME_CONTRACT.filter((e) => e.swift !== null).map((e) => [e.id, e.swift!] as const))("Swift %s is declared by the runtime", (_id, symbol) => {
    expect(swiftDeclares(symbol)).toBe(true);
  });

  it.each(RUNTIME_CONTRACT.filter((e) => e.rust !== null).map((e) => [e.id, e.rust!] as const))("Rust %s is declared by the runtime", (_id, symbol) => {
    expect(rustDeclares(symbol)).toBe(true);
  });

  it("names each symbol as its entry, modulo casing, but for the renames listed as still owed", () => {
    expect(misnamed(RUNTIME_CONTRACT)).toEqual([...NAMES_NOT_YET_ALIGNED].sort((a, b) => RUNTIME_CONTRACT.findIndex((e) => e.id === a.split(":")[1]) - RUNTIME_CONTRACT.findIndex((e) => e.id === b.split(":")[1]) || LANGUAGES.indexOf(a.split(":")[0] as RuntimeLanguage) - LANGUAGES.indexOf(b.split(":")[0] as RuntimeLanguage)));
  });

  it("keeps each renamed TypeScript export's old name as a deprecated alias of the same function", async () => {
    const renamed = RUNTIME_CONTRACT.flatMap((e) => (e.ts !== null && "formerly" in e.ts ? [e.ts as RuntimeSymbol] : []));
    expect(renamed.map((s) => s.formerly!.name)).toContain("defineMachine");
    for (const symbol of renamed) {
      const module = (await import(`${TS_RUNTIME}/${symbol.file}`)) as Record<string, unknown>;
      expect(module[symbol.formerly!.name]).toBe(module[symbol.name]);
      const source = readFileSync(`${TS_RUNTIME}/${symbol.file}`, "utf8");
      expect(source).toMatch(new RegExp(`@deprecated[^]*?\\*/\\nexport const ${symbol.formerly!.name}\\b`));
    }
  });

  it("keeps each renamed Swift function's old name as a deprecated alias", () => {
    const renamed = RUNTIME_CONTRACT.flatMap((e) => (e.swift !== null && "formerly" in e.swift ? [e.swift as RuntimeSymbol] : []));
    expect(renamed.length).toBeGreaterThan(0);
    for (const symbol of renamed) {
      const body = containerBody(readFileSync(`${REPO_ROOT}/generators/targets/swift/runtime/${symbol.file}`, "utf8"), /public enum|public struct/, symbol.container!)!;
      expect(body, `${symbol.container}.${symbol.formerly!.name}`).toMatch(new RegExp(`@available\\(\\*, deprecated, renamed: "${symbol.name}\\([^"]*"\\)\\n(?: {4}@discardableResult\\n)? {4}public static func ${symbol.formerly!.name}\\(`));
    }
  });

  it("keeps each renamed Kotlin function's old name as a deprecated alias that names its replacement", () => {
    const renamed = RUNTIME_CONTRACT.flatMap((e) => (e.kotlin !== null && "formerly" in e.kotlin ? [e.kotlin as RuntimeSymbol] : []));
    expect(renamed.length).toBe(13);
    for (const symbol of renamed) {
      const body = containerBody(readFileSync(`${REPO_ROOT}/generators/targets/kotlin/runtime/${symbol.file}`, "utf8"), /object/, symbol.container!)!;
      expect(body, `${symbol.container}.${symbol.formerly!.name}`).toMatch(new RegExp(`@Deprecated\\("[^"\\n]*", ReplaceWith\\("${symbol.name}\\([^"\\n]*\\)"\\)\\)\\n {4}fun (?:<[^>]*> )?${symbol.formerly!.name}\\(`));
    }
  });

  it("the changelog names every rename under the version that made it", () => {
    expect(RUNTIME_RENAMES).toContainEqual({ language: "ts", from: "defineMachine", to: "lifecycleMachine", version: "0.1.1" });
    expect(RUNTIME_RENAMES).toContainEqual({ language: "swift", from: "AuditChain.verifyLog", to: "AuditChain.verifyAuditLog", version: "0.1.1" });
    expect(RUNTIME_RENAMES).toContainEqual({ language: "kotlin", from: "HmacSha256V1.check", to: "HmacSha256V1.verifyHmacV1", version: "0.1.1" });
    expect(RUNTIME_RENAMES).toContainEqual({ language: "swift", from: "HMACSHA256V1.sign", to: "HMACSHA256V1.signHMACV1", version: "0.1.1" });
    const markdown = changelogMarkdown({ project: "p", versions: [{ version: "0.1.1", released: false, previous: "0.1.0", bump: "minor", protocols: {} }, { version: "0.1.0", released: true, commit: "c", protocols: {} }] });
    const unreleased = markdown.slice(markdown.indexOf("## 0.1.1"), markdown.indexOf("## 0.1.0"));
    expect(unreleased).toContain("### Runtime API");
    expect(unreleased).toContain("- TypeScript: `defineMachine` is now `lifecycleMachine` (`defineMachine` deprecated)");
    expect(unreleased).toContain("- Swift: `ContentAddress.computeID` is now `ContentAddress.computeContentID` (`ContentAddress.computeID` deprecated)");
    expect(unreleased).toContain("- Kotlin: `StrictJson.parse` is now `StrictJson.parseStrictJson` (`StrictJson.parse` deprecated)");
    expect(markdown.slice(markdown.indexOf("## 0.1.0"))).not.toContain("defineMachine");
  });

  it("can fail: casing alone is no difference, other words are", () => {
    expect(caseless("verify_hmac_v1")).toBe(caseless("verifyHMACV1"));
    expect(caseless("computeContentID")).toBe(caseless("computeContentId"));
    const entry = { id: "x", name: "computeContentId", ts: { file: "a.ts", name: "computeContentId" }, kotlin: { file: "A.kt", container: "A", name: "computeId" }, swift: { file: "A.swift", container: "A", name: "computeContentID" }, rust: { file: "a.rs", name: "compute_content_id" } };
    expect(misnamed([entry])).toEqual(["kotlin:x"]);
  });

  it("can fail: a name, container or file the runtime does not declare is refused", async () => {
    expect(rustDeclares({ file: "hmac_v1.rs", name: "sign" })).toBe(false);
    expect(rustDeclares({ file: "replay.rs", container: "ReplayGuard", name: "admit" })).toBe(true);
    expect(rustDeclares({ file: "replay.rs", container: "ReplayGuard", name: "forget" })).toBe(false);
    expect(kotlinDeclares({ file: "HmacSha256V1.kt", container: "HmacSha256V1", name: "signature" })).toBe(false);
    expect(kotlinDeclares({ file: "HmacSha256V1.kt", container: "ContentAddress", name: "sign" })).toBe(false);
    expect(swiftDeclares({ file: "SigningHmacV1.swift", container: "HMACSHA256V1", name: "check" })).toBe(false);
    expect(swiftDeclares({ file: "AuditChain.swift", container: "AuditChain", name: "computeEventId" })).toBe(false);
    const module = (await import(`${TS_RUNTIME}/signing-hmac-v1.ts`)) as Record<string, unknown>;
    expect(typeof module["HmacSha256V1"]).not.toBe("function");
  });

  it("refuses to name a function a runtime does not offer", () => {
    const gap = RUNTIME_CONTRACT.find((e) => e.rust === null)!;
    expect(() => runtimeSymbol("rust", gap.id)).toThrow(`the Rust runtime does not offer ${gap.id}`);
    expect(runtimeSymbol("kotlin", "hmacSign").qualified).toBe("HmacSha256V1.signHmacV1");
    expect(runtimeSymbol("ts", "hmacSign").qualified).toBe("signHmacV1");
  });
});
