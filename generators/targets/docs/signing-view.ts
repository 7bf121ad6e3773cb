// The worked vectors of the signing page. Each algorithm is recomputed step by step from the
// message's own declaration (x-signature, x-approval-token, x-content-address) and a valid case of
// the protocol's vectors, and the result is checked against the vector's expected value, so the
// page can never show a derivation that does not end in the published bytes. RFC 8785 comes from
// the npm `canonicalize` package, an implementation independent of the runtimes the page documents.
import canonicalizeNpm from "canonicalize";
import { createHash, createHmac } from "node:crypto";
import type { JsonValue, Message, Protocol } from "../../model/types.js";

// CommonJS under NodeNext: the function is the module's default export or the module itself.
const canonicalizeJcs = ((canonicalizeNpm as unknown as { default?: unknown }).default ?? canonicalizeNpm) as (value: unknown) => string | undefined;

function canonicalize(value: JsonValue): string {
  const text = canonicalizeJcs(value);
  if (text === undefined) throw new Error("docs: a worked vector holds a value JSON cannot encode");
  return text;
}

export interface Step {
  title: string;
  /** Plain text shown in a code block. */
  code: string;
  /** Plain text explanation. */
  note?: string;
}

export interface WorkedVector {
  protocol: string;
  message: string;
  algorithm: string;
  vectorFile: string;
  caseName: string;
  steps: Step[];
}

/** Vector files of one protocol, by file name. */
export type ProtocolVectors = Record<string, JsonValue>;

type Obj = { [key: string]: JsonValue };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const sha256 = (data: string | Buffer): Buffer => createHash("sha256").update(data).digest();
const b64 = (data: Buffer): string => data.toString("base64").replace(/=+$/, "");
const b64url = (data: Buffer): string => data.toString("base64url");
const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

function cases(vectors: ProtocolVectors): { file: string; value: Obj }[] {
  const out: { file: string; value: Obj }[] = [];
  for (const [file, doc] of Object.entries(vectors)) {
    if (isObj(doc) && Array.isArray(doc.cases)) for (const c of doc.cases) if (isObj(c)) out.push({ file, value: c });
  }
  return out;
}

function fail(message: Message, what: string): never {
  throw new Error(`docs: the worked vector for ${message.protocol}/${message.name} does not reproduce its ${what}`);
}

/** hmac-sha256-v1 (x-signature): lines, body digest, HMAC. */
function hmacVector(message: Message, vectors: ProtocolVectors): WorkedVector | undefined {
  const decl = message.signature;
  if (!isObj(decl) || !Array.isArray(decl.lines)) return undefined;
  const found = cases(vectors).find((c) => c.value.message_type === message.name && c.value.expect === "valid" && isObj(c.value.message) && typeof c.value.key_utf8 === "string");
  if (!found) return undefined;
  const input = found.value.message as Obj;
  const key = String(found.value.key_utf8);
  const steps: Step[] = [{ title: "Input message", code: pretty(input), note: `Key (UTF-8 bytes of ${isObj(decl.key) ? String(decl.key.field) : "the shared secret"}): ${JSON.stringify(key)}` }];
  const lines: string[] = [];
  for (const line of decl.lines) {
    if (!isObj(line)) continue;
    const field = String(line.field);
    const value = field in input ? input[field]! : line.default;
    if (line.value === "sha256-jcs-base64-std-nopad") {
      const canonical = canonicalize(value ?? null);
      const digest = b64(sha256(Buffer.from(canonical, "utf8")));
      steps.push({ title: `Canonical bytes of ${field} (RFC 8785)`, code: canonical });
      steps.push({ title: `${line.name}: SHA-256 of those bytes, standard base64 without padding`, code: digest });
      lines.push(`${String(line.name)}=${digest}`);
    } else {
      lines.push(`${String(line.name)}=${String(value ?? "")}`);
    }
  }
  const signingInput = lines.join(String(decl.lineSeparator ?? "\n"));
  steps.push({ title: `Signing input: ${lines.length} name=value lines joined by LF, no trailing LF`, code: signingInput });
  const signature = b64(createHmac("sha256", Buffer.from(key, "utf8")).update(Buffer.from(signingInput, "utf8")).digest());
  steps.push({ title: "Signature: HMAC-SHA256(key, signing input), standard base64 without padding", code: signature, note: `Written to ${String(decl.signatureField)} with ${String(decl.algorithmField)} = ${JSON.stringify(decl.algorithmId)}.` });
  const expected = found.value.expected_signature ?? input[String(decl.signatureField)];
  if (signature !== expected) fail(message, "signature");
  return { protocol: message.protocol, message: message.name, algorithm: String(decl.scheme), vectorFile: found.file, caseName: String(found.value.name), steps };
}

