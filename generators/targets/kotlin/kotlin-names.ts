// The Kotlin target's naming service: how spec names become Kotlin identifiers (casing from
// emit/case.ts, hard keywords backticked, a leading digit prefixed, collisions refused), the names
// of the declarations the emitters write (packages, objects, files), and the spelling of values:
// string literals and KDoc. Every Kotlin emitter names things through here.
import { assertDistinct, camel, pascal, screamingSnake as upperSnake, words } from "../../emit/case.js";
import type { Naming } from "../target.js";

/** Hard keywords cannot name a property without backticks; soft ones (`type`, `value`) can. */
const HARD_KEYWORDS = new Set([
  "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
  "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias",
  "typeof", "val", "var", "when", "while",
]);

/** `request_id` → `requestId`; an already camelCase name is kept. */
export function camelCase(name: string): string {
  if (words(name).length === 0) throw new Error(`'${name}' has no letters or digits to name a Kotlin property`);
  return camel(name);
}

/** `idempotency_mode` → `IdempotencyMode`. */
export function pascalCase(name: string): string {
  return pascal(name);
}

/** `event-stream` → `EVENT_STREAM`, `SourceUsed` → `SOURCE_USED`; a leading digit gets `V_`. */
export function screamingSnake(value: string): string {
  const joined = upperSnake(value);
  if (joined === "") throw new Error(`'${value}' has no letters or digits to name an enum constant`);
  return /^[0-9]/.test(joined) ? `V_${joined}` : joined;
}

/** Fails when two spec names of one Kotlin scope (an enum, a class's properties) spell the same. */
export function checkDistinct(scope: string, names: readonly string[], spell: (name: string) => string): void {
  assertDistinct(`Kotlin ${scope}`, names, spell);
}

/**
 * A property or parameter name, backticked when it is a hard keyword or starts with a digit
 * (`2fa` is no Kotlin identifier; `` `2fa` `` is, on the JVM).
 */
export function identifier(name: string): string {
  return HARD_KEYWORDS.has(name) || /^[0-9]/.test(name) ? `\`${name}\`` : name;
}

/** A Kotlin string literal; `$` is escaped so no value is read as a template. */
export function stringLiteral(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\" || char === "$") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    // Controls, and lone surrogates: written raw, UTF-8 would turn those into U+FFFD.
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code <= 0xdfff)) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * KDoc lines for a description, wrapped near [width] columns. `*\/` inside the text would end the
 * comment early and `/*` would open a nested one (Kotlin block comments nest, so the closing `*\/`
 * would close only that one), so both are broken up.
 */
export function kdoc(description: string | undefined, indent: string, width = 100): string[] {
  const text = (description ?? "").replaceAll("*/", "*&#47;").replaceAll("/*", "/&#42;").replace(/\s+/g, " ").trim();
  if (text === "") return [];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && indent.length + 3 + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

/** The Kotlin package of a protocol: `agent-connector` → `dev.agentcontracts.agentconnector`. */
export function protocolPackage(protocolId: string): string {
  const segment = protocolId.replace(/[^a-z0-9]/g, "");
  if (!/^[a-z]/.test(segment) || HARD_KEYWORDS.has(segment)) throw new Error(`Kotlin: protocol '${protocolId}' gives no valid package name segment ('${segment}')`);
  return `dev.agentcontracts.${segment}`;
}

// --- declarations the emitters write, one rule each ----------------------------------------------

/** `<pkg>.lifecycles`: where a protocol's lifecycle objects live. */
export function lifecyclePackage(protocolId: string): string {
  return `${protocolPackage(protocolId)}.lifecycles`;
}

/** `agent-connector` → `AgentConnectorMessages`, the registry of a protocol's serializers. */
export function registryName(protocolId: string): string {
  return `${pascalCase(protocolId)}Messages`;
}

/** `<Protocol>Validators`, the object that validates and parses a protocol's messages. */
export function validatorsName(protocolId: string): string {
  return `${pascalCase(protocolId)}Validators`;
}

/** `<Protocol>Signing`, the object of a protocol's signing, content-address and token functions. */
export function signingName(protocolId: string): string {
  return `${pascalCase(protocolId)}Signing`;
}

/** `trust` → `TrustLifecycle`. */
export function lifecycleObjectName(lifecycleName: string): string {
  return `${pascalCase(lifecycleName)}Lifecycle`;
}

/** `Unsigned<Message>` (the TypeScript name too): a signed message before signing. */
export function unsignedName(messageName: string): string {
  return `Unsigned${messageName}`;
}

/** The rule list and the compiled check of a message's x-rules. */
export function rulesNames(messageName: string): { rulesName: string; checkName: string } {
  return { rulesName: `${camelCase(messageName)}Rules`, checkName: `check${messageName}Rules` };
}

/** The source file of a declaration in a package, relative to the Maven project. */
export function sourceFile(packageName: string, declaration: string): string {
  return `src/main/kotlin/${packageName.replaceAll(".", "/")}/${declaration}.kt`;
}

/** The Kotlin naming service as the target declares it (targets/target.ts). */
export const kotlinNaming: Naming = {
  type: (title) => title,
  member: (wireName) => identifier(camelCase(wireName)),
  enumCase: screamingSnake,
  constant: (name) => name,
  file: (protocolId, typeName) => sourceFile(protocolPackage(protocolId), typeName),
};
