package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.access.SharedSecrets;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.RandomDraw;
import org.jtensor.core.TensorImpl;

/**
 * Random draws into tensors: the generator reserves the Philox blocks a draw consumes (its only
 * state), and the device's kernel computes every value from (seed, counter), so the values
 * depend on the seed and the draw order only, never on threads or devices.
 */
public final class RandomOps {
  private RandomOps() {}

  /** Fills t in place with a draw of kind; a and b are the kind's parameters as raw bits. */
  public static void draw(String op, TensorImpl t, RandomDraw.Kind kind, Generator g, long a, long b, TensorImpl p) {
    if (g == null) throw new IllegalArgumentException(op + "(): generator must not be null");
    // t and p each read through one snapshot: the blocks reserved match the elements drawn
    TensorImpl[] f = TensorImpl.frozen(op, t, p);
    try {
      drawFrozen(op, f[0], kind, g, a, b, f[1]);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static void drawFrozen(String op, TensorImpl t, RandomDraw.Kind kind, Generator g, long a, long b, TensorImpl p) {
    long n = t.numel();
    long key, counter;
    synchronized (g) {  // one draw sees one seed: a setSeed on another thread comes before or after it
      key = g.initialSeed();
      counter = SharedSecrets.api().reserve(g, kind.blocks(n));
    }
    RandomDraw d = new RandomDraw(op, kind, t, key, counter, a, b, p, p == null ? null : p.strides());
    if (n > 0) Dispatcher.backend(t.device()).random(d);
    t.bumpVersion();  // a frozen view shares its tensor's version counter
  }

  /** PyTorch's check_uniform_bounds: from and to finite in the dtype, from <= to, and to - from within its range. */
  public static void checkUniformBounds(DType dtype, double from, double to) {
    double max = SharedSecrets.api().maxFinite(dtype);
    if (!(from >= -max && from <= max)) throw new IllegalArgumentException("uniform_(): from is out of bounds for " + dtype + ", got " + from);
    if (!(to >= -max && to <= max)) throw new IllegalArgumentException("uniform_(): to is out of bounds for " + dtype + ", got " + to);
    if (!(from <= to)) {
      throw new IllegalArgumentException("uniform_(): expects to return a [from, to) range, but found from=" + from + " > to=" + to);
    }
    if (!(to - from <= max)) {
      throw new IllegalArgumentException("uniform_(): expects to-from <= the largest " + dtype + ", but found to=" + to + " and from=" + from
          + " which result in to-from to exceed the limit");
    }
  }

  public static void draw(String op, TensorImpl t, RandomDraw.Kind kind, Generator g, double a, double b) {
    draw(op, t, kind, g, Double.doubleToRawLongBits(a), Double.doubleToRawLongBits(b), null);
  }

  /** A new tensor of shape and dtype filled by a draw; released if the draw fails. */
  static TensorImpl drawNew(String op, long[] shape, DType dtype, RandomDraw.Kind kind, Generator g, long a, long b) {
    TensorImpl out = DataOps.empty(op, shape, dtype, Device.CPU);
    try {
      draw(op, out, kind, g, a, b, null);
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }
}
