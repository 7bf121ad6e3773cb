package dev.agentcontracts.bench;

import dev.agentcontracts.agentprovider.AgentProviderSigning;
import dev.agentcontracts.runtime.HmacSha256Key;
import dev.agentcontracts.runtime.HmacV1Error;
import dev.agentcontracts.runtime.HmacV1Verification;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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

/**
 * verifyXSignature on a real signed vector vs javax.crypto.Mac over the finished signing input
 * (raw) and vs the floor: that plus the SHA-256 of the payload's canonical text, which no
 * verifier of these messages can skip. Both sides key once, as a receiver holding one key per
 * install binding does: ours an HmacSha256Key, the anchors one Mac initialised in setup (doFinal
 * leaves it keyed for the next message).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VerifyBench {
    @Param({"trigger", "proposal"})
    public String input;

    private JsonObject message;
    private HmacSha256Key key;
    private Mac mac;
    private byte[] signingInput;
    private byte[] canonicalBody;
    private byte[] expected;

    @Setup
    public void setup() throws GeneralSecurityException {
        JsonObject vector = Inputs.object("signature-" + input + ".json");
        message = (JsonObject) vector.get("signed_object");
        byte[] secret = string(vector, "secret_utf8").getBytes(StandardCharsets.UTF_8);
        key = new HmacSha256Key(secret);
        mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        signingInput = string(vector, "signing_input").getBytes(StandardCharsets.UTF_8);
        canonicalBody = string(vector, "canonical_body_json").getBytes(StandardCharsets.UTF_8);
        expected = Base64.getDecoder().decode(string(vector, "expected_signature"));
        HmacV1Error error = verify();
        if (error != null) throw new IllegalStateException(input + ": " + error.getMessage());
        if (!raw()) throw new IllegalStateException(input + ": raw HMAC does not match the vector");
        if (!buildInput().equals(string(vector, "signing_input"))) throw new IllegalStateException(input + ": the generated signing input differs from the vector's");
    }

    private static String string(JsonObject o, String field) {
        return ((JsonPrimitive) o.get(field)).getContent();
    }

    private HmacV1Error verify() {
        HmacV1Verification<JsonObject> result = input.equals("trigger")
            ? AgentProviderSigning.INSTANCE.verifyAgentTriggerRequestSignature(message, key)
            : AgentProviderSigning.INSTANCE.verifyActionProposalSignature(message, key);
        return result instanceof HmacV1Verification.Rejected rejected ? rejected.getError() : null;
    }

    @Benchmark
    public Object ours() {
        return verify();
    }

    /** The generated signing-input builder alone: the part of a verify the anchors are handed. */
    @Benchmark
    public String buildInput() {
        return input.equals("trigger")
            ? AgentProviderSigning.INSTANCE.buildAgentTriggerRequestSigningInput(message)
            : AgentProviderSigning.INSTANCE.buildActionProposalSigningInput(message);
    }

    @Benchmark
    public boolean raw() {
        return MessageDigest.isEqual(mac.doFinal(signingInput), expected);
    }

    @Benchmark
    public boolean floor() throws GeneralSecurityException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonicalBody);
        return digest.length > 0 && raw();
    }
}
