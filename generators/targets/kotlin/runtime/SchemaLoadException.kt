package dev.agentcontracts.runtime

/**
 * A schema the Kotlin validator refuses when the documents are loaded: [location] is the schema's
 * absolute URI and JSON pointer (`https://example/a.json#/properties/b`), [keyword] the keyword
 * it refuses (a keyword it does not implement, a `$ref` that names nothing, a bad `pattern`, a
 * format it does not assert). Validation itself never throws.
 */
class SchemaLoadException(val location: String, val keyword: String, reason: String) : IllegalArgumentException("$location: $reason")
