// Generation is deterministic across processes, not just across two calls in one: two children
// with different V8 hash seeds and random seeds, locales and time zones render every output file
// (generated/, the paths files) to the same bytes, and those are the committed bytes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = join(ROOT, "property-tests/determinism/render-digest.ts");

interface Render {
  locale: string;
  timeZone: string;
  digests: Record<string, string>;
}

function render(seed: number, env: Record<string, string>): Render {
  const out = execFileSync(process.execPath, [`--hash-seed=${seed}`, `--random-seed=${seed}`, "--import", "tsx", CHILD], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Render;
}

it("two processes with different seeds, locales and time zones render the same bytes", () => {
  const a = render(1, { LC_ALL: "C", LANG: "C", TZ: "UTC" });
  const b = render(987654321, { LC_ALL: "tr_TR.UTF-8", LANG: "tr_TR.UTF-8", TZ: "Pacific/Kiritimati" });
  // The environments really differ (a Turkish locale changes case mapping of "i").
  expect(a.timeZone).not.toBe(b.timeZone);
  expect(Object.keys(a.digests).length).toBeGreaterThan(300);
  expect(b.digests).toEqual(a.digests);
  // And they are the committed files.
  for (const [path, digest] of Object.entries(a.digests)) {
    expect(createHash("sha256").update(readFileSync(join(ROOT, path))).digest("hex"), path).toBe(digest);
  }
}, 240_000);
