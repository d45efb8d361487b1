package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** Ownership and data: close, TensorScope, copy_, fill_, to, element access, random in-place draws. */
final class LifecycleFamily {
  private LifecycleFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    Pool.Entry y = a.arg();
    int r = a.rank(x);
    double v = a.scalar();
    boolean writable = Valid.distinctElements(x), floating = writable && Valid.floating(x);
    switch (f.rnd.nextInt(16)) {
      case 0, 1 -> f.valid("close", new Object[] {x.toString()}, () -> { f.pool.closeInPlace(x); return null; }, DataRefs.closed(x));  // idempotent
      case 2 -> scope(f);
      case 3 -> f.op(writable && Valid.broadcastsTo(y, x.t().shape()) && Valid.noOverlap(x, y), "copy_", new Object[] {x, y},
          () -> t(x).copy_(t(y)), DataRefs.copy(x, y));
      case 4 -> f.op(writable && FactoryRefs.fits(v, x.t().dtype()), "fill_", new Object[] {x, v}, () -> t(x).fill_(v), DataRefs.fill(x, v));
      case 5 -> {
        long l = a.longScalar();
        f.op(writable && FactoryRefs.fits(l, x.t().dtype()) && Math.abs(l) < 0x1p53, "fill_", new Object[] {x, l + "L"}, () -> t(x).fill_(l),
            DataRefs.fill(x, l));
      }
      case 6 -> f.op(writable, "zero_", new Object[] {x}, () -> t(x).zero_(), DataRefs.fill(x, 0L));
      case 7 -> { DType dt = a.dtype(); f.op(Valid.open(x), "to", new Object[] {x, dt}, () -> t(x).to(dt), DataRefs.to(x, dt)); }
      case 8 -> {
        long[] idx = new long[a.chance(10) ? a.between(0, 4) : r];
        for (int i = 0; i < idx.length; i++) idx[i] = a.index(a.size(x, i));
        f.op(Valid.open(x) && DataRefs.inRange(idx, x.t().shape()), "getDouble", new Object[] {x, idx}, () -> t(x).getDouble(idx),
            DataRefs.get(x, idx));
      }
      case 9 -> {
        long[] idx = new long[r];
        for (int i = 0; i < idx.length; i++) idx[i] = a.index(a.size(x, i));
        f.op(writable && DataRefs.inRange(idx, x.t().shape()) && FactoryRefs.fits(v, x.t().dtype()), "setDouble", new Object[] {x, v, idx},
            () -> t(x).setDouble(v, idx), DataRefs.set(x, v, idx));
      }
      case 10 -> f.op(Valid.open(x) && x.t().numel() == 1, "item", new Object[] {x}, () -> t(x).item(), DataRefs.item(x));
      case 11 -> {
        boolean ok = floating && Double.isFinite(v + 1) && FactoryRefs.fits(v + 1, x.t().dtype()) && FactoryRefs.fits(v, x.t().dtype());
        DType dt = Valid.open(x) ? x.t().dtype() : DType.FLOAT32;
        f.op(ok, "uniform_", new Object[] {x, v}, () -> t(x).uniform_(v, v + 1, f.gen), RandomRefs.draw("uniform_", f.gen,
            g -> t(x).uniform_(v, v + 1, g), x, null, null, RandomRefs.within(Vals.round(v, dt), Vals.round(v + 1, dt), true)));
      }
      case 12 -> f.op(floating && v >= 0 && Double.isFinite(v), "normal_", new Object[] {x, v}, () -> t(x).normal_(0, v, f.gen),
          RandomRefs.draw("normal_", f.gen, g -> t(x).normal_(0, v, g), x, null, null, RandomRefs.normal(v)));
      case 13 -> {
        boolean fromX = a.chance(2);
        boolean ok = fromX ? Valid.floating(x) && probabilities(x) : Valid.open(x) && v >= 0 && v <= 1;
        f.op(ok, "bernoulli", new Object[] {x, fromX ? "p=x" : v}, () -> fromX ? t(x).bernoulli(f.gen) : t(x).bernoulli(v, f.gen),
            RandomRefs.draw("bernoulli", f.gen, g -> fromX ? t(x).bernoulli(g) : t(x).bernoulli(v, g), x, null, null,
                RandomRefs.bernoulli(fromX ? -1 : v)));
      }
      case 14 -> f.op(Valid.floating(x) && v >= 0 && v <= 1, "dropout", new Object[] {x, v}, () -> t(x).dropout(v, true, f.gen),
          RandomRefs.draw("dropout", f.gen, g -> t(x).dropout(v, true, g), x, null, null, RandomRefs.dropout(v)));
      default -> f.valid("toString", new Object[] {x.toString()}, () -> t(x).toString(), DataRefs.string(x));  // prints a closed one too
    }
  }

  /** x's values all lie in [0, 1] (bernoulli's probabilities). */
  private static boolean probabilities(Pool.Entry x) {
    for (double p : x.t().toDoubleArray()) if (!(p >= 0 && p <= 1)) return false;
    return true;
  }

  /**
   * A scope around a few ops: everything they create is closed with the scope except the one kept,
   * which joins the pool. Nested now and then; a scope closed out of order must be refused.
   */
  private static void scope(Fuzz f) {
    Pool.Entry x = f.pool.pickOpen();
    if (x == null) return;
    boolean contiguous = x.t().isContiguous();  // x + 1 keeps x's layout: view(-1) of a transposed one is refused
    List<Tensor> made = new ArrayList<>();
    Tensor[] kept = new Tensor[1];
    f.op(contiguous, "scope", new Object[] {x}, () -> {
      try (TensorScope s = TensorScope.open()) {
        made.add(x.t().add(1L));
        made.add(made.get(0).view(-1));
        if (f.args.chance(3)) {
          TensorScope inner = TensorScope.open();
          made.add(x.t().mul(2L));
          if (f.args.chance(2)) {
            try {
              s.close();
              throw new AssertionError("an outer scope closed before its inner one");
            } catch (IllegalStateException expected) {
              // refused, as it must be
            }
          }
          inner.close();
        }
        kept[0] = s.keep(made.get(f.rnd.nextInt(2)));  // not the inner scope's: that one is closed already
      }
      for (Tensor t : made) {
        if (t.isClosed() == (t == kept[0])) throw new AssertionError("scope closed the wrong tensors");
      }
      return kept[0];
    }, DataRefs.plusOne(x));
  }
}
