package dev.agentcontracts.bench;

import dev.agentcontracts.runtime.InMemoryReplayStore;
import dev.agentcontracts.runtime.RecordOutcome;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The in-memory replay store's check-and-record with a fresh key per call (a stream of new
 * messages) vs a bare HashMap get+put of the same keys. Both start empty every iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReplayBench {
    private static final String SCOPE = "[\"provider\",\"host-instance-1\"]";
    private static final long RETAIN_UNTIL = 1_893_456_060_000L; // 2030-01-01T00:01:00Z
    private InMemoryReplayStore store;
    private HashMap<String, Long> map;
    private long n;
    private final long now = System.currentTimeMillis();

    @Setup(Level.Iteration)
    public void fresh() {
        store = new InMemoryReplayStore(50_000_000, 50_000_000);
        map = new HashMap<>();
        n = 0;
    }

    @Benchmark
    public RecordOutcome store() {
        return store.checkAndRecordNow(SCOPE, "k" + n++, RETAIN_UNTIL, now);
    }

    @Benchmark
    public boolean hashMap() {
        String id = SCOPE + "\u0000k" + n++;
        Long held = map.get(id);
        if (held != null && held > now) return false;
        map.put(id, RETAIN_UNTIL);
        return true;
    }
}
