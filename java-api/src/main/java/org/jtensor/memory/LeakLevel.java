package org.jtensor.memory;

import java.util.Locale;

/**
 * How hard the leak detector looks, from the system property {@code jtensor.leakDetection}:
 * DISABLED (no tracking: a leak stays leaked), SIMPLE (the default: free and report), PARANOID
 * (also record where each storage was made).
 */
public enum LeakLevel {
  DISABLED, SIMPLE, PARANOID;

  /** The property's value; null or empty is SIMPLE. */
  public static LeakLevel parse(String s) {
    if (s == null || s.isEmpty()) return SIMPLE;
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("jtensor.leakDetection must be DISABLED, SIMPLE or PARANOID, got '" + s + "'");
    }
  }
}
