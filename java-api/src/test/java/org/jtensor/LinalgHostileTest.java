package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtensor.autograd.Autograd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * torch.linalg's core attacked: NaN, inf and mid-way zero pivots, broadcast batches, 1 x 1 and
 * large matrices past the blocked LU's threshold, dtypes and devices PyTorch refuses, operands
 * closed from another thread while an op or its backward runs, and a memory limit refusing each
 * allocation. Every expected value and message is PyTorch 2.13's (CPU), run in the venv.
 */
class LinalgHostileTest extends ScopedTest {
  private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

  private static Tensor m(double[][] v) {
    return Tensor.fromArray(v);
  }

  /**
   * torch.linalg.lu_factor_ex, det and slogdet of a column-major A: LU, pivots, det, sign,
   * logabsdet. Column-major, as PyTorch factors such an A as given (a contiguous one it factors
   * transposed for det and slogdet, which moves a NaN's pivot and so the sign of a zero sign).
   */
  private static void factors(double[][] a, double[] lu, int[] pivots, double det, double sign, double logabsdet) {
    String what = java.util.Arrays.deepToString(a);
    Tensor x = m(a).mT().contiguous().mT();
    if (pivots != null) {  // lu_factor refuses a zero on U's diagonal; lu_factor_ex's LU then
      Linalg.LuFactor f = Linalg.luFactor(x);
      assertArrayEquals(pivots, f.pivots().toIntArray(), what + " pivots");
      assertArrayEquals(lu, f.lu().toDoubleArray(), 1e-15, what + " LU");
    }
    assertEquals(det, Linalg.det(x).item(), 1e-15, what + " det");
    Linalg.Slogdet s = Linalg.slogdet(x);
    assertEquals(sign, s.sign().item(), what + " sign");
    assertEquals(logabsdet, s.logabsdet().item(), 1e-15, what + " logabsdet");
  }

  @Test
  void nonFiniteEntriesAndZeroPivotsAnswerAsPyTorch() {
    // PyTorch 2.13: torch.linalg.lu_factor_ex / det / slogdet of each (sign 0 where U's diagonal holds NaN: sgn(NaN) = 0)
    factors(new double[][] {{NAN, 1}, {1, 1}}, new double[] {NAN, 1, NAN, NAN}, new int[] {1, 2}, NAN, 0, NAN);
    factors(new double[][] {{1, NAN}, {2, 1}}, new double[] {2, 1, 0.5, NAN}, new int[] {2, 2}, NAN, -0.0, NAN);
    factors(new double[][] {{INF, 1}, {1, 1}}, new double[] {INF, 1, 0, 1}, new int[] {1, 2}, INF, 1, INF);
    factors(new double[][] {{1, 2}, {INF, 1}}, new double[] {INF, 1, 0, 2}, new int[] {2, 2}, -INF, -1, INF);
    factors(new double[][] {{1, 2, 3}, {2, 4, 7}, {1, 1, 1}}, new double[] {2, 4, 7, 0.5, -1, -2.5, 0.5, -0.0, -0.5}, new int[] {2, 3, 3}, 1, 1, 0);
    // a zero pivot mid-way (U[2,2]), a NaN below a zero pivot: det 0 and NaN, no error
    factors(new double[][] {{1, 2, 3}, {2, 4, 6}, {3, 6, 10}}, null, null, 0, 0, Double.NEGATIVE_INFINITY);
    factors(new double[][] {{0, 1}, {NAN, 1}}, null, null, NAN, 0.0, NAN);
    // inv of a non-finite matrix is no error in PyTorch: NaN where U's diagonal is NaN
    assertArrayEquals(new double[] {NAN, NAN, NAN, NAN}, Linalg.inv(m(new double[][] {{NAN, 1}, {1, 1}})).toDoubleArray());
    assertArrayEquals(new double[] {0, -0.0, 0, 1}, Linalg.inv(m(new double[][] {{INF, 1}, {1, 1}})).toDoubleArray());
    assertArrayEquals(new double[] {-0.0, 0, 0.5, 0}, Linalg.inv(m(new double[][] {{1, 2}, {INF, 1}})).toDoubleArray());
    assertMessage(ArithmeticException.class, "inv(): linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because"
        + " the input matrix is singular.", () -> Linalg.inv(m(new double[][] {{0, 1}, {NAN, 1}})));
    // PyTorch factors a contiguous A's transpose; the first zero of U is the same here
    Tensor zeroRow = m(new double[][] {{0, 0}, {1, 1}});
    for (Tensor a : List.of(zeroRow, zeroRow.mT().contiguous().mT())) {
      assertMessage(ArithmeticException.class, "inv(): linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because"
          + " the input matrix is singular.", () -> Linalg.inv(a));
    }
  }

