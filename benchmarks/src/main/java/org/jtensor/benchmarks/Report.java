package org.jtensor.benchmarks;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs the JMH suite (same arguments as JMH's own main) and prints every benchmark beside its
 * peers: a method named {@code case} is jtensor, {@code case_peer} the peer (plainC, sgemm,
 * libtorch, nd4j); the ratio is peer time / jtensor time (above 1: jtensor is faster). Where CUDA
 * is unavailable the GPU benchmarks (package gpu; gpu.GpuReport prints their own table) are left out.
 */
public final class Report {
  public static void main(String[] args) throws Exception {
    if (!org.jtensor.cuda.Cuda.isAvailable()) {
      System.out.println("GPU benchmarks skipped: CUDA unavailable: " + org.jtensor.cuda.Cuda.unavailableReason());
      String[] more = java.util.Arrays.copyOf(args, args.length + 2);
      more[args.length] = "-e";
      more[args.length + 1] = "org\\.jtensor\\.benchmarks\\.gpu\\.";
      args = more;
    }
    Collection<RunResult> results = new Runner(new CommandLineOptions(args)).run();
    Map<String, Map<String, double[]>> byCase = new TreeMap<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark().replaceAll(".*\\.", "");
      String params = r.getParams().getParamsKeys().isEmpty() ? "" : r.getParams().getParamsKeys().stream()
          .map(k -> k + "=" + r.getParams().getParam(k)).reduce("", (x, y) -> x + " " + y);
      int us = method.indexOf('_');
      String kase = (us < 0 ? method : method.substring(0, us)) + params;
      String who = us < 0 ? "jtensor" : method.substring(us + 1);
      byCase.computeIfAbsent(kase, k -> new LinkedHashMap<>())
          .put(who, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
    }
    System.out.println();
    System.out.printf("%-36s %22s   %s%n", "case", "jtensor", "peers (time, peer/jtensor)");
    for (Map.Entry<String, Map<String, double[]>> e : byCase.entrySet()) {
      double[] j = e.getValue().get("jtensor");
      StringBuilder peers = new StringBuilder();
      for (Map.Entry<String, double[]> p : e.getValue().entrySet()) {
        if (p.getKey().equals("jtensor")) continue;
        peers.append(String.format("%s %.4g", p.getKey(), p.getValue()[0]));
        if (j != null) peers.append(String.format(" (%.2fx)", p.getValue()[0] / j[0]));
        peers.append("   ");
      }
      System.out.printf("%-36s %22s   %s%n", e.getKey(), j == null ? "-" : String.format("%.4g ± %.2g", j[0], j[1]), peers);
    }
  }
}
