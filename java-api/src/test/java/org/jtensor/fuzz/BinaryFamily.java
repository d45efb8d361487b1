package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;
import static org.jtensor.fuzz.Valid.open;

import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.fuzz.UnaryFamily.Takes;

/** Binary elementwise ops: tensor-tensor with broadcasting and mixed dtypes, tensor-scalar, in-place and out=. */
final class BinaryFamily {
  private BinaryFamily() {}

  /** One binary op as the fuzzer calls it, with its reference (fl null: computed in floating point). */
  private record Bin(String name, Takes takes, TT tt, TD td, TL tl, DoubleBinaryOperator fd, LongBinaryOperator fl, boolean compare) {}

  private interface TT { Tensor apply(Tensor a, Tensor b); }
  private interface TD { Tensor apply(Tensor a, double b); }
  private interface TL { Tensor apply(Tensor a, long b); }

  private static final Bin[] OPS = {
      new Bin("add", Takes.ALL, Tensor::add, Tensor::add, Tensor::add, (x, y) -> x + y, (x, y) -> x + y, false),
      new Bin("sub", Takes.NUM, Tensor::sub, Tensor::sub, Tensor::sub, (x, y) -> x - y, (x, y) -> x - y, false),
      new Bin("mul", Takes.ALL, Tensor::mul, Tensor::mul, Tensor::mul, (x, y) -> x * y, (x, y) -> x * y, false),
      new Bin("div", Takes.ALL, Tensor::div, Tensor::div, Tensor::div, (x, y) -> x / y, null, false),
      new Bin("floorDivide", Takes.NUM, Tensor::floorDivide, Tensor::floorDivide, Tensor::floorDivide,
          BinaryFamily::floorDiv, Refs.FLOOR_DIV, false),
      new Bin("remainder", Takes.NUM, Tensor::remainder, Tensor::remainder, Tensor::remainder, BinaryFamily::pyMod, Refs.FLOOR_MOD, false),
      new Bin("maximum", Takes.ALL, Tensor::maximum, null, null, Math::max, Math::max, false),
      new Bin("minimum", Takes.ALL, Tensor::minimum, null, null, Math::min, Math::min, false),
      new Bin("fmax", Takes.ALL, Tensor::fmax, null, null, (x, y) -> x != x ? y : y != y ? x : y > x ? y : x, Math::max, false),
      new Bin("fmin", Takes.ALL, Tensor::fmin, null, null, (x, y) -> x != x ? y : y != y ? x : y < x ? y : x, Math::min, false),
      new Bin("eq", Takes.ALL, Tensor::eq, Tensor::eq, Tensor::eq, (x, y) -> x == y ? 1 : 0, (x, y) -> x == y ? 1 : 0, true),
      new Bin("ne", Takes.ALL, Tensor::ne, Tensor::ne, Tensor::ne, (x, y) -> x != y ? 1 : 0, (x, y) -> x != y ? 1 : 0, true),
      new Bin("lt", Takes.ALL, Tensor::lt, Tensor::lt, Tensor::lt, (x, y) -> x < y ? 1 : 0, (x, y) -> x < y ? 1 : 0, true),
      new Bin("le", Takes.ALL, Tensor::le, Tensor::le, Tensor::le, (x, y) -> x <= y ? 1 : 0, (x, y) -> x <= y ? 1 : 0, true),
      new Bin("gt", Takes.ALL, Tensor::gt, Tensor::gt, Tensor::gt, (x, y) -> x > y ? 1 : 0, (x, y) -> x > y ? 1 : 0, true),
      new Bin("ge", Takes.ALL, Tensor::ge, Tensor::ge, Tensor::ge, (x, y) -> x >= y ? 1 : 0, (x, y) -> x >= y ? 1 : 0, true),
      new Bin("logicalAnd", Takes.ALL, Tensor::logicalAnd, null, null, (x, y) -> x != 0 && y != 0 ? 1 : 0, (x, y) -> x != 0 && y != 0 ? 1 : 0, true),
      new Bin("logicalOr", Takes.ALL, Tensor::logicalOr, null, null, (x, y) -> x != 0 || y != 0 ? 1 : 0, (x, y) -> x != 0 || y != 0 ? 1 : 0, true),
      new Bin("logicalXor", Takes.ALL, Tensor::logicalXor, null, null, (x, y) -> (x != 0) != (y != 0) ? 1 : 0, (x, y) -> (x != 0) != (y != 0) ? 1 : 0, true),
      new Bin("bitwiseAnd", Takes.INTB, Tensor::bitwiseAnd, null, Tensor::bitwiseAnd, null, (x, y) -> x & y, false),
      new Bin("bitwiseOr", Takes.INTB, Tensor::bitwiseOr, null, Tensor::bitwiseOr, null, (x, y) -> x | y, false),
      new Bin("bitwiseXor", Takes.INTB, Tensor::bitwiseXor, null, Tensor::bitwiseXor, null, (x, y) -> x ^ y, false),
      // shifts: the reference takes the computation dtype's width (check()); bool with bool is refused
      new Bin("bitwiseLeftShift", Takes.INTB, Tensor::bitwiseLeftShift, null, Tensor::bitwiseLeftShift, null, null, false),
      new Bin("bitwiseRightShift", Takes.INTB, Tensor::bitwiseRightShift, null, Tensor::bitwiseRightShift, null, null, false),
      new Bin("pow", Takes.NUM, Tensor::pow, Tensor::pow, Tensor::pow, BinaryFamily::pow, BinaryFamily::ipow, false),
  };

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    Bin op = OPS[f.rnd.nextInt(OPS.length)];
    int form = f.rnd.nextInt(10);
    if (form < 5 || (op.td == null && op.tl == null)) {
      Pool.Entry y = other(f, x);
      if (y == null) return;
      f.op(valid(op, x, y), op.name, new Object[] {x, y}, () -> op.tt.apply(t(x), t(y)), check(op, x, y));
    } else if (form < 8) {
      if (op.tl != null && (op.td == null || a.chance(2))) {
        long v = a.longScalar();
        f.op(valid(op, x, v), op.name, new Object[] {x, v + "L"}, () -> op.tl.apply(t(x), v), check(op, x, v));
      } else {
        double v = a.scalar();
        f.op(valid(op, x, v), op.name, new Object[] {x, v}, () -> op.td.apply(t(x), v), check(op, x, v));
      }
    } else {
      BinaryWrites.step(f, x);
    }
  }

  /** The reference of the op named name (add, sub, mul, div...) on x and y. */
  static Fuzz.Check check(String name, Pool.Entry x, Object y) {
    for (Bin op : OPS) if (op.name.equals(name)) return check(op, x, y);
    throw new IllegalArgumentException(name);
  }

  /**
   * Whether the op named name takes x and y (valid as an out-of-place call) and computes in a type
   * that casts to target's (null: no target, the op makes its result).
   */
  static boolean takes(String name, Pool.Entry x, Pool.Entry y, Pool.Entry target) {
    for (Bin op : OPS) {
      if (op.name.equals(name)) {
        return valid(op, x, y)
            && (target == null || Valid.canCast(name.equals("div") ? Valid.floatResult(x, y) : x.t().resultType(y.t()), target));
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static Fuzz.Check check(Bin op, Pool.Entry x, Object y) {
    // PyTorch 2.13 reads the scalar in a float16/bfloat16 computation's own dtype for add, sub, remainder
    // and the comparisons (float16 inf <= 3e38 is True: 3e38 is inf there)
    boolean scalarInTensorDtype = op.name.equals("add") || op.name.equals("sub") || op.name.equals("remainder") || op.compare;
    boolean shift = op.name.endsWith("Shift") && open(x) && (!(y instanceof Pool.Entry e) || open(e));  // closed: the call throws, unchecked
    LongBinaryOperator fl = shift ? shift(op.name.equals("bitwiseLeftShift"), 8 * comp(x, y).itemSize()) : op.fl;
    return Refs.binary(x, y, op.fd == null ? (p, q) -> { throw new AssertionError(op.name + " succeeded on floats"); } : op.fd,
        fl, op.compare, scalarInTensorDtype);
  }

  /** The computation dtype of x with a tensor or a scalar y. */
  private static DType comp(Pool.Entry x, Object y) {
    return y instanceof Pool.Entry e ? x.t().resultType(e.t()) : y instanceof Long v ? x.t().resultType((long) v) : x.t().resultType((double) (Double) y);
  }

  /**
   * A shift in a dtype of this many bits (operands already wrapped to it): a count below 0 or past
   * the width shifts everything out, 0 to the left and the sign to the right (docs/reliability.md).
   */
  private static LongBinaryOperator shift(boolean left, int bits) {
    return left ? (a, n) -> n < 0 || n >= bits ? 0 : a << n : (a, n) -> n < 0 || n >= bits ? (a < 0 ? -1 : 0) : a >> n;
  }

  /** Both open, shapes that broadcast, dtypes the op takes, and no integer division by 0 or power below 0. */
  private static boolean valid(Bin op, Pool.Entry x, Object y) {
    if (!open(x) || !op.takes.accepts(x.t().dtype())) return false;
    if (y instanceof Pool.Entry e && (!Valid.broadcast(x, e) || !op.takes.accepts(e.t().dtype()))) return false;
    DType comp = comp(x, y);
    if (op.fd == null && comp.isFloatingPoint()) return false;  // bitwise ops on floats
    if (op.name.endsWith("Shift") && comp == DType.BOOL) return false;
    // pow converts a scalar exponent that keeps self's dtype checked (PyTorch 2.13: float16 ** 1e5 and int8 ** 300
    // refused; float32 and float64 read any double)
    DType self = x.t().dtype();
    if (op.name.equals("pow") && !(y instanceof Pool.Entry) && comp == self && self != DType.FLOAT32 && self != DType.FLOAT64
        && !FactoryRefs.fits(y instanceof Long v ? (double) v : (Double) y, comp)) {
      return false;
    }
    boolean divides = op.name.equals("floorDivide") || op.name.equals("remainder");
    if (comp.isFloatingPoint() || !(divides || op.name.equals("pow"))) return true;
    return divides ? Valid.noZero(y, comp) : Valid.noNegative(y);
  }

  /** A second operand: a pooled tensor, or a fresh one whose shape broadcasts with x's. */
  static Pool.Entry other(Fuzz f, Pool.Entry x) {
    if (x == null || x.t().isClosed() || f.args.chance(3)) return f.args.arg();
    return fresh(f, x, f.args.dtype());
  }

  /** A fresh tensor of this dtype whose shape broadcasts to x's (x's trailing dims, some of them 1). */
  static Pool.Entry fresh(Fuzz f, Pool.Entry x, DType dtype) {
    long[] s = x.t().shape();
    int drop = f.rnd.nextInt(s.length + 1);
    long[] b = new long[s.length - drop];
    for (int i = 0; i < b.length; i++) b[i] = f.args.chance(3) ? 1 : s[drop + i];
    return f.pool.add(f.args.fresh(b, dtype));
  }

  /** An operand of x's dtype (lerp's end and weight), now and then a pooled one. */
  static Pool.Entry sameDtype(Fuzz f, Pool.Entry x) {
    if (!open(x) || f.args.chance(6)) return f.args.arg();
    return fresh(f, x, x.t().dtype());
  }

  /** A bool condition that broadcasts with x, now and then a pooled tensor of any dtype. */
  static Pool.Entry mask(Fuzz f, Pool.Entry x) {
    if (!open(x) || f.args.chance(6)) return f.args.arg();
    return fresh(f, x, DType.BOOL);
  }

  /** PyTorch's div_floor for floats: through fmod, so that 1.375 // -inf is -1 as in Python. */
  static double floorDiv(double a, double b) {
    if (b == 0) return a / b;
    double mod = a % b, div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
    if (div == 0) return Math.copySign(0.0, a / b);
    double fl = Math.floor(div);
    return div - fl > 0.5 ? fl + 1 : fl;
  }

  static double pyMod(double x, double y) {
    double m = x % y;
    return m != 0 && (y < 0) != (m < 0) ? m + y : m;
  }

  /** C's pow, which differs from Math.pow at 1^NaN and (-1)^±inf (both 1). */
  static double pow(double x, double y) {
    if (x == 1 || (x == -1 && Double.isInfinite(y))) return 1;
    return Math.pow(x, y);
  }

  /** Integer power with wrap-around; a negative exponent gives 1, -1 or 0 as PyTorch's integer pow. */
  static long ipow(long b, long e) {
    if (e < 0) return b == 1 ? 1 : b == -1 ? ((e & 1) == 0 ? 1 : -1) : 0;
    long r = 1;
    for (long base = b, k = e; k > 0; k >>= 1, base *= base) if ((k & 1) != 0) r *= base;
    return r;
  }
}
