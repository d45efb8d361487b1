package org.jtensor.fuzz;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;

/** Factories and random draws: the pool's fresh tensors, with bad shapes, steps and bounds now and then. */
final class FactoryFamily {
  private FactoryFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    long[] s = a.shape();
    DType dt = a.dtype();
    double v = a.scalar();
    switch (f.rnd.nextInt(17)) {
      case 0, 1, 2, 3 -> f.op("fresh", new Object[] {s, dt}, () -> a.fresh(s, dt), null);
      case 4 -> f.op("zeros", new Object[] {s, dt}, () -> Tensor.zeros(s, dt), null);
      case 5 -> f.op("ones", new Object[] {s, dt}, () -> Tensor.ones(s, dt), null);
      case 6 -> f.op("full", new Object[] {s, v, dt}, () -> Tensor.full(s, v, dt), null);
      case 7 -> f.op("empty", new Object[] {s, dt}, () -> Tensor.empty(s, dt).zero_(), null);
      case 8 -> {
        long st = a.between(-3, 3), en = a.between(-3, 12), step = a.chance(10) ? 0 : a.between(-2, 3);
        f.op("arange", new Object[] {st, en, step, dt}, () -> Tensor.arange(st, en, step, dt), null);
      }
      case 9 -> {
        long n = a.between(-1, 5);
        f.op("linspace", new Object[] {v, 2.0, n, dt}, () -> Tensor.linspace(v, 2.0, n, dt), null);
      }
      case 10 -> {
        long n = a.between(-1, 4), m = a.between(-1, 4);
        f.op("eye", new Object[] {n, m, dt}, () -> Tensor.eye(n, m, dt), null);
      }
      case 11 -> f.op("scalar", new Object[] {v, dt}, () -> Tensor.scalar(v, dt), null);
      case 12 -> f.op("rand", new Object[] {s, dt}, () -> Tensor.rand(s, dt, f.gen), null);
      case 13 -> f.op("randn", new Object[] {s, dt}, () -> Tensor.randn(s, dt, f.gen), null);
      case 14 -> {
        long lo = a.between(-5, 2), hi = a.chance(10) ? lo : lo + a.between(1, 6);
        f.op("randint", new Object[] {lo, hi, s, dt}, () -> Tensor.randint(lo, hi, s, dt, f.gen), null);
      }
      case 15 -> {
        Pool.Entry x = a.input();
        f.op("zerosLike", new Object[] {x}, () -> Tensor.zerosLike(Fuzz.t(x)), null);
      }
      default -> f.op("emptyStrided", new Object[] {s, dt}, () -> Tensor.emptyStrided(s, s.clone(), dt, Device.CPU).fill_(1L), null);
    }
  }
}
