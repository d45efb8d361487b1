package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;
import static org.jtensor.fuzz.Valid.open;

import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import org.jtensor.DType;
import org.jtensor.ElementwiseReference;
import org.jtensor.Tensor;

/** Unary elementwise ops and the ternary ones (clamp, lerp, where), out-of-place and in-place. */
final class UnaryFamily {
  private UnaryFamily() {}

  /** The dtypes an op takes (ElementwisePropertyTest's sets): all, all but bool, floating only, integral and bool. */
  enum Takes { ALL, NUM, FLOAT, INTB;

    boolean accepts(DType t) {
      switch (this) {
        case NUM: return t != DType.BOOL;
        case FLOAT: return t.isFloatingPoint();
        case INTB: return !t.isFloatingPoint();
        default: return true;
      }
    }
  }

  private record Un(String name, Takes takes, Function<Tensor, Tensor> op, DoubleUnaryOperator fd, LongUnaryOperator fl, double maxAbs) {}

  private static final double ANY = Double.MAX_VALUE;
  private static final Un[] OPS = {
      new Un("neg", Takes.NUM, Tensor::neg, x -> -x, x -> -x, ANY),
      new Un("abs", Takes.NUM, Tensor::abs, Math::abs, Math::abs, ANY),
      new Un("reciprocal", Takes.ALL, Tensor::reciprocal, x -> 1 / x, null, ANY),
      new Un("sign", Takes.NUM, Tensor::sign, x -> Double.isNaN(x) ? 0 : Math.signum(x), Long::signum, ANY),
      new Un("exp", Takes.ALL, Tensor::exp, Math::exp, null, 80),
      new Un("log", Takes.ALL, Tensor::log, Math::log, null, 1e30),
      new Un("sqrt", Takes.ALL, Tensor::sqrt, Math::sqrt, null, ANY),
      new Un("sin", Takes.ALL, Tensor::sin, Math::sin, null, 50),
      new Un("cos", Takes.ALL, Tensor::cos, Math::cos, null, 50),
      new Un("tanh", Takes.ALL, Tensor::tanh, Math::tanh, null, 50),
      new Un("sigmoid", Takes.ALL, Tensor::sigmoid, x -> 1 / (1 + Math.exp(-x)), null, 50),
      new Un("relu", Takes.NUM, Tensor::relu, x -> Math.max(x, 0), x -> Math.max(x, 0), ANY),
      new Un("floor", Takes.NUM, Tensor::floor, Math::floor, x -> x, ANY),
      new Un("ceil", Takes.NUM, Tensor::ceil, Math::ceil, x -> x, ANY),
      new Un("trunc", Takes.NUM, Tensor::trunc, x -> x < 0 ? Math.ceil(x) : Math.floor(x), x -> x, ANY),
      new Un("round", Takes.NUM, Tensor::round, Math::rint, x -> x, ANY),
      new Un("logicalNot", Takes.ALL, Tensor::logicalNot, x -> x == 0 ? 1 : 0, x -> x == 0 ? 1 : 0, ANY),
      new Un("bitwiseNot", Takes.INTB, Tensor::bitwiseNot, null, x -> ~x, ANY),
      new Un("isnan", Takes.ALL, Tensor::isnan, x -> Double.isNaN(x) ? 1 : 0, x -> 0, ANY),
      new Un("erf", Takes.ALL, Tensor::erf, ElementwiseReference::erf, null, ANY),
      new Un("erfinv", Takes.ALL, Tensor::erfinv, ElementwiseReference::erfinv, null, ANY),
      new Un("exp2", Takes.ALL, Tensor::exp2, x -> Math.pow(2, x), null, 120),
      new Un("log2", Takes.ALL, Tensor::log2, x -> Math.log(x) / Math.log(2), null, 1e30),
      new Un("log1p", Takes.ALL, Tensor::log1p, Math::log1p, null, 1e30),
      new Un("expm1", Takes.ALL, Tensor::expm1, Math::expm1, null, 80),
      new Un("rsqrt", Takes.ALL, Tensor::rsqrt, x -> 1 / Math.sqrt(x), null, ANY),
      new Un("tan", Takes.ALL, Tensor::tan, Math::tan, null, 50),
      new Un("gelu", Takes.FLOAT, Tensor::gelu, x -> 0.5 * x * (1 + ElementwiseReference.erf(x / Math.sqrt(2))), null, ANY),
      new Un("silu", Takes.FLOAT, Tensor::silu, x -> x / (1 + Math.exp(-x)), null, ANY),
      new Un("softplus", Takes.FLOAT, Tensor::softplus, x -> x > 20 ? x : Math.log1p(Math.exp(x)), null, ANY),
      new Un("leakyRelu", Takes.FLOAT, Tensor::leakyRelu, x -> x > 0 ? x : 0.01 * x, null, ANY),
      new Un("hardswish", Takes.FLOAT, Tensor::hardswish, x -> x * Math.min(Math.max(x + 3, 0), 6) / 6, null, 1e30),  // x · 6 overflows float first, as PyTorch's
      new Un("hardsigmoid", Takes.FLOAT, Tensor::hardsigmoid, x -> Math.min(Math.max(x + 3, 0), 6) / 6, null, ANY),
      new Un("relu6", Takes.NUM, Tensor::relu6, x -> Math.min(Math.max(x, 0), 6), x -> Math.min(Math.max(x, 0), 6), ANY),
      new Un("hardtanh", Takes.FLOAT, Tensor::hardtanh, x -> Math.min(Math.max(x, -1), 1), null, ANY),
      new Un("mish", Takes.FLOAT, Tensor::mish, x -> x * Math.tanh(Math.log1p(Math.exp(x))), null, ANY),
      new Un("selu", Takes.FLOAT, Tensor::selu,
          x -> x > 0 ? Tensor.SELU_SCALE * x : Tensor.SELU_SCALE * Tensor.SELU_ALPHA * Math.expm1(x), null, ANY),
      new Un("logSigmoid", Takes.FLOAT, Tensor::logSigmoid, x -> Math.min(x, 0) - Math.log1p(Math.exp(-Math.abs(x))), null, ANY),
      new Un("hardshrink", Takes.FLOAT, Tensor::hardshrink, x -> x >= -0.5 && x <= 0.5 ? 0 : x, null, ANY),
      new Un("softshrink", Takes.FLOAT, Tensor::softshrink, x -> x > 0.5 ? x - 0.5 : x < -0.5 ? x + 0.5 : 0 * x, null, ANY),
      new Un("frac", Takes.FLOAT, Tensor::frac, x -> x - (x < 0 ? Math.ceil(x) : Math.floor(x)), null, ANY),
      new Un("sinh", Takes.ALL, Tensor::sinh, Math::sinh, null, 80),
      new Un("cosh", Takes.ALL, Tensor::cosh, Math::cosh, null, 80),
      // the inverses through log1p, exact near 0 and 1 (x² past 1e150 would overflow the reference)
      new Un("asinh", Takes.ALL, Tensor::asinh, x -> Math.copySign(Math.log1p(Math.abs(x) + x * x / (1 + Math.sqrt(1 + x * x))), x), null, 1e150),
      new Un("acosh", Takes.ALL, Tensor::acosh, x -> x < 1 ? Double.NaN : Math.log1p((x - 1) + Math.sqrt(2 * (x - 1) + (x - 1) * (x - 1))), null, 1e150),
      new Un("atanh", Takes.ALL, Tensor::atanh, x -> 0.5 * Math.log1p(2 * x / (1 - x)), null, ANY),
      new Un("log10", Takes.ALL, Tensor::log10, Math::log10, null, ANY),
      new Un("signbit", Takes.ALL, Tensor::signbit, x -> Double.doubleToRawLongBits(x) < 0 ? 1 : 0, x -> x < 0 ? 1 : 0, ANY),
  };

