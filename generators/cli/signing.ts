// canonicalize / sign / verify / id: the security primitives from the command line, driven by
// the generated bindings so the CLI and applications share one implementation.
import { readFileSync } from "node:fs";
import { canonicalize } from "../targets/ts/runtime/src/canonical-json.js";
import { parseStrictJson } from "../targets/ts/runtime/src/strict-json.js";
import { lineColumn } from "../targets/ts/runtime/src/text-position.js";
import { formatSignatureExplanation, type SignatureExplanation } from "../targets/ts/runtime/src/signature-doctor.js";
import { formatErrors, type ValidationError } from "../targets/ts/runtime/src/validation.js";
import { parseArgs, readInput, UsageError, type Command, type Io } from "./io.js";
import { messageSource, SPEC_OPTION_HELP } from "./message-source.js";

type Fn = (...args: unknown[]) => { ok: boolean; [key: string]: unknown };

/** The protocol's functions from the spec of --spec DIR, the project found, or the shipped bindings (message-source.ts). */
async function protocolModule(protocol: string, io: Io, flags: Map<string, string | true>): Promise<Record<string, unknown>> {
  return (await messageSource(io, flags.get("--spec"))).protocol(protocol);
}

function fn(mod: Record<string, unknown>, name: string, what: string): Fn {
  const f = mod[name];
  if (typeof f !== "function") throw new UsageError(what);
  return f as Fn;
}

async function readJson(file: string | undefined, io: Io): Promise<{ ok: true; value: unknown } | { ok: false; code: number }> {
  const input = await readInput(file, io);
  const parsed = parseStrictJson(input);
  if (parsed.ok) return { ok: true, value: parsed.value };
  const { line, column } = lineColumn(input, parsed.error.offset);
  io.err(`${file === undefined || file === "-" ? "<stdin>" : file}:${line}:${column} invalid JSON: ${parsed.error.code}: ${parsed.error.message}`);
  return { ok: false, code: 1 };
}

