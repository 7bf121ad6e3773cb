//! The noSecrets rule: display text is refused when the Agent Connector host's secret filter
//! (Meldwork's redactSecrets, which defines what the SDK accepts) would redact any part of it.
//! The same scan as the TypeScript runtime's secret-text.ts and the Kotlin runtime's
//! SecretText.kt: one forward pass per shape with precomputed run ends, no backtracking regex, so
//! the cost is linear in the text length. Text is read as UTF-16 code units, as the filter's
//! JavaScript patterns read it. Held to spec/agent-connector/vectors/secret-text.json.

/// Longer text is refused outright; SafeText fields are far shorter (maxLength 1000).
pub const MAX_UNITS: usize = 65536;

pub fn contains_secret(text: &str) -> bool {
    find_secret(text).is_some()
}

/// The secret shape found first (in the filter's order), or None when the text is clean.
pub fn find_secret(text: &str) -> Option<&'static str> {
    let units: Vec<u16> = text.encode_utf16().collect();
    if units.len() > MAX_UNITS {
        return Some("too-long");
    }
    let s = Scan { text: &units, n: units.len() };
    let shapes: [(&str, &dyn Fn() -> bool); 9] = [
        ("private-key", &|| s.private_key_block()),
        ("bearer", &|| s.bearer()),
        ("basic", &|| s.basic_credential()),
        ("api-key-prefix", &|| s.key_prefix()),
        ("aws-access-key", &|| s.aws_key()),
        ("google-api-key", &|| s.google_key()),
        ("jose", &|| s.jose()),
        ("url-credentials", &|| s.url_credentials()),
        ("assignment", &|| s.assignment()),
    ];
    shapes.iter().find(|(_, found)| found()).map(|(shape, _)| *shape)
}

/// ECMAScript's \s (WhiteSpace and LineTerminator); -1 (outside the text) is none.
fn is_js_space(c: i32) -> bool {
    matches!(c, 0x09..=0x0d | 0x20 | 0xa0 | 0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f | 0x3000 | 0xfeff)
}
fn is_digit(c: i32) -> bool {
    (0x30..=0x39).contains(&c)
}
fn is_upper(c: i32) -> bool {
    (0x41..=0x5a).contains(&c)
}
fn is_lower(c: i32) -> bool {
    (0x61..=0x7a).contains(&c)
}
fn is_alpha(c: i32) -> bool {
    is_upper(c) || is_lower(c)
}
fn is_alnum(c: i32) -> bool {
    is_alpha(c) || is_digit(c)
}
fn is_word(c: i32) -> bool {
    is_alnum(c) || c == 0x5f
}
fn is_key_char(c: i32) -> bool {
    is_word(c) || c == 0x2d
}
fn is_name_char(c: i32) -> bool {
    is_key_char(c) || c == 0x2e
}
fn is_base64_char(c: i32) -> bool {
    is_alnum(c) || c == 0x2b || c == 0x2f
}
fn is_bearer_char(c: i32) -> bool {
    is_alnum(c) || matches!(c, 0x2e | 0x5f | 0x7e | 0x2b | 0x2f | 0x3d | 0x2d)
}
fn is_scheme_char(c: i32) -> bool {
    is_alnum(c) || c == 0x2b || c == 0x2e || c == 0x2d
}
fn lower_ascii(c: i32) -> i32 {
    if is_upper(c) {
        c + 0x20
    } else {
        c
    }
}

/// The sensitive key names of the key=value shape: parts joined by an optional '_', '-' or space,
/// and parts that may follow (`access key id`).
const KEY_NAMES: &[(&[&str], &[&str])] = &[
    (&["api", "key"], &[]),
    (&["access", "key"], &["id"]),
    (&["secret", "access", "key"], &[]),
    (&["access", "token"], &[]),
    (&["refresh", "token"], &[]),
    (&["auth", "token"], &[]),
    (&["database", "url"], &[]),
    (&["connection", "string"], &[]),
    (&["dsn"], &[]),
    (&["token"], &[]),
    (&["secret"], &[]),
    (&["password"], &[]),
    (&["credential"], &[]),
    (&["authorization"], &[]),
    (&["private", "key"], &[]),
    (&["session", "ref"], &[]),
];
const KEY_PREFIXES: &[&str] = &["sk", "rk", "pk", "ghp", "github_pat", "xoxb", "xoxa", "xoxp", "xoxr", "xoxs", "xox"];
const IDENTITY_ASSIGNMENT: &str = "credential=[redacted]";

