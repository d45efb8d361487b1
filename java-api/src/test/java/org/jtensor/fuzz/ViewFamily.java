package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jtensor.DType;
import org.jtensor.Index;
import org.jtensor.fuzz.BasicIndex.Selection;

/** View ops: every shape-changing op of DESIGN §6, valid and invalid, chained on pooled tensors. */
final class ViewFamily {
  private ViewFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int r = a.rank(x);
    int d0 = a.dim(r), d1 = a.dim(r);
    switch (f.rnd.nextInt(26)) {
      case 0 -> {
        long[] s = viewShape(f, x);
        // view needs strides that fit: valid by construction on a contiguous input only
        view(f, x, Valid.open(x) && x.t().isContiguous(), "view", new Object[] {x, s}, () -> t(x).view(s), sh -> reshaped(sh, s));
      }
      case 1 -> { long[] s = viewShape(f, x); view(f, x, true, "reshape", new Object[] {x, s}, () -> t(x).reshape(s), sh -> reshaped(sh, s)); }
      case 2 -> view(f, x, true, "transpose", new Object[] {x, d0, d1}, () -> t(x).transpose(d0, d1), sh -> ViewModels.transpose(sh, d0, d1));
      case 3 -> { int[] p = perm(f, r); view(f, x, true, "permute", new Object[] {x, p}, () -> t(x).permute(p), sh -> ViewModels.permute(sh, p)); }
      case 4 -> {
        long st = a.index(a.size(x, d0) + 1), len = a.between(-1, 3);
        view(f, x, true, "narrow", new Object[] {x, d0, st, len}, () -> t(x).narrow(d0, st, len), sh -> ViewModels.narrow(sh, d0, st, len));
      }
      case 5 -> {
        long i = a.index(a.size(x, d0));
        view(f, x, true, "select", new Object[] {x, d0, i}, () -> t(x).select(d0, i), sh -> ViewModels.select(sh, d0, i));
      }
      case 6 -> {
        long st = a.index(5), en = a.chance(4) ? Long.MAX_VALUE : a.index(5), step = a.chance(20) ? a.between(-2, 0) : a.between(1, 3);
        view(f, x, true, "slice", new Object[] {x, d0, st, en, step}, () -> t(x).slice(d0, st, en, step),
            sh -> ViewModels.slice(sh, d0, st, en, step));
      }
      case 7 -> { int d = a.dim(r + 1); view(f, x, true, "unsqueeze", new Object[] {x, d}, () -> t(x).unsqueeze(d), sh -> ViewModels.unsqueeze(sh, d)); }
      case 8 -> view(f, x, true, "squeeze", new Object[] {x}, () -> t(x).squeeze(), sh -> ViewModels.squeeze(sh, null));
      case 9 -> { int[] ds = a.dims(r); view(f, x, true, "squeeze", new Object[] {x, ds}, () -> t(x).squeeze(ds), sh -> ViewModels.squeeze(sh, ds)); }
      case 10 -> { long[] s = expandShape(f, x); view(f, x, true, "expand", new Object[] {x, s}, () -> t(x).expand(s), sh -> ViewModels.expand(sh, s)); }
      case 11 -> {
        long sz = a.between(-1, 3), st = a.between(0, 3);
        view(f, x, true, "unfold", new Object[] {x, d0, sz, st}, () -> t(x).unfold(d0, sz, st), sh -> ViewModels.unfold(sh, d0, sz, st));
      }
      case 12 -> {
        long o = a.between(-3, 3);
        view(f, x, true, "diagonal", new Object[] {x, o, d0, d1}, () -> t(x).diagonal(o, d0, d1), sh -> ViewModels.diagonal(sh, o, d0, d1));
      }
      case 13 -> {
        long[] size = a.shape(), stride = new long[size.length];
        for (int i = 0; i < stride.length; i++) stride[i] = a.chance(30) ? -1 : a.between(0, 5);
        long off = a.chance(10) ? a.longScalar() : a.between(0, 4);
        // Random geometry over a storage of unknown size: never valid by construction.
        f.op("asStrided", new Object[] {x, size, stride, off}, () -> t(x).asStrided(size, stride, off), ViewRefs.asStrided(x, size, stride, off));
      }
      case 14 -> view(f, x, true, "flatten", new Object[] {x, d0, d1}, () -> t(x).flatten(d0, d1), sh -> ViewModels.flatten(sh, d0, d1));
      case 15 -> {
        long n = a.size(x, d0);
        long[] s = a.chance(2) ? new long[] {-1, a.chance(3) ? 1 : n} : new long[] {n, 1};
        view(f, x, true, "unflatten", new Object[] {x, d0, s}, () -> t(x).unflatten(d0, s), sh -> ViewModels.unflatten(sh, d0, s));
      }
      case 16 -> view(f, x, true, "movedim", new Object[] {x, d0, d1}, () -> t(x).movedim(d0, d1), sh -> ViewModels.movedim(sh, d0, d1));
      case 17 -> {
        boolean plainT = r == 2 || a.chance(3);  // t() on other ranks: 0-d and 1-d are themselves, 3-d is refused
        view(f, x, true, plainT ? "t" : "mT", new Object[] {x}, () -> plainT ? t(x).t() : t(x).mT(), sh -> plainT
            ? (sh.length > 2 ? null : sh.length < 2 ? ViewModels.identity(sh) : ViewModels.transpose(sh, 0, 1))
            : (sh.length == 0 ? ViewModels.identity(sh) : sh.length < 2 ? null : ViewModels.transpose(sh, -2, -1)));  // PyTorch 2.13: mT of 0-d is itself (deprecated), of 1-d refused
      }
      case 18 -> { long n = a.between(-1, 3); pieces(f, x, "split", new Object[] {x, n, d0}, () -> t(x).split(n, d0), sh -> ViewModels.split(sh, n, d0)); }
      case 19 -> { int n = a.between(-1, 4); pieces(f, x, "chunk", new Object[] {x, n, d0}, () -> t(x).chunk(n, d0), sh -> ViewModels.chunk(sh, n, d0)); }
      case 20 -> pieces(f, x, "unbind", new Object[] {x, d0}, () -> t(x).unbind(d0), sh -> ViewModels.unbind(sh, d0));
      case 21 -> {
        int n = a.between(-1, 4);
        pieces(f, x, "tensorSplit", new Object[] {x, n, d0}, () -> t(x).tensorSplit(n, d0), sh -> ViewModels.tensorSplit(sh, n, d0));
      }
      case 22 -> view(f, x, true, "contiguous", new Object[] {x}, () -> t(x).contiguous(), ViewModels::identity);
      case 23 -> {
        boolean clone = a.chance(2);
        view(f, x, true, clone ? "clone" : "detach", new Object[] {x}, () -> clone ? t(x).clone() : t(x).detach(), ViewModels::identity);
      }
      case 24 -> {
        // Not to or from bool: through such an alias a bool tensor gets bytes other than 0/1 (legal, as in
        // PyTorch, and read as True: BoolBytesTest), which the fuzzer's invariant that bool tensors hold
        // only 0/1 (Fuzz.badBoolBytes) would flag.
        DType drawn = a.dtype();  // drawn once: drawing again for the other branch could give bool
        DType dt = drawn == DType.BOOL ? DType.UINT8 : drawn;
        if (!x.t().isClosed() && x.t().dtype() == DType.BOOL) return;
        boolean ok = Valid.open(x) && ViewDtypeRef.shape(x.t().shape(), x.t().stride(), x.t().storageOffset(), x.t().dtype(), dt) != null;
        f.op(ok, "view", new Object[] {x, dt}, () -> t(x).view(dt), ViewDtypeRef.check(x, dt));
      }
      default -> {
        BasicIndex idx = basicIndex(f, r);
        view(f, x, true, "get", new Object[] {x, idx}, () -> t(x).get(idx.index), idx::select);
      }
    }
  }

  /** A view op: valid by construction when x is open, the model accepts its arguments and when (view's strides) holds. */
  private static void view(Fuzz f, Pool.Entry x, boolean when, String name, Object[] args, Supplier<Object> call,
                           Function<long[], Selection> model) {
    f.op(when && Valid.open(x) && model.apply(x.t().shape()) != null, name, args, call, ViewRefs.view(x, name, model));
  }

  private static void pieces(Fuzz f, Pool.Entry x, String name, Object[] args, Supplier<Object> call,
                             Function<long[], List<Selection>> model) {
    f.op(Valid.open(x) && model.apply(x.t().shape()) != null, name, args, call, ViewRefs.pieces(x, name, model));
  }

  private static Selection reshaped(long[] shape, long[] requested) {
    long[] to = ViewModels.infer(shape, requested);
    return to == null ? null : ViewModels.reshape(shape, to);
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

  /** A random basic index for a tensor of rank r (integers, slices, None, ..., :, now and then a null part). */
  static BasicIndex basicIndex(Fuzz f, int r) {
    Index[] idx = new Index[f.args.between(0, r + 1)];
    BasicIndex.Part[] parts = new BasicIndex.Part[idx.length];
    for (int i = 0; i < idx.length; i++) {
      switch (f.rnd.nextInt(6)) {
        case 0 -> {
          long at = f.args.index(3);
          idx[i] = Index.at(at);
          parts[i] = new BasicIndex.Part(BasicIndex.Kind.AT, at, null, null);
        }
        case 1 -> {
          Long start = f.args.chance(2) ? null : f.args.index(4), end = f.args.chance(2) ? null : f.args.index(4);
          Long step = f.args.chance(3) ? null : (long) f.args.between(f.args.chance(20) ? -1 : 1, 3);
          idx[i] = Index.slice(start, end, step);
          parts[i] = new BasicIndex.Part(BasicIndex.Kind.SLICE, start, end, step);
        }
        case 2 -> {
          idx[i] = Index.none();
          parts[i] = new BasicIndex.Part(BasicIndex.Kind.NEW, null, null, null);
        }
        case 3 -> {
          idx[i] = Index.ellipsis();
          parts[i] = new BasicIndex.Part(BasicIndex.Kind.ELLIPSIS, null, null, null);
        }
        case 4 -> {
          boolean nul = f.args.chance(50);
          idx[i] = nul ? null : Index.all();
          parts[i] = new BasicIndex.Part(nul ? BasicIndex.Kind.NULL : BasicIndex.Kind.ALL, null, null, null);
        }
        default -> {
          long at = f.args.index(2);
          idx[i] = Index.at(at);
          parts[i] = new BasicIndex.Part(BasicIndex.Kind.AT, at, null, null);
        }
      }
    }
    return new BasicIndex(idx, parts);
  }
}
