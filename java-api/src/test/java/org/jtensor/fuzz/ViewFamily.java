package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import org.jtensor.DType;
import org.jtensor.Index;
import org.jtensor.Tensor;

/** View ops: every shape-changing op of DESIGN §6, valid and invalid, chained on pooled tensors. */
final class ViewFamily {
  private ViewFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int r = a.rank(x);
    int d0 = a.dim(r), d1 = a.dim(r);
    switch (f.rnd.nextInt(26)) {
      case 0 -> { long[] s = viewShape(f, x); f.op("view", new Object[] {x, s}, () -> t(x).view(s), Refs.sameValues(x)); }
      case 1 -> { long[] s = viewShape(f, x); f.op("reshape", new Object[] {x, s}, () -> t(x).reshape(s), Refs.sameValues(x)); }
      case 2 -> f.op("transpose", new Object[] {x, d0, d1}, () -> t(x).transpose(d0, d1), null);
      case 3 -> { int[] p = perm(f, r); f.op("permute", new Object[] {x, p}, () -> t(x).permute(p), null); }
      case 4 -> {
        long st = a.index(a.size(x, d0) + 1), len = a.between(-1, 3);
        f.op("narrow", new Object[] {x, d0, st, len}, () -> t(x).narrow(d0, st, len), null);
      }
      case 5 -> { long i = a.index(a.size(x, d0)); f.op("select", new Object[] {x, d0, i}, () -> t(x).select(d0, i), null); }
      case 6 -> {
        long st = a.index(5), en = a.chance(4) ? Long.MAX_VALUE : a.index(5), step = a.chance(20) ? a.between(-2, 0) : a.between(1, 3);
        f.op("slice", new Object[] {x, d0, st, en, step}, () -> t(x).slice(d0, st, en, step), null);
      }
      case 7 -> { int d = a.dim(r + 1); f.op("unsqueeze", new Object[] {x, d}, () -> t(x).unsqueeze(d), null); }
      case 8 -> f.op("squeeze", new Object[] {x}, () -> t(x).squeeze(), Refs.sameValues(x));
      case 9 -> { int[] ds = a.dims(r); f.op("squeeze", new Object[] {x, ds}, () -> t(x).squeeze(ds), Refs.sameValues(x)); }
      case 10 -> { long[] s = expandShape(f, x); f.op("expand", new Object[] {x, s}, () -> t(x).expand(s), null); }
      case 11 -> {
        long sz = a.between(-1, 3), st = a.between(0, 3);
        f.op("unfold", new Object[] {x, d0, sz, st}, () -> t(x).unfold(d0, sz, st), null);
      }
      case 12 -> { long o = a.between(-3, 3); f.op("diagonal", new Object[] {x, o, d0, d1}, () -> t(x).diagonal(o, d0, d1), null); }
      case 13 -> {
        long[] size = a.shape(), stride = new long[size.length];
        for (int i = 0; i < stride.length; i++) stride[i] = a.chance(30) ? -1 : a.between(0, 5);
        long off = a.chance(10) ? a.longScalar() : a.between(0, 4);
        f.op("asStrided", new Object[] {x, size, stride, off}, () -> t(x).asStrided(size, stride, off), null);
      }
      case 14 -> f.op("flatten", new Object[] {x, d0, d1}, () -> t(x).flatten(d0, d1), Refs.sameValues(x));
      case 15 -> {
        long n = a.size(x, d0);
        long[] s = a.chance(2) ? new long[] {-1, a.chance(3) ? 1 : n} : new long[] {n, 1};
        f.op("unflatten", new Object[] {x, d0, s}, () -> t(x).unflatten(d0, s), Refs.sameValues(x));
      }
      case 16 -> f.op("movedim", new Object[] {x, d0, d1}, () -> t(x).movedim(d0, d1), null);
      case 17 -> f.op(r == 2 || a.chance(3) ? "t" : "mT", new Object[] {x}, () -> r == 2 ? t(x).t() : t(x).mT(), null);
      case 18 -> { long n = a.between(-1, 3); f.op("split", new Object[] {x, n, d0}, () -> t(x).split(n, d0), null); }
      case 19 -> { int n = a.between(-1, 4); f.op("chunk", new Object[] {x, n, d0}, () -> t(x).chunk(n, d0), null); }
      case 20 -> f.op("unbind", new Object[] {x, d0}, () -> t(x).unbind(d0), null);
      case 21 -> { int n = a.between(-1, 4); f.op("tensorSplit", new Object[] {x, n, d0}, () -> t(x).tensorSplit(n, d0), null); }
      case 22 -> f.op("contiguous", new Object[] {x}, () -> t(x).contiguous(), Refs.sameValues(x));
      case 23 -> f.op(a.chance(2) ? "clone" : "detach", new Object[] {x}, () -> a.chance(2) ? t(x).clone() : t(x).detach(), Refs.sameValues(x));
      case 24 -> {
        // Not to or from bool: through such an alias a bool tensor gets bytes other than 0/1 (legal, as in
        // PyTorch, and read as True: BoolBytesTest), which the fuzzer's invariant that bool tensors hold
        // only 0/1 (Fuzz.badBoolBytes) would flag.
        DType drawn = a.dtype();  // drawn once: drawing again for the other branch could give bool
        DType dt = drawn == DType.BOOL ? DType.UINT8 : drawn;
        if (!x.t().isClosed() && x.t().dtype() == DType.BOOL) return;
        f.op("view", new Object[] {x, dt}, () -> t(x).view(dt), null);
      }
      default -> { Index[] idx = basicIndex(f, r); f.op("get", new Object[] {x, idx}, () -> t(x).get(idx), null); }
    }
  }

  /** A shape with x's numel (maybe with one -1), or a wrong one now and then. */
  private static long[] viewShape(Fuzz f, Pool.Entry x) {
    long n = x == null || x.t().isClosed() ? 4 : x.t().numel();
    if (f.args.chance(10)) return f.args.shape();
    long[] s = new long[f.args.between(0, 3)];
    if (s.length == 0) return n == 1 ? s : new long[] {n};
    long rest = n;
    for (int i = 0; i < s.length - 1; i++) {
      long div = rest > 0 && rest % 2 == 0 && f.args.chance(2) ? 2 : 1;
      s[i] = div;
      rest /= div;
    }
    s[s.length - 1] = rest;
    if (f.args.chance(3)) s[f.rnd.nextInt(s.length)] = -1;
    return s;
  }

  private static long[] expandShape(Fuzz f, Pool.Entry x) {
    long[] base = x == null || x.t().isClosed() ? new long[] {1} : x.t().shape();
    long[] s = new long[base.length + f.args.between(0, 1)];
    int lead = s.length - base.length;
    for (int i = 0; i < s.length; i++) {
      long b = i < lead ? 1 : base[i - lead];
      s[i] = b == 1 ? f.args.between(1, 3) : (f.args.chance(4) ? -1 : b);
      if (f.args.chance(30)) s[i] = f.args.between(-3, 5);
    }
    return s;
  }

  private static int[] perm(Fuzz f, int r) {
    int[] p = new int[r];
    for (int i = 0; i < r; i++) p[i] = i;
    for (int i = r - 1; i > 0; i--) {
      int j = f.rnd.nextInt(i + 1), tmp = p[i];
      p[i] = p[j];
      p[j] = tmp;
    }
    if (f.args.chance(10) && r > 0) p[f.rnd.nextInt(r)] = f.args.dim(r);
    if (f.args.chance(20)) return new int[] {0, 0};
    return p;
  }

  static Index[] basicIndex(Fuzz f, int r) {
    Index[] idx = new Index[f.args.between(0, r + 1)];
    for (int i = 0; i < idx.length; i++) {
      switch (f.rnd.nextInt(6)) {
        case 0 -> idx[i] = Index.at(f.args.index(3));
        case 1 -> idx[i] = Index.slice(f.args.chance(2) ? null : f.args.index(4), f.args.chance(2) ? null : f.args.index(4),
            f.args.chance(3) ? null : (long) f.args.between(f.args.chance(20) ? -1 : 1, 3));
        case 2 -> idx[i] = Index.none();
        case 3 -> idx[i] = Index.ellipsis();
        case 4 -> idx[i] = f.args.chance(50) ? null : Index.all();
        default -> idx[i] = Index.at(f.args.index(2));
      }
    }
    return idx;
  }
}
