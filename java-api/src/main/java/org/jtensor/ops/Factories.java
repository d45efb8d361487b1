package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.core.ScalarTypes;
import org.jtensor.dispatch.RandomDraw;

import org.jtensor.dispatch.Dispatcher;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/** The creation functions behind Tensor's static factories. */
public final class Factories {
  private Factories() {}

  public static TensorImpl full(String op, long[] shape, double value, DType dtype, Device device) {
    dtype.checkFits(op, value);
    TensorImpl t = DataOps.empty(op, shape, dtype, device);
    DataOps.fill(op, t, value);
    return t;
  }

  public static TensorImpl full(String op, long[] shape, long value, DType dtype, Device device) {
    dtype.checkFits(op, value);
    TensorImpl t = DataOps.empty(op, shape, dtype, device);
    DataOps.fill(op, t, value);
    return t;
  }

  /** PyTorch has no bool arange, even an empty one (arange(0, 3, bool) was [false, true, true]). */
  private static void refuseBoolArange(DType dtype) {
    if (dtype == DType.BOOL) throw ScalarTypes.notImplemented("arange", "arange_cpu", DType.BOOL);
  }

  /** PyTorch's arange size: ceil((end - start) / step), with the step's sign checked. */
  static long arangeSize(double start, double end, double step) {
    if (step == 0) throw new IllegalArgumentException("arange(): step must be nonzero");
    if (!Double.isFinite(start) || !Double.isFinite(end)) {
      throw new IllegalArgumentException("arange(): unsupported range: " + start + " -> " + end);
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
      throw new IllegalArgumentException("arange(): upper bound and lower bound inconsistent with step sign");
    }
    double n = Math.ceil((end - start) / step);
    if (n > Long.MAX_VALUE / 2) throw new IllegalArgumentException("arange(): too many elements: " + n);
    return (long) n;
  }

