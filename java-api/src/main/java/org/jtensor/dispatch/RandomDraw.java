package org.jtensor.dispatch;

import org.jtensor.bindings.JtNative;
import org.jtensor.core.TensorImpl;

/**
 * One random draw into dst, ready for a Backend: its kind, the Philox key (the generator's seed)
 * and the counter of its first block (reserved from the generator), the kind's two parameters
 * as raw bits, and for BERNOULLI_TENSOR the float64 probabilities laid over dst's shape.
 */
public final class RandomDraw {
  /** How element e becomes a value; the native kernel states each (kernels/random.h). */
  public enum Kind {
    UNIFORM53, UNIFORM24, NORMAL, INTEGERS, BERNOULLI, BERNOULLI_TENSOR;

    /** The native kind code, found by name. */
    public final int code = JtNative.jt_random_kind(name().toLowerCase(java.util.Locale.ROOT));

    Kind() {
      if (code < 0) throw new IllegalStateException("jtensor: the native random kernel has no kind '" + name() + "'");
    }

    /** Philox blocks (4 words) that n elements of this kind consume. */
    public long blocks(long n) {
      return this == UNIFORM24 ? (n + 3) / 4 : (n + 1) / 2;
    }
  }

  public final String name;
  public final Kind kind;
  public final TensorImpl dst;
  public final long key, counter, a, b;
  public final TensorImpl p;          // null unless BERNOULLI_TENSOR
  public final long[] pStrides;       // p's strides over dst's shape

  public RandomDraw(String name, Kind kind, TensorImpl dst, long key, long counter, long a, long b, TensorImpl p, long[] pStrides) {
    this.name = name;
    this.kind = kind;
    this.dst = dst;
    this.key = key;
    this.counter = counter;
    this.a = a;
    this.b = b;
    this.p = p;
    this.pStrides = pStrides;
  }
}
