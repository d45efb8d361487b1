package org.jtensor.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jtensor.RefView;
import org.jtensor.fuzz.BasicIndex.Selection;

/**
 * Independent models of the view ops, from a shape to what the view selects (its shape and, per
 * element, the source's flat position), written from PyTorch's meaning, never from strides. Null
 * where PyTorch refuses the arguments: the fuzzer then expects a refusal.
 */
final class ViewModels {
  private ViewModels() {}

  /** A shape's view: its shape and each element's source (as a multi-index of the input). */
  static Selection gather(long[] in, long[] out, UnaryOperator<long[]> source) {
    long n = 1;
    for (long s : out) n *= s;
    int[] src = new int[(int) n];
    for (int k = 0; k < n; k++) src[k] = Vals.flat(source.apply(Vals.unflat(k, out)), in);
    return new Selection(out.clone(), src);
  }

  /** d wrapped into [0, n) for a tensor with n dims (a 0-dim tensor takes 0 and -1), or -1 when out of range. */
  static int wrap(int d, int n) {
    int m = Math.max(n, 1);
    return d < -m || d >= m ? -1 : d < 0 ? d + m : d;
  }

  static Selection identity(long[] s) {
    return gather(s, s, o -> o);
  }

  /** The same elements in row-major order under another shape (view, reshape, flatten, unflatten). */
  static Selection reshape(long[] s, long[] to) {
    long n = 1, m = 1;
    for (long v : s) n *= v;
    for (long v : to) m *= v;
    if (n != m) return null;
    int[] src = new int[(int) n];
    for (int k = 0; k < n; k++) src[k] = k;
    return new Selection(to.clone(), src);
  }

  /** A requested shape with at most one -1 inferred, or null (two -1s, another negative, no fit). */
  static long[] infer(long[] s, long[] req) {
    long n = 1, known = 1;
    for (long v : s) n *= v;
    int free = -1;
    for (int i = 0; i < req.length; i++) {
      if (req[i] == -1 && free < 0) free = i;
      else if (req[i] < 0) return null;
      else known *= req[i];
    }
    long[] r = req.clone();
    if (free >= 0) {
      if (known == 0 || n % known != 0) return null;
      r[free] = n / known;
    }
    return r;
  }

  static Selection permute(long[] s, int[] perm) {
    if (perm.length != s.length) return null;
    int[] p = new int[perm.length];
    boolean[] seen = new boolean[perm.length];
    for (int i = 0; i < p.length; i++) {
      p[i] = wrap(perm[i], s.length);
      if (p[i] < 0 || seen[p[i]]) return null;
      seen[p[i]] = true;
    }
    long[] out = new long[p.length];
    for (int i = 0; i < p.length; i++) out[i] = s[p[i]];
    return gather(s, out, o -> {
      long[] src = new long[s.length];
      for (int i = 0; i < p.length; i++) src[p[i]] = o[i];
      return src;
    });
  }

  static Selection transpose(long[] s, int d0, int d1) {
    int a = wrap(d0, s.length), b = wrap(d1, s.length);
    if (a < 0 || b < 0) return null;
    if (s.length == 0) return identity(s);
    int[] p = new int[s.length];
    for (int i = 0; i < p.length; i++) p[i] = i;
    p[a] = b;
    p[b] = a;
    return permute(s, p);
  }

