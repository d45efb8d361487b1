package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * torch.linalg's solve, inv, det, slogdet, cholesky and lu_factor on jtensor's own LU and Cholesky
 * against PyTorch 2.13 (resources/linalg/fixtures.pt from make_fixtures.py beside it): values and
 * the gradients of (out · up).sum() for random, ill-conditioned, batched and broadcast inputs in
 * float64 and float32, within n · eps · cond(A) of PyTorch's, relative to the result's largest element
 * (its LAPACK blocks and orders its sums otherwise); then the singular and non-positive-definite
 * refusals in PyTorch's words, the empty shapes as PyTorch answers them, and gradchecks in float64.
 */
class LinalgTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/linalg/fixtures.pt");

  @Test
  void valuesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(52, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      String op = name.substring(0, name.indexOf('/'));
      Tensor a = fixtures.tensor(name + ".A").detach().requiresGrad_(!op.equals("lu_factor"));
      Tensor b = fixtures.has(name + ".B") ? fixtures.tensor(name + ".B").detach().requiresGrad_() : null;
      double eps = a.dtype() == DType.FLOAT64 ? 0x1p-52 : 0x1p-23;
      long n = a.shape()[a.dim() - 1];
      double cond = fixtures.tensor(name + ".cond").item();
      // measured: the largest difference from PyTorch is 0.16 of this for values and gradients alike
      double tol = n * eps * cond;
      Tensor y;
      switch (op) {
        case "solve" -> y = Linalg.solve(a, b);
        case "inv" -> y = Linalg.inv(a);
        case "det" -> y = Linalg.det(a);
        case "slogdet" -> {
          Linalg.Slogdet r = Linalg.slogdet(a);
          close(name + " sign", r.sign(), fixtures.tensor(name + ".sign"), 0);
          y = r.logabsdet();
          close(name + " logabsdet", y, fixtures.tensor(name + ".logabsdet"), tol);
        }
        case "cholesky" -> y = Linalg.cholesky(a, name.contains("upper"));
        case "lu_factor" -> {
          Linalg.LuFactor r = Linalg.luFactor(a);
          assertArrayEquals(fixtures.tensor(name + ".pivots").toIntArray(), r.pivots().toIntArray(), name);
          assertEquals(DType.INT32, r.pivots().dtype());
          y = r.lu();
        }
        default -> throw new AssertionError(name);
      }
      if (!op.equals("slogdet")) close(name, y, fixtures.tensor(name + ".out"), tol);
      if (!fixtures.has(name + ".up")) continue;
      y.mul(fixtures.tensor(name + ".up")).sum().backward();
      close(name + " grad A", a.grad(), fixtures.tensor(name + ".grad_A"), tol);
      if (b != null) close(name + " grad B", b.grad(), fixtures.tensor(name + ".grad_B"), tol);
    }
  }

  @Test
  void blockedFactorizationPastTheThresholdMatchesPyTorch() {
    Tensor i = Tensor.arange(0.0, 160.0, 1.0, DType.FLOAT64).unsqueeze(1), j = Tensor.arange(0.0, 160.0, 1.0, DType.FLOAT64).unsqueeze(0);
    Tensor big = i.mul(1.7).mul(j).add(i.mul(0.3).mul(i)).cos();  // as make_fixtures.py's, operation for operation
    double tol = 160 * 0x1p-52 * fixtures.tensor("blocked.cond").item();
    close("blocked solve", Linalg.solve(big, Tensor.ones(new long[] {160, 2}, DType.FLOAT64)), fixtures.tensor("blocked.x"), tol);
    Linalg.Slogdet r = Linalg.slogdet(big);
    assertEquals(fixtures.tensor("blocked.sign").item(), r.sign().item());
    close("blocked logabsdet", r.logabsdet(), fixtures.tensor("blocked.logabsdet"), tol);
    assertArrayEquals(fixtures.tensor("blocked.pivots").toIntArray(), Linalg.luFactor(big).pivots().toIntArray());
  }

  /**
   * Same shape and dtype, and every element within tol · max|expected| of PyTorch's (the norm-wise
   * bound a backward-stable solve meets; not Close.ofLargest's max(1, ...), which would wave through
   * an ill-conditioned det of 1e-20).
   */
  private static void close(String what, Tensor actual, Tensor expected, double tol) {
    assertArrayEquals(expected.shape(), actual.shape(), what);
    assertEquals(expected.dtype(), actual.dtype(), what);
    double[] want = expected.to(DType.FLOAT64).toDoubleArray();
    double scale = Double.MIN_NORMAL;
    for (double v : want) if (Double.isFinite(v)) scale = Math.max(scale, Math.abs(v));
    Close.assertElements(what, want, actual.to(DType.FLOAT64).toDoubleArray(), Close.absolute(tol * scale));
  }

  private static final double[][] SINGULAR = {{1, 2, 3}, {2, 4, 6}, {1, 0, 1}};

  @Test
  void singularMatricesAreRefusedInPyTorchsWordsAndNothingIsWritten() {
    Tensor s = Tensor.fromArray(SINGULAR);
    Tensor before = s.clone();
    assertMessage(ArithmeticException.class, "inv(): linalg.inv: The diagonal element 3 is zero, the inversion could not be completed because"
        + " the input matrix is singular.", () -> Linalg.inv(s));
    assertMessage(ArithmeticException.class, "inverse(): linalg.inv: The diagonal element 3 is zero, the inversion could not be completed"
        + " because the input matrix is singular.", () -> s.inverse());
    Tensor batch = Tensor.stack(List.of(Tensor.eye(3, 3, DType.FLOAT64), s));
    assertMessage(ArithmeticException.class, "inv(): linalg.inv: (Batch element 1): The diagonal element 3 is zero, the inversion could not be"
        + " completed because the input matrix is singular.", () -> Linalg.inv(batch));
    assertMessage(ArithmeticException.class, "solve(): torch.linalg.solve: The solver failed because the input matrix is singular.",
        () -> Linalg.solve(s, Tensor.ones(new long[] {3}, DType.FLOAT64)));
    assertMessage(ArithmeticException.class, "solve(): torch.linalg.solve: (Batch element 1): The solver failed because the input matrix is"
        + " singular.", () -> Linalg.solve(batch, Tensor.ones(new long[] {2, 3}, DType.FLOAT64)));
    // A 2-D A broadcast over B's batch is factored once: PyTorch names no batch element
    assertMessage(ArithmeticException.class, "solve(): torch.linalg.solve: The solver failed because the input matrix is singular.",
        () -> Linalg.solve(s, Tensor.ones(new long[] {4, 3, 1}, DType.FLOAT64)));
    assertMessage(ArithmeticException.class, "luFactor(): torch.linalg.lu_factor: U[3,3] is zero and using it on lu_solve would result in a"
        + " division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
        () -> Linalg.luFactor(s));
    assertArrayEquals(before.toDoubleArray(), s.toDoubleArray());
  }

  @Test
  void choleskyRefusesWhatIsNotPositiveDefinite() {
    Tensor indefinite = Tensor.fromArray(new double[][] {{1, 2}, {2, 1}});
    assertMessage(ArithmeticException.class, "cholesky(): linalg.cholesky: The factorization could not be completed because the input is not"
        + " positive-definite (the leading minor of order 2 is not positive-definite).", () -> Linalg.cholesky(indefinite));
    Tensor batch = Tensor.stack(List.of(Tensor.eye(2, 2, DType.FLOAT64), indefinite));
    assertMessage(ArithmeticException.class, "cholesky(): linalg.cholesky: (Batch element 1): The factorization could not be completed because"
        + " the input is not positive-definite (the leading minor of order 2 is not positive-definite).", () -> Linalg.cholesky(batch));
    Tensor nan = Tensor.fromArray(new double[][] {{Double.NaN, 1}, {1, 1}});
    assertMessage(ArithmeticException.class, "cholesky(): linalg.cholesky: The factorization could not be completed because the input is not"
        + " positive-definite (the leading minor of order 1 is not positive-definite).", () -> Linalg.cholesky(nan));
    assertArrayEquals(new double[] {1, 2, 2, 1}, indefinite.toDoubleArray());
  }

  @Test
  void singularDeterminantsAreZeroNotErrors() {
    Tensor s = Tensor.fromArray(SINGULAR);
    assertEquals(-0.0, Linalg.det(s).item());  // PyTorch's -0.: U's zero times the other pivots' signs
    Linalg.Slogdet r = Linalg.slogdet(s);
    assertEquals(-0.0, r.sign().item());
    assertEquals(Double.NEGATIVE_INFINITY, r.logabsdet().item());
    assertEquals(Double.NEGATIVE_INFINITY, s.logdet().item());
    // PyTorch: logdet of a negative determinant is NaN; slogdet keeps the sign
    Tensor negative = Tensor.fromArray(new double[][] {{0, 2}, {3, 1}});
    assertTrue(Double.isNaN(negative.logdet().item()));
    assertEquals(-1.0, negative.slogdet().sign().item());
    assertEquals(Math.log(6), negative.slogdet().logabsdet().item(), 1e-15);
    assertEquals(-6.0, negative.det().item(), 1e-15);
    assertTrue(Double.isNaN(Linalg.det(Tensor.fromArray(new double[][] {{Double.NaN, 1}, {1, 1}})).item()));
  }

  @Test
  void detGradientAtAnExactlySingularMatrixIsZeroAsPyTorchs() {
    // PyTorch 2.13: [[[0, -0], [-0, 0]], [[4, -3], [-2, 1]]] (zeros where det is exactly 0, not the cofactors)
    Tensor a = Tensor.fromArray(new double[][][] {{{1, 2}, {2, 4}}, {{1, 2}, {3, 4}}}).requiresGrad_();
    Linalg.det(a).sum().backward();
    Close.assertElements("det grad", new double[] {0, 0, 0, 0, 4, -3, -2, 1}, a.grad().toDoubleArray(), Close.absolute(1e-15));
  }

  @Test
  void stridedInputsAndThreadCountsGiveTheSameBits() {  // 300 matrices of 8 x 8: several tasks of the batch loop
    Tensor base = Tensor.randn(300, 8, 16).to(DType.FLOAT64);
    Tensor a = base.slice(2, 0, 16, 2).mT();  // strided and transposed: [300, 8, 8]
    Tensor dense = a.contiguous().clone();
    Tensor b = Tensor.randn(300, 1, 3).to(DType.FLOAT64).expand(300, 8, 3);  // stride 0 along the rows
    Tensor spd = a.matmul(a.mT()).add(Tensor.eye(8, 8, DType.FLOAT64));
    Function<Tensor[], Tensor[]> all = t -> new Tensor[] {Linalg.solve(t[0], t[1]), Linalg.inv(t[0]), Linalg.det(t[0]), Linalg.cholesky(t[2])};
    Tensor[] strided = all.apply(new Tensor[] {a, b, spd});
    Tensor[] contiguous = all.apply(new Tensor[] {dense, b.contiguous(), spd.mT().contiguous().mT()});
    int threads = Threads.getNumThreads();
    Tensor[] serial;
    try {
      Threads.setNumThreads(1);
      serial = all.apply(new Tensor[] {a, b, spd});
    } finally {
      Threads.setNumThreads(threads);
    }
    for (int k = 0; k < strided.length; k++) {
      assertArrayEquals(contiguous[k].toDoubleArray(), strided[k].toDoubleArray(), "op " + k);
      assertArrayEquals(serial[k].toDoubleArray(), strided[k].toDoubleArray(), "op " + k + " on one thread");
    }
  }

  @Test
  void successfulCallsAndRefusalsLeaveNoBytesBehind() {  // what the test's scope would otherwise close for them
    Tensor a = Tensor.fromArray(new double[][] {{4, 1, 0}, {1, 3, 1}, {0, 1, 2}});
    Tensor v = Tensor.ones(new long[] {3, 2}, DType.FLOAT64), s = Tensor.fromArray(SINGULAR);
    List<Function<Tensor, AutoCloseable>> calls = List.of(x -> Linalg.solve(x, v), Linalg::inv, Linalg::det, Linalg::slogdet,
        Linalg::cholesky, Linalg::luFactor, Tensor::logdet);
    for (Function<Tensor, AutoCloseable> call : calls) {
      for (Tensor x : List.of(a, s)) {
        long before = allocated();
        try (AutoCloseable r = call.apply(x)) {
          assertTrue(r != null);
        } catch (ArithmeticException refused) {
          assertTrue(x == s, refused.getMessage());
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        assertEquals(before, allocated(), "bytes left by a call on " + (x == a ? "an invertible" : "a singular") + " matrix");
      }
    }
  }

  private static long allocated() {
    return org.jtensor.memory.Memory.memoryStats(Device.CPU).get("allocated_bytes.all.current");
  }

  @Test
  void emptyShapesAnswerAsPyTorch() {
    assertEquals(1.0, Linalg.det(Tensor.ones(0, 0)).item());  // the empty product
    assertArrayEquals(new double[] {1, 1}, Linalg.det(Tensor.ones(2, 0, 0)).to(DType.FLOAT64).toDoubleArray());
    assertArrayEquals(new long[] {0}, Linalg.det(Tensor.ones(0, 3, 3)).shape());
    Linalg.Slogdet r = Linalg.slogdet(Tensor.ones(0, 0));
    assertEquals(1.0, r.sign().item());
    assertEquals(0.0, r.logabsdet().item());
    assertArrayEquals(new long[] {0, 0}, Linalg.inv(Tensor.ones(0, 0)).shape());
    assertArrayEquals(new long[] {0, 3, 3}, Linalg.inv(Tensor.ones(0, 3, 3)).shape());
    assertArrayEquals(new long[] {0, 0}, Linalg.cholesky(Tensor.ones(0, 0)).shape());
    assertArrayEquals(new long[] {0}, Linalg.solve(Tensor.ones(0, 0), Tensor.ones(0)).shape());
    assertArrayEquals(new long[] {0, 3}, Linalg.solve(Tensor.ones(0, 3, 3), Tensor.ones(3)).shape());
    assertArrayEquals(new long[] {2, 3}, Linalg.solve(Tensor.eye(3, 3, DType.FLOAT32).expand(2, 3, 3), Tensor.ones(2, 3)).shape());
    assertArrayEquals(new long[] {2, 3, 3}, Linalg.solve(Tensor.eye(3, 3, DType.FLOAT32).expand(2, 3, 3), Tensor.ones(3, 3)).shape());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor longEye = Tensor.eye(2, 2, DType.INT64);
    assertMessage(IllegalArgumentException.class, "inv(): linalg.inv: Expected a floating point or complex tensor as input. Got Long",
        () -> Linalg.inv(longEye));
    assertMessage(IllegalArgumentException.class, "det(): linalg.det: Expected a floating point or complex tensor as input. Got Long",
        () -> Linalg.det(longEye));
    assertMessage(IllegalArgumentException.class, "logdet(): logdet: Expected a floating point or complex tensor as input. Got Long",
        () -> longEye.logdet());
    assertMessage(UnsupportedOperationException.class, "luFactor(): \"lu_cpu\" not implemented for 'Long'", () -> Linalg.luFactor(longEye));
    Tensor half = Tensor.eye(2, 2, DType.FLOAT16);
    assertMessage(IllegalArgumentException.class, "inv(): linalg.inv: Low precision dtypes not supported. Got Half", () -> Linalg.inv(half));
    assertMessage(IllegalArgumentException.class, "slogdet(): linalg.slogdet: Low precision dtypes not supported. Got Half",
        () -> Linalg.slogdet(half));
    assertMessage(UnsupportedOperationException.class, "det(): \"lu_cpu\" not implemented for 'Half'", () -> Linalg.det(half));
    assertMessage(UnsupportedOperationException.class, "cholesky(): \"cholesky_cpu\" not implemented for 'Half'", () -> Linalg.cholesky(half));
    assertMessage(UnsupportedOperationException.class, "solve(): \"lu_cpu\" not implemented for 'Half'", () -> Linalg.solve(half, half));
    assertMessage(IllegalArgumentException.class, "det(): linalg.det: The input tensor A must have at least 2 dimensions.",
        () -> Linalg.det(Tensor.ones(3)));
    // the shape is checked before the dtype, except by solve
    assertMessage(IllegalArgumentException.class, "inv(): linalg.inv: The input tensor A must have at least 2 dimensions.",
        () -> Linalg.inv(Tensor.ones(new long[] {3}, DType.INT64)));
    assertMessage(IllegalArgumentException.class, "logdet(): logdet: A must be batches of square matrices, but they are 2 by 3 matrices",
        () -> Tensor.ones(new long[] {2, 3}, DType.FLOAT16).logdet());
    assertMessage(IllegalArgumentException.class, "solve(): linalg.solve: Expected a floating point or complex tensor as input. Got Long",
        () -> Linalg.solve(Tensor.ones(new long[] {3}, DType.INT64), Tensor.ones(3)));
    assertMessage(IllegalArgumentException.class, "luFactor(): torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead",
        () -> Linalg.luFactor(Tensor.ones(3)));
    assertMessage(IllegalArgumentException.class, "cholesky(): linalg.cholesky: A must be batches of square matrices, but they are 2 by 3"
        + " matrices", () -> Linalg.cholesky(Tensor.ones(2, 3)));
    Tensor eye = Tensor.eye(3, 3, DType.FLOAT32);
    assertMessage(IllegalArgumentException.class, "solve(): linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x1)",
        () -> Linalg.solve(eye, Tensor.ones(2)));
    assertMessage(IllegalArgumentException.class, "solve(): linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x3)",
        () -> Linalg.solve(eye.expand(2, 3, 3), Tensor.ones(4, 2, 3)));
    assertMessage(IllegalArgumentException.class, "solve(): linalg.solve: Expected A and B to have the same dtype, but found A of type Float"
        + " and B of type Double instead", () -> Linalg.solve(eye, Tensor.ones(new long[] {3}, DType.FLOAT64)));
    assertMessage(IllegalArgumentException.class, "solve(): linalg.solve: The input tensor B must have at least 2 dimensions.",
        () -> Linalg.solve(eye, Tensor.scalar(1.0)));
    assertMessage(IllegalArgumentException.class, "solve(): The size of tensor a (4) must match the size of tensor b (2) at non-singleton"
        + " dimension 0", () -> Linalg.solve(eye.expand(2, 3, 3), Tensor.ones(4, 3, 1)));
    assertMessage(UnsupportedOperationException.class, "inv(): not implemented for META",
        () -> Linalg.inv(Tensor.empty(new long[] {2, 2}, DType.FLOAT32, Device.META)));
  }

  private static <T extends Throwable> void assertMessage(Class<T> type, String message, org.junit.jupiter.api.function.Executable call) {
    assertEquals(message, assertThrows(type, call).getMessage());
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor a = Tensor.randn(3, 3).to(DType.FLOAT64).add(Tensor.eye(3, 3, DType.FLOAT64).mul(3.0)).requiresGrad_();
    Tensor batched = Tensor.randn(2, 3, 3).to(DType.FLOAT64).add(Tensor.eye(3, 3, DType.FLOAT64).mul(3.0)).requiresGrad_();
    Tensor b = Tensor.randn(3, 2).to(DType.FLOAT64).requiresGrad_();
    Tensor v = Tensor.randn(3).to(DType.FLOAT64).requiresGrad_();
    check(x -> Linalg.solve(x.get(0), x.get(1)), a, b);
    check(x -> Linalg.solve(x.get(0), x.get(1)), batched, v);  // vector B broadcast over A's batch
    check(x -> Linalg.solve(x.get(0), x.get(1)), a, Tensor.randn(2, 3, 1).to(DType.FLOAT64).requiresGrad_());  // A broadcast over B's
    check(x -> Linalg.inv(x.get(0)), batched);
    check(x -> Linalg.det(x.get(0)), batched);
    check(x -> Linalg.slogdet(x.get(0)).logabsdet(), batched);
    check(x -> x.get(0).logdet(), a.mm(a.mT()).detach().requiresGrad_());
    // cholesky reads one triangle: checked through a symmetric positive-definite function of x
    Function<List<Tensor>, Tensor> spd = x -> x.get(0).matmul(x.get(0).mT()).add(Tensor.eye(3, 3, DType.FLOAT64));
    check(x -> Linalg.cholesky(spd.apply(x)), batched);
    check(x -> Linalg.cholesky(spd.apply(x), true), a);
    GradCheck.checkSecondOrder(x -> Linalg.inv(x.get(0)), List.of(a), 52);
    GradCheck.checkSecondOrder(x -> Linalg.solve(x.get(0), x.get(1)), List.of(a, b), 52);
    GradCheck.checkSecondOrder(x -> Linalg.cholesky(spd.apply(x)), List.of(a), 52);
  }

  private static void check(Function<List<Tensor>, Tensor> f, Tensor... inputs) {
    GradCheck.check(f, List.of(inputs));
  }
}
