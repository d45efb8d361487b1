package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.Factories;

/**
 * Tensor's factories, PyTorch's creation ops: {@code Tensor.zeros(2, 3)}, {@code Tensor.arange(10)},
 * {@code Tensor.randn(shape, g)} (from Java arrays and buffers: {@link ArrayFactories}). Each returns a new tensor
 * the caller owns. A superclass of {@link Tensor} rather than one more interface of its op
 * families because a class's static methods are inherited (they are called as Tensor's) and an
 * interface's are not; it has no instances of its own.
 */
public abstract sealed class TensorFactories extends ArrayFactories permits Tensor {
  TensorFactories() {}


  public static Tensor empty(long... shape) {
    return empty(shape, DType.FLOAT32);
  }

  public static Tensor empty(long[] shape, DType dtype) {
    return empty(shape, dtype, Device.CPU);
  }

  public static Tensor empty(long[] shape, DType dtype, Device device) {
    return Tensor.wrap(DataOps.empty("empty", shape, dtype, device));
  }

  /** An uninitialized tensor with explicit strides (torch.empty_strided). */
  public static Tensor emptyStrided(long[] shape, long[] stride, DType dtype, Device device) {
    if (shape.length != stride.length) {
      throw new IllegalArgumentException("emptyStrided(): mismatch in length of strides and shape");
    }
    for (long s : stride) if (s < 0) throw new IllegalArgumentException("emptyStrided(): negative stride " + s);
    return Tensor.wrap(DataOps.emptyStrided("emptyStrided", shape, stride, dtype, device));
  }

  public static Tensor zeros(long... shape) {
    return zeros(shape, DType.FLOAT32);
  }

  public static Tensor zeros(long[] shape, DType dtype) {
    return zeros(shape, dtype, Device.CPU);
  }

  public static Tensor zeros(long[] shape, DType dtype, Device device) {
    return Tensor.wrap(Factories.full("zeros", shape, 0L, dtype, device));
  }

  public static Tensor ones(long... shape) {
    return ones(shape, DType.FLOAT32);
  }

  public static Tensor ones(long[] shape, DType dtype) {
    return ones(shape, dtype, Device.CPU);
  }

  public static Tensor ones(long[] shape, DType dtype, Device device) {
    return Tensor.wrap(Factories.full("ones", shape, 1L, dtype, device));
  }

  /** Filled with value: float32 for a float value, as torch.full(shape, 1.5). */
  public static Tensor full(long[] shape, double value) {
    return full(shape, value, DType.DEFAULT_FLOAT);
  }

  /** Filled with an integer value: int64, as torch.full(shape, 2). */
  public static Tensor full(long[] shape, long value) {
    return full(shape, value, DType.INT64, Device.CPU);
  }

  public static Tensor full(long[] shape, double value, DType dtype) {
    return full(shape, value, dtype, Device.CPU);
  }

  public static Tensor full(long[] shape, double value, DType dtype, Device device) {
    return Tensor.wrap(Factories.full("full", shape, value, dtype, device));
  }

  /** full with an exact integer value (int64 values beyond 2^53 survive). */
  public static Tensor full(long[] shape, long value, DType dtype, Device device) {
    return Tensor.wrap(Factories.full("full", shape, value, dtype, device));
  }

  public static Tensor emptyLike(Tensor t) {
    TensorImpl s = Tensor.implOf(t, "emptyLike");
    return Tensor.wrap(DataOps.emptyLike("emptyLike", s, s.dtype(), s.device()));
  }

  /** torch.empty_like(t, dtype=dtype): t's shape and device, another dtype. */
  public static Tensor emptyLike(Tensor t, DType dtype) {
    TensorImpl s = Tensor.implOf(t, "emptyLike");
    return Tensor.wrap(DataOps.emptyLike("emptyLike", s, dtype, s.device()));
  }

  public static Tensor zerosLike(Tensor t) {
    return emptyLike(t).fill_(0L);
  }

  /** torch.zeros_like(t, dtype=dtype). */
  public static Tensor zerosLike(Tensor t, DType dtype) {
    return emptyLike(t, dtype).fill_(0L);
  }

  public static Tensor onesLike(Tensor t) {
    return emptyLike(t).fill_(1L);
  }

  /** torch.ones_like(t, dtype=dtype). */
  public static Tensor onesLike(Tensor t, DType dtype) {
    return emptyLike(t, dtype).fill_(1L);
  }