struct Scan<'t> {
    text: &'t [u16],
    n: usize,
}

impl Scan<'_> {
    /// The code unit at `i`, -1 outside the text.
    fn at(&self, i: isize) -> i32 {
        if i >= 0 && (i as usize) < self.n {
            i32::from(self.text[i as usize])
        } else {
            -1
        }
    }

    fn c(&self, i: usize) -> i32 {
        i32::from(self.text[i])
    }

    /// `word` (lower-case ASCII) at `i`, ASCII case-insensitively.
    fn lit(&self, i: isize, word: &str) -> bool {
        if i < 0 || i as usize + word.len() > self.n {
            return false;
        }
        word.bytes().enumerate().all(|(k, b)| lower_ascii(self.c(i as usize + k)) == i32::from(b))
    }

    fn exact(&self, i: usize, word: &str) -> bool {
        i + word.len() <= self.n && word.bytes().enumerate().all(|(k, b)| self.text[i + k] == u16::from(b))
    }

    fn index_of(&self, word: &str, from: usize) -> Option<usize> {
        (from..self.n).find(|&i| self.exact(i, word))
    }

    fn run_end(&self, start: usize, in_class: impl Fn(i32) -> bool) -> usize {
        let mut i = start;
        while i < self.n && in_class(self.c(i)) {
            i += 1;
        }
        i
    }

    fn word_start(&self, i: usize) -> bool {
        i == 0 || !is_word(self.c(i - 1))
    }

    fn pem_header(&self, i: usize, open: &str) -> Option<usize> {
        if !self.lit(i as isize, open) {
            return None;
        }
        let run_start = i + open.len();
        let end = self.run_end(run_start, |c| is_alnum(c) || c == 0x20);
        let label = "private key";
        if end - run_start < label.len() || !self.lit((end - label.len()) as isize, label) || !self.exact(end, "-----") {
            return None;
        }
        Some(end + 5)
    }

    fn private_key_block(&self) -> bool {
        let (mut first_begin_end, mut last_end_start) = (None, None);
        let mut next = self.index_of("-----", 0);
        while let Some(i) = next {
            if let Some(b) = self.pem_header(i, "-----begin ") {
                first_begin_end.get_or_insert(b);
            }
            if self.pem_header(i, "-----end ").is_some() {
                last_end_start = Some(i);
            }
            next = self.index_of("-----", i + 1);
        }
        matches!((first_begin_end, last_end_start), (Some(b), Some(e)) if e >= b)
    }

    fn bearer(&self) -> bool {
        for i in 0..self.n {
            if !self.word_start(i) || !self.lit(i as isize, "bearer") {
                continue;
            }
            let mut j = i as isize + 6;
            if !is_js_space(self.at(j)) {
                continue;
            }
            while is_js_space(self.at(j)) {
                j += 1;
            }
            if is_bearer_char(self.at(j)) {
                return true;
            }
        }
        false
    }

    fn basic_credential(&self) -> bool {
        let mut i = 0;
        while i < self.n {
            let after = self.at(i as isize + 5);
            if self.word_start(i) && self.lit(i as isize, "basic") && (after == 0x20 || after == 0x09) {
                let mut j = i + 5;
                while matches!(self.at(j as isize), 0x20 | 0x09) {
                    j += 1;
                }
                let end = self.run_end(j, is_base64_char);
                let mut pad = end;
                while self.at(pad as isize) == 0x3d {
                    pad += 1;
                }
                if end > j && pad - end <= 2 && !is_base64_char(self.at(pad as isize)) {
                    let candidate = String::from_utf16_lossy(&self.text[j..end]);
                    if decode_canonical_base64(&candidate, false).is_some_and(|bytes| bytes.contains(&b':')) {
                        return true;
                    }
                    i = pad; // the filter's global scan resumes after a candidate it leaves unchanged
                    continue;
                }
            }
            i += 1;
        }
        false
    }

    fn key_prefix(&self) -> bool {
        let mut last_boundary: Vec<isize> = vec![-1; self.n + 1];
        let mut s = 0;
        while s < self.n {
            if !is_key_char(self.c(s)) {
                s += 1;
                continue;
            }
            let e = self.run_end(s, is_key_char);
            let mut best: isize = if is_word(self.c(e - 1)) { e as isize } else { -1 };
            let mut j = e - 1;
            while best < 0 && j > s {
                if is_word(self.c(j - 1)) != is_word(self.c(j)) {
                    best = j as isize;
                }
                j -= 1;
            }
            for slot in &mut last_boundary[s..e] {
                *slot = best;
            }
            s = e;
        }
        for i in 0..self.n {
            if !self.word_start(i) || !is_alpha(self.c(i)) {
                continue;
            }
            for prefix in KEY_PREFIXES {
                if !self.lit(i as isize, prefix) {
                    continue;
                }
                let sep = i + prefix.len();
                if self.at(sep as isize) != 0x5f && self.at(sep as isize) != 0x2d {
                    continue;
                }
                if last_boundary[sep] >= sep as isize + 13 {
                    return true;
                }
            }
        }
        false
    }

    fn aws_key(&self) -> bool {
        let mut next = self.index_of("AKIA", 0);
        while let Some(i) = next {
            if self.word_start(i) {
                let mut k = 0;
                while k < 16 && (is_upper(self.at((i + 4 + k) as isize)) || is_digit(self.at((i + 4 + k) as isize))) {
                    k += 1;
                }
                if k == 16 && !is_word(self.at((i + 20) as isize)) {
                    return true;
                }
            }
            next = self.index_of("AKIA", i + 1);
        }
        false
    }

    fn google_key(&self) -> bool {
        let mut next = self.index_of("AIza", 0);
        while let Some(i) = next {
            if !is_key_char(self.at(i as isize - 1)) && self.run_end(i, is_key_char) - i == 39 {
                return true;
            }
            next = self.index_of("AIza", i + 1);
        }
        false
    }

    fn jose(&self) -> bool {
        let mut i = 0;
        while i < self.n {
            if !is_key_char(self.c(i)) || is_key_char(self.at(i as isize - 1)) {
                i += 1;
                continue;
            }
            let mut runs: Vec<(usize, usize)> = Vec::new();
            let mut s = i;
            loop {
                let e = self.run_end(s, is_key_char);
                runs.push((s, e));
                if self.at(e as isize) == 0x2e && is_key_char(self.at(e as isize + 1)) {
                    s = e + 1;
                } else {
                    break;
                }
            }
            let mut k = 0;
            while k < runs.len() {
                let left = runs.len() - k;
                let take = if left >= 5 {
                    5
                } else if left >= 3 {
                    3
                } else {
                    0
                };
                if take == 0 {
                    k += 1;
                    continue;
                }
                let (start, end) = runs[k];
                if has_jose_header(&String::from_utf16_lossy(&self.text[start..end])) {
                    return true;
                }
                k += take;
            }
            i = runs.last().map_or(i + 1, |(_, e)| *e);
        }
        false
    }

    fn url_credentials(&self) -> bool {
        let mut next = self.index_of("://", 0);
        while let Some(i) = next {
            let mut has_letter = false;
            let mut p = i as isize - 1;
            while p >= 0 && is_scheme_char(self.c(p as usize)) {
                if is_alpha(self.c(p as usize)) {
                    has_letter = true;
                }
                p -= 1;
            }
            if has_letter {
                let user_end = self.run_end(i + 3, |c| !is_js_space(c) && c != 0x2f && c != 0x40 && c != 0x3a);
                if user_end > i + 3 && self.at(user_end as isize) == 0x3a {
                    let pass_end = self.run_end(user_end + 1, |c| !is_js_space(c) && c != 0x2f && c != 0x40);
                    if pass_end > user_end + 1 && self.at(pass_end as isize) == 0x40 {
                        return true;
                    }
                }
            }
            next = self.index_of("://", i + 1);
        }
        false
    }

    /// After a key name ending at `e` (and its closing quote, if any): `\s*[:=]\s*` and a value.
    fn assigned_at(&self, e: usize, cache: &mut [i8]) -> bool {
        if cache[e] != 0 {
            return cache[e] == 1;
        }
        let mut j = e as isize;
        while is_js_space(self.at(j)) {
            j += 1;
        }
        let mut ok = false;
        if self.at(j) == 0x3a || self.at(j) == 0x3d {
            j += 1;
            while is_js_space(self.at(j)) {
                j += 1;
            }
            let v = self.at(j);
            ok = v >= 0 && v != 0x2c && v != 0x3b && v != 0x7d && v != 0x5d;
        }
        cache[e] = if ok { 1 } else { -1 };
        ok
    }

    fn key_ends(&self, i: usize) -> Vec<usize> {
        let mut ends = Vec::new();
        for (parts, tail) in KEY_NAMES {
            let mut positions = vec![i];
            for (p, part) in parts.iter().enumerate() {
                positions = self.join_part(&positions, part, p > 0);
            }
            ends.extend(&positions);
            if !tail.is_empty() {
                let mut tails = positions;
                for part in *tail {
                    tails = self.join_part(&tails, part, true);
                }
                ends.extend(tails);
            }
        }
        ends
    }

    fn join_part(&self, from: &[usize], part: &str, separated: bool) -> Vec<usize> {
        let mut out = Vec::new();
        for &p in from {
            if self.lit(p as isize, part) {
                out.push(p + part.len());
            }
            let s = self.at(p as isize);
            if separated && (s == 0x5f || s == 0x2d || s == 0x20) && self.lit(p as isize + 1, part) {
                out.push(p + 1 + part.len());
            }
        }
        out
    }

    fn assignment(&self) -> bool {
        let n = self.n;
        let quotes = [-1, 0x22, 0x27];
        let mut any = vec![vec![false; n + 1]; 3];
        let mut name_end = vec![0usize; n + 1];
        name_end[n] = n;
        for k in (0..n).rev() {
            name_end[k] = if is_name_char(self.c(k)) { name_end[k + 1] } else { k };
        }
        let mut cache = vec![0i8; n + 2];
        for k in (0..n).rev() {
            if !is_name_char(self.c(k)) {
                continue;
            }
            let ends = if is_alpha(self.c(k)) { self.key_ends(k) } else { Vec::new() };
            for mode in 0..3 {
                let mut hit = any[mode][k + 1];
                for &end in &ends {
                    if hit {
                        break;
                    }
                    let e = name_end[end];
                    if if mode == 0 { self.assigned_at(e, &mut cache) } else { self.at(e as isize) == quotes[mode] && self.assigned_at(e + 1, &mut cache) } {
                        hit = true;
                    }
                }
                any[mode][k] = hit;
            }
        }
        let mut q = 0;
        while q < n {
            let c = self.c(q);
            let matches = any[0][q] || (c == 0x22 && any[1][q + 1]) || (c == 0x27 && any[2][q + 1]);
            if !matches {
                q += 1;
                continue;
            }
            // The filter's own replacement text is the one match it leaves unchanged.
            if !self.exact(q, IDENTITY_ASSIGNMENT) {
                return true;
            }
            q += IDENTITY_ASSIGNMENT.len();
        }
        false
    }
}

