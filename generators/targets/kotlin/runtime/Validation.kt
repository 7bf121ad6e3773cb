package dev.agentcontracts.runtime

import kotlinx.serialization.DeserializationStrategy
import kotlinx.serialization.SerializationException
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject

/**
 * One reason a message was refused; the same data the TypeScript validators give.
 * [keyword] is the JSON Schema keyword that failed, `x-rule` for a cross-field rule, `json` for
 * a parse error. [instancePath] is the JSON pointer of the offending value. The message never
 * quotes the instance's values.
 */
data class ValidationError(
    val instancePath: String,
    val keyword: String,
    val message: String,
    val params: Map<String, String> = emptyMap(),
)

sealed interface ValidationResult<out T> {
    data class Valid<T>(val value: T) : ValidationResult<T>

    data class Invalid(val errors: List<ValidationError>) : ValidationResult<Nothing> {
        init {
            require(errors.isNotEmpty()) { "an invalid result needs at least one error" }
        }
    }
}

/**
 * One message: the `$id` of its schema, its x-rules in declaration order and, from the generator,
 * the same rules as straight-line code ([compiledRules]) and the schema as code ([compiledSchema]:
 * the first error, or null), which validation runs. Without them the rules are interpreted
 * (CrossFieldRules.check) and the schema too (JsonSchemaValidator over the loaded documents): the
 * reference evaluations the generated code is tested against.
 */
class MessageSchema(
    val schemaId: String,
    val rules: List<CrossFieldRule>,
    val compiledRules: ((JsonElement) -> List<ValidationError>)? = null,
    val compiledSchema: ((JsonElement) -> ValidationError?)? = null,
)

/**
 * Validates the messages of one protocol. The schema comes first and a rule only ever sees a
 * schema-valid value, as in TypeScript's runValidator: the result holds either the schema's first
 * error or every broken rule. [schemas] (the interpreter over the schema documents) checks the
 * messages that have no [MessageSchema.compiledSchema]; null when every message has one.
 */
class MessageValidator(private val schemas: JsonSchemaValidator?, val messages: Map<String, MessageSchema>) {
    init {
        val unchecked = messages.filterValues { it.compiledSchema == null }.keys
        require(schemas != null || unchecked.isEmpty()) { "no schema documents loaded for ${unchecked.joinToString()}, which have no generated schema check" }
    }

    val messageNames: Set<String> get() = messages.keys

    /** Every error of [instance] as [messageName]; empty when it is valid. */
    fun errors(messageName: String, instance: JsonElement): List<ValidationError> {
        val message = messages[messageName] ?: throw IllegalArgumentException("unknown message $messageName")
        val compiled = message.compiledSchema
        val schemaError = if (compiled != null) compiled(instance) else schemas!!.firstError(message.schemaId, instance)
        schemaError?.let { return listOf(it) }
        return message.compiledRules?.invoke(instance) ?: CrossFieldRules.check(instance, message.rules)
    }

    fun validate(messageName: String, instance: JsonElement): ValidationResult<JsonElement> {
        val errors = errors(messageName, instance)
        return if (errors.isEmpty()) ValidationResult.Valid(instance) else ValidationResult.Invalid(errors)
    }

    /** Validates, then decodes the checked tree into its class. */
    fun <T> validate(messageName: String, instance: JsonElement, deserializer: DeserializationStrategy<T>): ValidationResult<T> =
        when (val checked = validate(messageName, instance)) {
            is ValidationResult.Invalid -> checked
            is ValidationResult.Valid -> try {
                ValidationResult.Valid(Json.decodeFromJsonElement(deserializer, checked.value))
            } catch (error: SerializationException) {
                decodeFailure(messageName)
            } catch (error: IllegalArgumentException) {
                // kotlinx reports some number overflows this way; a decode never throws to the caller.
                decodeFailure(messageName)
            }
        }

    /**
     * A schema-valid message that does not fit its class. The integer-range lint keeps every
     * integer within what Long holds, so this is a generator bug, reported as data, not thrown.
     */
    private fun decodeFailure(messageName: String): ValidationResult.Invalid =
        ValidationResult.Invalid(listOf(ValidationError("", "x-decode", "(root) $messageName does not decode into its class")))

    /** Parses untrusted bytes strictly (StrictJson), then validates and decodes. */
    fun <T> parse(messageName: String, bytes: ByteArray, deserializer: DeserializationStrategy<T>): ValidationResult<T> {
        val parsed = try {
            StrictJson.parseStrictJson(bytes)
        } catch (error: StrictJsonException) {
            return ValidationResult.Invalid(listOf(jsonError(error)))
        }
        return validate(messageName, parsed, deserializer)
    }

    companion object {
        /** Loads the schema documents a generated `<Protocol>Validators` object names. */
        fun fromResource(resource: String, messages: Map<String, MessageSchema>): MessageValidator {
            val stream = MessageValidator::class.java.getResourceAsStream(resource) ?: error("schema resource $resource missing")
            val documents = stream.use { StrictJson.parseStrictJson(it.readBytes(), StrictJsonLimits(maxBytes = 16 * 1024 * 1024)) }
            require(documents is JsonArray) { "$resource must hold an array of schema documents" }
            return MessageValidator(JsonSchemaValidator(documents.map { it as JsonObject }), messages)
        }

        fun jsonError(error: StrictJsonException): ValidationError = ValidationError(
            instancePath = "",
            keyword = "json",
            message = "invalid JSON: ${error.reason}",
            params = mapOf("code" to error.code.wireName, "offset" to error.offset.toString()),
        )
    }
}
