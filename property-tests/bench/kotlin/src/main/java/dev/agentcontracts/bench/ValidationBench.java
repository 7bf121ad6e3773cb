package dev.agentcontracts.bench;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import dev.agentcontracts.agentconnector.AgentConnectorValidators;
import dev.agentcontracts.agentconnector.ConnectorPackage;
import dev.agentcontracts.agentprovider.ActionProposal;
import dev.agentcontracts.agentprovider.AgentProviderValidators;
import dev.agentcontracts.agentservice.AgentServiceValidators;
import dev.agentcontracts.agentservice.WorkflowRequest;
import dev.agentcontracts.runtime.CrossFieldRules;
import dev.agentcontracts.runtime.JsonSchemaValidator;
import dev.agentcontracts.runtime.MessageSchema;
import dev.agentcontracts.runtime.MessageValidator;
import dev.agentcontracts.runtime.StrictJson;
import dev.agentcontracts.runtime.StrictJsonLimits;
import dev.agentcontracts.runtime.ValidationResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import kotlinx.serialization.DeserializationStrategy;
import kotlinx.serialization.json.Json;
import kotlinx.serialization.json.JsonArray;
import kotlinx.serialization.json.JsonElement;
import kotlinx.serialization.json.JsonObject;
import kotlinx.serialization.json.JsonPrimitive;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * validateX (generated schema code + x-rules + typed decode) vs the generated schema code alone vs
 * the bindings' schema interpreter alone (the generated code's test oracle) vs networknt
 * json-schema-validator over the same schema documents, first error only (fail fast).
 * Each side gets an already parsed tree of its own kind, as in the TypeScript bench.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ValidationBench {
    @Param({
        "ActionProposal/valid", "ActionProposal/invalid",
        "WorkflowRequest/valid", "WorkflowRequest/invalid",
        "ConnectorPackage/valid", "ConnectorPackage/invalid",
    })
    public String input;

    private Function<JsonElement, ValidationResult<?>> ours;
    private DeserializationStrategy<?> serializer;
    private MessageValidator messageValidator;
    private String messageName;
    private JsonSchemaValidator schemaOnly;
    private String schemaId;
    private JsonElement tree;
    private JsonNode node;
    private Schema networknt;
    private MessageSchema rules;

    @Setup
    public void setup() {
        String message = input.substring(0, input.indexOf('/'));
        boolean expectValid = input.endsWith("/valid");
        String protocol;
        MessageValidator validator;
        switch (message) {
            case "ActionProposal" -> {
                protocol = "agent-provider";
                ours = AgentProviderValidators.INSTANCE::validateActionProposal;
                serializer = ActionProposal.Companion.serializer();
                validator = AgentProviderValidators.INSTANCE.getValidator();
            }
            case "WorkflowRequest" -> {
                protocol = "agent-service";
                ours = AgentServiceValidators.INSTANCE::validateWorkflowRequest;
                serializer = WorkflowRequest.Companion.serializer();
                validator = AgentServiceValidators.INSTANCE.getValidator();
            }
            case "ConnectorPackage" -> {
                protocol = "agent-connector";
                ours = AgentConnectorValidators.INSTANCE::validateConnectorPackage;
                serializer = ConnectorPackage.Companion.serializer();
                validator = AgentConnectorValidators.INSTANCE.getValidator();
            }
            default -> throw new IllegalArgumentException(input);
        }
        rules = validator.getMessages().get(message);
        messageValidator = validator;
        messageName = message;
        schemaId = "https://agent-contracts.dev/schemas/" + protocol + "/" + message + ".json";
        List<JsonObject> documents = schemaDocuments(protocol);
        schemaOnly = new JsonSchemaValidator(documents);
        Map<String, String> byId = new HashMap<>();
        for (JsonObject d : documents) byId.put(((JsonPrimitive) d.get("$id")).getContent(), d.toString());
        SchemaRegistryConfig config = SchemaRegistryConfig.builder().formatAssertionsEnabled(true).failFast(true).build();
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(byId).schemaRegistryConfig(config));
        networknt = registry.getSchema(SchemaLocation.of(schemaId));
        tree = Inputs.tree(Inputs.file(input));
        node = new ObjectMapper().readTree(Inputs.text(Inputs.file(input)));
        // validateX must give the expected verdict, and networknt the schema's own verdict, or the
        // comparison is meaningless. The schema alone may accept an input only an x-rule refuses
        // (ConnectorPackage/invalid's plain-http endpoint is the endpoint-is-https rule).
        check("generated", ours.apply(tree) instanceof ValidationResult.Valid, expectValid);
        check("networknt", networkntValid(), schemaOnly.firstError(schemaId, tree) == null);
        check("validate (tree)", validateTree() instanceof ValidationResult.Valid, expectValid);
        if (expectValid && kotlinxDecode() instanceof Exception) {
            throw new IllegalStateException(input + ": kotlinx does not decode the valid input");
        }
        if (rules.getCompiledSchema() == null) throw new IllegalStateException(message + " has no generated schema check");
        if (!java.util.Objects.equals(rules.getCompiledSchema().invoke(tree), schemaOnly.firstError(schemaId, tree))) {
            throw new IllegalStateException(input + ": generated schema code and interpreter disagree");
        }
        if (rules.getCompiledRules() != null && !rules.getCompiledRules().invoke(tree).equals(CrossFieldRules.INSTANCE.check(tree, rules.getRules()))) {
            throw new IllegalStateException(input + ": compiled and interpreted rules disagree");
        }
    }

    private void check(String impl, boolean valid, boolean expected) {
        if (valid != expected) throw new IllegalStateException(impl + " says " + input + " is " + (valid ? "valid" : "invalid"));
    }

    private boolean networkntValid() {
        try {
            List<Error> errors = networknt.validate(node);
            return errors.isEmpty();
        } catch (RuntimeException failFast) {
            // networknt's fail-fast mode reports the first error by throwing.
            return false;
        }
    }

    /** The documents the generated validators read: generated/kotlin's schema resource. */
    static List<JsonObject> schemaDocuments(String protocol) {
        String resource = "/dev/agentcontracts/schemas/" + protocol + ".json";
        try (InputStream in = ValidationBench.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("no resource " + resource);
            JsonArray array = (JsonArray) StrictJson.INSTANCE.parseStrictJson(in.readAllBytes(), new StrictJsonLimits(16 * 1024 * 1024, 64));
            List<JsonObject> out = new ArrayList<>();
            for (JsonElement e : array) out.add((JsonObject) e);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Benchmark
    public Object generated() {
        return ours.apply(tree);
    }

    /** The message's generated schema check alone (`<Protocol>Schemas`), as validateX runs it. */
    @Benchmark
    public Object schemaGenerated() {
        return rules.getCompiledSchema().invoke(tree);
    }

    @Benchmark
    public Object schemaOnly() {
        return schemaOnly.firstError(schemaId, tree);
    }

    /** The x-rules alone as validation runs them: compiled to code where the message has rules. */
    @Benchmark
    public Object rulesCompiled() {
        return rules.getCompiledRules() == null ? CrossFieldRules.INSTANCE.check(tree, rules.getRules()) : rules.getCompiledRules().invoke(tree);
    }

    /** The same rules through the reference interpreter (pointers resolved per call). */
    @Benchmark
    public Object rulesInterpreted() {
        return CrossFieldRules.INSTANCE.check(tree, rules.getRules());
    }

    /** Schema code + x-rules on the tree, without the decode into the class: what networknt does. */
    @Benchmark
    public Object validateTree() {
        return messageValidator.validate(messageName, tree);
    }

    /**
     * kotlinx.serialization decoding the tree into the generated class, checking nothing beyond
     * what the class's types need: added to networknt's time, what a caller pairing the two spends.
     * An input the class does not fit throws; the exception is returned (only the valid rows use this).
     */
    @Benchmark
    public Object kotlinxDecode() {
        try {
            return Json.Default.decodeFromJsonElement(serializer, tree);
        } catch (IllegalArgumentException e) { // SerializationException is one
            return e;
        }
    }

    @Benchmark
    public boolean networknt() {
        return networkntValid();
    }
}
