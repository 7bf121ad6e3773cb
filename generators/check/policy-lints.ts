// The lints that state a repository's policy, not a rule of the spec format: off by default,
// switched on by id in spec/project.yaml's `lints:` (generators/model/project.ts lists them; this
// repository switches all of them on). The format itself only requires what the generators read.
import type { LoadedProtocol } from "../load/load-spec.js";
import { joinPointer } from "../load/spec-file.js";
import type { PolicyLints } from "../model/project.js";
import type { JsonSchema, SpecError } from "../model/types.js";
import { reporter } from "./lints.js";

const DOCUMENT_FILE = /^[0-9]{3}_[0-9a-f]{16}\.txt$/;
const RESEARCH_NOTE = /^research\/[a-z0-9-]+\.md$/;

/** The per-file policy lints of one protocol: its protocol.yaml and its message files. */
export function checkPolicy(protocol: LoadedProtocol, enabled: PolicyLints, errors: SpecError[]): void {
  const doc = protocol.protocolFile.value as JsonSchema;
  if (enabled.has("document-file-name")) {
    const report = reporter(protocol.protocolFile, "document-file-name", errors);
    if (typeof doc["document"] === "string" && !DOCUMENT_FILE.test(doc["document"])) report("/document", `document must be a NNN_<16 hex>.txt file name, not ${JSON.stringify(doc["document"])}`);
  }
  if (enabled.has("section-coverage") && doc["sections"] === undefined) {
    reporter(protocol.protocolFile, "section-coverage", errors)("", "protocol.yaml must have sections: which spec items cover each section of the source document");
  }
  // Message files and lifecycle machines both carry x-source.
  for (const file of [...protocol.messageFiles, ...protocol.lifecycleFiles]) {
    const schema = file.value as JsonSchema;
    const isMachine = protocol.lifecycleFiles.includes(file);
    if (enabled.has("x-source-required") && schema["x-source"] === undefined) reporter(file, "x-source-required", errors)("", `the ${isMachine ? "lifecycle" : "message"} must carry x-source: the sections of the source document it comes from`);
    if (enabled.has("x-invalid-examples-required") && !isMachine && schema["x-invalid-examples"] === undefined) reporter(file, "x-invalid-examples-required", errors)("", "the message must carry x-invalid-examples: at least one instance that fails, and where");
    if (enabled.has("document-file-name")) {
      const report = reporter(file, "document-file-name", errors);
      ((schema["x-source"] ?? []) as JsonSchema[]).forEach((source, i) => {
        const name = source["document"];
        if (typeof name === "string" && !DOCUMENT_FILE.test(name) && !RESEARCH_NOTE.test(name)) report(joinPointer("/x-source", i, "document"), `document must be a NNN_<16 hex>.txt file name or research/<name>.md, not ${JSON.stringify(name)}`);
      });
    }
  }
}