  /** movedim: the dim at src goes to dst, the others keep their order. */
  static Selection movedim(long[] s, int src, int dst) {
    int a = wrap(src, s.length), b = wrap(dst, s.length);
    if (a < 0 || b < 0) return null;
    if (s.length == 0) return identity(s);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < s.length; i++) if (i != a) order.add(i);
    order.add(b, a);
    return permute(s, order.stream().mapToInt(Integer::intValue).toArray());
  }

  /** Elements start, start + step, ... of dim d: narrow, select (len -1: the dim goes) and slice. */
  static Selection range(long[] s, int d, long start, long len, long step) {
    long[] out = len < 0 ? remove(s, d) : s.clone();
    if (len >= 0) out[d] = len;
    return gather(s, out, o -> {
      long[] src = len < 0 ? insert(o, d, 0) : o.clone();
      src[d] = start + (len < 0 ? 0 : o[d]) * step;
      return src;
    });
  }

  static Selection narrow(long[] s, int d, long start, long len) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || len < 0) return null;
    long st = start < 0 ? start + s[w] : start;
    if (st < 0 || st > s[w] || st + len > s[w]) return null;
    return range(s, w, st, len, 1);
  }

  static Selection select(long[] s, int d, long i) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || i < -s[w] || i >= s[w]) return null;
    return range(s, w, i < 0 ? i + s[w] : i, -1, 1);
  }

  /** Python's slice: bounds from the end when negative, clamped into [0, size]; a step of at least 1. */
  static Selection slice(long[] s, int d, long start, long end, long step) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || step <= 0) return null;
    long st = bound(start, s[w]), en = bound(end, s[w]);
    return range(s, w, st, en <= st ? 0 : (en - st + step - 1) / step, step);
  }

  private static long bound(long v, long size) {
    if (v < 0) v = Math.max(v + size, 0);
    return Math.min(v, size);
  }

  static Selection unsqueeze(long[] s, int d) {
    int w = d < -(s.length + 1) || d > s.length ? -1 : d < 0 ? d + s.length + 1 : d;
    if (w < 0) return null;
    return gather(s, insert(s, w, 1), o -> remove(o, w));
  }

  /** squeeze(dims): the named dims of size 1 go (all of them when dims is null); a dim named twice is refused. */
  static Selection squeeze(long[] s, int[] dims) {
    boolean[] named = new boolean[s.length];
    if (dims == null) Arrays.fill(named, true);
    else {
      boolean[] seen = new boolean[Math.max(s.length, 1)];
      for (int d : dims) {
        int w = wrap(d, s.length);
        if (w < 0 || seen[w]) return null;
        seen[w] = true;
        if (s.length > 0) named[w] = true;
      }
    }
    boolean[] drop = new boolean[s.length];
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < s.length; i++) {
      drop[i] = named[i] && s[i] == 1;
      if (!drop[i]) out.add(s[i]);
    }
    return gather(s, out.stream().mapToLong(Long::longValue).toArray(), o -> {
      long[] src = new long[s.length];
      for (int i = 0, j = 0; i < s.length; i++) src[i] = drop[i] ? 0 : o[j++];
      return src;
    });
  }

  /** expand: -1 keeps a size, a size-1 dim stretches, new leading dims (no -1) come first. */
  static Selection expand(long[] s, long[] to) {
    if (to.length < s.length) return null;
    int lead = to.length - s.length;
    long[] out = to.clone();
    for (int i = 0; i < to.length; i++) {
      if (i < lead) {
        if (to[i] < 0) return null;
        continue;
      }
      long have = s[i - lead];
      if (to[i] == -1) out[i] = have;
      else if (to[i] < 0 || (have != 1 && have != to[i])) return null;
    }
    return gather(s, out, o -> {
      long[] src = new long[s.length];
      for (int i = 0; i < s.length; i++) src[i] = s[i] == 1 ? 0 : o[i + lead];
      return src;
    });
  }

  /** unfold: windows of size along d every step, as a new last dim. */
  static Selection unfold(long[] s, int d, long size, long step) {
    int w = wrap(d, s.length);
    if (w < 0 || size < 0 || step <= 0) return null;
    if (s.length == 0) return size > 1 ? null : gather(s, new long[] {size}, o -> new long[0]);
    if (size > s[w]) return null;
    return of(RefView.arange(s).unfold(w, size, step));
  }

  /** diagonal(offset, d0, d1): the (i, i + offset) elements of the two dims, as a new last dim. */
  static Selection diagonal(long[] s, long offset, int d0, int d1) {
    int a = s.length < 2 ? -1 : wrap(d0, s.length), b = s.length < 2 ? -1 : wrap(d1, s.length);
    if (a < 0 || b < 0 || a == b) return null;
    return of(RefView.arange(s).diagonal(offset, a, b));
  }

  /** The property tests' model of a view (its shape, and each element's source) as a selection. */
  private static Selection of(RefView v) {
    int[] src = new int[v.map.length];
    for (int i = 0; i < src.length; i++) src[i] = (int) v.map[i];
    return new Selection(v.shape, src);
  }

  /** flatten(d0, d1): dims d0..d1 become one (a 0-dim tensor becomes [1]); d0 after d1 is refused. */
  static Selection flatten(long[] s, int d0, int d1) {
    int a = wrap(d0, s.length), b = wrap(d1, s.length);
    if (a < 0 || b < 0 || a > b) return null;
    if (s.length == 0) return reshape(s, new long[] {1});
    long[] out = new long[s.length - (b - a)];
    for (int i = 0, j = 0; i < s.length; i++) {
      if (i <= a || i > b) out[j++] = s[i];
      else out[j - 1] *= s[i];
    }
    return reshape(s, out);
  }

  static Selection unflatten(long[] s, int d, long[] sizes) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || sizes.length == 0) return null;
    long[] dims = infer(new long[] {s[w]}, sizes);
    if (dims == null || reshape(new long[] {s[w]}, dims) == null) return null;
    long[] out = new long[s.length - 1 + dims.length];
    System.arraycopy(s, 0, out, 0, w);
    System.arraycopy(dims, 0, out, w, dims.length);
    System.arraycopy(s, w + 1, out, w + dims.length, s.length - w - 1);
    return reshape(s, out);
  }

  /** The pieces of dim d with these sizes, in order (split, chunk, tensorSplit). */
  static List<Selection> pieces(long[] s, int w, long[] sizes) {
    List<Selection> out = new ArrayList<>();
    long at = 0;
    for (long len : sizes) {
      out.add(range(s, w, at, len, 1));
      at += len;
    }
    return out;
  }

  /** split(n): pieces of n along d, the last shorter; n = 0 only for an empty dim. */
  static List<Selection> split(long[] s, long n, int d) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || n < 0 || (n == 0 && s[w] != 0)) return null;
    long count = n == 0 ? 1 : Math.max(1, (s[w] + n - 1) / n);
    long[] sizes = new long[(int) count];
    for (int i = 0; i < count; i++) sizes[i] = n == 0 ? 0 : Math.min(n, s[w] - i * n);
    return pieces(s, w, sizes);
  }

  /** chunk(n): pieces of ceil(size / n) (fewer than n when they run out); an empty dim gives n empty pieces. */
  static List<Selection> chunk(long[] s, int n, int d) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || n <= 0) return null;
    long each = (s[w] + n - 1) / n;
    if (each == 0) return pieces(s, w, new long[n]);
    return split(s, each, d);
  }

  /** tensorSplit(n): exactly n pieces, the first size % n of them one longer. */
  static List<Selection> tensorSplit(long[] s, int n, int d) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0 || n <= 0) return null;
    long[] sizes = new long[n];
    for (int i = 0; i < n; i++) sizes[i] = s[w] / n + (i < s[w] % n ? 1 : 0);
    return pieces(s, w, sizes);
  }

  static List<Selection> unbind(long[] s, int d) {
    int w = s.length == 0 ? -1 : wrap(d, s.length);
    if (w < 0) return null;
    List<Selection> out = new ArrayList<>();
    for (long i = 0; i < s[w]; i++) out.add(range(s, w, i, -1, 1));
    return out;
  }

  static long[] insert(long[] a, int i, long v) {
    long[] r = new long[a.length + 1];
    for (int j = 0, k = 0; j < r.length; j++) r[j] = j == i ? v : a[k++];
    return r;
  }

  static long[] remove(long[] a, int i) {
    long[] r = new long[a.length - 1];
    for (int j = 0, k = 0; j < a.length; j++) if (j != i) r[k++] = a[j];
    return r;
  }
}
