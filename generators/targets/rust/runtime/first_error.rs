//! The first error in the reference order: the error ajv reports first (allErrors: false,
//! discriminator: true), which the spec's invalid examples declare and the TypeScript, Kotlin and
//! Swift runtimes report. The `jsonschema` crate decides whether an instance is valid
//! (runtime::validation); it lists its errors in its own order and knows no `discriminator`, so
//! this walk, the Kotlin runtime's JsonSchemaValidator evaluation order, names the first one:
//!
//! - keywords run in ajv's order: a type check first unless one type group below owns it; then the
//!   untyped keywords ($ref, const, enum, not, anyOf, oneOf, allOf, if), then the number, string,
//!   array and object groups, each in [`GROUPS`] order; the first failure ends the check;
//! - a failed anyOf or oneOf reports its first branch's first error, as ajv lists those first;
//! - a `discriminator` picks the branch by its tag; a missing tag is reported at the object, an
//!   unknown one at the tag.
//!
//! `pattern`, `format` and `multipleOf` are asked of the crate (one small compiled schema per
//! keyword value, kept), so their verdicts are the crate's.

use crate::runtime::schema_uri;
use crate::runtime::validation::SchemaError;
use jsonschema::Validator;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// ajv's rule groups and keyword order (Ajv2020 with the discriminator option: `ajv.RULES.rules`).
const GROUPS: &[(Option<&str>, &[&str])] = &[
    (None, &["$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else"]),
    // ajv lists `format` in the number group too, but every format is a string format, which ajv
    // skips for numbers: a number in a string+format field is a type error.
    (Some("number"), &["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]),
    (Some("string"), &["maxLength", "minLength", "pattern", "format"]),
    (Some("array"), &["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems", "unevaluatedItems"]),
    (
        Some("object"),
        &["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "properties", "patternProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "discriminator"],
    ),
];

const SINGLE_SUBSCHEMA: &[&str] = &["not", "if", "then", "else", "items", "contains", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contentSchema"];
const SUBSCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAPS: &[&str] = &["$defs", "properties", "patternProperties", "dependentSchemas"];

fn applies(keywords: &[&str], schema: &Map<String, Value>) -> bool {
    keywords.iter().any(|k| schema.contains_key(*k))
}

/// Where a schema lives: the document's key, a JSON pointer into it, and the base URI in force
/// around it (its own `$id`, if any, is resolved against that when it is checked).
type Location = (String, String, String);

/// The documents with every schema resource (`$id`) and anchor indexed, and the crate's compiled
/// one-keyword schemas for `pattern`, `format` and `multipleOf`.
pub struct ReferenceOrder {
    documents: Arc<HashMap<String, Value>>,
    resources: HashMap<String, Location>,
    anchors: HashMap<String, Location>,
    leaves: Mutex<HashMap<String, Arc<Validator>>>,
}

impl ReferenceOrder {
    pub fn new(documents: Arc<HashMap<String, Value>>) -> Self {
        let mut order = Self { documents: documents.clone(), resources: HashMap::new(), anchors: HashMap::new(), leaves: Mutex::new(HashMap::new()) };
        let mut keys: Vec<&String> = documents.keys().collect();
        keys.sort();
        for key in keys {
            order.resources.entry(key.clone()).or_insert_with(|| (key.clone(), String::new(), key.clone()));
            order.index(key, &documents[key], key, String::new());
        }
        order
    }

    fn index(&mut self, document: &str, schema: &Value, outer: &str, pointer: String) {
        let Value::Object(schema) = schema else { return };
        let mut base = outer.to_string();
        if let Some(Value::String(id)) = schema.get("$id") {
            base = schema_uri::without_fragment(&schema_uri::resolve(outer, id)).to_string();
            self.resources.entry(base.clone()).or_insert_with(|| (document.to_string(), pointer.clone(), outer.to_string()));
        }
        if let Some(Value::String(anchor)) = schema.get("$anchor") {
            self.anchors.entry(format!("{base}#{anchor}")).or_insert_with(|| (document.to_string(), pointer.clone(), outer.to_string()));
        }
        for (keyword, value) in schema {
            let token = escape_token(keyword);
            if SINGLE_SUBSCHEMA.contains(&keyword.as_str()) {
                self.index(document, value, &base, format!("{pointer}/{token}"));
            } else if SUBSCHEMA_ARRAYS.contains(&keyword.as_str()) {
                for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                    self.index(document, sub, &base, format!("{pointer}/{token}/{i}"));
                }
            } else if SUBSCHEMA_MAPS.contains(&keyword.as_str()) {
                for (name, sub) in value.as_object().into_iter().flatten() {
                    self.index(document, sub, &base, format!("{pointer}/{token}/{}", escape_token(name)));
                }
            }
        }
    }

    /// The first error of `instance` against the document `id` in the reference order; None when
    /// this walk finds none (the instance is valid, or `id` is not registered).
    pub fn first_error(&self, id: &str, instance: &Value) -> Option<SchemaError> {
        let schema = self.documents.get(id)?;
        Evaluation { order: self, following: Vec::new() }.check(schema, id, instance, "", false, None)
    }

    fn at(&self, location: &Location) -> Option<&Value> {
        self.documents.get(&location.0)?.pointer(&location.1)
    }

    /// The schema `reference` names from `base`, with the base URI in force around it.
    fn lookup(&self, base: &str, reference: &str) -> Option<(&Value, String)> {
        let uri = schema_uri::resolve(base, reference);
        let document = schema_uri::without_fragment(&uri).to_string();
        let resource = self.resources.get(&document)?;
        match schema_uri::fragment(&uri) {
            Some(fragment) if fragment.starts_with('/') => Some((self.at(resource)?.pointer(&fragment)?, document)),
            Some(anchor) if !anchor.is_empty() => {
                let location = self.anchors.get(&format!("{document}#{anchor}"))?;
                Some((self.at(location)?, location.2.clone()))
            }
            _ => Some((self.at(resource)?, resource.2.clone())),
        }
    }

    /// The crate's verdict on one keyword (`pattern`, `format`, `multipleOf`) with `value`.
    fn leaf_holds(&self, keyword: &str, value: &Value, data: &Value) -> bool {
        let key = format!("{keyword}\u{0}{value}");
        let validator = {
            let mut leaves = self.leaves.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            match leaves.get(&key) {
                Some(validator) => validator.clone(),
                None => {
                    let mut schema = Map::new();
                    schema.insert(keyword.to_string(), value.clone());
                    match jsonschema::draft202012::options().should_validate_formats(true).build(&Value::Object(schema)) {
                        Ok(validator) => {
                            let validator = Arc::new(validator);
                            leaves.insert(key, validator.clone());
                            validator
                        }
                        // The whole document compiled (SchemaRegistry::new), so its keywords do too.
                        Err(_) => return false,
                    }
                }
            }
        };
        validator.is_valid(data)
    }
}

/// What the keywords at one instance location evaluated: the input of unevaluatedProperties/Items.
#[derive(Default)]
struct Evaluated {
    properties: HashSet<String>,
    all_properties: bool,
    items: HashSet<usize>,
    all_items: bool,
}

impl Evaluated {
    fn add(&mut self, other: &Evaluated) {
        self.properties.extend(other.properties.iter().cloned());
        self.all_properties |= other.all_properties;
        self.items.extend(other.items.iter().copied());
        self.all_items |= other.all_items;
    }
}

fn error(path: &str, keyword: &str, message: &str) -> SchemaError {
    let place = if path.is_empty() { "(root)" } else { path };
    SchemaError { instance_path: path.to_string(), keyword: keyword.to_string(), message: format!("{place} {message}"), rule: None }
}

fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn has_type(data: &Value, kind: &str) -> bool {
    match kind {
        "null" => data.is_null(),
        "object" => data.is_object(),
        "array" => data.is_array(),
        "string" => data.is_string(),
        "boolean" => data.is_boolean(),
        "number" => data.is_number(),
        "integer" => data.is_i64() || data.is_u64() || data.as_f64().is_some_and(|n| n.is_finite() && n.fract() == 0.0),
        _ => false,
    }
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or(f64::NAN)
}

/// JSON equality: numbers by value (`1` equals `1.0`), objects regardless of member order.
pub fn json_equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equals(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_equals(v, w))),
        _ => a == b,
    }
}

