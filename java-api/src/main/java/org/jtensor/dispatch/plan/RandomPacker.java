package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The random plan: a draw of one kind into dst, element e from Philox block counter + f(e) under key. */
public final class RandomPacker {
  private RandomPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("random",
      "version", "kind", "dtype", "ndim", "dst", "key", "counter", "a", "b", "p", "sizes[ndim]", "dst_strides[ndim]", "p_strides[ndim]");
  private static final int KIND = LAYOUT.at("kind"), DTYPE = LAYOUT.at("dtype"), NDIM = LAYOUT.at("ndim"), DST = LAYOUT.at("dst"),
      KEY = LAYOUT.at("key"), COUNTER = LAYOUT.at("counter"), A = LAYOUT.at("a"), B = LAYOUT.at("b"), P = LAYOUT.at("p");

  /** a and b: the kind's parameters as raw bits (doubles, or integers' low and range); p 0 unless the kind reads one. */
  public static long[] pack(int kind, DType dtype, long dst, long key, long counter, long a, long b, long p,
                            long[] sizes, long[] dstStrides, long[] pStrides) {
    int n = sizes.length;
    long[] w = LAYOUT.allocate(3 * n);
    w[KIND] = kind;
    w[DTYPE] = dtype.code();
    w[NDIM] = n;
    w[DST] = dst;
    w[KEY] = key;
    w[COUNTER] = counter;
    w[A] = a;
    w[B] = b;
    w[P] = p;
    PlanLayout.put(w, PlanLayout.put(w, PlanLayout.put(w, LAYOUT.header(), sizes), dstStrides), pStrides);
    return w;
  }
}
