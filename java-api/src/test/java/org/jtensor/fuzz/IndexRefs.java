package org.jtensor.fuzz;

/** References for the index ops: which element of the input each result element must be (exact). */
final class IndexRefs {
  private IndexRefs() {}

  /** result[..., i, ...] = x[..., idx[i], ...] along dim d; indexSelect refuses a negative index (no result to check), x[idx] wraps it. */
  static Fuzz.Check indexSelect(Pool.Entry x, int d, Pool.Entry idx, boolean wrapsNegative) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), ix = in.of(idx);
      if (v.shape.length == 0) {
        expectEqual(r, 0, v, 0);
        return;
      }
      int dim = d < 0 ? d + v.shape.length : d;
      long[] shape = v.shape.clone();
      shape[dim] = ix.numel();
      Vals.expectShape(shape, r, "indexSelect");
      for (int o = 0; o < r.numel(); o++) {
        long[] at = Vals.unflat(o, shape);
        long i = ix.l[(int) at[dim]];
        at[dim] = wrapsNegative && i < 0 ? i + v.shape[dim] : i;
        expectEqual(r, o, v, Vals.flat(at, v.shape));
      }
    };
  }

  /** result[p] = x[p with p[d] replaced by idx[p]]. */
  static Fuzz.Check gather(Pool.Entry x, int d, Pool.Entry idx) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), ix = in.of(idx);
      Vals.expectShape(ix.shape, r, "gather");
      for (int o = 0; o < r.numel(); o++) {
        long[] at = Vals.unflat(o, ix.shape);
        if (v.shape.length == 0) {
          expectEqual(r, o, v, 0);
          continue;
        }
        int dim = d < 0 ? d + v.shape.length : d;
        at[dim] = ix.l[o];  // a negative index is refused, as PyTorch's gather refuses it
        expectEqual(r, o, v, Vals.flat(at, v.shape));
      }
    };
  }

  /** value where the mask is true, x elsewhere, x and mask broadcast together (PyTorch's expand_outplace); value as x's dtype stores it. */
  static Fuzz.Check maskedFill(Pool.Entry x, Pool.Entry mask, double value) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), m = in.of(mask);
      long[] shape = Refs.broadcast(v.shape, m.shape);
      Vals.expectShape(shape, r, "maskedFill");
      for (int o = 0; o < r.numel(); o++) {
        long[] at = Vals.unflat(o, shape);
        int pm = Vals.flat(Refs.squash(at, m.shape), m.shape);
        if (m.l[pm] == 0) {
          expectEqual(r, o, v, Vals.flat(Refs.squash(at, v.shape), v.shape));
        } else {
          double e = r.dtype == org.jtensor.DType.BOOL ? (value != 0 ? 1 : 0) : v.integral() ? Vals.wrap((long) value, r.dtype) : Vals.round(value, r.dtype);
          if (Double.compare(r.d[o], e) != 0 && !(e == 0 && r.d[o] == 0)) throw Vals.mismatch("maskedFill", o, r.d[o], e);
        }
      }
    };
  }

  private static void expectEqual(Vals r, int o, Vals v, int i) {
    boolean same = r.integral() && v.integral() ? r.l[o] == v.l[i] : Double.compare(r.d[o], v.d[i]) == 0;
    if (!same) throw Vals.mismatch("element moved from " + i, o, r.d[o], v.d[i]);
  }
}
