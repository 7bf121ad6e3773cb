package dev.agentcontracts.bench;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * `make bench`'s Kotlin driver: the JMH benchmark classes' own setups and methods, timed in one JVM
 * on the process's CPU time (collector threads included), the subjects of a case back to back
 * within each round, as the TypeScript and Swift tables are. JMH ran each benchmark in its own fork one after the other, so
 * the two sides of a ratio never shared a minute of the machine's load (its ratios moved up to 8x
 * between runs on a shared machine). The JMH annotations stay: `java -cp ... org.openjdk.jmh.Main`
 * still runs the same classes for a cross-check.
 *
 * Usage: Interleaved OUT.json ROUNDS ROUND_MS WARM_MS [REGEX]. Writes JMH's JSON shape
 * (benchmark, params.input, primaryMetric.rawData in ops/s per round), which kotlin.ts reads.
 */
public final class Interleaved {
    private record Subject(String benchmark, Callable<Object> run, Runnable fresh) {}

    private record Case(String param, List<Subject> subjects) {}

    /** Results escape here so the JIT cannot drop the work that made them. */
    private static volatile Object sink;

    /** The whole process's CPU time: the collector's threads count, as process.cpuUsage() counts them for TypeScript. */
    private static final com.sun.management.OperatingSystemMXBean OS =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] args) throws Exception {
        if (args.length < 4) throw new IllegalArgumentException("usage: Interleaved OUT.json ROUNDS ROUND_MS WARM_MS [REGEX]");
        Path out = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long roundNs = Long.parseLong(args[2]) * 1_000_000L;
        long warmNs = Long.parseLong(args[3]) * 1_000_000L;
        Pattern only = args.length > 4 ? Pattern.compile(args[4]) : null;
        if (OS.getProcessCpuTime() < 0) throw new IllegalStateException("this JVM cannot read the process's CPU time");
        StringBuilder json = new StringBuilder("[");
        for (Case c : cases()) {
            List<Subject> subjects = c.subjects().stream().filter(s -> only == null || only.matcher(s.benchmark()).find()).toList();
            if (subjects.isEmpty()) continue;
            for (Subject s : subjects) {
                s.fresh().run();
                rate(s.run(), warmNs);
            }
            double[][] perRound = new double[subjects.size()][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < subjects.size(); i++) {
                    subjects.get(i).fresh().run();
                    perRound[i][r] = rate(subjects.get(i).run(), roundNs);
                }
            }
            for (int i = 0; i < subjects.size(); i++) {
                if (json.length() > 1) json.append(',');
                appendResult(json, subjects.get(i).benchmark(), c.param(), perRound[i]);
            }
            System.err.println("kotlin bench: " + (c.param().isEmpty() ? subjects.get(0).benchmark() : c.param()) + " done");
        }
        Files.writeString(out, json.append(']').toString(), StandardCharsets.UTF_8);
    }

    /** Calls per second of the process's CPU time, over at least [budgetNs]; batches grow until one is measurable. */
    private static double rate(Callable<Object> run, long budgetNs) throws Exception {
        long batch = 1;
        long calls = 0;
        long start = OS.getProcessCpuTime();
        long elapsed;
        do {
            for (long i = 0; i < batch; i++) sink = run.call();
            calls += batch;
            elapsed = OS.getProcessCpuTime() - start;
            if (elapsed < budgetNs / 50) batch *= 2;
        } while (elapsed < budgetNs);
        return calls * 1e9 / elapsed;
    }

    private static void appendResult(StringBuilder json, String benchmark, String param, double[] opsPerSec) {
        json.append("{\"benchmark\":\"dev.agentcontracts.bench.").append(benchmark).append('"');
        if (!param.isEmpty()) json.append(",\"params\":{\"input\":\"").append(param).append("\"}");
        json.append(",\"primaryMetric\":{\"scoreUnit\":\"ops/s\",\"rawData\":[[");
        for (int r = 0; r < opsPerSec.length; r++) json.append(r > 0 ? "," : "").append(opsPerSec[r]);
        json.append("]]}}");
    }

    private static final Runnable NOTHING = () -> {};

    private static Subject subject(String benchmark, Callable<Object> run) {
        return new Subject(benchmark, run, NOTHING);
    }

    /** Every case of the JMH classes, each set up as JMH would (its @Setup, its @Param value). */
    private static List<Case> cases() throws Exception {
        List<Case> cases = new ArrayList<>();
        for (String input : new String[] {
            "ActionProposal/valid", "ActionProposal/invalid", "WorkflowRequest/valid", "WorkflowRequest/invalid",
            "ConnectorPackage/valid", "ConnectorPackage/invalid",
        }) {
            ValidationBench b = new ValidationBench();
            b.input = input;
            b.setup();
            cases.add(new Case(input, List.of(
                subject("ValidationBench.generated", b::generated),
                subject("ValidationBench.validateTree", b::validateTree),
                subject("ValidationBench.schemaGenerated", b::schemaGenerated),
                subject("ValidationBench.schemaOnly", b::schemaOnly),
                subject("ValidationBench.rulesCompiled", b::rulesCompiled),
                subject("ValidationBench.rulesInterpreted", b::rulesInterpreted),
                subject("ValidationBench.networknt", b::networknt),
                subject("ValidationBench.kotlinxDecode", b::kotlinxDecode))));
        }
        for (String input : new String[] {"small", "medium", "large"}) {
            ParseBench b = new ParseBench();
            b.input = input;
            b.setup();
            cases.add(new Case(input, List.of(
                subject("ParseBench.strictParse", b::strictParse),
                subject("ParseBench.kotlinxParse", b::kotlinxParse),
                subject("ParseBench.canonicalize", b::canonicalize),
                subject("ParseBench.kotlinxEncode", b::kotlinxEncode))));
        }
        ParseBench.Typed typed = new ParseBench.Typed();
        typed.setup();
        cases.add(new Case("", List.of(
            subject("ParseBench.Typed.parseConnectorPackage", typed::parseConnectorPackage),
            subject("ParseBench.Typed.kotlinxDecode", typed::kotlinxDecode))));
        for (String input : new String[] {"trigger", "proposal"}) {
            VerifyBench b = new VerifyBench();
            b.input = input;
            b.setup();
            cases.add(new Case(input, List.of(
                subject("VerifyBench.ours", b::ours),
                subject("VerifyBench.raw", b::raw),
                subject("VerifyBench.floor", b::floor),
                subject("VerifyBench.buildInput", b::buildInput))));
        }
        // Both sides start from an empty table each round, as JMH's @Setup(Level.Iteration) does.
        ReplayBench replay = new ReplayBench();
        cases.add(new Case("", List.of(
            new Subject("ReplayBench.store", replay::store, replay::fresh),
            new Subject("ReplayBench.hashMap", replay::hashMap, replay::fresh))));
        return cases;
    }

    private Interleaved() {}
}
