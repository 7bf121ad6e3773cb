#!/usr/bin/env node
// The TypeScript shared-case driver: answers every case of a case file with the generated TS
// bindings (a generated/ts folder) and writes the verdicts as JSON (README.md beside this file).
//   node ts-driver.mjs <generated/ts folder> <cases.json> <verdicts.json>
// A case whose answer throws gets `error: <message>`; the comparing test reports it by case id.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [tsDir, casesFile, verdictsFile] = process.argv.slice(2);
if (verdictsFile === undefined) {
  console.error("usage: ts-driver.mjs <generated/ts folder> <cases.json> <verdicts.json>");
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(tsDir, path)).href);
const bindings = await load("index.js");
const machines = new Map();
const signing = new Map();
/** A protocol's generated signing module: the per-message functions a consumer calls (sign<Message>, compute<Message>Id, ...). */
async function signingOf(protocol) {
  if (!signing.has(protocol)) signing.set(protocol, await load(`${protocol}/signing.js`));
  return signing.get(protocol);
}
const bytesOf = (c) => new Uint8Array(Buffer.from(c.b64, "base64"));

async function answer(c) {
  switch (c.kind) {
    case "validate": {
      const result = bindings.validateMessage(c.protocol, c.message, c.instance);
      if (result.ok) return "valid";
      const first = result.errors[0];
      const rule = first.params?.rule;
      return `${first.instancePath} ${first.keyword}${rule === undefined ? "" : ` ${rule}`}`;
    }
    case "lifecycle": {
      const key = `${c.protocol}/lifecycles/${c.lifecycle}.js`;
      if (!machines.has(key)) machines.set(key, await load(key));
      const machine = machines.get(key);
      let state = machine.initialState;
      return c.steps.map((step) => {
        const outcome = machine.transition(state, step.event, step.guards);
        state = outcome.state;
        return outcome.ok ? `moved ${outcome.state} [${outcome.effects.join(",")}]` : `refused ${outcome.refusal} ${outcome.guard ?? "-"}`;
      });
    }
    case "canonicalize": {
      const parsed = bindings.parseStrictJson(c.input);
      if (!parsed.ok) return `error: strict parse: ${parsed.error?.message ?? JSON.stringify(parsed)}`;
      return bindings.canonicalize(parsed.value);
    }
    case "number": {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, BigInt(`0x${c.bits}`));
      return bindings.serializeNumber(view.getFloat64(0));
    }
    case "parse": {
      const parsed = bindings.parseStrictJson(bytesOf(c));
      return parsed.ok ? "ok" : parsed.error.code;
    }
    case "rfc3339":
      return String(bindings.parseRfc3339(c.text));
    case "parse-validate": {
      const result = bindings.parseMessage(c.protocol, c.message, bytesOf(c));
      if (result.ok) return "valid";
      const first = result.errors[0];
      if (first.keyword === "json") return `json ${first.params.code}`;
      const rule = first.params?.rule;
      return `${first.instancePath} ${first.keyword}${rule === undefined ? "" : ` ${rule}`}`;
    }
    case "hmac-verify": {
      const result = (await signingOf(c.protocol))[`verify${c.message}Signature`](c.instance, c.key_utf8);
      return result.ok ? "valid" : result.error.code;
    }
    case "hmac-sign": {
      const result = (await signingOf(c.protocol))[`compute${c.message}Signature`](c.instance, c.key_utf8);
      return result.ok ? result.signature : `error: ${result.error.code}`;
    }
    case "content-id":
      return (await signingOf(c.protocol))[`compute${c.message}Id`](c.record);
    case "approval-token": {
      const signing = await signingOf(c.protocol);
      const nowMs = c.now_unix_seconds * 1000;
      const result = c.bindings === undefined ? signing[`decode${c.message}Token`](c.token, c.secret_utf8, nowMs) : signing[`verify${c.message}Token`](c.token, c.secret_utf8, c.bindings, nowMs);
      return result.ok ? "valid" : result.error.code;
    }
    default:
      return `error: unknown case kind ${c.kind}`;
  }
}

const { cases } = JSON.parse(readFileSync(casesFile, "utf8"));
const verdicts = [];
for (const c of cases) {
  let verdict;
  try {
    verdict = await answer(c);
  } catch (error) {
    verdict = `error: ${error instanceof Error ? error.message : String(error)}`;
  }
  verdicts.push({ id: c.id, verdict });
}
writeFileSync(verdictsFile, `${JSON.stringify({ language: "ts", verdicts })}\n`);
