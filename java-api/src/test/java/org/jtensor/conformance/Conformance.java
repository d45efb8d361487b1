package org.jtensor.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/** Loads the libtorch-generated conformance files from test resources and tallies the results. */
final class Conformance {
  private final String name;
  private int passed;
  private final List<String> failures = new ArrayList<>();

  Conformance(String name) {
    this.name = name;
  }

  /** The tally of a file's cases run on device (named when it is not the CPU). */
  Conformance(String file, org.jtensor.Device device) {
    this(device.isCpu() ? file : file + " on " + device);
  }

  static JsonNode load(String file) {
    try (InputStream in = Conformance.class.getResourceAsStream("/conformance/" + file)) {
      if (in == null) throw new IllegalStateException("missing test resource conformance/" + file);
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs one case; an AssertionError or unexpected exception counts as a failure with its message. */
  void run(String id, Runnable body) {
    try {
      body.run();
      passed++;
    } catch (AssertionError | RuntimeException e) {
      failures.add(id + ": " + e);
    }
  }

  /** Prints the tally line CI reads and the failures, and returns whether all passed. */
  boolean report() {
    for (String f : failures) System.out.println("  FAILED " + f);
    System.out.println(name + ":");
    System.out.println("conformance: " + passed + " passed, " + failures.size() + " failed");
    return failures.isEmpty();
  }

  String summary() {
    return String.join("\n", failures);
  }

  static long[] longs(JsonNode arr) {
    long[] out = new long[arr.size()];
    for (int i = 0; i < out.length; i++) out[i] = arr.get(i).asLong();
    return out;
  }

  static int[] ints(JsonNode arr) {
    int[] out = new int[arr.size()];
    for (int i = 0; i < out.length; i++) out[i] = arr.get(i).asInt();
    return out;
  }

  /** A float as the README says: decimals parse exactly, specials are strings. */
  static double number(JsonNode v) {
    if (v.isTextual()) {
      switch (v.asText()) {
        case "nan": return Double.NaN;
        case "inf": return Double.POSITIVE_INFINITY;
        case "-inf": return Double.NEGATIVE_INFINITY;
        default: return Double.parseDouble(v.asText());
      }
    }
    if (v.isBoolean()) return v.asBoolean() ? 1 : 0;
    return v.asDouble();
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }
}
