package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import org.jtensor.Tensor;

/** Binary elementwise ops: tensor-tensor with broadcasting and mixed dtypes, tensor-scalar, in-place and out=. */
final class BinaryFamily {
  private BinaryFamily() {}

  /** One binary op as the fuzzer calls it, with its reference (fl null: computed in floating point). */
  private record Bin(String name, TT tt, TD td, TL tl, DoubleBinaryOperator fd, LongBinaryOperator fl, boolean compare) {}

  private interface TT { Tensor apply(Tensor a, Tensor b); }
  private interface TD { Tensor apply(Tensor a, double b); }
  private interface TL { Tensor apply(Tensor a, long b); }

  private static final Bin[] OPS = {
      new Bin("add", Tensor::add, Tensor::add, Tensor::add, (x, y) -> x + y, (x, y) -> x + y, false),
      new Bin("sub", Tensor::sub, Tensor::sub, Tensor::sub, (x, y) -> x - y, (x, y) -> x - y, false),
      new Bin("mul", Tensor::mul, Tensor::mul, Tensor::mul, (x, y) -> x * y, (x, y) -> x * y, false),
      new Bin("div", Tensor::div, Tensor::div, Tensor::div, (x, y) -> x / y, null, false),
      new Bin("floorDivide", Tensor::floorDivide, Tensor::floorDivide, Tensor::floorDivide,
          BinaryFamily::floorDiv, Refs.FLOOR_DIV, false),
      new Bin("remainder", Tensor::remainder, Tensor::remainder, Tensor::remainder, BinaryFamily::pyMod, Refs.FLOOR_MOD, false),
      new Bin("maximum", Tensor::maximum, null, null, (x, y) -> Math.max(x, y), Math::max, false),
      new Bin("minimum", Tensor::minimum, null, null, (x, y) -> Math.min(x, y), Math::min, false),
      new Bin("eq", Tensor::eq, Tensor::eq, Tensor::eq, (x, y) -> x == y ? 1 : 0, (x, y) -> x == y ? 1 : 0, true),
      new Bin("ne", Tensor::ne, Tensor::ne, Tensor::ne, (x, y) -> x != y ? 1 : 0, (x, y) -> x != y ? 1 : 0, true),
      new Bin("lt", Tensor::lt, Tensor::lt, Tensor::lt, (x, y) -> x < y ? 1 : 0, (x, y) -> x < y ? 1 : 0, true),
      new Bin("le", Tensor::le, Tensor::le, Tensor::le, (x, y) -> x <= y ? 1 : 0, (x, y) -> x <= y ? 1 : 0, true),
      new Bin("gt", Tensor::gt, Tensor::gt, Tensor::gt, (x, y) -> x > y ? 1 : 0, (x, y) -> x > y ? 1 : 0, true),
      new Bin("ge", Tensor::ge, Tensor::ge, Tensor::ge, (x, y) -> x >= y ? 1 : 0, (x, y) -> x >= y ? 1 : 0, true),
      new Bin("logicalAnd", Tensor::logicalAnd, null, null, (x, y) -> x != 0 && y != 0 ? 1 : 0, (x, y) -> x != 0 && y != 0 ? 1 : 0, true),
      new Bin("logicalOr", Tensor::logicalOr, null, null, (x, y) -> x != 0 || y != 0 ? 1 : 0, (x, y) -> x != 0 || y != 0 ? 1 : 0, true),
      new Bin("logicalXor", Tensor::logicalXor, null, null, (x, y) -> (x != 0) != (y != 0) ? 1 : 0, (x, y) -> (x != 0) != (y != 0) ? 1 : 0, true),
      new Bin("bitwiseAnd", Tensor::bitwiseAnd, null, Tensor::bitwiseAnd, null, (x, y) -> x & y, false),
      new Bin("bitwiseOr", Tensor::bitwiseOr, null, Tensor::bitwiseOr, null, (x, y) -> x | y, false),
      new Bin("bitwiseXor", Tensor::bitwiseXor, null, Tensor::bitwiseXor, null, (x, y) -> x ^ y, false),
      new Bin("pow", Tensor::pow, Tensor::pow, Tensor::pow, null, null, false),
  };

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    Bin op = OPS[f.rnd.nextInt(OPS.length)];
    int form = f.rnd.nextInt(10);
    if (form < 5 || (op.td == null && op.tl == null)) {
      Pool.Entry y = other(f, x);
      if (y == null) return;
      f.op(op.name, new Object[] {x, y}, () -> op.tt.apply(t(x), t(y)), check(op, x, y));
    } else if (form < 8) {
      if (op.tl != null && (op.td == null || a.chance(2))) {
        long v = a.longScalar();
        f.op(op.name, new Object[] {x, v + "L"}, () -> op.tl.apply(t(x), v), check(op, x, v));
      } else {
        double v = a.scalar();
        f.op(op.name, new Object[] {x, v}, () -> op.td.apply(t(x), v), check(op, x, v));
      }
    } else {
      inPlaceOrOut(f, x);
    }
  }

  private static Fuzz.Check check(Bin op, Pool.Entry x, Object y) {
    if (op.fd == null && op.fl == null) return null;
    return Refs.binary(x, y, op.fd == null ? (p, q) -> { throw new AssertionError(op.name + " succeeded on floats"); } : op.fd,
        op.fl, op.compare);
  }

  /** A second operand: a pooled tensor, or a fresh one whose shape broadcasts with x's. */
  static Pool.Entry other(Fuzz f, Pool.Entry x) {
    if (x.t().isClosed() || f.args.chance(3)) return f.args.arg();
    long[] s = x.t().shape();
    int drop = f.rnd.nextInt(s.length + 1);
    long[] b = new long[s.length - drop];
    for (int i = 0; i < b.length; i++) b[i] = f.args.chance(3) ? 1 : s[drop + i];
    return f.pool.add(f.args.fresh(b, f.args.dtype()));
  }

  private static void inPlaceOrOut(Fuzz f, Pool.Entry x) {
    Args a = f.args;
    Pool.Entry y = other(f, x);
    if (y == null) return;
    Pool.Entry out = a.chance(4) ? x : a.arg();
    double v = a.scalar();
    switch (f.rnd.nextInt(12)) {
      case 0 -> f.op("add_", new Object[] {x, y}, () -> t(x).add_(t(y)), null);
      case 1 -> f.op("add_", new Object[] {x, y, v}, () -> t(x).add_(t(y), v), null);
      case 2 -> f.op("sub_", new Object[] {x, y}, () -> t(x).sub_(t(y)), null);
      case 3 -> f.op("mul_", new Object[] {x, y}, () -> t(x).mul_(t(y)), null);
      case 4 -> f.op("div_", new Object[] {x, y}, () -> t(x).div_(t(y)), null);
      case 5 -> f.op("mul_", new Object[] {x, v}, () -> t(x).mul_(v), null);
      case 6 -> f.op("addOut", new Object[] {x, y, out}, () -> t(x).addOut(t(y), t(out)), null);
      case 7 -> f.op("subOut", new Object[] {x, y, out}, () -> t(x).subOut(t(y), t(out)), null);
      case 8 -> f.op("mulOut", new Object[] {x, y, out}, () -> t(x).mulOut(t(y), t(out)), null);
      case 9 -> f.op("divOut", new Object[] {x, y, out}, () -> t(x).divOut(t(y), t(out)), null);
      case 10 -> f.op("add", new Object[] {x, y, v}, () -> t(x).add(t(y), v), null);
      default -> {
        String mode = a.chance(10) ? "bogus" : a.chance(2) ? "trunc" : "floor";
        f.op("div", new Object[] {x, y, mode}, () -> t(x).div(t(y), mode), null);
      }
    }
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
}