/** The approval token (x-approval-token): canonical claims, base64url, HMAC over the first part. */
function approvalVector(message: Message, vectors: ProtocolVectors): WorkedVector | undefined {
  if (!isObj(message.approvalToken)) return undefined;
  const found = cases(vectors).find((c) => c.value.expect === "valid" && typeof c.value.token === "string" && typeof c.value.secret_utf8 === "string");
  if (!found) return undefined;
  const token = String(found.value.token);
  const secret = String(found.value.secret_utf8);
  const [payloadText = "", signatureText = ""] = token.split(".");
  const claims = JSON.parse(Buffer.from(payloadText, "base64url").toString("utf8")) as JsonValue;
  const canonical = canonicalize(claims);
  const steps: Step[] = [{ title: `Claims (${message.name})`, code: pretty(claims), note: `Secret (UTF-8 bytes): ${JSON.stringify(secret)}` }];
  if (isObj(claims) && claims.payload !== undefined) {
    const digest = createHash("sha256").update(canonicalize(claims.payload), "utf8").digest("hex");
    steps.push({ title: "payload_sha256: lowercase hex SHA-256 of the canonical payload", code: digest });
    if (claims.payload_sha256 !== undefined && claims.payload_sha256 !== digest) fail(message, "payload digest");
  }
  steps.push({ title: "Canonical bytes of the claims (RFC 8785)", code: canonical });
  const first = b64url(Buffer.from(canonical, "utf8"));
  if (first !== payloadText) fail(message, "payload encoding");
  steps.push({ title: "First part: base64url without padding of those bytes", code: first });
  const mac = b64url(createHmac("sha256", Buffer.from(secret, "utf8")).update(Buffer.from(first, "ascii")).digest());
  if (mac !== signatureText) fail(message, "token signature");
  steps.push({ title: "Second part: HMAC-SHA256(secret, ASCII bytes of the first part), base64url without padding", code: mac });
  steps.push({ title: "Token: first part, a dot, second part", code: `${first}.${mac}` });
  return { protocol: message.protocol, message: message.name, algorithm: "approval token", vectorFile: found.file, caseName: String(found.value.name), steps };
}

/** A content address (x-content-address): prefix + hex SHA-256 of the record without its id. */
function contentVector(message: Message, vectors: ProtocolVectors): WorkedVector | undefined {
  const decl = message.contentAddress;
  if (!decl) return undefined;
  let record: Obj | undefined;
  let caseName = "";
  let file = "";
  let expected: JsonValue | undefined;
  const direct = cases(vectors).find((c) => c.value.message_type === message.name && isObj(c.value.record));
  if (direct) {
    record = direct.value.record as Obj;
    expected = direct.value.expected_id;
    caseName = String(direct.value.name);
    file = direct.file;
  } else {
    // A chain of records (the audit log): take the first entry of a valid chain.
    const chain = cases(vectors).find((c) => c.value.expect === "valid" && Array.isArray(c.value.entries) && isObj(c.value.entries[0]) && decl.idField in (c.value.entries[0] as Obj));
    if (!chain) return undefined;
    record = (chain.value.entries as JsonValue[])[0] as Obj;
    expected = record[decl.idField];
    caseName = `${String(chain.value.name)}, entry 1`;
    file = chain.file;
  }
  const { [decl.idField]: _id, ...rest } = record;
  const canonical = canonicalize(rest);
  const hex = createHash("sha256").update(canonical, "utf8").digest("hex");
  const id = decl.prefix + hex;
  if (id !== expected) fail(message, "id");
  return {
    protocol: message.protocol,
    message: message.name,
    algorithm: "content address",
    vectorFile: file,
    caseName,
    steps: [
      { title: "Input record", code: pretty(record) },
      { title: `Canonical bytes of the record without ${decl.idField} (RFC 8785)`, code: canonical, note: `${Buffer.byteLength(canonical, "utf8")} bytes${decl.maxCanonicalBytes ? `; at most ${decl.maxCanonicalBytes} allowed` : ""}.` },
      { title: "SHA-256, lowercase hex", code: hex },
      { title: `${decl.idField}: ${JSON.stringify(decl.prefix)} followed by the digest`, code: id },
    ],
  };
}

export function workedVectors(protocol: Protocol, vectors: ProtocolVectors): WorkedVector[] {
  const out: WorkedVector[] = [];
  for (const message of protocol.messages) {
    for (const make of [hmacVector, approvalVector, contentVector]) {
      const v = make(message, vectors);
      if (v) out.push(v);
    }
  }
  return out;
}

/** The audit-chain link rule, when a protocol's vectors declare one. */
export function chainDeclaration(vectors: ProtocolVectors): Obj | undefined {
  for (const doc of Object.values(vectors)) if (isObj(doc) && isObj(doc.declaration) && typeof doc.declaration.previousField === "string") return doc.declaration;
  return undefined;
}
