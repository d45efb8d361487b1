package org.jtensor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * CudaSuite's count of what ran, by top-level test class (nested and dynamic tests count for the
 * class they are in): tests passed, and each failure, abort and skip with its reason. A failed or
 * skipped container (a class whose set-up threw) counts against its class as well, so a class that
 * could not even start is never silent.
 */
final class CudaTally implements TestExecutionListener {
  static final class Counts {
    int found, passed;
    final List<String> failed = new ArrayList<>(), aborted = new ArrayList<>(), skipped = new ArrayList<>();
  }

  private final Map<String, Counts> byClass = new TreeMap<>();

  synchronized Counts of(String className) {
    return byClass.computeIfAbsent(className, k -> new Counts());
  }

  synchronized List<String> classes() {
    List<String> names = new ArrayList<>();
    byClass.forEach((k, c) -> { if (c.found > 0) names.add(k); });
    return names;
  }

  @Override
  public void executionStarted(TestIdentifier id) {
    String c = topClass(id);
    if (c != null && id.isTest()) {
      of(c).found++;
      System.out.println("START " + c + " " + id.getLegacyReportingName());  // a hang's last line names the test
      System.out.flush();
    }
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    String c = topClass(id);
    if (c == null) return;
    Counts counts = of(c);
    counts.found++;
    counts.skipped.add(id.getLegacyReportingName() + " in " + c + ": " + reason);
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    String c = topClass(id);
    if (c == null) return;
    Counts counts = of(c);
    String what = (id.isTest() ? "" : "set-up of ") + id.getLegacyReportingName() + " in " + c + ": "
        + result.getThrowable().map(CudaTally::describe).orElse("(no exception)");
    switch (result.getStatus()) {
      case SUCCESSFUL:
        if (id.isTest()) counts.passed++;
        break;
      case FAILED:
        counts.failed.add(what);
        result.getThrowable().ifPresent(t -> {  // the whole story goes to the log; the summary keeps a line
          System.out.println("FAILED " + id.getLegacyReportingName() + " in " + c + ":");
          t.printStackTrace(System.out);
        });
        break;
      default:
        counts.aborted.add(what);
    }
  }

  /** The first line of the throwable and its cause's: enough to name the piece that broke. */
  private static String describe(Throwable t) {
    String s = t.toString();
    int nl = s.indexOf('\n');
    if (nl >= 0) s = s.substring(0, nl) + " ...";
    if (s.length() > 400) s = s.substring(0, 400) + " ...";
    return t.getCause() != null && t.getCause() != t ? s + " (cause: " + describe(t.getCause()) + ")" : s;
  }

  /** The outermost test class id belongs to (from its unique id), or null for the engine itself. */
  static String topClass(TestIdentifier id) {
    for (UniqueId.Segment s : UniqueId.parse(id.getUniqueId()).getSegments()) {
      if (s.getType().equals("class")) return s.getValue();
    }
    return null;
  }
}
