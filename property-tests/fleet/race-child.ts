// One racer for the exactly-once property: reads batches of keys as JSON lines on stdin, runs
// checkAndRecord for each against the shared store, all at once, and answers one JSON line of
// outcomes per batch. The parent starts several of these and feeds them the same batch.
import { createInterface } from "node:readline";
import { makeStore, type StoreKind } from "./stores.js";

const [kind, url] = process.argv.slice(2) as [StoreKind, string];
// A generous deadline: four children start and connect at once on a loaded 2-core machine.
const store = makeStore(kind, url, { timeoutMs: 15_000 });
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { scope, keys, retainUntilMs } = JSON.parse(line) as { scope: string; keys: string[]; retainUntilMs: number };
  const now = Date.now();
  const outcomes = await Promise.all(keys.map((k) => store.checkAndRecord(scope, k, retainUntilMs, now).catch((e: Error) => `error:${e.message}`)));
  process.stdout.write(JSON.stringify(outcomes) + "\n");
}
await store.close();
