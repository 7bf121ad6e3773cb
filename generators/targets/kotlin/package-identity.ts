// The Kotlin emitter, its templates and the hand-written runtime and tests are written in the
// package dev.agentcontracts (so the runtime compiles as it is, and the templates read as
// Kotlin). A project names its own base package in spec/project.yaml (packages.maven.package);
// this moves every emitted file into it: the source and resource folders, and every package,
// import and qualified name (dev.agentcontracts.x -> <package>.x, dev/agentcontracts/ -> its path).
import type { OutputFile } from "../../model/types.js";

export const WRITTEN_PACKAGE = "dev.agentcontracts";

const WRITTEN_NAME = /\bdev([./])agentcontracts\b/g;

/** The files with the written package replaced by `base`; unchanged when `base` is the written one. */
export function relocateKotlin(files: readonly OutputFile[], base: string): OutputFile[] {
  if (base === WRITTEN_PACKAGE) return [...files];
  const rename = (text: string) => text.replace(WRITTEN_NAME, (_, separator: string) => (separator === "." ? base : base.replaceAll(".", "/")));
  return files.map((file) => ({ ...file, path: rename(file.path), contents: file.path.endsWith(".json") ? file.contents : rename(file.contents) }));
}