  /** 0, 1, ..., end - 1 as int64. */
  public static Tensor arange(long end) {
    return arange(0, end, 1, DType.INT64);
  }

  public static Tensor arange(long start, long end) {
    return arange(start, end, 1, DType.INT64);
  }

  /** torch.arange(start, end, step) with ints: int64. */
  public static Tensor arange(long start, long end, long step) {
    return arange(start, end, step, DType.INT64);
  }

  /** torch.arange(5.): a float bound gives the default float dtype (float32), as PyTorch's. */
  public static Tensor arange(double end) {
    return arange(0, end, 1, DType.DEFAULT_FLOAT);
  }

  public static Tensor arange(double start, double end) {
    return arange(start, end, 1, DType.DEFAULT_FLOAT);
  }

  /** torch.arange(0, 1, 0.25): float32. */
  public static Tensor arange(double start, double end, double step) {
    return arange(start, end, step, DType.DEFAULT_FLOAT);
  }

  public static Tensor arange(long start, long end, long step, DType dtype) {
    return Tensor.wrap(Factories.arange(start, end, step, dtype, Device.CPU));
  }

  public static Tensor arange(double start, double end, double step, DType dtype) {
    return Tensor.wrap(Factories.arange(start, end, step, dtype, Device.CPU));
  }

  public static Tensor linspace(double start, double end, long steps) {
    return linspace(start, end, steps, DType.FLOAT32);
  }

  public static Tensor linspace(double start, double end, long steps, DType dtype) {
    return Tensor.wrap(Factories.linspace(start, end, steps, dtype, Device.CPU));
  }

  public static Tensor eye(long n) {
    return eye(n, n, DType.FLOAT32);
  }

  public static Tensor eye(long n, long m, DType dtype) {
    return Tensor.wrap(Factories.eye(n, m, dtype, Device.CPU));
  }

  /** Uniform [0, 1) float32 from the default generator (Generator.manualSeed seeds it). */
  public static Tensor rand(long... shape) {
    return rand(shape, Generator.defaultGenerator());
  }

  /** Standard normal float32 from the default generator. */
  public static Tensor randn(long... shape) {
    return randn(shape, Generator.defaultGenerator());
  }

  public static Tensor randint(long low, long high, long... shape) {
    return randint(low, high, shape, Generator.defaultGenerator());
  }

  public static Tensor randperm(long n) {
    return randperm(n, Generator.defaultGenerator());
  }

  public static Tensor rand(long[] shape, Generator g) {
    return rand(shape, DType.FLOAT32, g);
  }

  public static Tensor rand(long[] shape, DType dtype, Generator g) {
    return Tensor.wrap(Factories.random(shape, dtype, g, false));
  }

  public static Tensor randn(long[] shape, Generator g) {
    return randn(shape, DType.FLOAT32, g);
  }

  public static Tensor randn(long[] shape, DType dtype, Generator g) {
    return Tensor.wrap(Factories.random(shape, dtype, g, true));
  }

  /** Integers uniform in [low, high), int64. */
  public static Tensor randint(long low, long high, long[] shape, Generator g) {
    return randint(low, high, shape, DType.INT64, g);
  }

  public static Tensor randint(long low, long high, long[] shape, DType dtype, Generator g) {
    return Tensor.wrap(Factories.randint(low, high, shape, dtype, g));
  }

  /**
   * A random permutation of 0..n-1, int64 (torch.randperm): n uniform draws from g are the sort
   * keys, so the permutation depends only on the generator's state, never on the thread count.
   */
  public static Tensor randperm(long n, Generator g) {
    if (n < 0) throw new IllegalArgumentException("randperm(): n must be non-negative, got " + n);
    if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("randperm(): n must fit a Java array, got " + n);
    double[] keys;
    try (Tensor k = rand(new long[] {n}, DType.FLOAT64, g)) {
      keys = k.toDoubleArray();
    }
    Integer[] order = new Integer[(int) n];
    for (int i = 0; i < order.length; i++) order[i] = i;
    java.util.Arrays.sort(order, (a, b) -> Double.compare(keys[a], keys[b]));
    long[] perm = new long[order.length];
    for (int i = 0; i < perm.length; i++) perm[i] = order[i];
    return fromArray(perm);
  }
}
