// Child process for the crash test: admits trigger-like messages r-<start>, r-<start+1>, ... into
// a SQLite replay store as fast as it can and prints "ACK <request_id>" only after an admission
// has returned (i.e. committed). The parent kills it with SIGKILL at an arbitrary moment.
import { writeSync } from "node:fs";
import { ReplayGuard } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import { SqliteReplayStore } from "../../generators/targets/ts/runtime/src/replay-sqlite.js";

const [path, startText] = process.argv.slice(2) as [string, string];
const declaration = { keyFields: ["request_id"], scopeFields: ["provider_id", "host_instance_id"], expiresAtField: "expires_at", skewSeconds: 60 };
const guard = new ReplayGuard(declaration, new SqliteReplayStore(path), () => Date.parse("2026-05-30T00:00:00Z"));
let i = Number(startText);
for (;;) {
  const request_id = `r-${i++}`;
  const decision = await guard.admit({ request_id, provider_id: "provider.app", host_instance_id: "host-1", expires_at: "2026-05-30T00:10:00Z" });
  // Synchronous write: the ACK line reaches the pipe before the next admission starts.
  if (decision.ok) writeSync(1, `ACK ${request_id}\n`);
  else writeSync(1, `REJECT ${request_id} ${decision.error.code}\n`);
}
