package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.ApprovalBindings
import dev.agentcontracts.runtime.ApprovalToken
import dev.agentcontracts.runtime.ApprovalTokenResult
import dev.agentcontracts.runtime.CanonicalJson
import dev.agentcontracts.runtime.ContentAddress
import dev.agentcontracts.runtime.HmacSha256V1
import dev.agentcontracts.runtime.HmacV1SignResult
import dev.agentcontracts.runtime.LifecycleName
import dev.agentcontracts.runtime.Outcome
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonException
import dev.agentcontracts.runtime.StrictJsonLimits
import dev.agentcontracts.runtime.ValidationError
import dev.agentcontracts.runtime.ValidationResult
import dev.agentcontracts.runtime.parseRfc3339
import kotlinx.serialization.KSerializer
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import java.nio.file.Files
import java.nio.file.Path
import java.util.Base64
import kotlin.system.exitProcess

/**
 * The Kotlin shared-case driver: answers every case of a language-neutral case file with these
 * bindings and writes the verdicts as JSON. The TypeScript test property-tests/drivers/drivers.test.ts
 * writes the cases, runs every language's driver, and compares the verdicts with the spec's (its
 * README.md spells each kind's verdict). One JVM answers every case.
 *
 *   java -cp <test classpath> <package>.bindings.SharedCaseDriverKt <cases.json> <verdicts.json>
 */
fun main(args: Array<String>) {
    if (args.size != 2) {
        System.err.println("usage: SharedCaseDriverKt <cases.json> <verdicts.json>")
        exitProcess(2)
    }
    val cases = StrictJson.parseStrictJson(Files.readAllBytes(Path.of(args[0])), StrictJsonLimits(maxBytes = 256 * 1024 * 1024, maxDepth = 1000))
        .jsonObject.getValue("cases").jsonArray.map { it.jsonObject }
    val verdicts = cases.map { case ->
        val verdict = try {
            answer(case)
        } catch (e: Exception) {
            JsonPrimitive("error: ${e.javaClass.simpleName}: ${e.message}")
        }
        JsonObject(mapOf("id" to case.getValue("id"), "verdict" to verdict))
    }
    Files.writeString(Path.of(args[1]), JsonObject(mapOf("language" to JsonPrimitive("kotlin"), "verdicts" to JsonArray(verdicts))).toString() + "\n")
}

private fun JsonObject.text(field: String): String = getValue(field).jsonPrimitive.content

private fun JsonObject.bytes(): ByteArray = Base64.getDecoder().decode(text("b64"))

/** The generated x-signature declaration of the case's message (Protocols.signatures). */
private fun JsonObject.signature() = "${text("protocol")}/${text("message")}".let { key -> Protocols.signatures[key] ?: error("no signature declared for $key") }

/**
 * An approval token decoded with the case's message's generated x-approval-token declaration at the
 * case's clock, and bound to the case's request when it names one: "valid" or the error code.
 */
private fun approvalVerdict(case: JsonObject): String {
    val key = "${case.text("protocol")}/${case.text("message")}"
    val declaration = Protocols.approvalTokens[key] ?: error("no approval token declared for $key")
    val secret = case.text("secret_utf8").toByteArray()
    val nowMs = case.getValue("now_unix_seconds").jsonPrimitive.long * 1000
    val result = when (val bindings = case["bindings"]?.jsonObject) {
        null -> ApprovalToken.decodeApprovalToken(declaration, case.text("token"), secret, nowMs)
        else -> {
            val expectedChoice = (bindings["expected_choice"] as? JsonPrimitive)?.takeIf { it.isString }?.content
            ApprovalToken.verifyApprovalToken(declaration, case.text("token"), secret, ApprovalBindings(bindings.text("action"), bindings.text("resource_id"), bindings.text("request_id"), expectedChoice), nowMs)
        }
    }
    return when (result) {
        is ApprovalTokenResult.Valid -> "valid"
        is ApprovalTokenResult.Failed -> result.code.wireName
    }
}

