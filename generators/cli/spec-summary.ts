// What list and lifecycle print, remembered per spec content. Loading and checking a spec takes
// seconds (YAML, meta-schemas, lints); list and lifecycle only need names and machines. The summary
// is keyed by a digest of every file under spec/, so an edited spec never reads an old summary:
// it is loaded, checked and summarised again. Kept in CLI_HOME/dist/cli/ (git-ignored); `make`
// fills it for the CLI's own spec, so the packed CLI ships it; a failed write only costs time.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_SPEC_FILE_BYTES } from "../load/spec-limits.mjs";
import type { Lifecycle } from "../model/lifecycle.js";
import type { SpecError } from "../model/types.js";
import { CLI_HOME } from "./project.js";

export interface SpecSummary {
  protocols: { id: string; title: string; version: string; messages: string[]; lifecycles: Omit<Lifecycle, "location">[] }[];
}

const SUMMARY_FILE = join(CLI_HOME, "dist", "cli", "spec-summaries.json");
/** Summaries kept: the CLI's own spec and a few a user switches between with --spec. */
const KEPT = 4;

/**
 * SHA-256 over every file under root/spec: relative path and bytes, in sorted order. Nothing the
 * loader refuses is read or followed (issue 31): a symbolic link counts by its target's name (it
 * is never descended: `spec/loop -> ..` or `spec/evil -> /` would walk forever or everywhere), a
 * pipe or device by its kind, a file over the spec file limit by its size. The load that follows
 * a digest miss reports them.
 */
export function specDigest(root: string): string {
  const hash = createHash("sha256");
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = `${rel}/${name}`;
      const stat = lstatSync(join(root, path));
      if (stat.isSymbolicLink()) hash.update(`${path}\0link\0${readlinkSync(join(root, path))}\0`);
      else if (stat.isDirectory()) walk(path);
      else if (!stat.isFile()) hash.update(`${path}\0not a regular file\0`);
      else if (stat.size > MAX_SPEC_FILE_BYTES) hash.update(`${path}\0${stat.size} bytes\0`);
      else hash.update(`${path}\0`).update(readFileSync(join(root, path))).update("\0");
    }
  };
  walk("spec");
  return hash.digest("hex");
}

type Stored = { digest: string; summary: SpecSummary }[];

function readStored(): Stored {
  try {
    const stored = JSON.parse(readFileSync(SUMMARY_FILE, "utf8")) as unknown;
    return Array.isArray(stored) ? (stored as Stored) : [];
  } catch {
    return [];
  }
}

/** The summary of root's spec: remembered, else loaded, checked and remembered (spec errors are returned). */
export async function specSummary(root: string): Promise<{ ok: true; summary: SpecSummary } | { ok: false; errors: SpecError[] }> {
  const digest = specDigest(root);
  const stored = readStored();
  const hit = stored.find((s) => s.digest === digest);
  if (hit) return { ok: true, summary: hit.summary };
  const { loadModel } = await import("../pipeline.js");
  const result = loadModel(root);
  if (!result.ok) return result;
  const summary: SpecSummary = {
    protocols: result.model.protocols.map((p) => ({
      id: p.id,
      title: p.title,
      version: p.version,
      messages: p.messages.map((m) => m.name),
      lifecycles: (p.lifecycles as Lifecycle[]).map(({ location: _location, ...machine }) => machine),
    })),
  };
  try {
    const tmp = `${SUMMARY_FILE}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify([{ digest, summary }, ...stored].slice(0, KEPT)));
    renameSync(tmp, SUMMARY_FILE);
  } catch {
    // A read-only install only loses the shortcut.
  }
  return { ok: true, summary };
}
