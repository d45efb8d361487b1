package org.jtensor.benchmarks.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PyTorch on the same GPU in the same run: runs the peer script (benchmarks/peers/torch_gpu_peer.py,
 * GpuBenchmark's cases in PyTorch) and keeps each case's seconds per op from its lines
 * {@code peer KEY... SECONDS RATE}. GpuReport runs it before and after JMH, so a figure is the
 * median of runs that bracket jtensor's.
 */
final class TorchPeer {
  private final List<String> command;
  private final Map<String, List<Double>> seconds = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();
  private String device = "";

  TorchPeer(String command) {
    this.command = Arrays.asList(command.trim().split("\\s+"));
  }

  /** One run of the peer; a failure is kept (problems()), not thrown: PyTorch is the yardstick, not the thing tested. */
  void run() {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      List<String> tail = new ArrayList<>();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          System.out.println(line);
          if (tail.size() == 3) tail.remove(0);
          tail.add(line);
          parse(line);
        }
      }
      int rc = p.waitFor();
      if (rc != 0) problems.add("the PyTorch peer exited " + rc + ": " + String.join(" / ", tail));
    } catch (IOException e) {
      problems.add("the PyTorch peer did not start: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      problems.add("interrupted while the PyTorch peer ran");
    }
  }

  private void parse(String line) {
    String[] w = line.trim().split("\\s+");
    if (w.length < 3 || !w[0].equals("peer")) return;
    if (w[1].equals("device")) {
      device = line.trim().substring("peer device ".length());
      return;
    }
    try {
      double s = Double.parseDouble(w[w.length - 2]);
      String key = String.join(" ", Arrays.copyOfRange(w, 1, w.length - 2));
      seconds.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
    } catch (NumberFormatException ignored) {
      // not a figure line
    }
  }

  /** The median of the runs' seconds per op for a case (GpuFigures' key), or null where none ran. */
  Double median(String key) {
    List<Double> v = seconds.get(key);
    if (v == null || v.isEmpty()) return null;
    List<Double> sorted = new ArrayList<>(v);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  int runsOf(String key) {
    List<Double> v = seconds.get(key);
    return v == null ? 0 : v.size();
  }

  String device() {
    return device;
  }

  List<String> problems() {
    return problems;
  }
}
