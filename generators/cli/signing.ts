// canonicalize / sign / verify / id: the security primitives from the command line, driven by
// the generated bindings so the CLI and applications share one implementation.
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { canonicalize } from "../targets/ts/runtime/src/canonical-json.js";
import { parseStrictJson } from "../targets/ts/runtime/src/strict-json.js";
import { formatSignatureExplanation, type SignatureExplanation } from "../targets/ts/runtime/src/signature-doctor.js";
import { parseArgs, readInput, UsageError, type Command, type Io } from "./io.js";

type Fn = (...args: unknown[]) => { ok: boolean; [key: string]: unknown };

async function protocolModule(io: Io, protocol: string): Promise<Record<string, unknown>> {
  const entry = `${io.root}/generated/ts/index.js`;
  if (!existsSync(entry)) throw new UsageError("generated/ts is missing: run `make` first");
  const bindings = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  const namespace = protocol.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const mod = bindings[namespace] as Record<string, unknown> | undefined;
  if (!mod || !/^[a-z][a-z0-9-]*$/.test(protocol)) throw new UsageError(`unknown protocol ${protocol}`);
  return mod;
}

function fn(mod: Record<string, unknown>, name: string, what: string): Fn {
  const f = mod[name];
  if (typeof f !== "function") throw new UsageError(what);
  return f as Fn;
}

async function readJson(file: string | undefined, io: Io): Promise<{ ok: true; value: unknown } | { ok: false; code: number }> {
  const parsed = parseStrictJson(await readInput(file, io));
  if (parsed.ok) return { ok: true, value: parsed.value };
  io.err(`invalid JSON: ${parsed.error.code}: ${parsed.error.message}`);
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
  usage: "sign <protocol> <Message> --key-file F [file|-]",
  summary: "Sign a message per its x-signature declaration; prints the message with its signature.",
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--key-file"] });
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const sign = fn(await protocolModule(io, protocol), `compute${name}Signature`, `${name} is not a signed message of ${protocol}`);
    const key = readKey(flags);
    const json = await readJson(file, io);
    if (!json.ok) return json.code;
    const result = sign(json.value, key) as { ok: boolean; signature?: string; error?: { code: string; message: string } };
    if (!result.ok) {
      io.err(`cannot sign: ${result.error?.code}: ${result.error?.message}`);
      return 1;
    }
    const mod = await protocolModule(io, protocol);
    const decl = mod[`${name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}_SIGNATURE`] as { signatureField: string; algorithmField: string; algorithmId: string };
    io.out(JSON.stringify({ ...(json.value as object), [decl.algorithmField]: decl.algorithmId, [decl.signatureField]: result.signature }, null, 2));
    return 0;
  },
};

export const verifyCommand: Command = {
  usage: "verify <protocol> <Message> --key-file F [--explain] [file|-]",
  summary: "Verify a message's signature; exit 0 valid, 1 invalid with the reason code. --explain names the recorded platform dialect a failing signature was made with.",
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--key-file"], flags: ["--explain"] });
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const mod = await protocolModule(io, protocol);
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
  usage: "id <protocol> <Message> [file|-]",
  summary: "Import a content-addressed record (strict, canonical) and print its id; exit 1 with the reason code.",
  async run(args, io) {
    const { positionals } = parseArgs(args, {});
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError("expected <protocol> <Message> [file|-]");
    const [protocol, name, file] = positionals as [string, string, string | undefined];
    const importRecord = fn(await protocolModule(io, protocol), `import${name}`, `${name} is not a content-addressed message of ${protocol}`);
    const result = importRecord(await readInput(file, io)) as { ok: boolean; id?: string; error?: { code: string; message: string } };
    if (result.ok) {
      io.out(String(result.id));
      return 0;
    }
    io.err(`invalid: ${result.error?.code}: ${result.error?.message}`);
    return 1;
  },
};
