package org.jtensor;

/**
 * PyTorch's window functions (torch.hann_window, hamming_window, blackman_window, bartlett_window,
 * kaiser_window), 1-D of window_length, computed op by op as PyTorch's TensorFactories.cpp computes
 * them in the requested floating dtype (default float32): periodic windows are the symmetric window
 * of length + 1 without its last element; length 0 is empty, length 1 is [1]. The root of
 * {@link Tensor}'s static-factory chain, as {@link DerivedFactories}; no instances.
 */
public abstract sealed class WindowFactories permits DerivedFactories {
  WindowFactories() {}

  public static Tensor hannWindow(long windowLength) { return hannWindow(windowLength, true, DType.DEFAULT_FLOAT); }

  public static Tensor hannWindow(long windowLength, boolean periodic) { return hannWindow(windowLength, periodic, DType.DEFAULT_FLOAT); }

  /** 0.5 − 0.5·cos(2πn/(N−1)): hamming with alpha = beta = 0.5, as PyTorch's. */
  public static Tensor hannWindow(long windowLength, boolean periodic, DType dtype) {
    return hamming("hannWindow", windowLength, periodic, 0.5, 0.5, dtype);
  }

  public static Tensor hammingWindow(long windowLength) { return hammingWindow(windowLength, true, 0.54, 0.46, DType.DEFAULT_FLOAT); }

  public static Tensor hammingWindow(long windowLength, boolean periodic) { return hammingWindow(windowLength, periodic, 0.54, 0.46, DType.DEFAULT_FLOAT); }

  public static Tensor hammingWindow(long windowLength, boolean periodic, double alpha) { return hammingWindow(windowLength, periodic, alpha, 0.46, DType.DEFAULT_FLOAT); }

  public static Tensor hammingWindow(long windowLength, boolean periodic, double alpha, double beta) {
    return hammingWindow(windowLength, periodic, alpha, beta, DType.DEFAULT_FLOAT);
  }

  /** alpha − beta·cos(2πn/(N−1)). */
  public static Tensor hammingWindow(long windowLength, boolean periodic, double alpha, double beta, DType dtype) {
    return hamming("hammingWindow", windowLength, periodic, alpha, beta, dtype);
  }

  public static Tensor blackmanWindow(long windowLength) { return blackmanWindow(windowLength, true, DType.DEFAULT_FLOAT); }

  public static Tensor blackmanWindow(long windowLength, boolean periodic) { return blackmanWindow(windowLength, periodic, DType.DEFAULT_FLOAT); }

  /** 0.42 − 0.5·cos(2πn/(N−1)) + 0.08·cos(4πn/(N−1)). */
  public static Tensor blackmanWindow(long windowLength, boolean periodic, DType dtype) {
    return window("blackmanWindow", windowLength, periodic, dtype, n -> {
      try (TensorScope s = TensorScope.open()) {
        Tensor w = Tensor.arange(0, n, 1, dtype).mul(in(dtype, Math.PI / (n - 1)));
        return s.keep(w.mul(4L).cos().mul(in(dtype, 0.08)).sub(w.mul(2L).cos().mul(0.5)).add(in(dtype, 0.42)));
      }
    });
  }

  public static Tensor bartlettWindow(long windowLength) { return bartlettWindow(windowLength, true, DType.DEFAULT_FLOAT); }

  public static Tensor bartlettWindow(long windowLength, boolean periodic) { return bartlettWindow(windowLength, periodic, DType.DEFAULT_FLOAT); }

  /** 1 − |2n/(N−1) − 1|: 2n/(N−1) rising, then 2 − 2n/(N−1) from the middle on. */
  public static Tensor bartlettWindow(long windowLength, boolean periodic, DType dtype) {
    return window("bartlettWindow", windowLength, periodic, dtype, n -> {
      Tensor w = Tensor.arange(0, n, 1, dtype).mul_(in(dtype, 2.0 / (n - 1)));
      long firstHalf = ((n - 1) >> 1) + 1;
      try (Tensor tail = w.narrow(0, firstHalf, n - firstHalf)) {
        tail.mul_(-1L).add_(2L);
      }
      return w;
    });
  }

  public static Tensor kaiserWindow(long windowLength) { return kaiserWindow(windowLength, true, 12.0, DType.DEFAULT_FLOAT); }

  public static Tensor kaiserWindow(long windowLength, boolean periodic) { return kaiserWindow(windowLength, periodic, 12.0, DType.DEFAULT_FLOAT); }

  public static Tensor kaiserWindow(long windowLength, boolean periodic, double beta) { return kaiserWindow(windowLength, periodic, beta, DType.DEFAULT_FLOAT); }

  /**
   * I0(beta·√|1 − ((n − α)/α)²|) / I0(beta), α = (N − 1)/2, in the dtype's math type (float32 for
   * float16 and bfloat16, rounded once at the end), as PyTorch's kernel.
   */
  public static Tensor kaiserWindow(long windowLength, boolean periodic, double beta, DType dtype) {
    return window("kaiserWindow", windowLength, periodic, dtype, n -> {
      DType math = dtype.opMath();
      double alpha = math == DType.FLOAT64 ? (n - 1) / 2.0 : (float) ((n - 1) / 2.0);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.arange(0, n, 1, dtype).to(math);
        Tensor i0Beta = Tensor.scalar(beta).to(math).i0();
        Tensor r = x.sub(alpha).div(alpha).pow(2L).rsub(1L).abs().sqrt().mul(beta).i0().div(i0Beta);
        return s.keep(r.to(dtype));
      }
    });
  }

  private static Tensor hamming(String op, long windowLength, boolean periodic, double alpha, double beta, DType dtype) {
    return window(op, windowLength, periodic, dtype,
        n -> Tensor.arange(0, n, 1, dtype).mul_(in(dtype, Math.PI * 2.0 / (n - 1))).cos_().mul_(in(dtype, -beta)).add_(in(dtype, alpha)));
  }

  /**
   * A factor as PyTorch's window code applies it: rounded to the window's dtype first (its bfloat16
   * hann_window(9) reads 2π/8 as 0.69921875; a Python-level mul_ would not round it).
   */
  private static double in(DType dtype, double v) {
    try (Tensor t = Tensor.scalar(v, dtype)) {
      return t.item();
    }
  }

  /** PyTorch's window_function_checks and edges; symmetric computes the window of length n ≥ 2. */
  private static Tensor window(String op, long windowLength, boolean periodic, DType dtype, java.util.function.LongFunction<Tensor> symmetric) {
    if (dtype == null) throw new IllegalArgumentException(op + "(): dtype must not be null");
    if (!dtype.isFloatingPoint()) throw new IllegalArgumentException(op + "(): expects floating point dtypes, got: " + dtype);
    if (windowLength < 0) throw new IllegalArgumentException(op + "(): requires non-negative window_length, got window_length=" + windowLength);
    if (windowLength == 0) return Tensor.empty(new long[] {0}, dtype);
    if (windowLength == 1) return Tensor.ones(new long[] {1}, dtype);
    if (!periodic) return symmetric.apply(windowLength);
    try (Tensor w = symmetric.apply(windowLength + 1)) {
      return w.narrow(0, 0, windowLength);
    }
  }
}