  @Test
  void broadcastBatchesAndOneByOneMatrices() {
    Tensor a = Tensor.fromArray(new double[][][] {{{2, 1}, {1, 3}}, {{4, 1}, {0, 2}}}).unsqueeze(1);  // [2, 1, 2, 2]
    Tensor b = Tensor.fromArray(new double[][][] {{{1}, {2}}, {{3}, {4}}, {{5}, {6}}});  // [3, 2, 1]
    Tensor x = Linalg.solve(a, b);
    assertArrayEquals(new long[] {2, 3, 2, 1}, x.shape());
    assertArrayEquals(new double[] {0.2, 0.6, 1.0, 1.0, 1.8, 1.4, 0.0, 1.0, 0.25, 2.0, 0.5, 3.0}, x.toDoubleArray(), 1e-15);
    // B with a zero-size last dim, A an expanded (stride 0) batch: PyTorch's [2, 3, 0]
    assertArrayEquals(new long[] {2, 3, 0}, Linalg.solve(Tensor.eye(3, 3, DType.FLOAT32).expand(2, 3, 3), Tensor.ones(2, 3, 0)).shape());
    assertArrayEquals(new long[] {0, 4}, Linalg.solve(Tensor.ones(0, 0), Tensor.ones(0, 4)).shape());
    Tensor one = Tensor.fromArray(new float[][] {{4}});
    assertEquals(0.25, Linalg.inv(one).item());
    assertEquals(-3.0, Linalg.det(Tensor.fromArray(new float[][] {{-3}})).item());
    assertEquals(3.0, Linalg.cholesky(Tensor.fromArray(new float[][] {{9}})).item());
    Linalg.Slogdet s = Linalg.slogdet(Tensor.fromArray(new float[][] {{-0.5f}}));
    assertEquals(-1.0, s.sign().item());
    assertEquals(Math.log(0.5), s.logabsdet().item(), 1e-7);
    for (float v : new float[] {-9, 0}) {
      assertMessage(ArithmeticException.class, "cholesky(): linalg.cholesky: The factorization could not be completed because the input is not"
          + " positive-definite (the leading minor of order 1 is not positive-definite).", () -> Linalg.cholesky(Tensor.fromArray(new float[][] {{v}})));
    }
  }

  /**
   * cos(1.7 ij + 0.3 i²) of side 127, 128 (the blocked LU's threshold), 129 and 257 (past four
   * panels) in float64: PyTorch 2.13's slogdet and solve(A, ones(n, 2)) entries, within n · eps ·
   * cond(A) of its largest; a batch of three gives each matrix's bits of its own (the GEMM's threads inside the batch's).
   */
  @Test
  void largeMatricesAroundTheBlockingThresholdMatchPyTorch() {
    long[] sides = {127, 128, 129, 257};
    double[][] want = {  // sign, logabsdet, cond, x[0,0], x[n-1,1], max|x|
        {-1, 202.5301870011649, 864.2277423584251, 3.0813959150971746, 5.521183903073328, 9.827376227640322},
        {-1, 206.40322570072442, 271.6224205184404, 3.9371397856403796, 0.6730292988497618, 9.474143206081905},
        {-1, 208.13663872906994, 539.2885781250093, 3.7612954393427938, 0.6655745251993191, 7.549811994806582},
        {1, 516.6303178244547, 1428.3055525770583, 6.253038549460177, -0.5590553371383437, 14.533001961746773}};
    for (int k = 0; k < sides.length; k++) {
      long n = sides[k];
      Tensor i = Tensor.arange(0.0, n, 1.0, DType.FLOAT64).unsqueeze(1), j = Tensor.arange(0.0, n, 1.0, DType.FLOAT64).unsqueeze(0);
      Tensor a = i.mul(1.7).mul(j).add(i.mul(0.3).mul(i)).cos();  // as PyTorch's script, operation for operation
      double tol = n * 0x1p-52 * want[k][2] * want[k][5];
      Linalg.Slogdet s = Linalg.slogdet(a);
      assertEquals(want[k][0], s.sign().item(), n + " sign");
      assertEquals(want[k][1], s.logabsdet().item(), n * 0x1p-52 * want[k][2] * want[k][1], n + " logabsdet");
      Tensor x = Linalg.solve(a, Tensor.ones(new long[] {n, 2}, DType.FLOAT64));
      double[] xs = x.toDoubleArray();
      assertEquals(want[k][3], xs[0], tol, n + " x[0,0]");
      assertEquals(want[k][4], xs[xs.length - 1], tol, n + " x[n-1,1]");
      Tensor batch = Tensor.stack(List.of(a, a.mT(), a.flip(0)));
      Tensor det = Linalg.det(batch);
      assertArrayEquals(new double[] {Linalg.det(a).item(), Linalg.det(a.mT()).item(), Linalg.det(a.flip(0)).item()}, det.toDoubleArray(),
          n + " batched det");
    }
  }

