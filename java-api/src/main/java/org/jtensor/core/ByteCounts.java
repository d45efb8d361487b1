package org.jtensor.core;

/** Byte counts as people read them in messages: "784.00 KiB", "1.27 GiB". */
public final class ByteCounts {
  private ByteCounts() {}

  public static String format(long b) {
    if (b >= 1L << 30) return String.format("%.2f GiB", b / (double) (1L << 30));
    if (b >= 1L << 20) return String.format("%.2f MiB", b / (double) (1L << 20));
    if (b >= 1L << 10) return String.format("%.2f KiB", b / (double) (1L << 10));
    return b + " bytes";
  }
}
