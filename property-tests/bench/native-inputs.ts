// The TypeScript bench's inputs (fixtures.ts) as files, so the Kotlin, Swift and Rust benches measure
// the same bytes: the folder is handed to them as BENCH_INPUTS. The canonical texts (`*.jcs`)
// come from the TypeScript canonicalizer; each native bench checks its own output against them
// before timing, so a disagreement stops the run instead of timing different work.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalize } from "../../generated/ts/runtime/canonical-json.js";
import { bytes, connectorPackage, invalidConnectorPackage, invalidProposal, invalidWorkflowRequest, proposal, ROOT, signedProposal, signedTrigger, workflowRequest } from "./fixtures.js";

/** Inside the worktree, so a bind mount of the repository shows it to the Swift root too. */
export const NATIVE_INPUTS = join(ROOT, "property-tests/bench/.native-inputs");

export function writeNativeInputs(dir: string = NATIVE_INPUTS): string {
  mkdirSync(dir, { recursive: true });
  const json = (name: string, value: unknown): void => writeFileSync(join(dir, name), JSON.stringify(value));
  json("ActionProposal-valid.json", proposal);
  json("ActionProposal-invalid.json", invalidProposal);
  json("WorkflowRequest-valid.json", workflowRequest);
  json("WorkflowRequest-invalid.json", invalidWorkflowRequest);
  json("ConnectorPackage-valid.json", connectorPackage);
  json("ConnectorPackage-invalid.json", invalidConnectorPackage);
  for (const [size, input] of Object.entries(bytes)) {
    writeFileSync(join(dir, `${size}.json`), input);
    writeFileSync(join(dir, `${size}.jcs`), canonicalize(JSON.parse(new TextDecoder().decode(input))));
  }
  json("signature-trigger.json", signedTrigger);
  json("signature-proposal.json", signedProposal);
  return dir;
}
