package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;
import static org.jtensor.fuzz.Valid.open;

import org.jtensor.DType;

/**
 * The binary ops that write: in place (into x) and out= (into a fresh tensor, x, or a pooled one),
 * each compared with its out-of-place reference on the inputs' values before the call.
 */
final class BinaryWrites {
  private BinaryWrites() {}

  static void step(Fuzz f, Pool.Entry x) {
    Args a = f.args;
    Pool.Entry y = BinaryFamily.other(f, x);
    if (y == null) return;
    Pool.Entry out = a.chance(4) ? x : a.chance(2) ? freshOut(f, x, y) : a.arg();
    double v = a.scalar();
    switch (f.rnd.nextInt(12)) {
      case 0 -> inPlace(f, "add", x, y);
      case 1 -> f.op(inPlaceOk("add", x, y) && alphaOk(x, y, v), "add_", new Object[] {x, y, v}, () -> t(x).add_(t(y), v),
          Refs.writes(x, alpha(x, y, v)));
      case 2 -> inPlace(f, "sub", x, y);
      case 3 -> inPlace(f, "mul", x, y);
      case 4 -> inPlace(f, "div", x, y);
      case 5 -> f.op(Valid.distinctElements(x) && Valid.canCast(x.t().resultType(v), x), "mul_", new Object[] {x, v},
          () -> t(x).mul_(v), Refs.writes(x, BinaryFamily.check("mul", x, v)));
      case 6 -> out(f, "add", x, y, out);
      case 7 -> out(f, "sub", x, y, out);
      case 8 -> out(f, "mul", x, y, out);
      case 9 -> out(f, "div", x, y, out);
      case 10 -> f.op(BinaryFamily.takes("add", x, y, null) && alphaOk(x, y, v) && Valid.broadcast(x, y), "add",
          new Object[] {x, y, v}, () -> t(x).add(t(y), v), alpha(x, y, v));
      default -> {
        String mode = a.chance(10) ? "bogus" : a.chance(2) ? "trunc" : "floor";
        boolean ok = !mode.equals("bogus") && BinaryFamily.takes("floorDivide", x, y, null);
        f.op(ok, "div", new Object[] {x, y, mode}, () -> t(x).div(t(y), mode), mode.equals("trunc")
            ? Refs.binary(x, y, Refs.TRUNC, Refs.TRUNC_DIV, false)
            : Refs.binary(x, y, BinaryFamily::floorDiv, Refs.FLOOR_DIV, false));
      }
    }
  }

  private static void inPlace(Fuzz f, String name, Pool.Entry x, Pool.Entry y) {
    f.op(inPlaceOk(name, x, y), name + "_", new Object[] {x, y}, () -> switch (name) {
      case "add" -> t(x).add_(t(y));
      case "sub" -> t(x).sub_(t(y));
      case "mul" -> t(x).mul_(t(y));
      default -> t(x).div_(t(y));
    }, Refs.writes(x, BinaryFamily.check(name, x, y)));
  }

  private static void out(Fuzz f, String name, Pool.Entry x, Pool.Entry y, Pool.Entry out) {
    boolean ok = open(out) && Valid.broadcast(x, y) && BinaryFamily.takes(name, x, y, out) && Valid.distinctElements(out)
        && java.util.Arrays.equals(out.t().shape(), Refs.broadcast(x.t().shape(), y.t().shape()))
        && Valid.noOverlap(out, x) && Valid.noOverlap(out, y);
    f.op(ok, name + "Out", new Object[] {x, y, out}, () -> switch (name) {
      case "add" -> t(x).addOut(t(y), t(out));
      case "sub" -> t(x).subOut(t(y), t(out));
      case "mul" -> t(x).mulOut(t(y), t(out));
      default -> t(x).divOut(t(y), t(out));
    }, Refs.writes(out, BinaryFamily.check(name, x, y)));
  }

  /** y broadcasts to x's shape, the result casts to x's dtype, x's elements are distinct and y does not overlap them. */
  private static boolean inPlaceOk(String name, Pool.Entry x, Pool.Entry y) {
    return Valid.distinctElements(x) && Valid.broadcastsTo(y, x.t().shape()) && BinaryFamily.takes(name, x, y, x)
        && Valid.noOverlap(x, y);
  }

  private static boolean alphaOk(Pool.Entry x, Pool.Entry y, double v) {
    return alphaHolds(x.t().resultType(y.t()), v);
  }

  /**
   * PyTorch's alpha rules for a double alpha, a Python float: an integer (or bool) result refuses it
   * (2.0 too: integers come through the long overloads); a floating one takes any alpha its dtype
   * holds (float16 refuses 70000, as PyTorch's add).
   */
  static boolean alphaHolds(DType comp, double v) {
    return comp.isFloatingPoint() && FactoryRefs.fits(v, comp);
  }

  /** x + alpha * y, alpha converted to the computation's dtype (for bool: whether it is nonzero). */
  private static Fuzz.Check alpha(Pool.Entry x, Pool.Entry y, double v) {
    return (result, in) -> {
      DType comp = x.t().resultType(y.t());
      if (!alphaHolds(comp, v)) throw new AssertionError("accepted alpha " + v + " for " + comp + ": PyTorch refuses it");
      long a = comp == DType.BOOL ? (v != 0 ? 1 : 0) : (long) v;
      // below float64 alpha is PyTorch's opmath float: 1e-320 is 0 there, so inf + 1e-320 · inf is NaN (seed 418)
      double av = comp.isFloatingPoint() && comp != DType.FLOAT64 ? (float) v : v;
      // a 0-dim operand of another dtype is converted to the computation's dtype first, as add's is in BinaryFamily
      // (float16 + 0.0 * int32 tensor(-1.07e9) is NaN in PyTorch: -inf in float16; seed 509)
      Refs.binary(x, y, (p, q) -> p + av * q, (p, q) -> p + a * q, false, true).verify(result, in);
    };
  }

  /** An out= target of the broadcast shape, in the result dtype or another. */
  private static Pool.Entry freshOut(Fuzz f, Pool.Entry x, Pool.Entry y) {
    if (!Valid.broadcast(x, y)) return f.args.arg();
    DType dt = f.args.chance(2) ? Valid.floatResult(x, y) : f.args.dtype();
    return f.pool.add(f.args.fresh(Refs.broadcast(x.t().shape(), y.t().shape()), dt));
  }
}
