package org.jtensor.fuzz;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.ValuesAndIndices;

/** References for the reductions that answer positions: max/min along a dim with their indices, and nonzero. */
final class ArgRefs {
  private ArgRefs() {}

  /** max(d, keepdim) or min: the values as amax/amin give them, the indices as argmax/argmin (the first). */
  static Fuzz.Check valuesAndIndices(Pool.Entry x, int d, boolean keepdim, boolean max) {
    Fuzz.Check values = ReduceRefs.reduce(x, new int[] {d}, keepdim, max ? ReduceRefs::amax : ReduceRefs::amin, 0);
    Fuzz.Check indices = ReduceRefs.reduce(x, new int[] {d}, keepdim, max ? ReduceRefs::argmax : ReduceRefs::argmin, 0);
    return (result, in) -> {
      if (!(result instanceof ValuesAndIndices vi)) throw new AssertionError("expected values and indices, got " + result);
      if (vi.values().dtype() != in.of(x).dtype) throw new AssertionError("values in " + vi.values().dtype());
      if (vi.indices().dtype() != DType.INT64) throw new AssertionError("indices in " + vi.indices().dtype());
      values.verify(vi.values(), in);
      indices.verify(vi.indices(), in);
    };
  }

  /** cummax(d) or cummin: the running extreme (the last of equals; a NaN, once seen, stays) and its position. */
  static Fuzz.Check cumExtreme(Pool.Entry x, int d, boolean max) {
    Fuzz.Check values = ReduceRefs.along(x, d, xs -> cumExtreme(xs, max, false));
    Fuzz.Check indices = ReduceRefs.along(x, d, xs -> cumExtreme(xs, max, true));
    return (result, in) -> {
      if (!(result instanceof ValuesAndIndices vi)) throw new AssertionError("expected values and indices, got " + result);
      if (vi.values().dtype() != in.of(x).dtype) throw new AssertionError("values in " + vi.values().dtype());
      if (vi.indices().dtype() != DType.INT64) throw new AssertionError("indices in " + vi.indices().dtype());
      values.verify(vi.values(), in);
      indices.verify(vi.indices(), in);
    };
  }

  private static double[] cumExtreme(double[] xs, boolean max, boolean index) {
    double[] r = new double[xs.length];
    double best = xs.length == 0 ? 0 : xs[0];
    int at = 0;
    for (int k = 0; k < xs.length; k++) {
      if (Double.isNaN(xs[k]) || (!Double.isNaN(best) && (max ? xs[k] >= best : xs[k] <= best))) {
        best = xs[k];
        at = k;
      }
      r[k] = index ? at : best;
    }
    return r;
  }

  /** int64 [n, rank]: the multi-index of each nonzero element (NaN included) in row-major order. */
  static Fuzz.Check nonzero(Pool.Entry x) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      if (r.dtype != DType.INT64) throw new AssertionError("nonzero gave " + r.dtype);
      List<long[]> hits = new ArrayList<>();
      for (int i = 0; i < v.numel(); i++) {
        if (v.integral() ? v.l[i] != 0 : v.d[i] != 0) hits.add(Vals.unflat(i, v.shape));  // NaN != 0
      }
      int rank = v.shape.length;
      Vals.expectShape(new long[] {hits.size(), rank}, r, "nonzero");
      for (int k = 0; k < hits.size(); k++) {
        for (int d = 0; d < rank; d++) {
          if (r.l[k * rank + d] != hits.get(k)[d]) throw Vals.mismatch("nonzero", k * rank + d, r.l[k * rank + d], hits.get(k)[d]);
        }
      }
    };
  }
}
