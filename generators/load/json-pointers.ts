// Every JSON pointer of a value, the root included: what the spec loader's fast-path tests
// (spec-json.test.ts, spec-yaml.test.ts) locate in both readings of a file.
export function pointers(value: unknown, at = ""): string[] {
  const here = [at];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pointers(v, `${at}/${i}`)));
  if (value !== null && typeof value === "object") return here.concat(...Object.entries(value).map(([k, v]) => pointers(v, `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`)));
  return here;
}
