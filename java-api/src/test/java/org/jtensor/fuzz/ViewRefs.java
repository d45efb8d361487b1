package org.jtensor.fuzz;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.Tensor;
import org.jtensor.fuzz.BasicIndex.Selection;

/** Checks of the view ops against {@link ViewModels}: the shape, and each element the model says it shows. */
final class ViewRefs {
  private ViewRefs() {}

  /** The result shows x's elements as the model selects them (exact, same dtype); a null model means PyTorch refuses. */
  static Fuzz.Check view(Pool.Entry x, String what, Function<long[], Selection> model) {
    return (result, in) -> {
      Vals v = in.of(x);
      Selection s = model.apply(v.shape);
      if (s == null) throw new AssertionError(what + " accepted arguments PyTorch refuses for shape " + Arrays.toString(v.shape));
      expect(Vals.of(result), v, s, what);
    };
  }

  /** A list of views (split, chunk, unbind, tensorSplit), each checked against its piece of the model. */
  static Fuzz.Check pieces(Pool.Entry x, String what, Function<long[], List<Selection>> model) {
    return (result, in) -> {
      Vals v = in.of(x);
      List<Selection> want = model.apply(v.shape);
      if (want == null) throw new AssertionError(what + " accepted arguments PyTorch refuses for shape " + Arrays.toString(v.shape));
      if (!(result instanceof List<?> got) || got.size() != want.size()) {
        throw new AssertionError(what + ": " + (result instanceof List<?> l ? l.size() : result) + " pieces, expected " + want.size());
      }
      for (int i = 0; i < want.size(); i++) expect(Vals.of(got.get(i)), v, want.get(i), what + " piece " + i);
    };
  }

  private static void expect(Vals r, Vals v, Selection s, String what) {
    Vals.expectShape(s.shape(), r, what);
    if (r.dtype != v.dtype) throw new AssertionError(what + " gave " + r.dtype + " from " + v.dtype);
    for (int o = 0; o < r.numel(); o++) {
      int i = s.source()[o];
      boolean same = v.integral() ? r.l[o] == v.l[i] : Double.compare(r.d[o], v.d[i]) == 0;
      if (!same) throw Vals.mismatch(what + " (source element " + i + ")", o, r.d[o], v.d[i]);
    }
  }

  /**
   * asStrided: the geometry asked for, x's storage, and at each storage position that one of x's
   * own elements occupies, that element's value (positions outside x are not known here).
   */
  static Fuzz.Check asStrided(Pool.Entry x, long[] size, long[] stride, long offset) {
    return (result, in) -> {
      Tensor t = (Tensor) result;
      Vals r = Vals.of(result), v = in.of(x);
      Vals.expectShape(size, r, "asStrided");
      if (!Arrays.equals(t.stride(), stride) || t.storageOffset() != offset || !t.isAliasOf(x.t())) {
        throw new AssertionError("asStrided gave strides " + Arrays.toString(t.stride()) + " + " + t.storageOffset() + ", not an alias as asked");
      }
      Map<Long, Integer> at = new HashMap<>();
      long[] xs = x.t().stride();
      for (int i = 0; i < v.numel(); i++) at.put(position(Vals.unflat(i, v.shape), xs, x.t().storageOffset()), i);
      for (int o = 0; o < r.numel(); o++) {
        Integer i = at.get(position(Vals.unflat(o, size), stride, offset));
        if (i == null) continue;
        boolean same = v.integral() ? r.l[o] == v.l[i] : Double.compare(r.d[o], v.d[i]) == 0;
        if (!same) throw Vals.mismatch("asStrided (x's element " + i + ")", o, r.d[o], v.d[i]);
      }
    };
  }

  private static long position(long[] idx, long[] stride, long offset) {
    long p = offset;
    for (int d = 0; d < idx.length; d++) p += idx[d] * stride[d];
    return p;
  }
}
