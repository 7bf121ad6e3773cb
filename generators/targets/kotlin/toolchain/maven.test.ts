// The `maven` helper (maven.sh) replayed against recorded offline failures of real Maven: every
// resolution failure must lead to exactly one online run, anything else to none. A fake `mvn` on
// PATH prints the recorded output when called with -o and notes each online call.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const failures = join(here, "offline-failures");
const work = mkdtempSync(join(tmpdir(), "maven-helper-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FAKE_MVN = `#!/usr/bin/env bash
for a in "$@"; do if [ "$a" = "-o" ]; then cat "$FAKE_OFFLINE_LOG"; exit 1; fi; done
echo "online $*" >> "$FAKE_CALLS"; exit "\${FAKE_ONLINE_EXIT:-0}"
`;
writeFileSync(join(work, "mvn"), FAKE_MVN);
chmodSync(join(work, "mvn"), 0o755);

function runHelper(log: string, onlineExit = 0) {
  const calls = join(work, `${log}.calls`);
  writeFileSync(calls, "");
  const result = spawnSync("bash", ["-c", `. "${join(here, "maven.sh")}" && maven -q package`], {
    env: { ...process.env, PATH: `${work}:${process.env.PATH}`, FAKE_OFFLINE_LOG: join(failures, log), FAKE_CALLS: calls, FAKE_ONLINE_EXIT: String(onlineExit) },
    encoding: "utf8",
  });
  return { status: result.status, online: readFileSync(calls, "utf8").split("\n").filter(Boolean) };
}

const RESOLUTION = ["plugin-prefix.txt", "plugin.txt", "artifact.txt", "version-metadata.txt", "parent-pom.txt"];

describe("maven helper: offline first, online only to resolve", () => {
  it("has a recorded failure for every case the README lists", () => {
    expect(readdirSync(failures).filter((f) => f.endsWith(".txt")).sort()).toEqual([...RESOLUTION, "mojo-failure.txt"].sort());
  });
  it.each(RESOLUTION)("%s: runs Maven once more online with the same arguments and returns its status", (log) => {
    expect(runHelper(log)).toEqual({ status: 0, online: ["online -B -ntp -q package"] });
    expect(runHelper(log, 3).status).toBe(3);
  });
  it("mojo-failure.txt: a build that failed by itself is not rerun online", () => {
    expect(runHelper("mojo-failure.txt")).toEqual({ status: 1, online: [] });
  });
  it("the consumer names every Maven plugin goal by full coordinates (offline Maven cannot resolve a prefix)", () => {
    const script = readFileSync(join(here, "../../../../property-tests/consumers/kotlin/run.sh"), "utf8");
    const goals = [...script.matchAll(/^maven (.*)$/gm)].flatMap((m) => m[1]!.split(/\s+/)).filter((w) => /^[\w.-]+(:[\w.-]+)+$/.test(w));
    expect(goals.length).toBeGreaterThan(0);
    for (const goal of goals) expect(goal.split(":"), goal).toHaveLength(4);
  });
});
