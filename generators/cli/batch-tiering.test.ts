// The flag useBatchTiering hands V8 must be one this Node knows: V8 does not throw on an unknown
// flag, it prints "Error: unrecognized flag" on stderr, which every generate would then show.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const script = `
const { useBatchTiering } = await import(${JSON.stringify(new URL("./batch-tiering.ts", import.meta.url).href)});
useBatchTiering();
useBatchTiering();
process.stdout.write("ok");
`;

describe("useBatchTiering", () => {
  it("sets a flag V8 accepts, once, without a word on stderr", () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("ok");
    expect(child.status).toBe(0);
  });
});
