//! RFC 3986 reference resolution (section 5.2) for `$id` and `$ref`, as the Kotlin runtime's
//! SchemaUri does it: pure string work that also resolves a fragment against a URN base (an
//! opaque URI), which the JSON-Schema-Test-Suite's identifiers need. Never fails.

/// The five parts of RFC 3986's appendix B split (`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(uri: &str) -> Parts<'_> {
    let (rest, fragment) = match uri.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (uri, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.find(':') {
        Some(colon) if colon > 0 && !rest[..colon].contains('/') => (Some(&rest[..colon]), &rest[colon + 1..]),
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query, fragment }
}

/// `reference` resolved against the absolute `base`.
pub fn resolve(base: &str, reference: &str) -> String {
    let r = split(reference);
    let b = split(base);
    let (scheme, authority, path, query) = if r.scheme.is_some() {
        (r.scheme, r.authority, remove_dots(r.path), r.query)
    } else if r.authority.is_some() {
        (b.scheme, r.authority, remove_dots(r.path), r.query)
    } else if r.path.is_empty() {
        (b.scheme, b.authority, b.path.to_string(), r.query.or(b.query))
    } else if r.path.starts_with('/') {
        (b.scheme, b.authority, remove_dots(r.path), r.query)
    } else {
        let merged = if b.authority.is_some() && b.path.is_empty() {
            format!("/{}", r.path)
        } else {
            match b.path.rfind('/') {
                Some(slash) => format!("{}{}", &b.path[..=slash], r.path),
                None => r.path.to_string(),
            }
        };
        (b.scheme, b.authority, remove_dots(&merged), r.query)
    };
    let mut out = String::new();
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(&path);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = r.fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// The URI without its fragment.
pub fn without_fragment(uri: &str) -> &str {
    uri.split('#').next().unwrap_or_default()
}

/// The fragment, percent-decoded (UTF-8); None when there is none or it does not decode.
pub fn fragment(uri: &str) -> Option<String> {
    let (_, raw) = uri.split_once('#')?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = raw.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn remove_dots(path: &str) -> String {
    if !path.contains('.') {
        return path.to_string();
    }
    let input: Vec<&str> = path.split('/').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, segment) in input.iter().enumerate() {
        let last = i == input.len() - 1;
        match *segment {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 || (out.len() == 1 && !out[0].is_empty()) {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            other => out.push(other),
        }
    }
    out.join("/")
}
