// What generation depends on, hashed: the spec, the generator itself and the locked toolchain.
// The manifest records these so `generate` can skip all work when nothing changed and `--check`
// can name the input that did. The rules live in input-files.mjs (plain JavaScript, shared with
// bin/agent-contracts.mjs's pre-tsx no-op check); this module gives them their TypeScript home.
import { generationIsUpToDate as upToDateAt, inputHashes } from "./input-files.mjs";
import { MANIFEST_PATH } from "./write-outputs.js";

export { inputHashes };

/**
 * True when every input hashes as the manifest recorded and every output the manifest lists is
 * on disk with its recorded hash: a fresh generation would write nothing.
 */
export function generationIsUpToDate(root: string, outRoot: string = root): boolean {
  return upToDateAt(root, MANIFEST_PATH, outRoot);
}
