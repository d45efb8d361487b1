package org.jtensor.fuzz;

import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.ValuesAndIndices;

/**
 * References for kthvalue and mode along a dim. kthvalue's is PyTorch 2.13's CPU quickselect
 * restated in Java (median-of-three pivot, NaN largest), so the index it picks among ties is
 * checked too; mode's value is the smallest most frequent one, and its index must hold that value
 * (which one of them is std::sort's, checked against PyTorch in OrderStatisticsOpsTest).
 */
final class SelectRefs {
  private SelectRefs() {}

  static Fuzz.Check kthvalue(Pool.Entry x, long k, int d, boolean keepdim) {
    ReduceRefs.Reducer at = (xs, ls, t) -> quickselect(xs, ls, (int) k - 1);
    ReduceRefs.Reducer value = (xs, ls, t) -> {
      int p = quickselect(xs, ls, (int) k - 1);
      return ls != null ? ls[p] : xs[p];
    };
    return pair(x, d, keepdim, value, at);
  }

  static Fuzz.Check mode(Pool.Entry x, int d, boolean keepdim) {
    Fuzz.Check values = ReduceRefs.reduce(x, new int[] {d}, keepdim, (xs, ls, t) -> mode(xs, ls), 0);
    return (result, in) -> {
      ValuesAndIndices vi = check(result, in.of(x).dtype);
      Vals v = in.of(x), val = Vals.of(vi.values()), idx = Vals.of(vi.indices());
      // PyTorch's std::sort cannot order NaN (it compares unequal to all), so its runs, and so its
      // mode, are those of whatever order the sort leaves: only NaN-free values have a reference
      if (v.integral() || Arrays.stream(v.d).noneMatch(Double::isNaN)) values.verify(vi.values(), in);
      Vals.expectShape(val.shape, idx, "mode indices");
      long[] keep = v.shape.clone();
      if (keep.length > 0) keep[d < 0 ? d + keep.length : d] = 1;
      List<List<Integer>> groups = ReduceRefs.groups(v.shape, keep, idx.numel());
      for (int o = 0; o < idx.numel(); o++) {  // each index holds its value, bit for bit
        List<Integer> g = groups.get(o);
        long p = idx.l[o];
        if (p < 0 || p >= g.size()) throw Vals.mismatch("mode index", o, p, g.size());
        int at = g.get((int) p);
        boolean same = v.integral() ? v.l[at] == val.l[o] : Double.compare(v.d[at], val.d[o]) == 0;
        if (!same) throw Vals.mismatch("mode: the input at the index", o, v.d[at], val.d[o]);
      }
    };
  }

  private static Fuzz.Check pair(Pool.Entry x, int d, boolean keepdim, ReduceRefs.Reducer value, ReduceRefs.Reducer at) {
    Fuzz.Check values = ReduceRefs.reduce(x, new int[] {d}, keepdim, value, 0);
    Fuzz.Check indices = ReduceRefs.reduce(x, new int[] {d}, keepdim, at, 0);
    return (result, in) -> {
      ValuesAndIndices vi = check(result, in.of(x).dtype);
      values.verify(vi.values(), in);
      indices.verify(vi.indices(), in);
    };
  }

  private static ValuesAndIndices check(Object result, DType dtype) {
    if (!(result instanceof ValuesAndIndices vi)) throw new AssertionError("expected values and indices, got " + result);
    if (vi.values().dtype() != dtype) throw new AssertionError("values in " + vi.values().dtype());
    if (vi.indices().dtype() != DType.INT64) throw new AssertionError("indices in " + vi.indices().dtype());
    return vi;
  }

  /** x > y with NaN largest (PyTorch's gt_or_nan), on exact longs for integral groups. */
  private static boolean gt(double[] xs, long[] ls, int i, int j) {
    if (ls != null) return ls[i] > ls[j];
    return (Double.isNaN(xs[i]) && !Double.isNaN(xs[j])) || xs[i] > xs[j];
  }

  /** PyTorch's quick_select_template over positions: the position the k-th smallest ends at. */
  static int quickselect(double[] xs, long[] ls, int k) {
    int[] pos = new int[xs.length];
    for (int i = 0; i < pos.length; i++) pos[i] = i;
    int lo = 0, hi = pos.length - 1;
    while (true) {
      if (hi <= lo) return pos[k];
      if (hi == lo + 1) {
        if (gt(xs, ls, pos[lo], pos[hi])) swap(pos, lo, hi);
        return pos[k];
      }
      swap(pos, lo + (hi - lo) / 2, lo + 1);
      if (gt(xs, ls, pos[lo + 1], pos[hi])) swap(pos, lo + 1, hi);
      if (gt(xs, ls, pos[lo], pos[hi])) swap(pos, lo, hi);
      if (gt(xs, ls, pos[lo + 1], pos[lo])) swap(pos, lo + 1, lo);
      int i = lo + 1, j = hi, piv = pos[lo];
      while (true) {
        do i++; while (gt(xs, ls, piv, pos[i]));
        do j--; while (gt(xs, ls, pos[j], piv));
        if (j < i) break;
        swap(pos, i, j);
      }
      swap(pos, lo, j);
      if (j <= k) lo = i;
      if (j >= k) hi = j - 1;
    }
  }

  private static void swap(int[] a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }

  /** The smallest of the most frequent values; every NaN counts alone, as PyTorch's run scan sees it. */
  static double mode(double[] xs, long[] ls) {
    if (ls != null) {
      long[] s = ls.clone();
      Arrays.sort(s);
      long best = s[0];
      int bestRun = 0;
      for (int i = 0, run = 0; i < s.length; i++) {
        run++;
        if (i == s.length - 1 || s[i] != s[i + 1]) {
          if (run > bestRun) {
            best = s[i];
            bestRun = run;
          }
          run = 0;
        }
      }
      return best;
    }
    double[] s = xs.clone();
    Arrays.sort(s);  // NaN last
    double best = s[0];
    int bestRun = 0;
    for (int i = 0, run = 0; i < s.length; i++) {
      run++;
      if (i == s.length - 1 || !(s[i] == s[i + 1])) {  // -0.0 == 0.0 are one value; NaN never equals
        if (run > bestRun) {
          best = s[i];
          bestRun = run;
        }
        run = 0;
      }
    }
    return best;
  }
}
