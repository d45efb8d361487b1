package org.jtensor;

import java.nio.ByteBuffer;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.ops.ArrayInterop;
import org.jtensor.ops.DataOps;

/**
 * A tensor's data as Java values (item, getDouble/setDouble by index), as flat and nested Java
 * arrays, and as a direct buffer over its bytes. Inherited by {@link Tensor}; the factories going the other way are {@code Tensor.fromArray(float[][])},
 * {@code Tensor.fromBuffer}.
 */
public sealed interface InteropMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  /** The one element's value (item()); int64 values beyond 2^53 need {@link #itemLong()}. */
  default double item() {
    TensorImpl t = checkOne("item");
    return Dispatcher.backend(t.device()).loadDouble("item", t, 0);
  }

  /** The one element as a long, as Python's int(x): a float truncates toward zero; NaN, ±inf and values past a long are refused. */
  default long itemLong() {
    TensorImpl t = checkOne("itemLong");
    return loadLongExact("itemLong", t, 0);
  }

  /** A floating element through its double (the native conversion gives NaN 0 and saturates, silently). */
  private static long loadLongExact(String op, TensorImpl t, long offset) {
    if (!t.dtype().isFloatingPoint()) return Dispatcher.backend(t.device()).loadLong(op, t, offset);
    double d = Dispatcher.backend(t.device()).loadDouble(op, t, offset);
    if (Double.isNaN(d)) throw new ArithmeticException(op + "(): cannot convert float NaN to integer");
    if (Double.isInfinite(d)) throw new ArithmeticException(op + "(): cannot convert float infinity to integer");
    if (d >= 0x1p63 || d < -0x1p63) throw new ArithmeticException(op + "(): value " + d + " does not fit in a long");
    return (long) d;
  }

  private TensorImpl checkOne(String op) {
    TensorImpl t = impl(op);
    if (t.numel() != 1) {
      throw new IllegalArgumentException(op + "(): a Tensor with " + t.numel() + " elements cannot be converted to Scalar");
    }
    return t;
  }

  /** The element at a logical index, through offset + Σ index·stride. */
  default double getDouble(long... index) {
    TensorImpl t = impl("getDouble");
    return Dispatcher.backend(t.device()).loadDouble("getDouble", t, DataOps.elementOffset("getDouble", t, index));
  }

  /** The element at a logical index as a long, converted as {@link #itemLong()} converts. */
  default long getLong(long... index) {
    TensorImpl t = impl("getLong");
    return loadLongExact("getLong", t, DataOps.elementOffset("getLong", t, index));
  }

  /** x[index] = value (a Python float): refused when the dtype cannot hold it (NaN into an integer, 1e39 into float32), as PyTorch's. */
  default Tensor setDouble(double value, long... index) {
    TensorImpl t = impl("setDouble");
    t.dtype().checkFits("setDouble", value);
    Dispatcher.backend(t.device()).store("setDouble", t, DataOps.elementOffset("setDouble", t, index), value);
    t.bumpVersion();
    return (Tensor) this;
  }

  /** x[index] = value (a Python int): refused when the dtype cannot hold it (300 into int8; -1 into uint8 is 255), as PyTorch's. */
  default Tensor setLong(long value, long... index) {
    TensorImpl t = impl("setLong");
    t.dtype().checkFits("setLong", value);
    Dispatcher.backend(t.device()).store("setLong", t, DataOps.elementOffset("setLong", t, index), value);
    t.bumpVersion();
    return (Tensor) this;
  }

  default float[] toFloatArray() {
    return toArray("toFloatArray", DType.FLOAT32, float[]::new);
  }

  default double[] toDoubleArray() {
    return toArray("toDoubleArray", DType.FLOAT64, double[]::new);
  }

  default long[] toLongArray() {
    return toArray("toLongArray", DType.INT64, long[]::new);
  }

  default int[] toIntArray() {
    return toArray("toIntArray", DType.INT32, int[]::new);
  }

  default boolean[] toBooleanArray() {
    byte[] b = toArray("toBooleanArray", DType.BOOL, byte[]::new);
    boolean[] a = new boolean[b.length];
    for (int i = 0; i < b.length; i++) a[i] = b[i] != 0;
    return a;
  }

  /** Every element, converted to `as`, in row-major order, in a new array made by `make`. */
  private <A> A toArray(String op, DType as, java.util.function.IntFunction<A> make) {
    TensorImpl t = impl(op);
    TensorImpl.Meta m = t.meta();
    A a = make.apply(DataOps.checkedArrayLength(op, m.numel));
    TensorImpl frozen = t.frozen(op, m);  // the array's length and the bytes from one snapshot
    try {
      DataOps.readAll(op, frozen, as, a);
    } finally {
      frozen.release();
    }
    return a;
  }

  default float[][] toFloatArray2d() {
    return (float[][]) ArrayInterop.toNested("toFloatArray2d", impl("toFloatArray2d"), DType.FLOAT32, 2, float.class);
  }

  default float[][][] toFloatArray3d() {
    return (float[][][]) ArrayInterop.toNested("toFloatArray3d", impl("toFloatArray3d"), DType.FLOAT32, 3, float.class);
  }

  default double[][] toDoubleArray2d() {
    return (double[][]) ArrayInterop.toNested("toDoubleArray2d", impl("toDoubleArray2d"), DType.FLOAT64, 2, double.class);
  }

  default double[][][] toDoubleArray3d() {
    return (double[][][]) ArrayInterop.toNested("toDoubleArray3d", impl("toDoubleArray3d"), DType.FLOAT64, 3, double.class);
  }

  default long[][] toLongArray2d() {
    return (long[][]) ArrayInterop.toNested("toLongArray2d", impl("toLongArray2d"), DType.INT64, 2, long.class);
  }

  default int[][] toIntArray2d() {
    return (int[][]) ArrayInterop.toNested("toIntArray2d", impl("toIntArray2d"), DType.INT32, 2, int.class);
  }

  /**
   * A contiguous CPU tensor's bytes as a little-endian direct buffer, with no copy (read-only when
   * the storage is). The buffer keeps the storage alive until it is garbage-collected, as the
   * array from torch's numpy() keeps its tensor; writes through it are seen by the tensor. As with
   * numpy(), a tensor that requires grad is refused (detach() first), and the storage's resize_
   * is refused while the buffer lives.
   */
  default ByteBuffer asByteBuffer() {
    return ArrayInterop.asByteBuffer(impl("asByteBuffer"));
  }
}
