package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.function.Supplier;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each new reference of the fuzzer catches what it claims (issue 22): the op's true result passes,
 * a deliberately wrong result (another op's, a shifted value, a draw from another state) fails it.
 */
class RefSelfTest {
  private Outcomes out;
  private Fuzz f;

  @BeforeEach
  void open() {
    out = new Outcomes();
    f = new Fuzz(3, out);
  }

  @AfterEach
  void close() {
    f.pool.closeAll();
  }

  private Pool.Entry tensor(DType dt, long[] shape, double... v) {
    return f.pool.add(Args.build(v, shape, dt));
  }

  /** The right call passes the reference, the wrong one fails it with a message containing why. */
  private void catches(Object[] args, Supplier<Object> right, Supplier<Object> wrong, Supplier<Fuzz.Check> ref, String why) {
    long failures = out.failureCount();
    f.valid("right", args, right, ref.get());
    assertEquals(failures, out.failureCount(), () -> "the true result fails its reference: " + out.lastFailure());
    f.valid("wrong", args, wrong, ref.get());
    String failure = out.lastFailure();
    assertEquals(failures + 1, out.failureCount(), "the wrong result passes its reference");
    assertTrue(failure.contains("in wrong(") && failure.contains(why), "not caught as '" + why + "': " + failure);
  }

  @Test
  void inPlaceIsComparedWithTheOutOfPlaceResultOfTheValuesBefore() {
    Pool.Entry x = tensor(DType.FLOAT32, new long[] {2, 2}, 1.5, -2, 3, -0.5);
    Supplier<Fuzz.Check> neg = () -> Refs.writes(x, Refs.unary(x, v -> -v, v -> -v, Double.MAX_VALUE));
    catches(new Object[] {x}, () -> t(x).neg_(), () -> t(x), neg, "unary of");  // a no-op: right only against the values before
    catches(new Object[] {x}, () -> t(x).neg_(), () -> t(x).neg(), neg, "instead of the tensor it writes");
  }

  @Test
  void outFormsWriteTheOutOfPlaceResultIntoOut() {
    Pool.Entry x = tensor(DType.INT32, new long[] {3}, 1, 2, 3), y = tensor(DType.INT32, new long[] {1}, 4);
    Pool.Entry o = tensor(DType.FLOAT64, new long[] {3}, 0, 0, 0);
    catches(new Object[] {x, y, o}, () -> t(x).addOut(t(y), t(o)), () -> t(x).subOut(t(y), t(o)),
        () -> Refs.writes(o, BinaryFamily.check("add", x, y)), "binary of");
  }

  /** float16 inf − (2^63 − 1) is NaN in PyTorch: sub rounds the scalar to float16 (inf) first; the reference took it in float32 (inf expected). */
  @Test
  void subRoundsAScalarToAHalfTensorsDtype() {
    Pool.Entry x = tensor(DType.FLOAT16, new long[] {2}, Double.POSITIVE_INFINITY, 1);
    long big = Long.MAX_VALUE;
    catches(new Object[] {x, big + "L"}, () -> t(x).sub(big), () -> {  // the float32 answer, [inf, -inf]
      try (Tensor d = Tensor.fromArray(new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})) {
        return d.to(DType.FLOAT16);
      }
    }, () -> BinaryFamily.check("sub", x, big), "binary of");
  }

  /**
   * float16 [-0.0, 2] * bfloat16 tensor(65536) is [-0.0, inf] in PyTorch: a 0-dim second operand is
   * read in float32, as a scalar (65536, not float16's inf); the reference rounded it (NaN expected).
   * Its first operand is rounded: tensor(65536) * [-0.0] is NaN. Long fuzz, seed 12.
   */
  @Test
  void aZeroDimSecondOperandIsReadAsAScalar() {
    Pool.Entry x = tensor(DType.FLOAT16, new long[] {2}, -0.0, 2), s = tensor(DType.BFLOAT16, new long[0], 65536);
    catches(new Object[] {x, s}, () -> t(x).mul(t(s)), () -> t(x).mul(Double.POSITIVE_INFINITY), () -> BinaryFamily.check("mul", x, s), "binary of");
    catches(new Object[] {s, x}, () -> t(s).mul(t(x)), () -> t(x).mul(65536.0), () -> BinaryFamily.check("mul", s, x), "binary of");
  }

  /** lerp(x, x, 3e38) of float16 [-1] is [-1] in PyTorch: the weight stays float32 (its math type); as float16 (inf) the reference expected NaN. Long fuzz, seed 7. */
  @Test
  void lerpReadsAHalfTensorsScalarWeightInFloat32() {
    Pool.Entry x = tensor(DType.FLOAT16, new long[] {1}, -1);
    catches(new Object[] {x, x, 3e38}, () -> t(x).lerp(t(x), 3e38), () -> t(x).mul(Double.NaN), () -> TernaryRefs.lerp(x, x, 3e38), "lerp of");
  }

  @Test
  void scatterKeepsTheLastWriteAndScatterAddAddsThemAll() {
    Pool.Entry x = tensor(DType.FLOAT32, new long[] {3}, 10, 20, 30), idx = tensor(DType.INT64, new long[] {3}, 2, 0, 2);
    Pool.Entry src = tensor(DType.FLOAT32, new long[] {3}, 1, 2, 3);
    catches(new Object[] {x, idx, src}, () -> t(x).scatter(0, t(idx), t(src)), () -> t(x).scatterAdd(0, t(idx), t(src)),
        () -> ScatterRefs.scatter(x, 0, idx, src, false), "scatter");
    catches(new Object[] {x, idx, src}, () -> t(x).scatterAdd(0, t(idx), t(src)), () -> t(x).scatter(0, t(idx), t(src)),
        () -> ScatterRefs.scatter(x, 0, idx, src, true), "scatterAdd");
  }

  @Test
  void matmulHoldsToItsDtypesTolerance() {
    Pool.Entry a = tensor(DType.FLOAT32, new long[] {2, 3}, 1, 2, 3, -1, 0.5, 2), b = tensor(DType.FLOAT32, new long[] {3, 2}, 1, 0, 2, 1, -1, 3);
    Supplier<Fuzz.Check> mm = () -> MatmulRefs.matmul(a, b);
    catches(new Object[] {a, b}, () -> shifted(t(a).matmul(t(b)), 1e-7), () -> shifted(t(a).matmul(t(b)), 1e-3), mm, "matmul");
    Pool.Entry i = tensor(DType.INT32, new long[] {2, 2}, 1, 2, 3, 4);
    catches(new Object[] {i}, () -> t(i).matmul(t(i)), () -> shifted(t(i).matmul(t(i)), 1), () -> MatmulRefs.matmul(i, i), "matmul");
    Pool.Entry c = tensor(DType.FLOAT32, new long[] {2}, 1, -1);
    catches(new Object[] {c, a, b}, () -> t(c).addmm(t(a), t(b), 0.5, 2), () -> t(c).addmm(t(a), t(b), 0.5, 4),
        () -> MatmulRefs.addmm(c, a, b, 0.5, 2), "addmm");
  }

  private static Tensor shifted(Tensor t, double by) {
    try (t) {
      return t.add(by);
    }
  }

  @Test
  void factoriesGiveExactValues() {
    long[] s = {2, 3};
    catches(new Object[0], () -> Tensor.zeros(s, DType.INT8), () -> Tensor.ones(s, DType.INT8), () -> FactoryRefs.filled("zeros", s, DType.INT8, 0L), "zeros");
    catches(new Object[0], () -> Tensor.arange(-2, 7, 3, DType.FLOAT16), () -> Tensor.arange(-1, 8, 3, DType.FLOAT16),
        () -> FactoryRefs.arange(-2, 7, 3, DType.FLOAT16), "arange");
    catches(new Object[0], () -> Tensor.linspace(-1, 2, 4, DType.FLOAT32), () -> Tensor.linspace(-1, 2.5, 4, DType.FLOAT32),
        () -> FactoryRefs.linspace(-1, 2, 4, DType.FLOAT32), "linspace");
    catches(new Object[0], () -> Tensor.eye(2, 3, DType.BOOL), () -> Tensor.ones(new long[] {2, 3}, DType.BOOL),
        () -> FactoryRefs.eye(2, 3, DType.BOOL), "eye");
  }

  @Test
  void randomDrawsStayInRangeAndReplayFromTheGeneratorsState() {
    long[] s = {3, 4};
    Function<Generator, Object> rand = g -> Tensor.rand(s, DType.FLOAT32, g);
    Supplier<Fuzz.Check> ref = () -> RandomRefs.draw("rand", f.gen, rand, null, s, DType.FLOAT32, RandomRefs.within(0, 1, false));
    catches(new Object[0], () -> rand.apply(f.gen), () -> rand.apply(new Generator(99)), ref, "replayed from the same state");
    catches(new Object[0], () -> rand.apply(f.gen), () -> shifted((Tensor) rand.apply(f.gen), 1), ref, "outside [0.0, 1.0)");
    catches(new Object[0], () -> rand.apply(f.gen), () -> Tensor.zeros(s, DType.FLOAT32), ref, "replayed from the same state");
    Function<Generator, Object> randint = g -> Tensor.randint(-2, 3, s, DType.INT16, g);
    catches(new Object[0], () -> randint.apply(f.gen), () -> Tensor.full(s, 3L, DType.INT16, org.jtensor.Device.CPU),
        () -> RandomRefs.draw("randint", f.gen, randint, null, s, DType.INT16, RandomRefs.integers(-2, 3)), "not an integer of [-2, 3)");
  }

  @Test
  void clampLerpAndDtypeViewsHoldToTheirMeaning() {
    Pool.Entry x = tensor(DType.FLOAT32, new long[] {4}, -2.5, 0.5, 1.75, 3);
    catches(new Object[] {x}, () -> t(x).clamp(-1, 2), () -> t(x).clamp(-1, 3), () -> TernaryRefs.clamp(x, -1, 2), "clamp of");
    Pool.Entry e = tensor(DType.FLOAT32, new long[] {1}, 10);
    catches(new Object[] {x, e}, () -> t(x).lerp(t(e), 0.75), () -> t(x).lerp(t(e), 0.5), () -> TernaryRefs.lerp(x, e, 0.75), "lerp of");
    catches(new Object[] {x}, () -> t(x).view(DType.INT32), () -> t(x).to(DType.INT32), () -> ViewDtypeRef.check(x, DType.INT32), "view(int32)");
  }

  @Test
  void viewsAndReductionsShowTheElementsTheirModelsSelect() {
    Pool.Entry x = tensor(DType.FLOAT64, new long[] {2, 3}, 1, 2, 3, 4, 5, 6);
    catches(new Object[] {x}, () -> t(x).transpose(0, 1), () -> t(x).reshape(3, 2), () -> ViewRefs.view(x, "transpose",
        sh -> ViewModels.transpose(sh, 0, 1)), "transpose");
    catches(new Object[] {x}, () -> t(x).unfold(1, 2, 1), () -> t(x).unfold(1, 2, 2), () -> ViewRefs.view(x, "unfold",
        sh -> ViewModels.unfold(sh, 1, 2, 1)), "unfold");
    catches(new Object[] {x}, () -> t(x).nonzero(), () -> {
      try (Tensor tr = t(x).t(); Tensor c = tr.contiguous()) {
        return c.nonzero();  // the transpose's nonzero elements: the same count, other positions
      }
    }, () -> ArgRefs.nonzero(x), "nonzero");
    catches(new Object[] {x}, () -> t(x).max(1, false), () -> t(x).min(1, false), () -> ArgRefs.valuesAndIndices(x, 1, false, true), "reduction");
  }
}
