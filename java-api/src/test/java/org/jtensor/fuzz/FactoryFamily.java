package org.jtensor.fuzz;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;

/** Factories and random draws: the pool's fresh tensors, with bad shapes, steps and bounds now and then. */
final class FactoryFamily {
  private FactoryFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    long[] s = a.shape();
    DType dt = a.dtype();
    double v = a.scalar();
    boolean sizes = FactoryRefs.sizes(s);
    switch (f.rnd.nextInt(17)) {
      case 0, 1, 2, 3 -> {
        double[] vals = a.values(s, dt);
        f.op(sizes, "fresh", new Object[] {s, dt}, () -> Args.build(vals, s, dt), FactoryRefs.values("fresh", s, dt, i -> vals[i]));
      }
      case 4 -> f.op(sizes, "zeros", new Object[] {s, dt}, () -> Tensor.zeros(s, dt), FactoryRefs.filled("zeros", s, dt, 0L));
      case 5 -> f.op(sizes, "ones", new Object[] {s, dt}, () -> Tensor.ones(s, dt), FactoryRefs.filled("ones", s, dt, 1L));
      case 6 -> f.op(sizes && FactoryRefs.fits(v, dt), "full", new Object[] {s, v, dt}, () -> Tensor.full(s, v, dt),
          FactoryRefs.filled("full", s, dt, v));
      case 7 -> f.op(sizes, "empty", new Object[] {s, dt}, () -> Tensor.empty(s, dt).zero_(), FactoryRefs.filled("empty().zero_", s, dt, 0L));
      case 8 -> {
        long st = a.between(-3, 3), en = a.between(-3, 12), step = a.chance(10) ? 0 : a.between(-2, 3);
        boolean ok = step != 0 && (step > 0 ? en >= st : en <= st) && dt != DType.BOOL;
        f.op(ok, "arange", new Object[] {st, en, step, dt}, () -> Tensor.arange(st, en, step, dt), FactoryRefs.arange(st, en, step, dt));
      }
      case 9 -> {
        long n = a.between(-1, 5);
        // PyTorch converts the ends it uses to the dtype, checked (start alone for one point); no bool kernel
        boolean ok = n >= 0 && (n < 1 || FactoryRefs.fits(v, dt)) && (n < 2 || dt != DType.BOOL && FactoryRefs.fits(2.0, dt));
        f.op(ok, "linspace", new Object[] {v, 2.0, n, dt}, () -> Tensor.linspace(v, 2.0, n, dt), FactoryRefs.linspace(v, 2.0, n, dt));
      }
      case 10 -> {
        long n = a.between(-1, 4), m = a.between(-1, 4);
        f.op(n >= 0 && m >= 0, "eye", new Object[] {n, m, dt}, () -> Tensor.eye(n, m, dt), FactoryRefs.eye(n, m, dt));
      }
      case 11 -> f.op(FactoryRefs.fits(v, dt), "scalar", new Object[] {v, dt}, () -> Tensor.scalar(v, dt),
          FactoryRefs.filled("scalar", new long[0], dt, v));
      case 12 -> f.op(sizes && dt.isFloatingPoint(), "rand", new Object[] {s, dt}, () -> Tensor.rand(s, dt, f.gen),
          RandomRefs.draw("rand", f.gen, g -> Tensor.rand(s, dt, g), null, s, dt, RandomRefs.within(0, 1, false)));
      case 13 -> f.op(sizes && dt.isFloatingPoint(), "randn", new Object[] {s, dt}, () -> Tensor.randn(s, dt, f.gen),
          RandomRefs.draw("randn", f.gen, g -> Tensor.randn(s, dt, g), null, s, dt, RandomRefs.normal(1)));
      case 14 -> {
        long lo = a.between(-5, 2), hi = a.chance(10) ? lo : lo + a.between(1, 6);
        boolean ok = sizes && lo < hi && FactoryRefs.fits(lo, dt) && FactoryRefs.fits(hi - 1, dt) && dt != DType.BOOL;
        f.op(ok, "randint", new Object[] {lo, hi, s, dt}, () -> Tensor.randint(lo, hi, s, dt, f.gen),
            RandomRefs.draw("randint", f.gen, g -> Tensor.randint(lo, hi, s, dt, g), null, s, dt, RandomRefs.integers(lo, hi)));
      }
      case 15 -> {
        Pool.Entry x = a.input();
        f.op(Valid.open(x), "zerosLike", new Object[] {x}, () -> Tensor.zerosLike(Fuzz.t(x)), (result, in) ->
            FactoryRefs.filled("zerosLike", in.of(x).shape, in.of(x).dtype, 0L).verify(result, in));
      }
      default -> f.op(sizes, "emptyStrided", new Object[] {s, dt}, () -> onesWithZeroGaps(Tensor.emptyStrided(s, s.clone(), dt, Device.CPU)),
          FactoryRefs.strided(s, s.clone(), dt));
    }
  }

  /**
   * t.fill_(1) with the storage's bytes between t's elements zeroed first: those bytes are
   * uninitialized (whatever the allocator's block held), and a later asStrided view may read them,
   * where a bool view must find only 0 or 1 (seed 13 read a 255 left there by an earlier block).
   */
  private static Tensor onesWithZeroGaps(Tensor t) {
    try (Storage bytes = t.untypedStorage()) {
      bytes.fill_((byte) 0);
    }
    return t.fill_(1L);
  }
}
