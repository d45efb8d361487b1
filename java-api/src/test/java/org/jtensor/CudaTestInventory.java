package org.jtensor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * cuda-tests.expected (a test resource, and a file of the GPU bundle): the one statement of which
 * CUDA tests a GPU run must pass. {@code junit PHASE CLASS COUNT}: a class tagged cuda and how many
 * tests it runs (nested, dynamic and parameterized tests included); {@code ctest PHASE NAME}: a CTest
 * executable labelled cuda. CudaSuite and gpu-check.sh check a run against it; the dry run of the
 * test command keeps it true, since it runs every listed class.
 */
final class CudaTestInventory {
  static final String RESOURCE = "/cuda-tests.expected";
  static final List<String> PHASES = List.of("quick", "tests");

  private final List<String[]> lines;

  private CudaTestInventory(List<String[]> lines) {
    this.lines = lines;
  }

  static CudaTestInventory load() throws IOException {
    try (InputStream in = CudaTestInventory.class.getResourceAsStream(RESOURCE)) {
      if (in == null) throw new IOException(RESOURCE + " is not on the class path");
      List<String[]> lines = new ArrayList<>();
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      int n = 0;
      for (String line; (line = r.readLine()) != null; ) {
        n++;
        line = line.strip();
        if (line.isEmpty() || line.startsWith("#")) continue;
        String[] f = line.split("\\s+");
        boolean ok = f[0].equals("junit") ? f.length == 4 && f[3].matches("[1-9][0-9]*") : f[0].equals("ctest") && f.length == 3;
        if (ok) ok = PHASES.contains(f[1]);  // a mistyped phase would drop its tests from every run
        if (!ok) throw new IOException(RESOURCE + " line " + n + ": expected 'junit PHASE CLASS COUNT' or 'ctest PHASE NAME', PHASE one of "
            + PHASES + ": " + line);
        lines.add(f);
      }
      return new CudaTestInventory(lines);
    }
  }

  /** The JUnit classes of a phase and the number of tests each must pass, in the file's order. */
  Map<String, Integer> junit(String phase) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (String[] f : lines) if (f[0].equals("junit") && f[1].equals(phase)) m.put(f[2], Integer.parseInt(f[3]));
    return m;
  }

  /** The JUnit classes listed in phases other than this one. */
  List<String> otherPhases(String phase) {
    List<String> names = new ArrayList<>();
    for (String[] f : lines) if (f[0].equals("junit") && !f[1].equals(phase)) names.add(f[2]);
    return names;
  }
}