/// One validation walk: the references being followed (a cycle that makes no progress is an
/// error, not a stack overflow).
struct Evaluation<'a> {
    order: &'a ReferenceOrder,
    following: Vec<(*const Value, String)>,
}

/// One schema object at one instance location.
struct Cx<'s> {
    schema: &'s Map<String, Value>,
    base: &'s str,
    data: &'s Value,
    path: &'s str,
    composite: bool,
}

impl<'a> Evaluation<'a> {
    /// `composite` is true inside anyOf/oneOf/not/if/contains, where ajv collects errors.
    /// `seen` collects what this schema evaluates here when an enclosing schema has unevaluated*.
    fn check(&mut self, schema: &Value, base: &str, data: &Value, path: &str, composite: bool, seen: Option<&mut Evaluated>) -> Option<SchemaError> {
        let Value::Object(object) = schema else {
            return if schema == &Value::Bool(true) { None } else { Some(error(path, "false schema", "boolean schema is false")) };
        };
        let base = match object.get("$id") {
            Some(Value::String(id)) => schema_uri::without_fragment(&schema_uri::resolve(base, id)).to_string(),
            _ => base.to_string(),
        };
        let cx = Cx { schema: object, base: &base, data, path, composite };
        if object.contains_key("unevaluatedProperties") || object.contains_key("unevaluatedItems") {
            let mut own = Evaluated::default();
            let found = self.keywords(&cx, &mut Some(&mut own));
            if found.is_none() {
                if let Some(seen) = seen {
                    seen.add(&own);
                }
            }
            found
        } else {
            let mut seen = seen;
            self.keywords(&cx, &mut seen)
        }
    }

