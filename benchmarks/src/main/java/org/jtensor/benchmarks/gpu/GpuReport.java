package org.jtensor.benchmarks.gpu;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtensor.cuda.Cuda;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs the GPU benchmarks (GpuBenchmark, GpuTrainingBenchmark) and prints each beside PyTorch's
 * figure on an H100 with the ratio and the issue's target, as a Markdown table, also written to
 * the file named by {@code --summary FILE}. {@code --peer COMMAND} (one argument, split at spaces)
 * runs PyTorch's side of the same cases (TorchPeer) before and after JMH: the table then holds
 * PyTorch's figure from this run, and targets stated against PyTorch are held against it. Other
 * arguments go to JMH (a regex narrows the cases).
 * It exits 1, naming the piece, when CUDA is unavailable, a benchmark fails (JMH runs with
 * fail-on-error) or, without a regex, a case of GpuFigures did not run. With -Djt.cuda.dryRun=true
 * the CPU stands in at small sizes (GpuBenchmark.DRY_RUN): the figures are then no GPU's.
 */
public final class GpuReport {
  private GpuReport() {}

  public static void main(String[] args) throws Exception {
    Path summary = null;
    TorchPeer peer = null;
    List<String> jmh = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--summary")) summary = Path.of(args[++i]);
      else if (args[i].equals("--peer")) peer = new TorchPeer(args[++i]);
      else jmh.add(args[i]);
    }
    if (!GpuBenchmark.DRY_RUN && !Cuda.isAvailable()) {
      write(summary, List.of("- GPU benchmarks: FAILED, CUDA unavailable: " + Cuda.unavailableReason()));
      System.exit(1);
    }
    jmh.add(0, "-foe");  // a benchmark that throws fails the run, not just its row
    jmh.add(1, "true");
    CommandLineOptions options = new CommandLineOptions(jmh.toArray(new String[0]));
    boolean all = options.getIncludes().isEmpty();
    if (all) {
      jmh.add(0, "org\\.jtensor\\.benchmarks\\.gpu\\.Gpu.*Benchmark");
      options = new CommandLineOptions(jmh.toArray(new String[0]));
    }
    Map<String, Double> seconds;
    if (peer != null) peer.run();
    try {
      seconds = secondsPerOp(new Runner(options).run());
    } catch (RunnerException e) {
      StringBuilder why = new StringBuilder(String.valueOf(e.getMessage()));
      for (Throwable c = e.getCause(); c != null; c = c.getCause() == c ? null : c.getCause()) {
        why.append(": ").append(c);
        for (Throwable s : c.getSuppressed()) why.append(" [").append(s).append("]");  // a fork's own error: the piece that broke
      }
      write(summary, List.of("- GPU benchmarks: FAILED, " + why.toString().replace('\n', ' ')));
      System.exit(1);
      return;
    }
    if (peer != null) peer.run();
    List<String> lines = table(seconds, peer);
    lines.add("");
    if (peer != null) {
      lines.add("- PyTorch, this run: " + (peer.device().isEmpty() ? "no figures" : peer.device())
          + ", the median of its runs before and after jtensor's");
      for (String p : peer.problems()) lines.add("- PyTorch peer: " + p);
    } else {
      lines.add("- PyTorch, this run: not run (no --peer): the ratios are against PyTorch 2.11's figures on an H100");
    }
    if (GpuBenchmark.DRY_RUN) lines.add("- device: the CPU standing in for cuda:0 at small sizes (dry run): no figure above is a GPU's");
    List<String> missing = new ArrayList<>();
    for (GpuFigures f : GpuFigures.values()) if (all && !seconds.containsKey(f.key)) missing.add(f.key);
    lines.add(missing.isEmpty() ? "- bench: passed, " + seconds.size() + " cases" : "- bench: FAILED, cases that did not run: " + missing);
    write(summary, lines);
    if (!missing.isEmpty()) System.exit(1);
  }

  /** Each case ("method" or "method param=value") and its time per op in seconds. */
  static Map<String, Double> secondsPerOp(Collection<RunResult> results) {
    Map<String, Double> seconds = new LinkedHashMap<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark().replaceAll(".*\\.", "");
      String params = r.getParams().getParamsKeys().stream().map(k -> " " + k + "=" + r.getParams().getParam(k))
          .reduce("", String::concat);
      TimeUnit unit = r.getParams().getTimeUnit();
      double s = r.getPrimaryResult().getScore() * unit.toNanos(1) * 1e-9;  // AverageTime: time per op in unit
      seconds.put(method + params, s);
    }
    return seconds;
  }

  /** One row per case that has a figure, in GpuFigures' order, then any other case; peer may be null. */
  static List<String> table(Map<String, Double> seconds, TorchPeer peer) {
    Map<String, Double> values = new LinkedHashMap<>();
    seconds.forEach((k, s) -> {
      GpuFigures f = GpuFigures.of(k);
      if (f != null) values.put(k, f.value(s));
    });
    List<String> rows = new ArrayList<>();
    rows.add("| bench: case | jtensor | PyTorch, this run | jtensor / PyTorch | PyTorch 2.11, H100 (issue 10) | jtensor / that | target | met |");
    rows.add("|---|---|---|---|---|---|---|---|");
    for (GpuFigures f : GpuFigures.values()) {
      Double v = values.get(f.key);
      if (v == null) continue;
      Double peerSeconds = peer == null ? null : peer.median(f.key);
      Double p = peerSeconds == null ? null : f.value(peerSeconds);
      boolean issue10 = f.pytorch > 0;  // cases issue 10 measured on an H100; later ones have only this run's peer
      rows.add(String.format("| %s | %s | %s | %s | %s | %s | %s | %s |", f.what, f.format(v),
          p == null ? "-" : f.format(p) + " (" + peer.runsOf(f.key) + " runs)", p == null ? "-" : String.format("%.2f", f.ratio(v, p)),
          issue10 ? f.format(f.pytorch) : "-", issue10 ? String.format("%.2f", f.ratio(v, f.pytorch)) : "-", f.targetText, f.met(v, values, p)));
    }
    seconds.forEach((k, s) -> {
      if (GpuFigures.of(k) == null) rows.add(String.format("| %s | %.3f us per op | - | - | - | - | - | - |", k, s * 1e6));
    });
    return rows;
  }

  private static void write(Path summary, List<String> lines) throws IOException {
    PrintStream out = System.out;
    out.println();
    for (String l : lines) out.println(l);
    if (summary != null) Files.write(summary, lines);
  }
}