private fun firstError(error: ValidationError): String =
    if (error.keyword == "json") "json ${error.params["code"]}"
    else "${error.instancePath} ${error.keyword}${error.params["rule"]?.let { " $it" } ?: ""}"

/** Bytes parsed, validated and decoded into the message's class (every message has one), as a consumer receives them. */
@Suppress("UNCHECKED_CAST")
private fun parseAndValidate(protocol: String, message: String, bytes: ByteArray): String {
    val validator = Protocols.validators[protocol] ?: error("unknown protocol $protocol")
    val serializer = Protocols.messages[protocol]?.get(message) as KSerializer<Any?>? ?: error("no serializer for $protocol/$message")
    return when (val result = validator.parse(message, bytes, serializer)) {
        is ValidationResult.Valid -> "valid"
        is ValidationResult.Invalid -> firstError(result.errors.first())
    }
}

private fun answer(case: JsonObject): JsonElement = when (val kind = case.text("kind")) {
    "validate" -> {
        val validator = Protocols.validators[case.text("protocol")] ?: error("unknown protocol ${case.text("protocol")}")
        val first = validator.errors(case.text("message"), case.getValue("instance")).firstOrNull()
        JsonPrimitive(first?.let { "${it.instancePath} ${it.keyword}${it.params["rule"]?.let { rule -> " $rule" } ?: ""}" } ?: "valid")
    }
    "lifecycle" -> {
        val key = "${case.text("protocol")}/${case.text("lifecycle")}"
        val machine = Protocols.lifecycles[key] ?: error("unknown lifecycle $key")
        var state = machine.initial.wireName
        JsonArray(case.getValue("steps").jsonArray.map { it.jsonObject }.map { step ->
            val guards = step.getValue("guards").jsonObject.mapValues { it.value.jsonPrimitive.boolean }
            when (val outcome = machine.transitionByName(state, step.text("event"), guards)) {
                is Outcome.Moved<*, *> -> {
                    state = (outcome.to as LifecycleName).wireName
                    JsonPrimitive("moved $state [${outcome.effects.joinToString(",") { (it as LifecycleName).wireName }}]")
                }
                is Outcome.Refused -> JsonPrimitive("refused ${outcome.reason.wireName} ${outcome.guard ?: "-"}")
            }
        })
    }
    "canonicalize" -> JsonPrimitive(CanonicalJson.canonicalize(StrictJson.parseStrictJson(case.text("input"))))
    "number" -> JsonPrimitive(CanonicalJson.serializeNumber(Double.fromBits(java.lang.Long.parseUnsignedLong(case.text("bits"), 16))))
    "parse" -> JsonPrimitive(
        try {
            StrictJson.parseStrictJson(case.bytes())
            "ok"
        } catch (e: StrictJsonException) {
            e.code.wireName
        },
    )
    "rfc3339" -> JsonPrimitive(parseRfc3339(case.text("text"))?.toString() ?: "null")
    "parse-validate" -> JsonPrimitive(parseAndValidate(case.text("protocol"), case.text("message"), case.bytes()))
    "hmac-verify" -> JsonPrimitive(HmacSha256V1.verify(case.signature(), case.getValue("instance").jsonObject, case.text("key_utf8").toByteArray())?.code?.wireName ?: "valid")
    "hmac-sign" -> JsonPrimitive(
        when (val signed = HmacSha256V1.signHmacV1(case.signature(), case.getValue("instance").jsonObject, case.text("key_utf8").toByteArray())) {
            is HmacV1SignResult.Signed -> signed.signature
            is HmacV1SignResult.Failed -> "error: ${signed.error.code.wireName}"
        },
    )
    "content-id" -> {
        val key = "${case.text("protocol")}/${case.text("message")}"
        val declaration = Protocols.contentAddresses[key] ?: error("no content address declared for $key")
        JsonPrimitive(ContentAddress.computeContentId(declaration, case.getValue("record").jsonObject))
    }
    "approval-token" -> JsonPrimitive(approvalVerdict(case))
    else -> JsonPrimitive("error: unknown case kind $kind")
}
