//! A message's x-rules: cross-field rules JSON Schema cannot state (spec/README.md). A rule applies
//! only when the pointers it names hold non-null values; a broken one is reported at its first
//! pointer (or the array item it names) with keyword `x-rule`. The same semantics as the
//! TypeScript runtime's rules.ts and the Kotlin runtime's CrossFieldRules.kt, held to the same
//! verdicts by the shared cases (property-tests/drivers).

use crate::runtime::first_error::json_equals;
use crate::runtime::secret_text::contains_secret;
use crate::runtime::validation::SchemaError;
use serde::Deserialize;
use serde_json::Value;
use std::cmp::Ordering;

/// One rule as the spec declares it (`x-rules` entries; the generator writes them into crate::schemas).
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Rule {
    Equal { id: String, message: String, left: String, right: String },
    UrlOriginIn { id: String, message: String, url: String, list: String },
    SemverLte { id: String, message: String, lower: String, upper: String },
    SemverRangeIncludes { id: String, message: String, min: String, max: String, version: String },
    UniqueBy { id: String, message: String, array: String, key: String },
    LastItemEquals { id: String, message: String, array: String, key: String, value: String },
    NoSecrets { id: String, message: String, text: String },
    WhatwgUrl { id: String, message: String, url: String, form: UrlForm },
}

/// The whatwgUrl rule's forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UrlForm {
    /// The text is exactly a serialized https origin.
    Origin,
    /// An https URL without user info, query or fragment (an empty `?` or `#` is none).
    Endpoint,
}

impl Rule {
    fn id_and_message(&self) -> (&str, &str) {
        match self {
            Self::Equal { id, message, .. }
            | Self::UrlOriginIn { id, message, .. }
            | Self::SemverLte { id, message, .. }
            | Self::SemverRangeIncludes { id, message, .. }
            | Self::UniqueBy { id, message, .. }
            | Self::LastItemEquals { id, message, .. }
            | Self::NoSecrets { id, message, .. }
            | Self::WhatwgUrl { id, message, .. } => (id, message),
        }
    }

    /// The pointer to report when the rule is broken in `value`; None when it holds or does not apply.
    pub fn broken_at(&self, value: &Value) -> Option<String> {
        match self {
            Self::Equal { left, right, .. } => {
                let l = at(value, left)?;
                at(value, right).map_or(true, |r| !json_equals(l, r)).then(|| left.clone())
            }
            Self::UrlOriginIn { url, list, .. } => {
                let text = at(value, url)?.as_str()?;
                let items = at(value, list)?.as_array()?;
                let allowed = origin_of(text).is_some_and(|origin| items.iter().any(|item| item.as_str() == Some(origin.as_str())));
                (!allowed).then(|| url.clone())
            }
            Self::SemverLte { lower, upper, .. } => {
                let (low, high) = (at(value, lower)?.as_str()?, at(value, upper)?.as_str()?);
                compare_semver(low, high).map_or(true, |order| order == Ordering::Greater).then(|| lower.clone())
            }
            Self::SemverRangeIncludes { min, max, version, .. } => {
                let (low, high) = (at(value, min)?.as_str()?, at(value, max)?.as_str()?);
                let inside = matches!((compare_semver(low, version), compare_semver(version, high)), (Some(a), Some(b)) if a != Ordering::Greater && b != Ordering::Greater);
                (!inside).then(|| min.clone())
            }
            Self::UniqueBy { array, key, .. } => {
                let items = at(value, array)?.as_array()?;
                let mut seen: Vec<&Value> = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let Some(k) = item.as_object().and_then(|o| o.get(key)).filter(|k| !k.is_null()) else { continue };
                    if seen.iter().any(|s| json_equals(s, k)) {
                        return Some(format!("{array}/{i}/{key}"));
                    }
                    seen.push(k);
                }
                None
            }
            Self::LastItemEquals { array, key, value: expected, .. } => {
                let items = at(value, array)?.as_array()?;
                let last = items.last()?;
                let holds = last.get(key).and_then(Value::as_str) == Some(expected.as_str());
                (!holds).then(|| format!("{array}/{}/{key}", items.len() - 1))
            }
            Self::NoSecrets { text, .. } => first_failing(at(value, text)?, |t| !contains_secret(t)).map(|suffix| format!("{text}{suffix}")),
            Self::WhatwgUrl { url, form, .. } => first_failing(at(value, url)?, |text| https_url(text, *form)).map(|suffix| format!("{url}{suffix}")),
        }
    }

    /// The error a broken rule gives at `pointer`.
    pub fn error(&self, pointer: String) -> SchemaError {
        let (id, message) = self.id_and_message();
        let place = if pointer.is_empty() { "(root)" } else { pointer.as_str() };
        SchemaError { message: format!("{place} {message}"), instance_path: pointer, keyword: "x-rule".into(), rule: Some(id.to_string()) }
    }
}

/// Every broken rule of `value`, in declaration order.
pub fn check(value: &Value, rules: &[Rule]) -> Vec<SchemaError> {
    rules.iter().filter_map(|rule| rule.broken_at(value).map(|at| rule.error(at))).collect()
}

