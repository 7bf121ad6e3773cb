//! JSON Schema validation with the `jsonschema` crate (draft 2020-12, formats asserted, ECMA-262
//! patterns), over the spec's schema documents registered by their `$id` (nothing is fetched),
//! then each message's cross-field rules (x-rules, runtime::rules) on a schema-valid value.
//! The crate was chosen over a generated validator because it gives the TypeScript, Kotlin and
//! Swift verdicts on every shared case: the JSON-Schema-Test-Suite's required groups (1109 pass,
//! 0 fail, the same 57 refused groups left out) and every shared validation case
//! (property-tests/drivers). It lists its errors in its own order and knows no `discriminator`,
//! so the first error reported is the reference one (runtime::first_error: the error ajv, Kotlin
//! and Swift report first), followed by the crate's.

use crate::runtime::first_error::ReferenceOrder;
use crate::runtime::rules::{self, Rule};
use jsonschema::{Retrieve, Uri, Validator};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// One failed keyword or cross-field rule: where in the instance, which keyword (`x-rule` for a
/// rule, with its id in `rule`), and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer into the instance ("" for the root).
    pub instance_path: String,
    pub keyword: String,
    pub message: String,
    /// The x-rules id of a broken cross-field rule; None for a schema keyword.
    pub rule: Option<String>,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {:?}: {}", self.keyword, self.instance_path, self.message)
    }
}

impl std::error::Error for SchemaError {}

/// Resolves `$ref`s to the registered documents only; any other URI is an error, never a fetch.
struct Documents(Arc<HashMap<String, Value>>);

impl Retrieve for Documents {
    fn retrieve(&self, uri: &Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let document = uri.as_str().split('#').next().unwrap_or_default();
        self.0.get(document).cloned().ok_or_else(|| format!("no registered schema document {document}").into())
    }
}

/// The compiled validator of every registered document, by `$id`, with the documents' cross-field rules.
pub struct SchemaRegistry {
    validators: HashMap<String, Validator>,
    order: ReferenceOrder,
    rules: HashMap<String, Vec<Rule>>,
}

impl SchemaRegistry {
    /// Registers and compiles `documents` ((`$id`, JSON text) pairs).
    pub fn new(documents: &[(&str, &str)]) -> Result<Self, String> {
        let mut parsed = HashMap::new();
        for (id, text) in documents {
            let schema: Value = serde_json::from_str(text).map_err(|e| format!("{id}: {e}"))?;
            parsed.insert((*id).to_string(), schema);
        }
        Self::from_documents(parsed)
    }

    /// Registers already-parsed documents by the given URIs and compiles each.
    pub fn from_documents(documents: HashMap<String, Value>) -> Result<Self, String> {
        let ids: Vec<String> = documents.keys().cloned().collect();
        Self::compiling(documents, &ids)
    }

    /// Registers every document for `$ref`s but compiles only `ids` (the others may be documents
    /// that are referenced without being schemas of their own draft, as in the public suite).
    pub fn compiling(documents: HashMap<String, Value>, ids: &[String]) -> Result<Self, String> {
        let documents = Arc::new(documents);
        let mut validators = HashMap::new();
        for id in ids {
            let schema = documents.get(id).ok_or_else(|| format!("{id}: not registered"))?;
            validators.insert(id.clone(), compile(schema, &documents).map_err(|e| format!("{id}: {e}"))?);
        }
        Ok(Self { validators, order: ReferenceOrder::new(documents), rules: HashMap::new() })
    }

    /// Adds cross-field rules: (`$id`, the JSON array of the document's `x-rules`) pairs.
    pub fn with_rules(mut self, rules: &[(&str, &str)]) -> Result<Self, String> {
        for (id, text) in rules {
            if !self.validators.contains_key(*id) {
                return Err(format!("{id}: x-rules for a schema that is not registered"));
            }
            self.rules.insert((*id).to_string(), rules::parse_rules(text).map_err(|e| format!("{id}: {e}"))?);
        }
        Ok(self)
    }

    /// Ok when `instance` is valid against the document `id` and breaks none of its rules. Else
    /// the schema errors, the reference first error first (runtime::first_error), then the
    /// crate's in its order; or, for a schema-valid value, every broken rule in declaration order.
    pub fn validate(&self, id: &str, instance: &Value) -> Result<(), Vec<SchemaError>> {
        let Some(validator) = self.validators.get(id) else {
            return Err(vec![SchemaError { instance_path: String::new(), keyword: "$ref".into(), message: format!("no schema {id} is registered"), rule: None }]);
        };
        let mut errors: Vec<SchemaError> = validator
            .iter_errors(instance)
            .map(|e| SchemaError { instance_path: e.instance_path().as_str().to_string(), keyword: e.kind().keyword().to_string(), message: e.to_string(), rule: None })
            .collect();
        if errors.is_empty() {
            let broken = self.rules.get(id).map(|rules| rules::check(instance, rules)).unwrap_or_default();
            return if broken.is_empty() { Ok(()) } else { Err(broken) };
        }
        if let Some(first) = self.order.first_error(id, instance) {
            errors.insert(0, first);
        }
        Err(errors)
    }

    /// The schema verdict and the rules' (as `validate`, without collecting errors).
    pub fn is_valid(&self, id: &str, instance: &Value) -> bool {
        self.validators.get(id).is_some_and(|validator| validator.is_valid(instance)) && self.rules.get(id).map_or(true, |rules| rules.iter().all(|rule| rule.broken_at(instance).is_none()))
    }
}

/// A draft 2020-12 validator asserting formats, resolving `$ref`s among `documents` only.
pub fn compile(schema: &Value, documents: &Arc<HashMap<String, Value>>) -> Result<Validator, String> {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .with_retriever(Documents(documents.clone()))
        .build(schema)
        .map_err(|e| e.to_string())
}
