package org.jtensor;

import static org.jtensor.ElementwiseReference.narrow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.jtensor.ElementwiseReference.F1;
import org.jtensor.ElementwiseReference.F2;
import org.jtensor.ElementwiseReference.I1;
import org.jtensor.ElementwiseReference.I2;
import org.jtensor.ops.ViewOps;
import org.junit.jupiter.api.Test;

/**
 * Every elementwise op on every dtype it supports, on random broadcast shapes with size-0 and
 * size-1 dims, non-contiguous (strided, transposed) and stride-0 expanded inputs, checked element
 * by element against a float64 / exact-int64 reference computed here with plain loops. A subclass
 * names another device ({@link #parity()}): each op then also runs there on the same data and
 * layout and must agree with the CPU (CudaElementwisePropertyTest).
 */
class ElementwisePropertyTest extends ScopedTest {
  private static final Set<DType> ALL = EnumSet.allOf(DType.class);
  private static final Set<DType> FLOAT = EnumSet.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64);
  private static final Set<DType> INT = EnumSet.of(DType.UINT8, DType.INT8, DType.INT16, DType.INT32, DType.INT64);
  private static final Set<DType> NUM = union(INT, FLOAT);
  private static final Set<DType> INTB = union(INT, EnumSet.of(DType.BOOL));

  enum Domain { ANY, POSITIVE, NONZERO, SMALL_EXP, TRIG }
  enum Result { SAME, FLOAT, BOOL }

  record Op(String name, int arity, Set<DType> dtypes, Result result, Domain domain,
            Function<Tensor[], Tensor> run, F1 f1, F2 f2, I1 i1, I2 i2) {}

  private static final List<Op> OPS = new ArrayList<>();

  private static void unary(String n, Set<DType> d, Result r, Domain dom, Function<Tensor, Tensor> run, F1 f, I1 i) {
    OPS.add(new Op(n, 1, d, r, dom, t -> run.apply(t[0]), f, null, i, null));
  }

  private static void binary(String n, Set<DType> d, Result r, Domain dom, java.util.function.BiFunction<Tensor, Tensor, Tensor> run, F2 f, I2 i) {
    OPS.add(new Op(n, 2, d, r, dom, t -> run.apply(t[0], t[1]), null, f, null, i));
  }

  static {
    binary("add", ALL, Result.SAME, Domain.ANY, Tensor::add, Double::sum, Long::sum);
    binary("add alpha", NUM, Result.SAME, Domain.ANY, (a, b) -> a.add(b, 3), (a, b) -> a + 3 * b, (a, b) -> a + 3 * b);
    binary("sub", NUM, Result.SAME, Domain.ANY, Tensor::sub, (a, b) -> a - b, (a, b) -> a - b);
    binary("mul", ALL, Result.SAME, Domain.ANY, Tensor::mul, (a, b) -> a * b, (a, b) -> a * b);
    binary("div", ALL, Result.FLOAT, Domain.NONZERO, Tensor::div, (a, b) -> a / b, null);
    binary("div trunc", NUM, Result.SAME, Domain.NONZERO, (a, b) -> a.div(b, "trunc"), (a, b) -> (double) (long) (a / b), (a, b) -> a / b);
    binary("floor_divide", NUM, Result.SAME, Domain.NONZERO, Tensor::floorDivide, (a, b) -> Math.floor(a / b), Math::floorDiv);
    binary("remainder", NUM, Result.SAME, Domain.NONZERO, Tensor::remainder, ElementwiseReference::pyMod, Math::floorMod);
    binary("pow", NUM, Result.SAME, Domain.SMALL_EXP, Tensor::pow, Math::pow, ElementwiseReference::ipow);
    binary("maximum", ALL, Result.SAME, Domain.ANY, Tensor::maximum, Math::max, Math::max);
    binary("minimum", ALL, Result.SAME, Domain.ANY, Tensor::minimum, Math::min, Math::min);
    binary("bitwise_and", INTB, Result.SAME, Domain.ANY, Tensor::bitwiseAnd, null, (a, b) -> a & b);
    binary("bitwise_or", INTB, Result.SAME, Domain.ANY, Tensor::bitwiseOr, null, (a, b) -> a | b);
    binary("bitwise_xor", INTB, Result.SAME, Domain.ANY, Tensor::bitwiseXor, null, (a, b) -> a ^ b);
    binary("eq", ALL, Result.BOOL, Domain.ANY, Tensor::eq, (a, b) -> a == b ? 1 : 0, (a, b) -> a == b ? 1 : 0);
    binary("ne", ALL, Result.BOOL, Domain.ANY, Tensor::ne, (a, b) -> a != b ? 1 : 0, (a, b) -> a != b ? 1 : 0);
    binary("lt", ALL, Result.BOOL, Domain.ANY, Tensor::lt, (a, b) -> a < b ? 1 : 0, (a, b) -> a < b ? 1 : 0);
    binary("le", ALL, Result.BOOL, Domain.ANY, Tensor::le, (a, b) -> a <= b ? 1 : 0, (a, b) -> a <= b ? 1 : 0);
    binary("gt", ALL, Result.BOOL, Domain.ANY, Tensor::gt, (a, b) -> a > b ? 1 : 0, (a, b) -> a > b ? 1 : 0);
    binary("ge", ALL, Result.BOOL, Domain.ANY, Tensor::ge, (a, b) -> a >= b ? 1 : 0, (a, b) -> a >= b ? 1 : 0);
    binary("logical_and", ALL, Result.BOOL, Domain.ANY, Tensor::logicalAnd, (a, b) -> a != 0 && b != 0 ? 1 : 0, (a, b) -> a != 0 && b != 0 ? 1 : 0);
    binary("logical_or", ALL, Result.BOOL, Domain.ANY, Tensor::logicalOr, (a, b) -> a != 0 || b != 0 ? 1 : 0, (a, b) -> a != 0 || b != 0 ? 1 : 0);
    binary("logical_xor", ALL, Result.BOOL, Domain.ANY, Tensor::logicalXor, (a, b) -> (a != 0) != (b != 0) ? 1 : 0, (a, b) -> (a != 0) != (b != 0) ? 1 : 0);
    unary("neg", NUM, Result.SAME, Domain.ANY, Tensor::neg, a -> -a, a -> -a);
    unary("abs", NUM, Result.SAME, Domain.ANY, Tensor::abs, Math::abs, Math::abs);
    unary("sign", NUM, Result.SAME, Domain.ANY, Tensor::sign, x -> Double.isNaN(x) ? 0 : Math.signum(x), Long::signum);  // NaN: 0, as PyTorch
    unary("relu", NUM, Result.SAME, Domain.ANY, Tensor::relu, a -> Math.max(a, 0), a -> Math.max(a, 0));
    unary("floor", NUM, Result.SAME, Domain.ANY, Tensor::floor, Math::floor, a -> a);
    unary("ceil", NUM, Result.SAME, Domain.ANY, Tensor::ceil, Math::ceil, a -> a);
    unary("round", NUM, Result.SAME, Domain.ANY, Tensor::round, Math::rint, a -> a);
    unary("trunc", NUM, Result.SAME, Domain.ANY, Tensor::trunc, a -> (double) (long) a, a -> a);
    unary("clamp", NUM, Result.SAME, Domain.ANY, t -> t.clamp(1, 3), a -> Math.min(Math.max(a, 1), 3), a -> Math.min(Math.max(a, 1), 3));
    unary("reciprocal", ALL, Result.FLOAT, Domain.NONZERO, Tensor::reciprocal, a -> 1 / a, null);
    unary("exp", ALL, Result.FLOAT, Domain.ANY, Tensor::exp, Math::exp, null);
    unary("exp2", ALL, Result.FLOAT, Domain.ANY, Tensor::exp2, a -> Math.pow(2, a), null);
    unary("log", ALL, Result.FLOAT, Domain.POSITIVE, Tensor::log, Math::log, null);
    unary("log2", ALL, Result.FLOAT, Domain.POSITIVE, Tensor::log2, a -> Math.log(a) / Math.log(2), null);
    unary("log1p", ALL, Result.FLOAT, Domain.POSITIVE, Tensor::log1p, Math::log1p, null);
    unary("expm1", ALL, Result.FLOAT, Domain.ANY, Tensor::expm1, Math::expm1, null);
    unary("sqrt", ALL, Result.FLOAT, Domain.POSITIVE, Tensor::sqrt, Math::sqrt, null);
    unary("rsqrt", ALL, Result.FLOAT, Domain.POSITIVE, Tensor::rsqrt, a -> 1 / Math.sqrt(a), null);
    unary("sin", ALL, Result.FLOAT, Domain.ANY, Tensor::sin, Math::sin, null);
    unary("cos", ALL, Result.FLOAT, Domain.ANY, Tensor::cos, Math::cos, null);
    unary("tan", ALL, Result.FLOAT, Domain.TRIG, Tensor::tan, Math::tan, null);
    unary("tanh", ALL, Result.FLOAT, Domain.ANY, Tensor::tanh, Math::tanh, null);
    unary("sigmoid", ALL, Result.FLOAT, Domain.ANY, Tensor::sigmoid, a -> 1 / (1 + Math.exp(-a)), null);
    unary("erf", ALL, Result.FLOAT, Domain.ANY, Tensor::erf, ElementwiseReference::erf, null);
    unary("erfinv", ALL, Result.FLOAT, Domain.TRIG, Tensor::erfinv, ElementwiseReference::erfinv, null);  // [-1.2, 1.2]: NaN past 1
    unary("gelu", FLOAT, Result.SAME, Domain.ANY, Tensor::gelu, a -> 0.5 * a * (1 + ElementwiseReference.erf(a / Math.sqrt(2))), null);
    unary("gelu tanh", FLOAT, Result.SAME, Domain.ANY, t -> t.gelu("tanh"),
        a -> 0.5 * a * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (a + 0.044715 * a * a * a))), null);
    unary("silu", FLOAT, Result.SAME, Domain.ANY, Tensor::silu, a -> a / (1 + Math.exp(-a)), null);
    unary("softplus", FLOAT, Result.SAME, Domain.ANY, t -> t.softplus(2, 3), a -> 2 * a > 3 ? a : Math.log1p(Math.exp(2 * a)) / 2, null);
    unary("leaky_relu", FLOAT, Result.SAME, Domain.ANY, t -> t.leakyRelu(0.1), a -> a > 0 ? a : 0.1 * a, null);
    unary("logical_not", ALL, Result.BOOL, Domain.ANY, Tensor::logicalNot, a -> a == 0 ? 1 : 0, a -> a == 0 ? 1 : 0);
    unary("bitwise_not", INT, Result.SAME, Domain.ANY, Tensor::bitwiseNot, null, a -> ~a);
    unary("bitwise_not bool", EnumSet.of(DType.BOOL), Result.SAME, Domain.ANY, Tensor::bitwiseNot, null, a -> 1 - a);
  }

  /** Where the ops run beside the CPU: the CPU alone here. */
  protected DeviceParity parity() {
    return DeviceParity.CPU;
  }

  @Test
  void everyOpOnEveryDtypeMatchesTheReference() {
    Random rnd = new Random(2026);
    int checked = 0;
    for (Op op : OPS) {
      for (DType dt : op.dtypes) {
        for (int trial = 0; trial < 12; trial++) {
          try (TensorScope s = TensorScope.open()) {
            checked += check(op, dt, rnd, trial);
          } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(op.name + " on " + dt + " (trial " + trial + "): " + e.getMessage(), e);
          }
        }
      }
    }
    assertTrue(checked > 50_000, "elements checked: " + checked);
  }

  private int check(Op op, DType dt, Random rnd, int trial) {
    long[] shape = randomShape(rnd);
    Tensor[] in = new Tensor[op.arity];
    for (int k = 0; k < op.arity; k++) in[k] = randomInput(rnd, dt, broadcastable(rnd, shape), op.domain, k, trial);
    Tensor out = parity().apply(op.name, op.run, in);
    DType want = op.result == Result.BOOL ? DType.BOOL : op.result == Result.FLOAT && !dt.isFloatingPoint() ? DType.FLOAT32 : dt;
    assertEquals(want, out.dtype(), "result dtype");
    long[] outShape = ShapeOracle.broadcast(java.util.Arrays.stream(in).map(Tensor::shape).toArray(long[][]::new));
    assertArrayEquals(outShape, out.shape(), "shape");
    long n = out.numel();
    for (long e = 0; e < n; e++) {
      long[] idx = RefView.unflat(e, outShape);
      if (want.isFloatingPoint()) {
        double ref = op.arity == 1 ? op.f1.apply(value(in[0], idx)) : op.f2.apply(value(in[0], idx), value(in[1], idx));
        double got = out.getDouble(idx);
        if (!close(got, ref, want)) fail("at " + java.util.Arrays.toString(idx) + ": got " + got + ", reference " + ref);
      } else {
        long ref;
        boolean integral = !dt.isFloatingPoint() && (op.i1 != null || op.i2 != null);
        if (integral) {
          ref = op.arity == 1 ? op.i1.apply(in[0].getLong(broadcastIndex(in[0], idx)))
              : op.i2.apply(in[0].getLong(broadcastIndex(in[0], idx)), in[1].getLong(broadcastIndex(in[1], idx)));
          ref = narrow(ref, want);
        } else {
          double r = op.arity == 1 ? op.f1.apply(value(in[0], idx)) : op.f2.apply(value(in[0], idx), value(in[1], idx));
          ref = (long) r;
        }
        long got = out.getLong(idx);
        if (got != ref) fail("at " + java.util.Arrays.toString(idx) + ": got " + got + ", reference " + ref);
      }
    }
    return (int) n;
  }

  private static boolean close(double got, double ref, DType t) {
    if (Double.isNaN(ref)) return Double.isNaN(got);
    if (Double.isInfinite(ref)) return got == ref || Math.abs(got) > 1e4;  // overflow in a narrow type
    double tol = t == DType.FLOAT64 ? 1e-12 : t == DType.FLOAT32 ? 2e-6 : t == DType.FLOAT16 ? 2e-3 : 1.6e-2;
    if (t == DType.FLOAT16 && Math.abs(ref) > 65504) return Double.isInfinite(got) || Close.within(got, ref, tol * Math.abs(ref));
    return Close.within(got, ref, tol * Math.max(Math.abs(ref), t == DType.FLOAT64 ? 1e-300 : 1e-3) + (t == DType.FLOAT32 ? 1e-6 : 0));
  }

  private static double value(Tensor t, long[] outIdx) {
    return t.getDouble(broadcastIndex(t, outIdx));
  }

  /** The index into a broadcast operand for an index of the output. */
  private static long[] broadcastIndex(Tensor t, long[] outIdx) {
    long[] s = t.shape();
    long[] idx = new long[s.length];
    for (int i = 0; i < s.length; i++) idx[i] = s[i] == 1 ? 0 : outIdx[outIdx.length - s.length + i];
    return idx;
  }

  private static long[] randomShape(Random rnd) {
    int n = 1 + rnd.nextInt(3);
    long[] s = new long[n];
    for (int d = 0; d < n; d++) s[d] = rnd.nextInt(12) == 0 ? 0 : 1 + rnd.nextInt(6);
    return s;
  }

  /** Drops some leading dims and sets some dims to 1, so it broadcasts to shape. */
  private static long[] broadcastable(Random rnd, long[] shape) {
    int drop = rnd.nextInt(shape.length + 1) / 2;
    long[] s = java.util.Arrays.copyOfRange(shape, drop, shape.length);
    for (int d = 0; d < s.length; d++) if (rnd.nextInt(4) == 0) s[d] = 1;
    return s;
  }

  /** A tensor of the shape with values in the op's domain, laid out contiguous, strided, transposed or expanded. */
  private static Tensor randomInput(Random rnd, DType dt, long[] shape, Domain dom, int operand, int trial) {
    int n = (int) RefView.arange(shape).numel();
    double[] v = new double[2 * n + 2];
    for (int i = 0; i < v.length; i++) v[i] = sample(rnd, dt, dom, operand);
    Tensor flat = Tensor.fromArray(v).to(dt);
    switch (trial % 4) {
      case 0: return flat.narrow(0, 0, n).view(shape);
      case 1: return flat.slice(0, 1, 2L * n + 1, 2).view(shape);  // every other element: non-contiguous
      case 2: {  // a transposed layout of the same shape
        if (shape.length < 2) return flat.narrow(0, 0, n).view(shape);
        long[] rev = shape.clone();
        ViewOps.swap(rev, 0, shape.length - 1);
        return flat.narrow(0, 0, n).view(rev).transpose(0, shape.length - 1);
      }
      default: {  // a size-1 dim expanded: several elements share one address
        long[] one = shape.clone();
        int d = shape.length == 0 ? -1 : rnd.nextInt(shape.length);
        if (d < 0 || shape[d] == 0) return flat.narrow(0, 0, n).view(shape);
        one[d] = 1;
        long m = RefView.arange(one).numel();
        return flat.narrow(0, 0, m).view(one).expand(shape);
      }
    }
  }

  private static double sample(Random rnd, DType dt, Domain dom, int operand) {
    boolean exponent = dom == Domain.SMALL_EXP && operand == 1;
    if (dt == DType.BOOL) return rnd.nextBoolean() ? 1 : 0;
    if (!dt.isFloatingPoint()) {
      if (exponent) return rnd.nextInt(4);
      long lo = dt == DType.UINT8 ? 0 : -20, hi = dt == DType.UINT8 ? 40 : 20;
      if (dom == Domain.SMALL_EXP) lo = dt == DType.UINT8 ? 0 : -5;
      if (dom == Domain.SMALL_EXP) hi = 5;
      long x = lo + rnd.nextInt((int) (hi - lo + 1));
      if ((dom == Domain.NONZERO && operand == 1 || dom == Domain.POSITIVE) && x <= 0) x = dom == Domain.POSITIVE ? 1 - x : (x == 0 ? 3 : x);
      return x;
    }
    switch (dom) {
      case POSITIVE: return 0.1 + 4.9 * rnd.nextDouble();
      case TRIG: return -1.2 + 2.4 * rnd.nextDouble();
      case NONZERO: return operand == 1 ? (rnd.nextBoolean() ? 1 : -1) * (0.5 + 3 * rnd.nextDouble()) : -5 + 10 * rnd.nextDouble();
      case SMALL_EXP: return exponent ? -2 + 4 * rnd.nextDouble() : 0.1 + 2.9 * rnd.nextDouble();
      default: return -3 + 6 * rnd.nextDouble();
    }
  }

  @Test
  void whereLerpAndTensorClampMatchTheReference() {
    Random rnd = new Random(7);
    for (DType dt : ALL) {
      Tensor c = Tensor.fromArray(new boolean[] {true, false, true, false, false, true}, 2, 3);
      Tensor a = Tensor.fromArray(new double[] {1, 2, 3, 4, 5, 6}).to(dt).view(2, 3);
      Tensor b = Tensor.fromArray(new double[] {0, 1, 0}).to(dt);
      double[] w = parity().apply("where", t -> Tensor.where(t[0], t[1], t[2]), c, a, b).to(DType.FLOAT64).toDoubleArray();
      double[] ref = {1, 1, 3, 0, 1, 6};
      for (int i = 0; i < 6; i++) {
        if (dt == DType.BOOL) assertEquals(ref[i] != 0 ? 1.0 : 0.0, w[i]);
        else assertEquals(ref[i], w[i], dt + " where");
      }
    }
    for (DType dt : FLOAT) {
      double[] s = new double[24], e = new double[24], wt = new double[24];
      for (int i = 0; i < 24; i++) {
        s[i] = rnd.nextGaussian();
        e[i] = rnd.nextGaussian();
        wt[i] = rnd.nextDouble();
      }
      Tensor start = Tensor.fromArray(s).to(dt).view(4, 6), end = Tensor.fromArray(e).to(dt).view(4, 6);
      Tensor weight = Tensor.fromArray(wt).to(dt).view(4, 6);
      Tensor r = parity().apply("lerp", t -> t[0].lerp(t[1], t[2]), start, end, weight);
      double[] ss = start.toDoubleArray(), ee = end.toDoubleArray(), ww = weight.toDoubleArray(), got = r.toDoubleArray();
      for (int i = 0; i < 24; i++) assertTrue(close(got[i], ss[i] + ww[i] * (ee[i] - ss[i]), dt), dt + " lerp " + i);
    }
    for (DType dt : NUM) {
      Tensor x = Tensor.fromArray(new double[] {-5, -1, 0, 2, 9, 3}).to(dt).view(2, 3);
      Tensor lo = Tensor.fromArray(new double[] {-2, 0, 1}).to(dt);
      Tensor hi = Tensor.fromArray(new double[] {4}).to(dt);
      double[] got = parity().apply("clamp", t -> t[0].clamp(t[1], t[2]), x, lo, hi).to(DType.FLOAT64).toDoubleArray();
      double[] xs = x.to(DType.FLOAT64).toDoubleArray(), los = lo.to(DType.FLOAT64).toDoubleArray();
      for (int i = 0; i < 6; i++) assertEquals(Math.min(Math.max(xs[i], los[i % 3]), 4), got[i], dt + " clamp " + i);
    }
  }

  private static Set<DType> union(Set<DType> a, Set<DType> b) {
    Set<DType> s = EnumSet.copyOf(a);
    s.addAll(b);
    return s;
  }
}