fn sextet(c: u8, url: bool) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'-' if url => Some(62),
        b'_' if url => Some(63),
        b'+' if !url => Some(62),
        b'/' if !url => Some(63),
        _ => None,
    }
}

/// Canonical unpadded base64 (or base64url) decoding, as the filter accepts it; None otherwise.
pub fn decode_canonical_base64(text: &str, url: bool) -> Option<Vec<u8>> {
    if text.is_empty() || text.len() % 4 == 1 || text.len() > MAX_UNITS {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        acc = ((acc << 6) | sextet(c, url)?) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    if acc & ((1 << bits) - 1) != 0 || out.is_empty() {
        return None;
    }
    Some(out)
}

/// A JOSE header: base64url of a JSON object whose `alg` or `enc` is a string with a non-space
/// character. Read as JSON.parse reads it (a later duplicate member wins); malformed UTF-8
/// becomes U+FFFD, as Node's Buffer#toString does.
fn has_jose_header(segment: &str) -> bool {
    let Some(bytes) = decode_canonical_base64(segment, true) else { return false };
    let Ok(serde_json::Value::Object(members)) = serde_json::from_str::<serde_json::Value>(&String::from_utf8_lossy(&bytes)) else { return false };
    ["alg", "enc"].iter().any(|name| members.get(*name).and_then(|v| v.as_str()).is_some_and(|text| text.encode_utf16().any(|c| !is_js_space(i32::from(c)))))
}