function readKey(flags: Map<string, string | true>): string {
  const path = flags.get("--key-file");
  if (typeof path !== "string") throw new UsageError("--key-file F is required");
  try {
    // The key is the UTF-8 text of the file without a trailing newline; it is never printed.
    return readFileSync(path, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new UsageError(`cannot read key file ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
}

export const canonicalizeCommand: Command = {
  usage: "canonicalize [file|-]",
  summary: "Strictly parse JSON and print its RFC 8785 canonical form (no trailing newline).",
  async run(args, io) {
    const { positionals } = parseArgs(args, {});
    if (positionals.length > 1) throw new UsageError("expected at most one file");
    const json = await readJson(positionals[0], io);
    if (!json.ok) return json.code;
    process.stdout.write(canonicalize(json.value));
    return 0;
  },
};

export const signCommand: Command = {
  usage: "sign <protocol> <Message> --key-file F [--spec DIR] [file|-]",
  summary: "Sign a message per its x-signature declaration; prints the message with its signature, or refuses one that does not validate.",
  help: `\nOptions:\n  --key-file F  the key: the UTF-8 text of F without a trailing newline\n${SPEC_OPTION_HELP}`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--key-file", "--spec"] });
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const mod = await protocolModule(protocol, io, flags);
    const sign = fn(mod, `compute${name}Signature`, `${name} is not a signed message of ${protocol}`);
    const key = readKey(flags);
    const json = await readJson(file, io);
    if (!json.ok) return json.code;
    const result = sign(json.value, key) as { ok: boolean; signature?: string; error?: { code: string; message: string } };
    if (!result.ok) {
      io.err(`cannot sign: ${result.error?.code}: ${result.error?.message}`);
      return 1;
    }
    const decl = mod[`${name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}_SIGNATURE`] as { signatureField: string; algorithmField: string; algorithmId: string };
    const signed = { ...(json.value as object), [decl.algorithmField]: decl.algorithmId, [decl.signatureField]: result.signature };
    // Never hand out a signature over a message its receiver will refuse: the signed message must validate.
    const checked = fn(mod, `validate${name}`, `${name} has no validator in ${protocol}`)(signed) as { ok: boolean; errors?: ValidationError[] };
    if (!checked.ok) {
      io.err(`cannot sign: the message is invalid\n${formatErrors(checked.errors ?? [])}`);
      return 1;
    }
    io.out(JSON.stringify(signed, null, 2));
    return 0;
  },
};

export const verifyCommand: Command = {
  usage: "verify <protocol> <Message> --key-file F [--explain] [--spec DIR] [file|-]",
  summary: "Verify a message's signature; exit 0 valid, 1 invalid with the reason code. --explain names the recorded platform dialect a failing signature was made with.",
  help: `\nOptions:\n  --key-file F  the key: the UTF-8 text of F without a trailing newline\n  --explain     on failure, name each recorded platform JSON dialect the signature verifies under\n${SPEC_OPTION_HELP}`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--key-file", "--spec"], flags: ["--explain"] });
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const mod = await protocolModule(protocol, io, flags);
    const verify = fn(mod, `verify${name}Signature`, `${name} is not a signed message of ${protocol}`);
    const key = readKey(flags);
    if (flags.has("--explain")) return explain(fn(mod, `explain${name}Signature`, `${name} has no signature doctor`), await readInput(file, io), key, io);
    const json = await readJson(file, io);
    if (!json.ok) return json.code;
    const result = verify(json.value, key) as { ok: boolean; error?: { code: string; message: string } };
    if (result.ok) {
      io.out(`valid signature: ${protocol} ${name}`);
      return 0;
    }
    io.err(`invalid: ${result.error?.code}: ${result.error?.message}`);
    return 1;
  },
};

// The doctor reads the raw text (a dialect depends on number tokens a parser forgets). A
// diagnosis explains the refusal; the exit code stays 1.
function explain(doctor: Fn, input: Buffer, key: string, io: Io): number {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(input);
  const explanation = doctor(text, key) as unknown as SignatureExplanation;
  for (const line of formatSignatureExplanation(explanation)) io.out(line);
  return explanation.verified ? 0 : 1;
}

export const idCommand: Command = {
  usage: "id <protocol> <Message> [--assign] [--spec DIR] [file|-]",
  summary: "Import a content-addressed record (strict, canonical) and print its id; exit 1 with the reason code.",
  help: `
The input must be the record's canonical bytes (RFC 8785), optionally followed by exactly one
newline (LF, as editors and \`echo\` add): that one newline is ignored; anything else after the
record, a second newline or CRLF included, is refused as not-canonical.

Options:
  --assign   The record has no id yet: print the id it gets (prefix + SHA-256 of its canonical
             form). The input may be any strict JSON layout; the record with that id must validate.
${SPEC_OPTION_HELP}`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { flags: ["--assign"], valued: ["--spec"] });
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const mod = await protocolModule(protocol, io, flags);
    const notAddressed = `${name} is not a content-addressed message of ${protocol}`;
    if (flags.has("--assign")) return assignId(mod, name, fn(mod, `compute${name}Id`, notAddressed), file, io);
    const importRecord = fn(mod, `import${name}`, notAddressed);
    const input = await readInput(file, io);
    const bytes = input.length > 0 && input[input.length - 1] === 0x0a ? input.subarray(0, input.length - 1) : input;
    const result = importRecord(bytes) as { ok: boolean; id?: string; error?: { code: string; message: string } };
    if (result.ok) {
      io.out(String(result.id));
      return 0;
    }
    io.err(`invalid: ${result.error?.code}: ${result.error?.message}`);
    return 1;
  },
};

async function assignId(mod: Record<string, unknown>, name: string, compute: Fn, file: string | undefined, io: Io): Promise<number> {
  const declaration = mod[`${name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}_CONTENT_ADDRESS`] as { idField: string };
  const json = await readJson(file, io);
  if (!json.ok) return json.code;
  const record = json.value;
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    io.err(`invalid: schema-invalid: ${name} is a JSON object`);
    return 1;
  }
  if (Object.prototype.hasOwnProperty.call(record, declaration.idField)) {
    io.err(`invalid: the record already has ${declaration.idField}: check it with id (without --assign)`);
    return 1;
  }
  const id = compute(record) as unknown as string;
  const checked = fn(mod, `validate${name}`, `${name} has no validator`)({ ...record, [declaration.idField]: id }) as { ok: boolean; errors?: ValidationError[] };
  if (!checked.ok) {
    io.err(`invalid: schema-invalid: the record with its ${declaration.idField} does not validate\n${formatErrors(checked.errors ?? [])}`);
    return 1;
  }
  io.out(id);
  return 0;
}
