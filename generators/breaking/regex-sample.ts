// A string matching a simple regular expression, built by walking it: literals, escapes, classes
// (first member, or the `variant`-th), groups, the first alternative, quantifiers at their
// minimum (at least one). Good enough for the identifier, hash and prefix patterns specs use;
// callers test the result against the real RegExp and fall back when it does not match.

const CLASS_ESCAPES: Record<string, string> = { d: "0123456789", w: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", s: " ", S: "a", D: "a", W: "-" };

export function sampleForPattern(pattern: string, variant = 0): string | undefined {
  let i = 0;
  const p = pattern;
  const parseAlternation = (): string | undefined => {
    const first = parseSequence();
    // Skip the other alternatives of this level.
    while (p[i] === "|") {
      i++;
      parseSequence();
    }
    return first;
  };
  const parseSequence = (): string | undefined => {
    let out = "";
    while (i < p.length && p[i] !== "|" && p[i] !== ")") {
      const atom = parseAtom();
      if (atom === undefined) return undefined;
      const { min } = parseQuantifier();
      out += atom.repeat(min);
    }
    return out;
  };
  const parseQuantifier = (): { min: number } => {
    const c = p[i];
    let min = 1;
    if (c === "*" || c === "?") {
      i++;
      min = c === "*" ? 1 : 0;
    } else if (c === "+") i++;
    else if (c === "{") {
      const m = /^\{(\d+)(,\d*)?\}/.exec(p.slice(i));
      if (m) {
        i += m[0].length;
        min = Number(m[1]);
      }
    }
    if (p[i] === "?") i++; // lazy
    return { min };
  };
  const members = (body: string): string[] => {
    const out: string[] = [];
    for (let k = 0; k < body.length; k++) {
      let c = body[k]!;
      if (c === "\\") {
        const e = body[++k]!;
        if (CLASS_ESCAPES[e]) {
          out.push(...CLASS_ESCAPES[e]!);
          continue;
        }
        c = e === "n" ? "\n" : e === "t" ? "\t" : e;
      }
      if (body[k + 1] === "-" && k + 2 < body.length) {
        const end = body[k + 2] === "\\" ? body[k + 3]! : body[k + 2]!;
        for (let code = c.codePointAt(0)!; code <= end.codePointAt(0)! && out.length < 200; code++) out.push(String.fromCodePoint(code));
        k += body[k + 2] === "\\" ? 3 : 2;
      } else out.push(c);
    }
    return out;
  };
  const parseAtom = (): string | undefined => {
    const c = p[i]!;
    if (c === "^" || c === "$") {
      i++;
      return "";
    }
    if (c === "(") {
      i++;
      if (p.startsWith("?:", i)) i += 2;
      const look = p[i] === "?" && /^\?<?[=!]/.test(p.slice(i));
      if (look) i += p[i + 1] === "<" ? 3 : 2;
      else if (p[i] === "?") return undefined; // named groups and the like
      const inner = parseAlternation();
      if (p[i] !== ")") return undefined;
      i++;
      // A lookaround consumes nothing; the caller's RegExp test decides whether the guess holds.
      return look ? "" : inner;
    }
    if (c === "[") {
      const end = p.indexOf("]", i + 2);
      if (end < 0) return undefined;
      let body = p.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith("^")) {
        const excluded = new Set(members(body.slice(1)));
        const pick = ["a", "b", "x", "0", "-", "A"].filter((x) => !excluded.has(x));
        return pick[variant % Math.max(pick.length, 1)];
      }
      const m = members(body);
      body = "";
      return m.length > 0 ? m[variant % m.length] : undefined;
    }
    if (c === ".") {
      i++;
      return "a";
    }
    if (c === "\\") {
      const e = p[i + 1]!;
      i += 2;
      if (CLASS_ESCAPES[e]) return CLASS_ESCAPES[e]![variant % CLASS_ESCAPES[e]!.length];
      if (e === "u" && /^[0-9a-fA-F]{4}/.test(p.slice(i))) {
        const ch = String.fromCharCode(parseInt(p.slice(i, i + 4), 16));
        i += 4;
        return ch;
      }
      return e === "n" ? "\n" : e === "t" ? "\t" : e;
    }
    i++;
    return c;
  };
  try {
    const s = parseAlternation();
    return i === p.length ? s : undefined;
  } catch {
    return undefined;
  }
}
