package dev.agentcontracts.bench;

import dev.agentcontracts.agentconnector.AgentConnectorValidators;
import dev.agentcontracts.agentconnector.ConnectorPackage;
import dev.agentcontracts.runtime.CanonicalJson;
import dev.agentcontracts.runtime.StrictJson;
import dev.agentcontracts.runtime.StrictJsonLimits;
import dev.agentcontracts.runtime.ValidationResult;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import kotlinx.serialization.json.Json;
import kotlinx.serialization.json.JsonElement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Strict parse (StrictJson.parseStrictJson over UTF-8 bytes) vs kotlinx.serialization decoding the same
 * bytes to a JsonElement, and canonicalization (CanonicalJson) vs kotlinx encoding the tree
 * (neither sorts keys nor checks anything: the floor, like JSON.stringify in TypeScript).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ParseBench {
    @Param({"small", "medium", "large"})
    public String input;

    private byte[] bytes;
    private JsonElement tree;
    private final StrictJsonLimits limits = new StrictJsonLimits();

    @Setup
    public void setup() {
        bytes = Inputs.bytes(input + ".json");
        tree = StrictJson.INSTANCE.parseStrictJson(bytes, limits);
        JsonElement kotlinx = Json.Default.parseToJsonElement(new String(bytes, StandardCharsets.UTF_8));
        if (!kotlinx.equals(tree)) throw new IllegalStateException(input + ": StrictJson and kotlinx disagree");
        String expected = Inputs.text(input + ".jcs");
        if (!CanonicalJson.INSTANCE.canonicalize(tree).equals(expected)) throw new IllegalStateException(input + ": canonical text differs from the TypeScript one");
    }

    @Benchmark
    public JsonElement strictParse() {
        return StrictJson.INSTANCE.parseStrictJson(bytes, limits);
    }

    @Benchmark
    public JsonElement kotlinxParse() {
        return Json.Default.parseToJsonElement(new String(bytes, StandardCharsets.UTF_8));
    }

    @Benchmark
    public String canonicalize() {
        return CanonicalJson.INSTANCE.canonicalize(tree);
    }

    @Benchmark
    public String kotlinxEncode() {
        return Json.Default.encodeToString(JsonElement.Companion.serializer(), tree);
    }

    /** End to end on the medium input: bytes to a checked ConnectorPackage vs a bare typed decode. */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public static class Typed {
        private byte[] bytes;

        @Setup
        public void setup() {
            bytes = Inputs.bytes("medium.json");
            if (!(AgentConnectorValidators.INSTANCE.parseConnectorPackage(bytes) instanceof ValidationResult.Valid)) throw new IllegalStateException("medium input does not parse as a ConnectorPackage");
        }

        @Benchmark
        public Object parseConnectorPackage() {
            return AgentConnectorValidators.INSTANCE.parseConnectorPackage(bytes);
        }

        @Benchmark
        public ConnectorPackage kotlinxDecode() {
            return Json.Default.decodeFromString(ConnectorPackage.Companion.serializer(), new String(bytes, StandardCharsets.UTF_8));
        }
    }
}