  public static TensorImpl arange(long start, long end, long step, DType dtype, Device device) {
    refuseBoolArange(dtype);
    if (step == 0) throw new IllegalArgumentException("arange(): step must be nonzero");
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
      throw new IllegalArgumentException("arange(): upper bound and lower bound inconsistent with step sign");
    }
    long span = end - start;  // exact for every pair that does not overflow
    if ((end > start) != (span > 0) && end != start) throw new IllegalArgumentException("arange(): range overflows int64");
    long n = span / step + (span % step != 0 ? 1 : 0);
    TensorImpl t = DataOps.empty("arange", new long[] {n}, dtype, device);
    if (n > 0) Dispatcher.backend(device).arange(t, start, step);
    return t;
  }

  public static TensorImpl arange(double start, double end, double step, DType dtype, Device device) {
    refuseBoolArange(dtype);
    long n = arangeSize(start, end, step);
    TensorImpl t = DataOps.empty("arange", new long[] {n}, dtype, device);
    if (n > 0) Dispatcher.backend(device).arange(t, start, step);
    return t;
  }

  public static TensorImpl linspace(double start, double end, long steps, DType dtype, Device device) {
    if (steps < 0) throw new IllegalArgumentException("linspace(): number of steps must be non-negative, got " + steps);
    if (steps > 1) {  // PyTorch converts both ends to the dtype (checked, truncated) before the step
      if (dtype == DType.BOOL) throw ScalarTypes.notImplemented("linspace", "linspace_cpu", DType.BOOL);
      dtype.checkFits("linspace", start);
      dtype.checkFits("linspace", end);
      if (!dtype.isFloatingPoint()) {  // linspace(0.5, 10.7, 5, int64) is [0, 2, 5, 7, 10], from 0 to 10
        start = start < 0 ? Math.ceil(start) : Math.floor(start);
        end = end < 0 ? Math.ceil(end) : Math.floor(end);
      }
    }
    TensorImpl t = DataOps.empty("linspace", new long[] {steps}, dtype, device);
    try {
      // one point is start, as PyTorch's fill_(start) (the two-ended formula gave end)
      if (steps == 1) DataOps.fill("linspace", t, start);
      else if (steps > 1) Dispatcher.backend(device).linspace(t, start, end);
    } catch (RuntimeException | Error e) {
      t.release();
      throw e;
    }
    return t;
  }

  public static TensorImpl eye(long n, long m, DType dtype, Device device) {
    if (n < 0 || m < 0) throw new IllegalArgumentException("eye(): n and m must be >= 0, got " + n + ", " + m);
    TensorImpl t = full("eye", new long[] {n, m}, 0L, dtype, device);
    TensorImpl diag = StridedViews.diagonal(t, 0, 0, 1);
    try {
      DataOps.fill("eye", diag, 1L);
    } finally {
      diag.release();
    }
    return t;
  }

  /** A tensor of exactly this shape holding a Java array's values; element sizes must match. */
  public static TensorImpl fromArray(Object data, int length, long[] shape, DType dtype) {
    long[] s = shape.clone();
    long n = Shapes.numel("fromArray", s);
    if (n != length) {
      throw new IllegalArgumentException("fromArray(): shape " + Shapes.str(s) + " holds " + n
          + " elements but the array has " + length + (s.length == 0 ? " (an empty shape is 0-dim; fromArray(data) with no shape is 1-D)" : ""));
    }
    TensorImpl t = DataOps.empty("fromArray", s, dtype, Device.CPU);
    if (n > 0) Dispatcher.backend(Device.CPU).write("fromArray", t, data);
    return t;
  }

  public static TensorImpl fromBooleans(boolean[] data, long[] shape) {
    byte[] b = new byte[data.length];
    for (int i = 0; i < b.length; i++) b[i] = (byte) (data[i] ? 1 : 0);
    return fromArray(b, b.length, shape, DType.BOOL);
  }

  public static TensorImpl random(long[] shape, DType dtype, Generator g, boolean normal) {
    return random(normal ? "randn" : "rand", shape, dtype, g, normal);
  }

  /** op: the factory the user called (rand, randn, randLike, randnLike), for the messages. */
  public static TensorImpl random(String op, long[] shape, DType dtype, Generator g, boolean normal) {
    if (!dtype.isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): expects a floating point dtype, got " + dtype);
    }
    RandomDraw.Kind kind = normal ? RandomDraw.Kind.NORMAL : dtype == DType.FLOAT32 ? RandomDraw.Kind.UNIFORM24 : RandomDraw.Kind.UNIFORM53;
    // uniform on [0, 1), or N(0, 1): a = 0, b = 1
    return RandomOps.drawNew(op, shape, dtype, kind, g, Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(1.0));
  }

  public static TensorImpl randint(long low, long high, long[] shape, DType dtype, Generator g) {
    checkRandomRange("randint", low, high, dtype);
    // high - low as unsigned: the kernel takes the range mod 2^64, so [-2^63, 2^63 - 1) is one too (as PyTorch's)
    return RandomOps.drawNew("randint", shape, dtype, RandomDraw.Kind.INTEGERS, g, low, high - low);
  }

  /** randint's and random_'s range [low, high): not empty, and low and high - 1 values of the dtype. */
  public static void checkRandomRange(String op, long low, long high, DType dtype) {
    if (low >= high) {
      throw new IllegalArgumentException(op + "(): random_ expects 'from' to be less than 'to', but got from=" + low + " >= to=" + high);
    }
    checkInDtype(op, "from", low, dtype);
    checkInDtype(op, "to - 1", high - 1, dtype);
  }

  /** PyTorch's check_from_to_in_range: from and to - 1 must be values of the dtype (int8 wrapped 200 to -56). */
  private static void checkInDtype(String op, String what, long v, DType dtype) {
    if (!org.jtensor.access.SharedSecrets.api().holds(dtype, v)) {
      throw new IllegalArgumentException(op + "(): " + what + " is out of bounds for " + dtype + ", got " + v);
    }
  }
}
