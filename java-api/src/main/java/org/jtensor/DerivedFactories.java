package org.jtensor;

import org.jtensor.ops.LikeFactories;

/**
 * PyTorch's factories shaped after another tensor (full_like, rand_like, randn_like, randint_like)
 * and the derived sequences (logspace, vander), called as {@code Tensor.fullLike(t, 2.0)}: a
 * superclass of {@link Tensor} (through TensorFactories, TensorJoins, TensorIndexFactories and TensorFunctions) because a class's
 * static methods are inherited and an interface's are not; it has no instances of its own.
 */
public abstract sealed class DerivedFactories extends WindowFactories permits TensorFunctions {
  DerivedFactories() {}

  /** torch.full_like: t's shape, dtype and device, every element value (a Python float: cast to t's dtype). */
  public static Tensor fullLike(Tensor t, double value) { return LikeFactories.fullLike(t, value); }

  /** full_like with a Python int. */
  public static Tensor fullLike(Tensor t, long value) { return LikeFactories.fullLike(t, value); }

  /** torch.rand_like: uniform in [0, 1) in t's shape, floating dtype and device, from the default generator. */
  public static Tensor randLike(Tensor t) { return randLike(t, Generator.defaultGenerator()); }

  public static Tensor randLike(Tensor t, Generator g) { return LikeFactories.randomLike("randLike", t, false, g); }

  /** torch.randn_like: standard normal in t's shape, floating dtype and device. */
  public static Tensor randnLike(Tensor t) { return randnLike(t, Generator.defaultGenerator()); }

  public static Tensor randnLike(Tensor t, Generator g) { return LikeFactories.randomLike("randnLike", t, true, g); }

  /** torch.randint_like(t, high): integers uniform in [0, high) in t's shape and dtype (CPU). */
  public static Tensor randintLike(Tensor t, long high) { return randintLike(t, 0, high, Generator.defaultGenerator()); }

  public static Tensor randintLike(Tensor t, long low, long high) { return randintLike(t, low, high, Generator.defaultGenerator()); }

  public static Tensor randintLike(Tensor t, long low, long high, Generator g) { return LikeFactories.randintLike(t, low, high, g); }

  /** torch.logspace: steps values base^e, e evenly from start to end, float32. */
  public static Tensor logspace(double start, double end, long steps) { return logspace(start, end, steps, 10, DType.FLOAT32); }

  public static Tensor logspace(double start, double end, long steps, double base) { return logspace(start, end, steps, base, DType.FLOAT32); }

  public static Tensor logspace(double start, double end, long steps, double base, DType dtype) {
    return LikeFactories.logspace(start, end, steps, base, dtype);
  }

  /** torch.vander(x): the Vandermonde matrix of a 1-D x, columns x^(n−1) down to x^0, n = len(x). */
  public static Tensor vander(Tensor x) { return vander(x, null, false); }

  /** torch.vander(x, N, increasing): N columns (null: len(x)); increasing puts x^0 first. int and bool x give int64. */
  public static Tensor vander(Tensor x, Long n, boolean increasing) { return LikeFactories.vander(x, n, increasing); }
}
