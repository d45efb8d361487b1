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
    switch (f.rnd.nextInt(16)) {
      case 0, 1 -> {
        f.op("close", new Object[] {x.toString()}, () -> { f.pool.closeInPlace(x); return null; }, null);  // idempotent
      }
      case 2 -> scope(f);
      case 3 -> f.op("copy_", new Object[] {x, y}, () -> t(x).copy_(t(y)), null);
      case 4 -> f.op("fill_", new Object[] {x, v}, () -> t(x).fill_(v), null);
      case 5 -> { long l = a.longScalar(); f.op("fill_", new Object[] {x, l + "L"}, () -> t(x).fill_(l), null); }
      case 6 -> f.op("zero_", new Object[] {x}, () -> t(x).zero_(), null);
      case 7 -> { DType dt = a.dtype(); f.op("to", new Object[] {x, dt}, () -> t(x).to(dt), null); }
      case 8 -> {
        long[] idx = new long[a.chance(10) ? a.between(0, 4) : r];
        for (int i = 0; i < idx.length; i++) idx[i] = a.index(a.size(x, i));
        f.op("getDouble", new Object[] {x, idx}, () -> t(x).getDouble(idx), null);
      }
      case 9 -> {
        long[] idx = new long[r];
        for (int i = 0; i < idx.length; i++) idx[i] = a.index(a.size(x, i));
        f.op("setDouble", new Object[] {x, v, idx}, () -> t(x).setDouble(v, idx), null);
      }
      case 10 -> f.op("item", new Object[] {x}, () -> t(x).item(), null);
      case 11 -> f.op("uniform_", new Object[] {x, v}, () -> t(x).uniform_(v, v + 1, f.gen), null);
      case 12 -> f.op("normal_", new Object[] {x, v}, () -> t(x).normal_(0, v, f.gen), null);
      case 13 -> f.op("bernoulli", new Object[] {x, v}, () -> a.chance(2) ? t(x).bernoulli(f.gen) : t(x).bernoulli(v, f.gen), null);
      case 14 -> f.op("dropout", new Object[] {x, v}, () -> t(x).dropout(v, true, f.gen), null);
      default -> f.op("toString", new Object[] {x.toString()}, () -> t(x).toString(), null);  // prints a closed one too
    }
  }

  /**
   * A scope around a few ops: everything they create is closed with the scope except the one kept,
   * which joins the pool. Nested now and then; a scope closed out of order must be refused.
   */
  private static void scope(Fuzz f) {
    Pool.Entry x = f.pool.pickOpen();
    if (x == null) return;
    List<Tensor> made = new ArrayList<>();
    Tensor[] kept = new Tensor[1];
    f.op("scope", new Object[] {x}, () -> {
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
    }, null);
  }
}
