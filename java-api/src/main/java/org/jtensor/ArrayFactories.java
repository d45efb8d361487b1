package org.jtensor;

import org.jtensor.ops.ArrayInterop;
import org.jtensor.ops.Factories;

/**
 * Tensor's factories from Java values, PyTorch's torch.tensor and torch.frombuffer: fromArray over
 * primitive and rectangular nested arrays (copied), fromBuffer over a direct buffer (shared, no
 * copy), scalar for 0-dim tensors. A superclass of {@link TensorFactories} for the reason that one
 * is a class: static methods are inherited and called as Tensor's. It has no instances of its own.
 */
public abstract sealed class ArrayFactories extends TensorJoins permits TensorFactories {
  ArrayFactories() {}

  // fromArray(data) is 1-D (torch.tensor of a list); fromArray(data, shape) takes the shape as given,
  // so an empty one, fromArray(new float[] {3}, new long[0]), is 0-dim (torch.tensor(3.)). Each
  // element type has both overloads: a call with no shape never reaches the varargs form, so an
  // empty shape there can only have been written out.

  /** A 1-D float32 tensor holding data. */
  public static Tensor fromArray(float[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A float32 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(float[] data, long... shape) {
    return Tensor.wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.FLOAT32));
  }

  /** A 1-D float64 tensor holding data. */
  public static Tensor fromArray(double[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A float64 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(double[] data, long... shape) {
    return Tensor.wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.FLOAT64));
  }

  /** A 1-D int64 tensor holding data. */
  public static Tensor fromArray(long[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int64 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(long[] data, long... shape) {
    return Tensor.wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT64));
  }

  /** A 1-D int32 tensor holding data. */
  public static Tensor fromArray(int[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int32 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(int[] data, long... shape) {
    return Tensor.wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT32));
  }

  /** A 1-D int16 tensor holding data. */
  public static Tensor fromArray(short[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int16 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(short[] data, long... shape) {
    return Tensor.wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT16));
  }

  /** A 1-D int8 tensor holding data. */
  public static Tensor fromArray(byte[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int8 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(byte[] data, long... shape) {
    return Tensor.wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT8));
  }

  /** A 1-D bool tensor holding data. */
  public static Tensor fromArray(boolean[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A bool tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(boolean[] data, long... shape) {
    return Tensor.wrap(Factories.fromBooleans(nonNull(data), shapeArg(shape)));
  }

  /** A [rows, cols] float32 tensor from a rectangular 2-D array (a ragged one is refused); each row is copied once. */
  public static Tensor fromArray(float[][] data) {
    return Tensor.wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.FLOAT32));
  }

  public static Tensor fromArray(float[][][] data) {
    return Tensor.wrap(ArrayInterop.fromNested(nonNull(data), 3, DType.FLOAT32));
  }

  public static Tensor fromArray(double[][] data) {
    return Tensor.wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.FLOAT64));
  }

  public static Tensor fromArray(double[][][] data) {
    return Tensor.wrap(ArrayInterop.fromNested(nonNull(data), 3, DType.FLOAT64));
  }

  public static Tensor fromArray(long[][] data) {
    return Tensor.wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.INT64));
  }

  public static Tensor fromArray(int[][] data) {
    return Tensor.wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.INT32));
  }

  /**
   * A contiguous CPU tensor of dtype and shape over a direct buffer's bytes from its position,
   * with no copy (torch.frombuffer): writes through either are seen by the other, and the buffer
   * stays reachable while any view lives. Read-only when the buffer is. The data must be aligned
   * to the dtype's size. With no shape, a 1-D tensor over every remaining byte (torch.frombuffer's
   * default count). The bytes are read in the platform's order (little-endian), whatever the
   * buffer's order() says. A memory-mapped file must not be truncated while a tensor over it
   * lives: native kernels reading past the file's new end fault (SIGBUS), which the JVM turns
   * into an InternalError only for its own buffer accesses. Keeping the buffer keeps its memory
   * only when the buffer owns it (as {@link Storage#Tensor.wrap(java.nio.ByteBuffer)} says): for a JavaCPP
   * Pointer's asByteBuffer(), use Storage.wrap(pointer.address(), n, pointer::deallocate) and set_.
   */
  public static Tensor fromBuffer(java.nio.ByteBuffer direct, DType dtype, long... shape) {
    return Tensor.wrap(ArrayInterop.fromBuffer(direct, dtype, shape));
  }

  private static long[] shapeArg(long[] shape) {
    if (shape == null) throw new IllegalArgumentException("fromArray(): argument 'shape' must not be null");
    return shape;
  }

  private static <A> A nonNull(A data) {
    if (data == null) throw new IllegalArgumentException("fromArray(): argument 'data' must not be null");
    return data;
  }

  /** A 0-dim tensor: a double is float32 (PyTorch's default dtype), as torch.tensor(2.5). */
  public static Tensor scalar(double v) {
    return scalar(v, DType.DEFAULT_FLOAT);
  }

  /**
   * torch.tensor(v, dtype=dtype): a floating dtype rounds v, to infinity past its range (1e39 in
   * float32 is inf; only full checks the range); an integral one refuses a value it cannot hold.
   */
  public static Tensor scalar(double v, DType dtype) {
    if (dtype.isFloatingPoint() && Math.abs(v) > dtype.maxFinite() && !Double.isInfinite(v)) {
      try (Tensor d = Tensor.full(new long[0], v, DType.FLOAT64)) {
        return d.to(dtype);
      }
    }
    return Tensor.full(new long[0], v, dtype);
  }

  public static Tensor scalar(long v) {
    return Tensor.full(new long[0], v, DType.INT64, Device.CPU);
  }

  public static Tensor scalar(boolean v) {
    return Tensor.full(new long[0], v ? 1L : 0L, DType.BOOL, Device.CPU);
  }
}
