package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import org.jtensor.Tensor;

/** Unary elementwise ops and the ternary ones (clamp, lerp, where), out-of-place and in-place. */
final class UnaryFamily {
  private UnaryFamily() {}

  private record Un(String name, Function<Tensor, Tensor> op, DoubleUnaryOperator fd, LongUnaryOperator fl, double maxAbs) {}

  private static final double ANY = Double.MAX_VALUE;
  private static final Un[] OPS = {
      new Un("neg", Tensor::neg, x -> -x, x -> -x, ANY),
      new Un("abs", Tensor::abs, Math::abs, Math::abs, ANY),
      new Un("reciprocal", Tensor::reciprocal, x -> 1 / x, null, ANY),
      new Un("sign", Tensor::sign, Math::signum, Long::signum, ANY),
      new Un("exp", Tensor::exp, Math::exp, null, 80),
      new Un("log", Tensor::log, Math::log, null, 1e30),
      new Un("sqrt", Tensor::sqrt, Math::sqrt, null, ANY),
      new Un("sin", Tensor::sin, Math::sin, null, 50),
      new Un("cos", Tensor::cos, Math::cos, null, 50),
      new Un("tanh", Tensor::tanh, Math::tanh, null, 50),
      new Un("sigmoid", Tensor::sigmoid, x -> 1 / (1 + Math.exp(-x)), null, 50),
      new Un("relu", Tensor::relu, x -> Math.max(x, 0), x -> Math.max(x, 0), ANY),
      new Un("floor", Tensor::floor, Math::floor, x -> x, ANY),
      new Un("ceil", Tensor::ceil, Math::ceil, x -> x, ANY),
      new Un("trunc", Tensor::trunc, x -> x < 0 ? Math.ceil(x) : Math.floor(x), x -> x, ANY),
      new Un("round", Tensor::round, Math::rint, x -> x, ANY),
      new Un("logicalNot", Tensor::logicalNot, x -> x == 0 ? 1 : 0, x -> x == 0 ? 1 : 0, ANY),
      new Un("bitwiseNot", Tensor::bitwiseNot, null, x -> ~x, ANY),
      new Un("isnan", Tensor::isnan, null, null, ANY),
      new Un("erf", Tensor::erf, null, null, ANY),
      new Un("exp2", Tensor::exp2, null, null, ANY),
      new Un("log2", Tensor::log2, null, null, ANY),
      new Un("log1p", Tensor::log1p, null, null, ANY),
      new Un("expm1", Tensor::expm1, null, null, ANY),
      new Un("rsqrt", Tensor::rsqrt, null, null, ANY),
      new Un("tan", Tensor::tan, null, null, ANY),
      new Un("gelu", Tensor::gelu, null, null, ANY),
      new Un("silu", Tensor::silu, null, null, ANY),
      new Un("softplus", Tensor::softplus, null, null, ANY),
      new Un("leakyRelu", Tensor::leakyRelu, null, null, ANY),
  };

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int form = f.rnd.nextInt(10);
    if (form < 6) {
      Un op = OPS[f.rnd.nextInt(OPS.length)];
      Fuzz.Check check = op.fd == null && op.fl == null ? null
          : Refs.unary(x, op.fd == null ? v -> { throw new AssertionError(op.name + " succeeded on floats"); } : op.fd,
              op.fl, op.maxAbs);
      f.op(op.name, new Object[] {x}, () -> op.op.apply(t(x)), check);
      return;
    }
    double lo = a.scalar(), hi = a.scalar();
    switch (f.rnd.nextInt(14)) {
      case 0 -> f.op("neg_", new Object[] {x}, () -> t(x).neg_(), null);
      case 1 -> f.op("abs_", new Object[] {x}, () -> t(x).abs_(), null);
      case 2 -> f.op("exp_", new Object[] {x}, () -> t(x).exp_(), null);
      case 3 -> f.op("sqrt_", new Object[] {x}, () -> t(x).sqrt_(), null);
      case 4 -> f.op("relu_", new Object[] {x}, () -> t(x).relu_(), null);
      case 5 -> f.op("sigmoid_", new Object[] {x}, () -> t(x).sigmoid_(), null);
      case 6 -> f.op("clamp", new Object[] {x, lo, hi}, () -> t(x).clamp(lo, hi), null);
      case 7 -> f.op("clampMin", new Object[] {x, lo}, () -> t(x).clampMin(lo), null);
      case 8 -> f.op("clamp_", new Object[] {x, lo, hi}, () -> t(x).clamp_(lo, hi), null);
      case 9 -> {
        Pool.Entry p = BinaryFamily.other(f, x), q = BinaryFamily.other(f, x);
        f.op("clamp", new Object[] {x, p, q}, () -> t(x).clamp(t(p), t(q)), null);
      }
      case 10 -> {
        Pool.Entry e = BinaryFamily.other(f, x);
        f.op("lerp", new Object[] {x, e, lo}, () -> t(x).lerp(t(e), lo), null);
      }
      case 11 -> {
        Pool.Entry e = BinaryFamily.other(f, x), w = BinaryFamily.other(f, x);
        f.op("lerp", new Object[] {x, e, w}, () -> t(x).lerp(t(e), t(w)), null);
      }
      case 12 -> {
        Pool.Entry c = BinaryFamily.other(f, x), y = BinaryFamily.other(f, x);
        f.op("where", new Object[] {c, x, y}, () -> Tensor.where(t(c), t(x), t(y)), null);
      }
      default -> {
        Pool.Entry c = BinaryFamily.other(f, x);
        f.op("where", new Object[] {c, x, hi}, () -> Tensor.where(t(c), t(x), hi), null);
      }
    }
  }
}