  /** The in-place forms the fuzzer calls, by their out-of-place op's name. */
  private static final String[] IN_PLACE = {"neg", "abs", "exp", "sqrt", "relu", "sigmoid"};

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int form = f.rnd.nextInt(10);
    if (form < 6) {
      Un op = OPS[f.rnd.nextInt(OPS.length)];
      f.op(open(x) && op.takes.accepts(x.t().dtype()), op.name, new Object[] {x}, () -> op.op.apply(t(x)), check(op, x));
      return;
    }
    double lo = a.scalar(), hi = a.scalar();
    int pick = f.rnd.nextInt(14);
    if (pick < IN_PLACE.length) {
      Un op = find(IN_PLACE[pick]);
      // In place, the result keeps x's dtype: an op whose result is floating needs a floating x.
      boolean ok = Valid.distinctElements(x) && op.takes.accepts(x.t().dtype()) && (op.fl != null || x.t().dtype().isFloatingPoint());
      f.op(ok, op.name + "_", new Object[] {x}, () -> inPlace(op.name, t(x)), Refs.writes(x, check(op, x)));
      return;
    }
    switch (pick) {
      case 6 -> f.op(TernaryRefs.clampTakes(x, lo, hi), "clamp", new Object[] {x, lo, hi}, () -> t(x).clamp(lo, hi), TernaryRefs.clamp(x, lo, hi));
      case 7 -> f.op(TernaryRefs.clampTakes(x, lo, Double.NaN), "clampMin", new Object[] {x, lo}, () -> t(x).clampMin(lo), TernaryRefs.clampMin(x, lo));
      case 8 -> f.op(Valid.distinctElements(x) && TernaryRefs.clampTakesInPlace(x, lo, hi), "clamp_", new Object[] {x, lo, hi}, () -> t(x).clamp_(lo, hi), Refs.writes(x, TernaryRefs.clamp(x, lo, hi)));
      case 9 -> {
        Pool.Entry p = BinaryFamily.other(f, x), q = BinaryFamily.other(f, x);
        f.op(allFloating(x, p, q) && Valid.broadcast(x, p, q), "clamp", new Object[] {x, p, q},
            () -> t(x).clamp(t(p), t(q)), TernaryRefs.clampTensors(x, p, q));
      }
      case 10 -> {
        Pool.Entry e = BinaryFamily.sameDtype(f, x);
        // PyTorch takes the weight in the op's math type (float32 for the 16-bit floats), where it must fit
        boolean fits = Valid.floating(x) && FactoryRefs.fits(lo, x.t().dtype() == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32);
        f.op(fits && Valid.sameDtype(x, e) && Valid.broadcast(x, e), "lerp", new Object[] {x, e, lo},
            () -> t(x).lerp(t(e), lo), TernaryRefs.lerp(x, e, lo));
      }
      case 11 -> {
        Pool.Entry e = BinaryFamily.sameDtype(f, x), w = BinaryFamily.sameDtype(f, x);
        f.op(Valid.floating(x) && Valid.sameDtype(x, e, w) && Valid.broadcast(x, e, w), "lerp", new Object[] {x, e, w},
            () -> t(x).lerp(t(e), t(w)), TernaryRefs.lerp(x, e, w));
      }
      case 12 -> {
        Pool.Entry c = BinaryFamily.mask(f, x), y = BinaryFamily.other(f, x);
        f.op(open(x) && Valid.isBool(c) && open(y) && Valid.broadcast(c, x, y), "where", new Object[] {c, x, y},
            () -> Tensor.where(t(c), t(x), t(y)), TernaryRefs.where(c, x, y));
      }
      default -> {
        Pool.Entry c = BinaryFamily.mask(f, x);
        f.op(open(x) && Valid.isBool(c) && Valid.broadcast(c, x) && TernaryRefs.whereTakes(x, hi), "where", new Object[] {c, x, hi},
            () -> Tensor.where(t(c), t(x), hi), TernaryRefs.where(c, x, hi));
      }
    }
  }

  private static Fuzz.Check check(Un op, Pool.Entry x) {
    return Refs.unary(x, op.fd == null ? v -> { throw new AssertionError(op.name + " succeeded on floats"); } : op.fd,
        op.fl, op.maxAbs);
  }

  private static Tensor inPlace(String name, Tensor x) {
    switch (name) {
      case "neg": return x.neg_();
      case "abs": return x.abs_();
      case "exp": return x.exp_();
      case "sqrt": return x.sqrt_();
      case "relu": return x.relu_();
      default: return x.sigmoid_();
    }
  }

  private static Un find(String name) {
    for (Un op : OPS) if (op.name.equals(name)) return op;
    throw new IllegalArgumentException(name);
  }

  private static boolean allFloating(Pool.Entry... es) {
    for (Pool.Entry e : es) if (!Valid.floating(e)) return false;
    return true;
  }
}
