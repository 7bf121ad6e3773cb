// README.md's table of mutation scores per folder is the one the committed results give
// (summary.mjs's folder lines), so a rerun that changes a score must update the README too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GOALS, readMutants, scoreTable } from "./summary.mjs";
import { ROOT } from "../signing/helpers.js";

const ROW = /^\| `(ts|kotlin) (\S+\/)` \| ([\d.]+)% \| (\d+) \/ (\d+) \| (\d+%|—) \|$/;

describe("README's mutation score table", () => {
  it("lists every folder with its score, counts and goal as the committed results give them", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
    const rows = readme.filter((l) => ROW.test(l)).map((l) => {
      const [, tool, folder, score, detected, valid, goal] = ROW.exec(l)!;
      return `${tool} ${folder} ${score}% ${detected}/${valid} ${goal}`;
    });
    // Folder lines are the ones whose key ends with "/" (file lines name a file).
    const want = scoreTable(readMutants()).lines.filter((l) => l.replace(/   \(goal \d+%\)$/, "").endsWith("/")).map((l) => {
      const m = /^\s*([\d.]+)%\s+(\d+)\/(\d+)\s+(\S+ \S+\/)/.exec(l)!;
      const goal = GOALS[m[4]!];
      return `${m[4]} ${m[1]}% ${m[2]}/${m[3]} ${goal === undefined ? "—" : `${goal}%`}`;
    });
    expect(rows).toEqual(want);
  });
});
