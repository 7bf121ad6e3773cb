// Child of determinism.test.ts: renders everything in-process and prints one digest per output
// file, so two processes with different hash seeds, random seeds, locales and time zones can be
// compared byte for byte.
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { build } from "../../generators/pipeline.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const result = await build(root);
if (!result.ok) throw new Error("spec has errors");
const digests: Record<string, string> = {};
for (const [path, contents] of [...result.rendered].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  digests[path] = createHash("sha256").update(contents).digest("hex");
}
process.stdout.write(`${JSON.stringify({ locale: Intl.DateTimeFormat().resolvedOptions().locale, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, digests })}\n`);