    fn keywords(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let types: Vec<&str> = match cx.schema.get("type") {
            None => Vec::new(),
            Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
            Some(one) => one.as_str().into_iter().collect(),
        };
        let group_owns_type = types.len() == 1 && GROUPS.iter().any(|(kind, keywords)| *kind == Some(types[0]) && applies(keywords, cx.schema));
        if !types.is_empty() && !group_owns_type && !types.iter().any(|t| has_type(cx.data, t)) {
            return Some(type_error(cx.path, &types));
        }
        for (kind, keywords) in GROUPS {
            if !applies(keywords, cx.schema) {
                continue;
            }
            match kind {
                Some(kind) if !has_type(cx.data, kind) => {
                    if group_owns_type && types[0] == *kind {
                        return Some(type_error(cx.path, &types));
                    }
                }
                _ => {
                    for keyword in *keywords {
                        if cx.schema.contains_key(*keyword) {
                            if let Some(found) = self.keyword(cx, keyword, seen) {
                                return Some(found);
                            }
                        }
                    }
                }
            }
        }
        None
    }

    fn sub(&mut self, cx: &Cx, schema: &Value, data: &Value, path: &str, composite: bool, seen: Option<&mut Evaluated>) -> Option<SchemaError> {
        self.check(schema, cx.base, data, path, composite, seen)
    }

