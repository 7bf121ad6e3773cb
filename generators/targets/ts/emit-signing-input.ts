// The signing-input function of each signed message, generated from its x-signature declaration:
// one read and one check per line in declaration order, and the input as one concatenation of
// literals and values, so a verify no longer walks the declaration's lines at run time. The
// checks and their order are those of the runtime's hmacV1SigningInput, which stays the oracle
// (property-tests/signing/generated-signing-input.test.ts compares the two).
import type { SignatureDeclaration } from "../../model/types.js";

/** `build<Message>SigningInput`: the exported name of a message's generated function. */
export function signingInputFunctionName(messageName: string): string {
  return `build${messageName}SigningInput`;
}

/** The runtime's signing-input helpers the generated function may call. */
export type SigningInputHelper = "hmacV1NotAnObject" | "hmacV1FieldMissing" | "hmacV1FieldNotString" | "hmacV1DigestLine";

/**
 * How the function names what it uses from other modules (the caller's file printer imports each
 * on request), and the type of its parameter.
 */
export interface SigningInputImports {
  helper(name: SigningInputHelper): string;
  isJsonObject(): string;
  /** The parameter's type, e.g. `ActionProposal | UnsignedActionProposal | JsonObject`. */
  parameter: string;
  result(): string;
}

/**
 * The TypeScript of the function (and of the constants it reads: digest-line defaults), which
 * needs `hasOwn` (Object.prototype.hasOwnProperty) in scope.
 */
export function signingInputFunction(messageName: string, declaration: SignatureDeclaration, imports: SigningInputImports): string {
  const name = signingInputFunctionName(messageName);
  const use = (helper: SigningInputHelper): string => imports.helper(helper);
  const constants: string[] = [];
  const notAnObject = use("hmacV1NotAnObject");
  const body: string[] = [`  if (!${imports.isJsonObject()}(message)) return ${notAnObject}();`];
  const parts: string[] = [];
  declaration.lines.forEach((line, i) => {
    const field = JSON.stringify(line.field);
    const read = `hasOwn.call(message, ${field}) ? message[${field}]`;
    const raw = line.value === "string" ? `v${i}` : `raw${i}`;
    if (line.default === undefined) {
      body.push(`  const ${raw} = ${read} : undefined;`, `  if (${raw} === undefined) return ${use("hmacV1FieldMissing")}(${field});`);
    } else if (line.value === "string") {
      body.push(`  const ${raw} = ${read} : ${JSON.stringify(line.default)};`);
    } else {
      // A default of any JSON is one frozen constant, not a literal rebuilt on every call.
      const constant = `${name.toUpperCase()}_DEFAULT_${i}`;
      constants.push(`const ${constant} = /* @__PURE__ */ Object.freeze(${JSON.stringify(line.default)});`);
      body.push(`  const ${raw} = ${read} : ${constant};`);
    }
    if (line.value === "string") {
      body.push(`  if (typeof v${i} !== "string") return ${use("hmacV1FieldNotString")}(${field});`);
    } else {
      body.push(`  const v${i} = ${use("hmacV1DigestLine")}(${field}, ${raw});`, `  if (typeof v${i} !== "string") return v${i};`);
    }
    parts.push(JSON.stringify((i === 0 ? "" : declaration.lineSeparator) + line.name + "="), `v${i}`);
  });
  body.push(`  return { ok: true, input: ${parts.join(" + ")} };`);
  return [
    ...constants.map((c) => `\n${c}`),
    `\n/** The ${messageName} signing input (its x-signature lines in order), or the first covered field that is missing or malformed. */\nexport function ${name}(message: ${imports.parameter}): ${imports.result()} {\n${body.join("\n")}\n}`,
  ].join("");
}