/// Reads a message's rules (the JSON array of its `x-rules`).
pub fn parse_rules(text: &str) -> Result<Vec<Rule>, String> {
    serde_json::from_str(text).map_err(|e| format!("x-rules: {e}"))
}

/// Resolves a JSON pointer; absent and null both give None, so the rule does not apply. An array
/// is stepped into by a canonical index only (RFC 6901).
fn at<'v>(value: &'v Value, pointer: &str) -> Option<&'v Value> {
    let mut current = value;
    if !pointer.is_empty() {
        for raw in pointer.strip_prefix('/')?.split('/') {
            let token = raw.replace("~1", "/").replace("~0", "~");
            current = match current {
                Value::Object(members) => members.get(&token)?,
                Value::Array(items) if token == "0" || (!token.starts_with('0') && token.len() <= 9 && token.bytes().all(|b| b.is_ascii_digit())) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
    }
    (!current.is_null()).then_some(current)
}

/// A string (or each string item of an array) must pass `ok`: "" for the value itself, `/<i>` for
/// the first failing item; None when it holds.
fn first_failing(target: &Value, ok: impl Fn(&str) -> bool) -> Option<String> {
    if let Some(text) = target.as_str() {
        return (!ok(text)).then(String::new);
    }
    let items = target.as_array()?;
    items.iter().enumerate().find(|(_, item)| item.as_str().is_some_and(|text| !ok(text))).map(|(i, _)| format!("/{i}"))
}

/// Longer text is refused before parsing; the spec's URL fields allow 2048 characters.
pub const HTTPS_URL_MAX_UNITS: usize = 8192;

/// The whatwgUrl check: the WHATWG URL parser's reading (the `url` crate) is https without user
/// info, and either exactly its serialized origin or without query and fragment.
pub fn https_url(text: &str, form: UrlForm) -> bool {
    if text.encode_utf16().count() > HTTPS_URL_MAX_UNITS {
        return false;
    }
    let Ok(url) = url::Url::parse(text) else { return false };
    if url.scheme() != "https" || !url.username().is_empty() || url.password().is_some() {
        return false;
    }
    match form {
        UrlForm::Endpoint => url.query().map_or(true, str::is_empty) && url.fragment().map_or(true, str::is_empty),
        UrlForm::Origin => url.origin().ascii_serialization() == text,
    }
}

/// The WHATWG origin of a URL; None when the parser fails or the origin is opaque.
pub fn origin_of(text: &str) -> Option<String> {
    let url = url::Url::parse(text).ok()?;
    let origin = url.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// SemVer 2.0 precedence with arbitrary-size numbers; None when either is not SemVer.
pub fn compare_semver(a: &str, b: &str) -> Option<Ordering> {
    let (x, y) = (Semver::parse(a)?, Semver::parse(b)?);
    for (p, q) in x.core.iter().zip(&y.core) {
        let order = compare_numeric(p, q);
        if order != Ordering::Equal {
            return Some(order);
        }
    }
    match (&x.pre, &y.pre) {
        (None, None) => Some(Ordering::Equal),
        (None, Some(_)) => Some(Ordering::Greater),
        (Some(_), None) => Some(Ordering::Less),
        (Some(p), Some(q)) => {
            for (i, j) in p.iter().zip(q) {
                let numeric = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
                let order = match (numeric(i), numeric(j)) {
                    (true, true) => compare_numeric(i, j),
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    (false, false) => i.cmp(j),
                };
                if order != Ordering::Equal {
                    return Some(order);
                }
            }
            Some(p.len().cmp(&q.len()))
        }
    }
}

fn compare_numeric(a: &str, b: &str) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

struct Semver<'s> {
    core: [&'s str; 3],
    pre: Option<Vec<&'s str>>,
}

impl<'s> Semver<'s> {
    /// SemVer 2.0.0: numbers without leading zeros, dot-separated pre-release identifiers
    /// (numeric ones without leading zeros), build metadata ignored for precedence.
    fn parse(text: &'s str) -> Option<Self> {
        let (rest, build) = match text.split_once('+') {
            Some((rest, build)) => (rest, Some(build)),
            None => (text, None),
        };
        if let Some(build) = build {
            if !build.split('.').all(|id| !id.is_empty() && id.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')) {
                return None;
            }
        }
        let (core, pre) = match rest.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (rest, None),
        };
        let numbers: Vec<&str> = core.split('.').collect();
        let number = |n: &str| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) && (n == "0" || !n.starts_with('0'));
        if numbers.len() != 3 || !numbers.iter().all(|n| number(n)) {
            return None;
        }
        let pre = match pre {
            None => None,
            Some(pre) => {
                let ids: Vec<&str> = pre.split('.').collect();
                let valid = |id: &str| {
                    !id.is_empty() && id.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') && (!id.bytes().all(|c| c.is_ascii_digit()) || number(id))
                };
                if !ids.iter().all(|id| valid(id)) {
                    return None;
                }
                Some(ids)
            }
        };
        Some(Self { core: [numbers[0], numbers[1], numbers[2]], pre })
    }
}