    fn keyword(&mut self, cx: &Cx, keyword: &str, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let value = &cx.schema[keyword];
        let (data, path) = (cx.data, cx.path);
        let fail = |message: String| Some(error(path, keyword, &message));
        match keyword {
            "$ref" => self.follow(cx, value.as_str().unwrap_or_default(), seen),
            "const" => if json_equals(data, value) { None } else { fail("must be equal to constant".into()) },
            "enum" => if value.as_array().is_some_and(|list| list.iter().any(|v| json_equals(data, v))) { None } else { fail("must be equal to one of the allowed values".into()) },
            "not" => if self.sub(cx, value, data, path, true, None).is_none() { fail("must NOT be valid".into()) } else { None },
            "anyOf" => self.any_of(cx, seen),
            "oneOf" => if cx.schema.contains_key("discriminator") { None } else { self.one_of(cx, seen) },
            "allOf" => {
                for branch in value.as_array().into_iter().flatten() {
                    if let Some(found) = self.sub(cx, branch, data, path, cx.composite, seen.as_deref_mut()) {
                        return Some(found);
                    }
                }
                None
            }
            "if" => self.if_then_else(cx, seen),
            "maximum" => if number(data) <= number(value) { None } else { fail(format!("must be <= {value}")) },
            "minimum" => if number(data) >= number(value) { None } else { fail(format!("must be >= {value}")) },
            "exclusiveMaximum" => if number(data) < number(value) { None } else { fail(format!("must be < {value}")) },
            "exclusiveMinimum" => if number(data) > number(value) { None } else { fail(format!("must be > {value}")) },
            "multipleOf" => if self.order.leaf_holds(keyword, value, data) { None } else { fail(format!("must be multiple of {value}")) },
            "maxLength" => limit(cx, keyword, data.as_str().unwrap_or_default().chars().count(), true, "characters"),
            "minLength" => limit(cx, keyword, data.as_str().unwrap_or_default().chars().count(), false, "characters"),
            "pattern" => if self.order.leaf_holds(keyword, value, data) { None } else { fail("must match pattern".into()) },
            "format" => if self.order.leaf_holds(keyword, value, data) { None } else { fail(format!("must match format {value}")) },
            "maxItems" => limit(cx, keyword, data.as_array().map_or(0, Vec::len), true, "items"),
            "minItems" => limit(cx, keyword, data.as_array().map_or(0, Vec::len), false, "items"),
            "prefixItems" => self.prefix_items(cx, seen),
            "items" => self.items(cx, seen),
            "contains" => self.contains(cx, seen),
            "uniqueItems" => unique_items(cx),
            "unevaluatedItems" => self.unevaluated_items(cx, seen),
            "maxProperties" => limit(cx, keyword, data.as_object().map_or(0, Map::len), true, "properties"),
            "minProperties" => limit(cx, keyword, data.as_object().map_or(0, Map::len), false, "properties"),
            "required" => {
                let members = data.as_object()?;
                let missing = value.as_array()?.iter().filter_map(Value::as_str).find(|name| !members.contains_key(*name))?;
                fail(format!("must have required property '{missing}'"))
            }
            "propertyNames" => {
                for name in data.as_object().into_iter().flatten().map(|(name, _)| name) {
                    if let Some(found) = self.sub(cx, value, &Value::String(name.clone()), path, true, None) {
                        return Some(found);
                    }
                }
                None
            }
            "additionalProperties" => self.additional_properties(cx, seen),
            "properties" => self.properties(cx, seen),
            "patternProperties" => self.pattern_properties(cx, seen),
            "dependentRequired" => {
                let members = data.as_object()?;
                for (name, dependencies) in value.as_object().into_iter().flatten() {
                    if !members.contains_key(name) {
                        continue;
                    }
                    if let Some(missing) = dependencies.as_array().into_iter().flatten().filter_map(Value::as_str).find(|d| !members.contains_key(*d)) {
                        return fail(format!("must have property {missing} when property {name} is present"));
                    }
                }
                None
            }
            "dependentSchemas" => {
                let members = data.as_object()?;
                for (name, dependent) in value.as_object().into_iter().flatten() {
                    if members.contains_key(name) {
                        if let Some(found) = self.sub(cx, dependent, data, path, cx.composite, seen.as_deref_mut()) {
                            return Some(found);
                        }
                    }
                }
                None
            }
            "unevaluatedProperties" => self.unevaluated_properties(cx, seen),
            "discriminator" => self.discriminator(cx, seen),
            // then, else: read by `if`
            _ => None,
        }
    }