  @Test
  void dtypesAndDevicesPyTorchRefuses() {
    for (DType t : new DType[] {DType.BOOL, DType.INT32}) {
      String name = t == DType.BOOL ? "Bool" : "Int";
      Tensor a = Tensor.eye(2, 2, DType.FLOAT32).to(t);
      assertMessage(IllegalArgumentException.class, "inv(): linalg.inv: Expected a floating point or complex tensor as input. Got " + name,
          () -> Linalg.inv(a));
      assertMessage(IllegalArgumentException.class, "cholesky(): linalg.cholesky: Expected a floating point or complex tensor as input. Got " + name,
          () -> Linalg.cholesky(a));
      assertMessage(IllegalArgumentException.class, "slogdet(): linalg.slogdet: Expected a floating point or complex tensor as input. Got " + name,
          () -> Linalg.slogdet(a));
      assertMessage(IllegalArgumentException.class, "solve(): linalg.solve: Expected a floating point or complex tensor as input. Got " + name,
          () -> Linalg.solve(a, a));
      assertMessage(UnsupportedOperationException.class, "luFactor(): \"lu_cpu\" not implemented for '" + name + "'", () -> Linalg.luFactor(a));
    }
    Tensor bf = Tensor.eye(2, 2, DType.BFLOAT16);
    assertMessage(IllegalArgumentException.class, "inv(): linalg.inv: Low precision dtypes not supported. Got BFloat16", () -> Linalg.inv(bf));
    assertMessage(UnsupportedOperationException.class, "det(): \"lu_cpu\" not implemented for 'BFloat16'", () -> Linalg.det(bf));
    assertMessage(UnsupportedOperationException.class, "luFactor(): \"lu_cpu\" not implemented for 'BFloat16'", () -> Linalg.luFactor(bf));
    // a device with no kernels (the stand-in for CUDA here): refused before anything is allocated or read
    Tensor meta = Tensor.empty(new long[] {2, 2}, DType.FLOAT32, Device.META), cpu = Tensor.eye(2, 2, DType.FLOAT32);
    for (Executable call : List.<Executable>of(() -> Linalg.det(meta), () -> Linalg.slogdet(meta), () -> Linalg.cholesky(meta),
        () -> Linalg.luFactor(meta), () -> Linalg.solve(meta, cpu), () -> Linalg.solve(cpu, meta), () -> meta.logdet())) {
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, call);
      assertTrue(e.getMessage().endsWith("not implemented for META"), e.getMessage());
    }
  }

  /**
   * An operand closed from another thread while solve, inv, det, slogdet or cholesky and its
   * backward run, the rounds holding no scope: each ends in the right bits or
   * IllegalStateException, and once every handle is closed no byte is left.
   */
  @Test
  void operandsClosedDuringTheOpsAndTheirBackward() throws InterruptedException {
    List<Function<Tensor[], Tensor>> ops = List.of(t -> Linalg.solve(t[0], t[1]), t -> Linalg.inv(t[0]), t -> Linalg.det(t[0]),
        LinalgHostileTest::logabsdet, t -> Linalg.cholesky(t[2]));
    int[][] wrt = {{0, 1}, {0}, {0}, {0}, {2}};  // the operands each op reads, each closed in a race of its own
    for (int op = 0; op < ops.size(); op++) {
      for (int victim : wrt[op]) race(ops.get(op), wrt[op], victim, "op " + op + " victim " + victim);
    }
  }

  private static Tensor logabsdet(Tensor[] t) {
    Linalg.Slogdet r = Linalg.slogdet(t[0]);
    r.sign().close();
    return r.logabsdet();
  }

  private static void race(Function<Tensor[], Tensor> op, int[] wrt, int victim, String what) throws InterruptedException {
    long before = RefusedMemory.allocated();
    Tensor[] operands = operands();
    double[][] want = run(op, operands, wrt);
    CloseRace.closeDuringLeavingNothing(() -> {
      double[][] got = run(op, operands, wrt);
      for (int k = 0; k < got.length; k++) if (!java.util.Arrays.equals(want[k], got[k])) throw new AssertionError("result " + k + " differs");
    }, operands, victim, before, 300, 3, what);
  }

  /** A well-conditioned [2, 40, 40] A, a [2, 40, 3] B and a positive-definite [2, 40, 40], float64, requiring gradients; no scope owns them. */
  private static Tensor[] operands() {
    try (TensorScope s = TensorScope.open()) {
      Tensor a = Tensor.randn(2, 40, 40).to(DType.FLOAT64).add(Tensor.eye(40, 40, DType.FLOAT64).mul(8.0));
      Tensor b = Tensor.randn(2, 40, 3).to(DType.FLOAT64);
      Tensor spd = a.matmul(a.mT());
      return new Tensor[] {TensorScope.escape(a.requiresGrad_()), TensorScope.escape(b.requiresGrad_()), TensorScope.escape(spd.requiresGrad_())};
    }
  }

  /** op's value and the gradients of its sum for the operands wrt, each handle closed here (whichever thread runs it). */
  private static double[][] run(Function<Tensor[], Tensor> op, Tensor[] operands, int[] wrt) {
    List<Tensor> made = new ArrayList<>();
    try {
      Tensor y = op.apply(operands);
      made.add(y);
      Tensor sum = y.sum();
      made.add(sum);
      List<Tensor> inputs = new ArrayList<>();
      for (int k : wrt) inputs.add(operands[k]);
      List<Tensor> g = Autograd.grad(sum, inputs);
      made.addAll(g);
      double[][] r = new double[1 + g.size()][];
      r[0] = y.toDoubleArray();
      for (int k = 0; k < g.size(); k++) r[k + 1] = g.get(k).toDoubleArray();
      return r;
    } finally {
      for (Tensor t : made) t.close();
    }
  }

  /**
   * Memory refused at each allocation (RefusedMemory, 64 KB given back at a time): solve (n = 129,
   * blocked), inv, det and cholesky with their backward fail with the allocator's exception or give
   * the right bits, and nothing is left.
   */
  @Test
  void aRefusedAllocationFailsCleanlyAtEachStep() {
    Tensor i = Tensor.arange(0.0, 129, 1.0, DType.FLOAT64).unsqueeze(1), j = Tensor.arange(0.0, 129, 1.0, DType.FLOAT64).unsqueeze(0);
    Tensor a = i.mul(1.7).mul(j).add(i.mul(0.3).mul(i)).cos(), b = Tensor.ones(new long[] {129, 2}, DType.FLOAT64);
    Tensor spd = a.matmul(a.mT()).add(Tensor.eye(129, 129, DType.FLOAT64));
    List<Function<Tensor[], Tensor>> ops = List.of(t -> Linalg.solve(t[0], t[1]), t -> Linalg.inv(t[0]), t -> Linalg.det(t[0]),
        t -> Linalg.cholesky(t[2]));
    int[] wrt = {1, 0, 0, 2};  // the operand each gradient is taken for
    for (int o = 0; o < ops.size(); o++) {
      Function<Tensor[], Tensor> op = ops.get(o);
      int w = wrt[o];
      double[][] want;
      try (TensorScope s = TensorScope.open()) {
        want = gradients(op, w, a, b, spd);
      }
      RefusedMemory.stepThrough("op " + o, 64 << 10, 2, want, () -> gradients(op, w, a, b, spd));
    }
  }

  private static double[][] gradients(Function<Tensor[], Tensor> op, int wrt, Tensor a, Tensor b, Tensor spd) {
    Tensor[] t = {a.detach().requiresGrad_(), b.detach().requiresGrad_(), spd.detach().requiresGrad_()};
    Tensor y = op.apply(t);
    return new double[][] {y.toDoubleArray(), Autograd.grad(y.sum(), List.of(t[wrt])).get(0).toDoubleArray()};
  }

  private static <T extends Throwable> void assertMessage(Class<T> type, String message, Executable call) {
    assertEquals(message, assertThrows(type, call).getMessage());
  }
}
