// Loads spec/<protocol>/conformance/: suite.yaml and the case files, each checked against
// spec/meta/conformance.schema.json, then the checks a schema cannot make (ids unique across
// files, group = file name, tags declared in suite.yaml, server states declared, message names
// known to the protocol, streams opened before they are continued).
import { existsSync, readdirSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { readSpecFile } from "../load/spec-file.js";
import { resolveInsideSpec, specReadBudget } from "../load/spec-guard.js";
import { PACKAGE_HOME } from "../write/generator-home.mjs";
import type { Case, CaseFile, ClientCase, LoadedSuite, Suite } from "./types.js";

export interface LoadError {
  file: string;
  line: number;
  column: number;
  pointer: string;
  message: string;
}

/** The conformance schema itself could not be read (spec-guard.ts's refusals, or a missing file). */
export class ConformanceLoadError extends Error {
  constructor(readonly errors: readonly LoadError[]) {
    super(errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("\n"));
  }
}

export function conformanceDir(root: string, protocol: string): string {
  return `${root}/spec/${protocol}/conformance`;
}

/** Protocols that have a conformance folder. */
export function conformanceProtocols(root: string): string[] {
  if (!existsSync(`${root}/spec`)) return [];
  return readdirSync(`${root}/spec`)
    .filter((d) => d !== "meta" && d !== "common" && existsSync(`${root}/spec/${d}/conformance/suite.yaml`))
    .sort();
}

let compiled: ReturnType<Ajv2020["compile"]> | undefined;
let compiledFor: string | undefined;
function metaValidator(root: string): ReturnType<Ajv2020["compile"]> {
  if (compiled && compiledFor === root) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // A project made by `init` has no spec/meta: the case schema is the CLI's own, as the other
  // meta-schemas are (load-spec.ts). Through the loader's guard: no link out of spec/, the limits.
  const metaRoot = existsSync(`${root}/spec/meta`) ? root : PACKAGE_HOME;
  const schema = readSpecFile(metaRoot, "spec/meta/conformance.schema.json");
  if (!schema.ok) throw new ConformanceLoadError(schema.errors);
  compiled = ajv.compile(schema.spec.value as object);
  compiledFor = root;
  return compiled;
}

export function loadSuite(
  root: string,
  protocol: string,
  knownMessages?: (protocol: string) => string[],
): { ok: true; suite: LoadedSuite } | { ok: false; errors: LoadError[] } {
  const errors: LoadError[] = [];
  const rel = `spec/${protocol}/conformance`;
  if (!existsSync(`${root}/${rel}/suite.yaml`)) {
    return { ok: false, errors: [{ file: rel, line: 1, column: 1, pointer: "", message: `no conformance suite for ${protocol}` }] };
  }
  let validate: ReturnType<typeof metaValidator>;
  try {
    validate = metaValidator(root);
  } catch (error) {
    if (error instanceof ConformanceLoadError) return { ok: false, errors: [...error.errors] };
    throw error;
  }
  // The case files of one suite share the limits on file count and total size (spec-limits.mjs).
  const budget = specReadBudget();
  const folder = resolveInsideSpec(root, rel);
  if (!folder.ok) return { ok: false, errors: [folder.error] };
  const read = (path: string): { value: unknown; locate: (p: string) => { line: number; column: number } } | undefined => {
    const result = readSpecFile(root, path, budget);
    if (!result.ok) {
      errors.push(...result.errors.map((e) => ({ file: e.file, line: e.line, column: e.column, pointer: e.pointer, message: e.message })));
      return undefined;
    }
    if (!validate(result.spec.value)) {
      // anyOf: report the errors of the branch the file was meant to be.
      const isSuite = typeof result.spec.value === "object" && result.spec.value !== null && "suite" in result.spec.value;
      const branch = isSuite ? "SuiteFile" : "CaseFile";
      // Below the root only the branch the file is can report (the other has no such member); ajv
      // may name an inlined $ref's keyword by a path relative to it ("#/properties/path/pattern").
      const relevant = (validate.errors ?? []).filter((e) => e.instancePath !== "" || e.schemaPath.includes(`/${branch}`) || (e.schemaPath.startsWith("#/$defs/") && !e.schemaPath.includes("File/")));
      for (const e of (relevant.length > 0 ? relevant : validate.errors ?? []).slice(0, 8)) {
        const pos = result.spec.locate(e.instancePath);
        errors.push({ file: path, ...pos, pointer: e.instancePath, message: `${e.keyword}: ${e.message ?? ""}` });
      }
      return undefined;
    }
    return { value: result.spec.value, locate: result.spec.locate };
  };

  const suiteFile = read(`${rel}/suite.yaml`);
  const suite = (suiteFile?.value as { suite?: Suite } | undefined)?.suite;
  if (suiteFile && suite && suite.protocol !== protocol) {
    errors.push({ file: `${rel}/suite.yaml`, ...suiteFile.locate("/suite/protocol"), pointer: "/suite/protocol", message: `protocol must be ${protocol}` });
  }
  if (suite && !(suite.defaultServerState in suite.serverStates)) {
    errors.push({ file: `${rel}/suite.yaml`, line: 1, column: 1, pointer: "/suite/defaultServerState", message: "defaultServerState is not one of serverStates" });
  }

  const names = readdirSync(folder.real).filter((n) => /\.ya?ml$/.test(n) && n !== "suite.yaml").sort();
  const files: LoadedSuite["files"] = [];
  const cases: LoadedSuite["cases"] = [];
  const clientCases: LoadedSuite["clientCases"] = [];
  const seen = new Map<string, string>();
  const messages = knownMessages ? new Set(knownMessages(protocol)) : undefined;
  for (const name of names) {
    const path = `${rel}/${name}`;
    const loaded = read(path);
    if (!loaded) continue;
    const file = loaded.value as CaseFile;
    const at = (pointer: string, message: string): void => {
      errors.push({ file: path, ...loaded.locate(pointer), pointer, message });
    };
    if (file.protocol !== protocol) at("/protocol", `protocol must be ${protocol}`);
    if (file.group !== name.replace(/\.ya?ml$/, "")) at("/group", `group must equal the file name (${name.replace(/\.ya?ml$/, "")})`);
    (file.cases as (Case | ClientCase)[]).forEach((c, i) => {
      const base = `/cases/${i}`;
      const other = seen.get(c.id);
      if (other) at(`${base}/id`, `duplicate case id ${c.id} (also in ${other})`);
      seen.set(c.id, path);
      if (suite) {
        c.tags.forEach((t, j) => {
          if (!(t in suite.tags)) at(`${base}/tags/${j}`, `tag ${t} is not declared in suite.yaml`);
        });
      }
      if (file.role === "client") {
        const cc = c as ClientCase;
        const message = cc.expect.request?.message;
        if (message && messages && !messages.has(message)) at(`${base}/expect/request/message`, `unknown message ${message}`);
        clientCases.push({ ...cc, group: file.group, file: path });
        return;
      }
      const sc = c as Case;
      (sc.serverStates ?? []).forEach((s, j) => {
        if (suite && !(s in suite.serverStates)) at(`${base}/serverStates/${j}`, `server state ${s} is not declared in suite.yaml`);
      });
      checkSteps(sc, base, at, messages);
      cases.push({ ...sc, group: file.group, file: path });
    });
    files.push({ path, file });
  }
  if (errors.length > 0 || !suite) return { ok: false, errors };
  return { ok: true, suite: { protocol, suite, files, cases, clientCases } };
}

function checkSteps(c: Case, base: string, at: (pointer: string, message: string) => void, messages: Set<string> | undefined): void {
  const open = new Set<string>();
  c.steps.forEach((s, k) => {
    const p = `${base}/steps/${k}`;
    const r = s.request;
    if (r) {
      const bodies = [r.body !== undefined, r.bodyText !== undefined, r.bodyGen !== undefined].filter(Boolean).length;
      if (bodies > 1) at(`${p}/request`, "at most one of body, bodyText, bodyGen");
      if (r.read === "until-interaction") {
        if (!r.stream) at(`${p}/request`, "read: until-interaction needs a stream name");
        else open.add(r.stream);
      } else if (r.stream) at(`${p}/request/stream`, "stream is only for read: until-interaction");
    }
    if (s.continue !== undefined && !open.has(s.continue)) at(`${p}/continue`, `stream ${s.continue} is not open`);
    if (s.close !== undefined) {
      if (!open.has(s.close)) at(`${p}/close`, `stream ${s.close} is not open`);
      open.delete(s.close);
    }
    if ((s.wait !== undefined || s.close !== undefined) && (s.expect || s.capture)) at(p, "wait and close steps take no expect or capture");
    const message = s.expect?.body?.message;
    if (message && messages && !messages.has(message)) at(`${p}/expect/body/message`, `unknown message ${message}`);
  });
}

export function formatLoadError(e: LoadError): string {
  return `${e.file}:${e.line}:${e.column} ${e.pointer === "" ? "/" : e.pointer} ${e.message} [conformance]`;
}