    fn follow(&mut self, cx: &Cx, reference: &str, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let holder = cx.schema as *const Map<String, Value> as *const Value;
        let Some((target, base)) = self.order.lookup(cx.base, reference) else {
            return Some(error(cx.path, "$ref", &format!("$ref {reference} names no registered schema")));
        };
        if self.following.iter().any(|(h, p)| *h == holder && p == cx.path) {
            return Some(error(cx.path, "$ref", &format!("$ref {reference} refers back to itself without consuming the instance")));
        }
        self.following.push((holder, cx.path.to_string()));
        let found = self.check(target, &base, cx.data, cx.path, cx.composite, seen.as_deref_mut());
        self.following.pop();
        found
    }

    /// Checks `branch` where a failure is allowed: what it evaluated counts only when it passes.
    fn try_branch(&mut self, cx: &Cx, branch: &Value, collect: bool) -> (Option<SchemaError>, Option<Evaluated>) {
        let mut local = collect.then(Evaluated::default);
        let found = self.sub(cx, branch, cx.data, cx.path, true, local.as_mut());
        (found, local)
    }

    fn any_of(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let mut first = None;
        let mut passed = false;
        for branch in cx.schema["anyOf"].as_array().into_iter().flatten() {
            match self.try_branch(cx, branch, seen.is_some()) {
                (None, local) => {
                    passed = true;
                    match (seen.as_deref_mut(), local) {
                        (Some(seen), Some(local)) => seen.add(&local),
                        // Without an unevaluated* keyword to feed, the first passing branch decides.
                        _ => return None,
                    }
                }
                (Some(found), _) => {
                    first.get_or_insert(found);
                }
            }
        }
        if passed {
            return None;
        }
        first.or_else(|| Some(error(cx.path, "anyOf", "must match a schema in anyOf")))
    }

    fn one_of(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let mut first = None;
        let mut passing = None;
        let mut count = 0;
        for branch in cx.schema["oneOf"].as_array().into_iter().flatten() {
            match self.try_branch(cx, branch, seen.is_some()) {
                (None, local) => {
                    count += 1;
                    passing = local;
                }
                (Some(found), _) => {
                    first.get_or_insert(found);
                }
            }
            if count > 1 {
                break;
            }
        }
        if count == 1 {
            if let (Some(seen), Some(passing)) = (seen.as_deref_mut(), passing) {
                seen.add(&passing);
            }
            return None;
        }
        first.or_else(|| Some(error(cx.path, "oneOf", "must match exactly one schema in oneOf")))
    }

    fn if_then_else(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let (found, local) = self.try_branch(cx, &cx.schema["if"], seen.is_some());
        if found.is_none() {
            if let (Some(seen), Some(local)) = (seen.as_deref_mut(), local) {
                seen.add(&local);
            }
        }
        let clause = if found.is_none() { "then" } else { "else" };
        let branch = cx.schema.get(clause)?;
        self.sub(cx, branch, cx.data, cx.path, cx.composite, seen.as_deref_mut())
    }

    fn prefix_items(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let prefix = cx.schema["prefixItems"].as_array()?;
        let items = cx.data.as_array()?;
        for (i, (schema, item)) in prefix.iter().zip(items).enumerate() {
            if let Some(found) = self.sub(cx, schema, item, &format!("{}/{i}", cx.path), cx.composite, None) {
                return Some(found);
            }
            if let Some(seen) = seen.as_deref_mut() {
                seen.items.insert(i);
            }
        }
        None
    }

