package org.jtensor;

/**
 * The draws as jtensor computed them in Java before the random kernels moved to native code,
 * kept as the reference a seeded draw must still reproduce (same seed, same numbers).
 */
final class PhiloxReference {
  private static final int M0 = 0xD2511F53, M1 = 0xCD9E8D57, W0 = 0x9E3779B9, W1 = 0xBB67AE85;

  private final long key;
  private long offset;

  PhiloxReference(long seed) {
    key = seed;
  }

  static void block(long key, long counter, int[] out) {
    int c0 = (int) counter, c1 = (int) (counter >>> 32), c2 = 0, c3 = 0;
    int k0 = (int) key, k1 = (int) (key >>> 32);
    for (int r = 0; r < 10; r++) {
      long p0 = (M0 & 0xffffffffL) * (c0 & 0xffffffffL);
      long p1 = (M1 & 0xffffffffL) * (c2 & 0xffffffffL);
      int n0 = (int) (p1 >>> 32) ^ c1 ^ k0;
      int n2 = (int) (p0 >>> 32) ^ c3 ^ k1;
      c1 = (int) p1;
      c3 = (int) p0;
      c0 = n0;
      c2 = n2;
      k0 += W0;
      k1 += W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
  }

  private long reserve(long blocks) {
    long start = offset;
    offset += blocks;
    return start;
  }

  double[] uniform53(int n) {
    double[] out = new double[n];
    long start = reserve((n + 1) / 2);
    int[] w = new int[4];
    for (int i = 0; i < n; i += 2) {
      block(key, start + i / 2, w);
      out[i] = bits53(w[0], w[1]);
      if (i + 1 < n) out[i + 1] = bits53(w[2], w[3]);
    }
    return out;
  }

  /** A uniform draw into a dtype of `digits` significand bits below float64: the top bits of word 0 (even elements) or 2 (odd). */
  double[] uniformDigits(int n, int digits) {
    double[] out = new double[n];
    long start = reserve((n + 1) / 2);
    int[] w = new int[4];
    for (int i = 0; i < n; i++) {
      block(key, start + i / 2, w);
      out[i] = (w[(i & 1) * 2] >>> (32 - digits)) / (double) (1 << digits);
    }
    return out;
  }

  float[] uniform24(int n) {
    float[] out = new float[n];
    long start = reserve((n + 3) / 4);
    int[] w = new int[4];
    for (int i = 0; i < n; i++) {
      if ((i & 3) == 0) block(key, start + i / 4, w);
      out[i] = (w[i & 3] >>> 8) * 0x1.0p-24f;
    }
    return out;
  }

  double[] normal(int n) {
    double[] u = uniform53(n + (n & 1));
    double[] out = new double[n];
    for (int i = 0; i < n; i += 2) {
      double r = Math.sqrt(-2.0 * Math.log(1.0 - u[i]));
      double th = 2.0 * Math.PI * u[i + 1];
      out[i] = r * Math.cos(th);
      if (i + 1 < n) out[i + 1] = r * Math.sin(th);
    }
    return out;
  }

  long[] integers(int n, long low, long high) {
    long[] out = new long[n];
    long range = high - low;
    long start = reserve((n + 1) / 2);
    int[] w = new int[4];
    for (int i = 0; i < n; i += 2) {
      block(key, start + i / 2, w);
      out[i] = low + Long.remainderUnsigned(((long) w[0] << 32) | (w[1] & 0xffffffffL), range);
      if (i + 1 < n) out[i + 1] = low + Long.remainderUnsigned(((long) w[2] << 32) | (w[3] & 0xffffffffL), range);
    }
    return out;
  }

  private static double bits53(int hi, int lo) {
    return ((((long) hi << 32) | (lo & 0xffffffffL)) >>> 11) * 0x1.0p-53;
  }
}
