// Builds throwaway spec trees for tests: the real meta-schemas, common types and agent-connector
// protocol, which a test then breaks in one place.
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

export interface Fixture {
  root: string;
  read(rel: string): string;
  write(rel: string, text: string): void;
  edit(rel: string, from: string | RegExp, to: string): void;
}

export function connectorFixture(options: { withGenerators?: boolean } = {}): Fixture {
  const root = mkdtempSync(`${tmpdir()}/agent-contracts-fixture-`);
  for (const dir of ["spec/meta", "spec/common", "spec/agent-connector/messages", "spec/agent-connector/lifecycles"]) cpSync(`${REPO_ROOT}/${dir}`, `${root}/${dir}`, { recursive: true });
  cpSync(`${REPO_ROOT}/spec/agent-connector/protocol.yaml`, `${root}/spec/agent-connector/protocol.yaml`);
  cpSync(`${REPO_ROOT}/spec/project.yaml`, `${root}/spec/project.yaml`);
  if (options.withGenerators) {
    cpSync(`${REPO_ROOT}/generators`, `${root}/generators`, { recursive: true });
    // Outside data a generator needs, not only its tests: the Swift runtime's IDNA mapping table.
    cpSync(`${REPO_ROOT}/property-tests/vectors/unicode-idna`, `${root}/property-tests/vectors/unicode-idna`, { recursive: true });
    symlinkSync(`${REPO_ROOT}/node_modules`, `${root}/node_modules`);
  }
  return {
    root,
    read: (rel) => readFileSync(`${root}/${rel}`, "utf8"),
    write: (rel, text) => writeFileSync(`${root}/${rel}`, text),
    edit(rel, from, to) {
      const before = this.read(rel);
      const after = before.replace(from, to);
      if (after === before) throw new Error(`fixture edit did not apply to ${rel}: ${String(from)}`);
      this.write(rel, after);
    },
  };
}
