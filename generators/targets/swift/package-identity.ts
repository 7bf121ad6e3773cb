// The Swift emitter and its templates place files under Sources/AgentContracts and
// Tests/AgentContractsTests, and the test templates `import AgentContracts`. A project names its
// own module in spec/project.yaml (packages.swift.module): this moves every emitted file into
// Sources/<module> and Tests/<module>Tests and rewrites each `import` of the module. Package.swift,
// Version.swift and the README are written from the project's names directly (emit.ts).
import type { OutputFile } from "../../model/types.js";
import { SOURCES, TESTS } from "./emit-support.js";

export const WRITTEN_MODULE = "AgentContracts";

const MODULE_IMPORT = new RegExp(`^((?:@testable )?import) ${WRITTEN_MODULE}$`, "gm");

/** The files moved into `module`'s folders; unchanged when `module` is the written one. */
export function relocateSwift(files: readonly OutputFile[], module: string): OutputFile[] {
  if (module === WRITTEN_MODULE) return [...files];
  const moved = (path: string) =>
    path.startsWith(`${SOURCES}/`) ? `Sources/${module}/${path.slice(SOURCES.length + 1)}`
    : path.startsWith(`${TESTS}/`) ? `Tests/${module}Tests/${path.slice(TESTS.length + 1)}`
    : path;
  return files.map((file) => ({
    ...file,
    path: moved(file.path),
    contents: file.path.endsWith(".swift") ? file.contents.replace(MODULE_IMPORT, `$1 ${module}`) : file.contents,
  }));
}
