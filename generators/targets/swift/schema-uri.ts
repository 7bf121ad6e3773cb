// RFC 3986 reference resolution as the Swift runtime does it (URIReference in
// runtime/SchemaReferences.swift), so a `$ref` the generated validators follow leads where the
// schema interpreter's would: the same split, merge and dot-segment removal, not WHATWG URL rules.

interface Parts {
  scheme?: string;
  authority?: string;
  path: string;
  query?: string;
  fragment?: string;
}

export function splitUri(text: string): Parts {
  let rest = text;
  let fragment: string | undefined;
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query: string | undefined;
  const mark = rest.indexOf("?");
  if (mark >= 0) {
    query = rest.slice(mark + 1);
    rest = rest.slice(0, mark);
  }
  let scheme: string | undefined;
  const colon = rest.indexOf(":");
  if (colon > 0 && /^\p{L}[\p{L}\p{N}+\-.]*$/u.test(rest.slice(0, colon))) {
    scheme = rest.slice(0, colon);
    rest = rest.slice(colon + 1);
  }
  let authority: string | undefined;
  if (rest.startsWith("//")) {
    rest = rest.slice(2);
    const end = rest.indexOf("/") < 0 ? rest.length : rest.indexOf("/");
    authority = rest.slice(0, end);
    rest = rest.slice(end);
  }
  return { scheme, authority, path: rest, query, fragment };
}

function joinUri(p: Parts): string {
  let out = "";
  if (p.scheme !== undefined) out += `${p.scheme}:`;
  if (p.authority !== undefined) out += `//${p.authority}`;
  out += p.path;
  if (p.query !== undefined) out += `?${p.query}`;
  if (p.fragment !== undefined) out += `#${p.fragment}`;
  return out;
}

function removeDotSegments(path: string): string {
  let input = path;
  const output: string[] = [];
  while (input.length > 0) {
    if (input.startsWith("../")) input = input.slice(3);
    else if (input.startsWith("./")) input = input.slice(2);
    else if (input.startsWith("/./")) input = input.slice(2);
    else if (input === "/.") input = "/";
    else if (input.startsWith("/../")) {
      input = input.slice(3);
      output.pop();
    } else if (input === "/..") {
      input = "/";
      output.pop();
    } else if (input === "." || input === "..") input = "";
    else {
      const start = input.startsWith("/") ? 1 : 0;
      const slash = input.indexOf("/", start);
      const end = slash < 0 ? input.length : slash;
      output.push(input.slice(0, end));
      input = input.slice(end);
    }
  }
  return output.join("");
}

/** `reference` resolved against the absolute `base` (RFC 3986 section 5.2.2). */
export function resolveUri(reference: string, base: string): string {
  const r = splitUri(reference);
  const b = splitUri(base);
  if (r.scheme !== undefined) return joinUri({ ...r, path: removeDotSegments(r.path) });
  if (r.authority !== undefined) return joinUri({ ...r, scheme: b.scheme, path: removeDotSegments(r.path) });
  if (r.path === "") return joinUri({ scheme: b.scheme, authority: b.authority, path: b.path, query: r.query ?? b.query, fragment: r.fragment });
  if (r.path.startsWith("/")) return joinUri({ scheme: b.scheme, authority: b.authority, path: removeDotSegments(r.path), query: r.query, fragment: r.fragment });
  let merged: string;
  if (b.authority !== undefined && b.path === "") merged = `/${r.path}`;
  else if (b.path.lastIndexOf("/") >= 0) merged = b.path.slice(0, b.path.lastIndexOf("/") + 1) + r.path;
  else merged = r.path;
  return joinUri({ scheme: b.scheme, authority: b.authority, path: removeDotSegments(merged), query: r.query, fragment: r.fragment });
}

export function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash < 0 ? uri : uri.slice(0, hash);
}
