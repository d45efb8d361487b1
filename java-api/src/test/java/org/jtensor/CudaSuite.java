package org.jtensor;

import static org.junit.platform.engine.discovery.ClassNameFilter.excludeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtensor.cuda.Cuda;
import org.jtensor.dispatch.CudaMatmul;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the JUnit tests tagged cuda of one phase of a GPU run and holds them to cuda-tests.expected
 * ({@link CudaTestInventory}): every listed class must be found and pass exactly its listed number
 * of tests, none failed, aborted or skipped, no unlisted class. The one JUnit entry point of both
 * {@code scripts/gpu-check.sh} (from the bundle) and {@code mvn -Pgpu verify}.
 *
 * <pre>java org.jtensor.CudaSuite --phase quick|tests [--only SimpleClassName ...] [--summary FILE]</pre>
 *
 * CUDA must be available (jt.cuda.required is set here), unless {@code -Djt.cuda.dryRun=true} puts
 * the CPU in its place. It prints one Markdown table (also written to --summary) and exits 0 only
 * when every check holds; otherwise 1, each broken check named on a line of its own.
 */
public final class CudaSuite {
  private CudaSuite() {}

  public static void main(String[] args) throws IOException {
    String phase = "tests";
    Path summary = null;
    List<String> only = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--phase": phase = args[++i]; break;
        case "--summary": summary = Path.of(args[++i]); break;
        case "--only": only.add(args[++i]); break;
        default: throw new IllegalArgumentException("CudaSuite: unknown argument " + args[i]);
      }
    }
    if (System.getProperty("jt.cuda.required") == null) System.setProperty("jt.cuda.required", "true");
    List<String> out = new ArrayList<>();
    int status;
    try {
      status = run(phase, only, out);
    } catch (IOException | RuntimeException e) {  // cuda-tests.expected unreadable or malformed: said in the summary, not only a trace
      out.add("- " + phase + ": FAILED before any test ran: " + e.getMessage());
      status = 1;
    }
    System.out.println();
    out.forEach(System.out::println);
    if (summary != null) Files.write(summary, out);
    System.out.flush();
    System.exit(status);
  }

  /** Runs the phase's classes (all of them, or those named in only), appends the table and verdicts to out; 0 when all held. */
  static int run(String phase, List<String> only, List<String> out) throws IOException {
    CudaTestInventory expected = CudaTestInventory.load();
    Map<String, Integer> classes = expected.junit(phase);
    if (classes.isEmpty()) throw new IllegalArgumentException("CudaSuite: no phase '" + phase + "' in cuda-tests.expected");
    List<String> problems = new ArrayList<>();
    String device = deviceLine(problems);
    if (!only.isEmpty()) {
      classes.keySet().removeIf(c -> !only.contains(c.substring(c.lastIndexOf('.') + 1)));
      for (String o : only) {
        if (classes.keySet().stream().noneMatch(c -> c.endsWith("." + o))) problems.add("--only " + o + ": not a " + phase + " class of cuda-tests.expected");
      }
    }
    CudaTally tally = new CudaTally();
    boolean ran = CudaAccounting.dryRun() || Cuda.isAvailable();  // without CUDA every test would fail alike: said once above
    if (ran && problems.stream().noneMatch(p -> p.startsWith("--only"))) {
      execute(selectors(phase, classes, only.isEmpty()), expected.otherPhases(phase), tally);
    }
    else ran = false;
    out.add("| " + phase + ": JUnit class (tag cuda) | expected | passed | failed | aborted | skipped |");
    out.add("|---|---|---|---|---|---|");
    int passed = 0, want = 0;
    for (Map.Entry<String, Integer> e : classes.entrySet()) {
      CudaTally.Counts c = tally.of(e.getKey());
      out.add(String.format("| %s | %d | %d | %d | %d | %d |", e.getKey(), e.getValue(), c.passed, c.failed.size(), c.aborted.size(),
          c.skipped.size()));
      passed += c.passed;
      want += e.getValue();
      if (!ran) continue;
      if (c.found == 0 && c.failed.isEmpty() && c.aborted.isEmpty()) problems.add(e.getKey() + ": no test found (class missing from the test classes?)");
      else if (c.passed != e.getValue() && c.failed.isEmpty() && c.aborted.isEmpty() && c.skipped.isEmpty()) {
        problems.add(e.getKey() + ": " + c.passed + " tests passed, cuda-tests.expected lists " + e.getValue());
      }
      c.failed.forEach(f -> problems.add("FAILED " + f));
      c.aborted.forEach(f -> problems.add("ABORTED " + f));
      c.skipped.forEach(f -> problems.add("SKIPPED " + f));
    }
    for (String c : tally.classes()) {
      if (!classes.containsKey(c)) problems.add(c + ": runs tests tagged cuda but cuda-tests.expected does not list it in phase " + phase);
    }
    out.add(String.format("| **all** | %d | %d | | | |", want, passed));
    out.add("");
    out.add(device);
    if (problems.isEmpty()) out.add("- " + phase + ": passed, " + passed + " tests in " + classes.size() + " classes");
    else {
      out.add("- " + phase + ": FAILED, " + problems.size() + " problems:");
      for (String p : problems) out.add("  - " + p.replace('\n', ' '));
    }
    return problems.isEmpty() ? 0 : 1;
  }

  /** Every class of the package tree (the tag decides what runs), or just the listed ones. */
  private static List<DiscoverySelector> selectors(String phase, Map<String, Integer> classes, boolean whole) {
    List<DiscoverySelector> s = new ArrayList<>();
    if (whole && phase.equals("tests")) s.add(selectPackage("org.jtensor"));  // finds unlisted classes too
    else for (String c : classes.keySet()) s.add(selectClass(c));
    return s;
  }

  /**
   * Runs what the tag cuda selects, whatever the class is named, less the classes of other phases
   * (the quick phase's smoke test does not run again in the tests phase).
   */
  private static void execute(List<DiscoverySelector> selectors, List<String> otherPhases, CudaTally tally) {
    List<String> excluded = new ArrayList<>();
    for (String c : otherPhases) excluded.add(java.util.regex.Pattern.quote(c) + "(\\$.*)?");
    LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request().selectors(selectors).filters(TagFilter.includeTags("cuda"))
        .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true");
    if (!excluded.isEmpty()) b.filters(excludeClassNamePatterns(excluded.toArray(new String[0])));
    LauncherDiscoveryRequest request = b.build();
    Launcher launcher = LauncherFactory.create();
    TestPlan plan = launcher.discover(request);
    launcher.execute(plan, tally);
  }

  /** What this process runs on: the device (or the dry run's stand-in) and cuBLAS, or why not. */
  private static String deviceLine(List<String> problems) {
    if (CudaAccounting.dryRun()) return "- device: the CPU standing in for cuda:0 (dry run: the tests themselves are checked, not a GPU)";
    if (!Cuda.isAvailable()) {
      problems.add("CUDA unavailable: " + Cuda.unavailableReason());
      return "- device: none, CUDA unavailable: " + Cuda.unavailableReason();
    }
    String cublas = CudaMatmul.cublasUnavailableReason();
    if (cublas != null) problems.add(cublas);
    return "- device: cuda:0 of " + Cuda.deviceCount() + "; cuBLAS " + (cublas == null ? "loaded" : "MISSING: " + cublas);
  }
}
