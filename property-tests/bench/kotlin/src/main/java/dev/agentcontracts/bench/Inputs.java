package dev.agentcontracts.bench;

import dev.agentcontracts.runtime.StrictJson;
import dev.agentcontracts.runtime.StrictJsonLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import kotlinx.serialization.json.JsonElement;
import kotlinx.serialization.json.JsonObject;

/**
 * The inputs of the TypeScript bench (property-tests/bench/fixtures.ts), written as files by
 * property-tests/bench/native.ts into the folder named by BENCH_INPUTS, so every language
 * measures the same bytes.
 */
final class Inputs {
    private Inputs() {}

    static Path dir() {
        String dir = System.getenv("BENCH_INPUTS");
        if (dir == null || dir.isEmpty()) throw new IllegalStateException("BENCH_INPUTS must name the folder native.ts wrote");
        return Path.of(dir);
    }

    static byte[] bytes(String name) {
        try {
            return Files.readAllBytes(dir().resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(bytes(name), java.nio.charset.StandardCharsets.UTF_8);
    }

    static JsonElement tree(String name) {
        return StrictJson.INSTANCE.parseStrictJson(bytes(name), new StrictJsonLimits());
    }

    static JsonObject object(String name) {
        return (JsonObject) tree(name);
    }

    /** A JMH @Param value such as "ActionProposal/valid" as the file native.ts wrote for it. */
    static String file(String param) {
        return param.replace('/', '-') + ".json";
    }
}