    fn items(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let start = cx.schema.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len);
        let items = cx.data.as_array()?;
        for (i, item) in items.iter().enumerate().skip(start) {
            if let Some(found) = self.sub(cx, &cx.schema["items"], item, &format!("{}/{i}", cx.path), cx.composite, None) {
                return Some(found);
            }
        }
        if let Some(seen) = seen.as_deref_mut() {
            seen.all_items = true;
        }
        None
    }

    fn contains(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let min = cx.schema.get("minContains").map_or(1.0, number);
        let max = cx.schema.get("maxContains").map(number);
        let mut first = None;
        let mut count = 0.0;
        for (i, item) in cx.data.as_array()?.iter().enumerate() {
            match self.sub(cx, &cx.schema["contains"], item, &format!("{}/{i}", cx.path), true, None) {
                None => {
                    count += 1.0;
                    match seen.as_deref_mut() {
                        Some(seen) => {
                            seen.items.insert(i);
                        }
                        None if max.is_none() && count >= min => return None,
                        None => {}
                    }
                }
                Some(found) => {
                    first.get_or_insert(found);
                }
            }
        }
        if let Some(max) = max {
            if count > max {
                return Some(error(cx.path, "contains", &format!("must contain at most {} valid item(s)", cx.schema["maxContains"])));
            }
        }
        if count >= min {
            return None;
        }
        // Outside a composite keyword ajv replaces the items' errors by its own.
        let min_text = cx.schema.get("minContains").map_or("1".to_string(), Value::to_string);
        first.filter(|_| cx.composite).or_else(|| Some(error(cx.path, "contains", &format!("must contain at least {min_text} valid item(s)"))))
    }

    fn unevaluated_items(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let items = cx.data.as_array()?;
        let sub = &cx.schema["unevaluatedItems"];
        let (all, evaluated) = seen.as_deref().map_or((false, HashSet::new()), |s| (s.all_items, s.items.clone()));
        if !all {
            for (i, item) in items.iter().enumerate() {
                if evaluated.contains(&i) {
                    continue;
                }
                if sub == &Value::Bool(false) {
                    return Some(error(&format!("{}/{i}", cx.path), "unevaluatedItems", "must NOT have unevaluated items"));
                }
                if let Some(found) = self.sub(cx, sub, item, &format!("{}/{i}", cx.path), cx.composite, None) {
                    return Some(found);
                }
            }
        }
        if let Some(seen) = seen.as_deref_mut() {
            seen.all_items = true;
        }
        None
    }

    fn properties(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let members = cx.data.as_object()?;
        for (name, schema) in cx.schema["properties"].as_object()? {
            let Some(value) = members.get(name) else { continue };
            if let Some(found) = self.sub(cx, schema, value, &format!("{}/{}", cx.path, escape_token(name)), cx.composite, None) {
                return Some(found);
            }
            if let Some(seen) = seen.as_deref_mut() {
                seen.properties.insert(name.clone());
            }
        }
        None
    }

    fn pattern_properties(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let members = cx.data.as_object()?;
        for (source, schema) in cx.schema["patternProperties"].as_object()? {
            let pattern = Value::String(source.clone());
            for (name, value) in members {
                if !self.order.leaf_holds("pattern", &pattern, &Value::String(name.clone())) {
                    continue;
                }
                if let Some(found) = self.sub(cx, schema, value, &format!("{}/{}", cx.path, escape_token(name)), cx.composite, None) {
                    return Some(found);
                }
                if let Some(seen) = seen.as_deref_mut() {
                    seen.properties.insert(name.clone());
                }
            }
        }
        None
    }

    fn additional_properties(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let members = cx.data.as_object()?;
        let declared = cx.schema.get("properties").and_then(Value::as_object);
        let patterns: Vec<Value> = cx.schema.get("patternProperties").and_then(Value::as_object).map(|p| p.keys().map(|k| Value::String(k.clone())).collect()).unwrap_or_default();
        let additional = &cx.schema["additionalProperties"];
        for (name, value) in members {
            if declared.is_some_and(|d| d.contains_key(name)) || patterns.iter().any(|p| self.order.leaf_holds("pattern", p, &Value::String(name.clone()))) {
                continue;
            }
            if additional.is_object() {
                if let Some(found) = self.sub(cx, additional, value, &format!("{}/{}", cx.path, escape_token(name)), cx.composite, None) {
                    return Some(found);
                }
            } else if additional == &Value::Bool(false) {
                return Some(error(cx.path, "additionalProperties", &format!("unknown member {}", Value::String(name.clone()))));
            }
        }
        if let Some(seen) = seen.as_deref_mut() {
            seen.all_properties = true;
        }
        None
    }

    fn unevaluated_properties(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let members = cx.data.as_object()?;
        let sub = &cx.schema["unevaluatedProperties"];
        let (all, evaluated) = seen.as_deref().map_or((false, HashSet::new()), |s| (s.all_properties, s.properties.clone()));
        if !all {
            for (name, value) in members {
                if evaluated.contains(name) {
                    continue;
                }
                if sub == &Value::Bool(false) {
                    return Some(error(cx.path, "unevaluatedProperties", &format!("unknown member {}", Value::String(name.clone()))));
                }
                if let Some(found) = self.sub(cx, sub, value, &format!("{}/{}", cx.path, escape_token(name)), cx.composite, None) {
                    return Some(found);
                }
            }
        }
        if let Some(seen) = seen.as_deref_mut() {
            seen.all_properties = true;
        }
        None
    }

    fn discriminator(&mut self, cx: &Cx, seen: &mut Option<&mut Evaluated>) -> Option<SchemaError> {
        let tag_name = cx.schema["discriminator"].get("propertyName").and_then(Value::as_str).unwrap_or_default();
        let Some(tag) = cx.data.get(tag_name).and_then(Value::as_str) else {
            return Some(error(cx.path, "discriminator", &format!("tag \"{tag_name}\" must be string")));
        };
        let branches = cx.schema.get("oneOf").and_then(Value::as_array)?;
        let Some(branch) = branches.iter().find(|branch| self.tag_values(cx.base, branch, tag_name).iter().any(|v| v == tag)) else {
            let at = format!("{}/{}", cx.path, escape_token(tag_name));
            return Some(error(&at, "discriminator", &format!("value of tag \"{tag_name}\" must be in oneOf")));
        };
        self.sub(cx, branch, cx.data, cx.path, cx.composite, seen.as_deref_mut())
    }

    /// The tag values a oneOf branch accepts: its tag property's `const` or string `enum`.
    fn tag_values(&self, base: &str, branch: &Value, tag_name: &str) -> Vec<String> {
        let (target, base) = self.follow_refs(base, branch);
        let Some(property) = target.get("properties").and_then(|p| p.get(tag_name)) else { return Vec::new() };
        let (property, _) = self.follow_refs(&base, property);
        if let Some(fixed) = property.get("const") {
            return fixed.as_str().map(str::to_string).into_iter().collect();
        }
        property.get("enum").and_then(Value::as_array).map(|list| list.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default()
    }

    /// The schema a chain of `$ref`-only hops ends at (a cycle ends where it started).
    fn follow_refs<'v>(&'v self, base: &str, start: &'v Value) -> (&'v Value, String) {
        let (mut target, mut base) = (start, base.to_string());
        let mut visited: Vec<*const Value> = Vec::new();
        while let Some(reference) = target.get("$ref").and_then(Value::as_str) {
            if visited.contains(&(target as *const Value)) {
                break;
            }
            visited.push(target);
            let Some((next, next_base)) = self.order.lookup(&base, reference) else { break };
            (target, base) = (next, next_base);
        }
        (target, base)
    }
}

fn type_error(path: &str, types: &[&str]) -> SchemaError {
    error(path, "type", &format!("must be {}", types.join(",")))
}

fn limit(cx: &Cx, keyword: &str, size: usize, max: bool, unit: &str) -> Option<SchemaError> {
    let bound = number(&cx.schema[keyword]);
    let ok = if max { size as f64 <= bound } else { size as f64 >= bound };
    if ok {
        None
    } else {
        Some(error(cx.path, keyword, &format!("must NOT have {} than {} {unit}", if max { "more" } else { "fewer" }, cx.schema[keyword])))
    }
}

fn unique_items(cx: &Cx) -> Option<SchemaError> {
    if cx.schema["uniqueItems"] != Value::Bool(true) {
        return None;
    }
    let items = cx.data.as_array()?;
    for j in (0..items.len()).rev() {
        for i in 0..j {
            if json_equals(&items[i], &items[j]) {
                return Some(error(cx.path, "uniqueItems", &format!("must NOT have duplicate items (items ## {i} and {j} are identical)")));
            }
        }
    }
    None
}
