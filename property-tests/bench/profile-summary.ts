// Summarises a V8 .cpuprofile (from node --cpu-prof): the top frames by self time and the time
// by file or npm package (inclusive). Usage: node --import tsx profile-summary.ts <file> [top]
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  self: { frame: string; ms: number; percent: number }[];
  byFile: { file: string; ms: number; percent: number }[];
}

const shortUrl = (url: string): string =>
  url
    .replace(/^file:\/\/.*?\/(generated|generators|property-tests|bin)\//, "$1/")
    .replace(/^.*node_modules\//, "npm:");

function fileGroup(url: string): string {
  const u = shortUrl(url);
  if (u === "") return "";
  if (u.startsWith("npm:")) {
    const parts = u.slice(4).split("/");
    return `npm:${parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  return u;
}

export function summarise(profile: Profile, top = 20): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const timeById = new Map<number, number>();
  profile.samples.forEach((id, i) => timeById.set(id, (timeById.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, micros] of timeById) {
    const node = byId.get(id) as ProfileNode;
    const cf = node.callFrame;
    if (cf.functionName === "(idle)") continue;
    total += micros;
    const key = `${cf.functionName || "(anonymous)"} ${shortUrl(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const group = fileGroup((byId.get(cur) as ProfileNode).callFrame.url);
      if (group !== "" && !seen.has(group)) {
        seen.add(group);
        inclusive.set(group, (inclusive.get(group) ?? 0) + micros);
      }
    }
  }
  const rank = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => ({ k, ms: us / 1000, percent: (100 * us) / total }));
  return {
    totalMs: total / 1000,
    self: rank(self).map(({ k, ms, percent }) => ({ frame: k, ms, percent })),
    byFile: rank(inclusive).map(({ k, ms, percent }) => ({ file: k, ms, percent })),
  };
}

export function formatSummary(s: ProfileSummary): string {
  const line = (ms: number, pct: number, what: string): string => `${ms.toFixed(0).padStart(7)} ms ${pct.toFixed(1).padStart(5)}%  ${what}`;
  return [
    `busy (non-idle) samples: ${s.totalMs.toFixed(0)} ms`,
    "self time, top frames:",
    ...s.self.map((f) => line(f.ms, f.percent, f.frame)),
    "inclusive time by file / npm package:",
    ...s.byFile.map((f) => line(f.ms, f.percent, f.file)),
  ].join("\n");
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const file = process.argv[2];
  if (file === undefined) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
  console.log(formatSummary(summarise(JSON.parse(readFileSync(file, "utf8")) as Profile, Number(process.argv[3] ?? 20))));
}
