package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.BiFunction;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * cummax, cummin, logcumsumexp, cumsum/cumprod with a dtype, and unique/uniqueConsecutive over a
 * dim against PyTorch 2.13 (resources/scanunique/fixtures.pt from make_fixtures.py beside it):
 * values, the index kept among equal values and after NaN, every dtype PyTorch's CPU kernels
 * accept, transposed inputs, -inf/+inf/NaN, 0-dim and empty inputs, gradients (against PyTorch's
 * and GradCheck's in float64) and refusals in PyTorch's words.
 */
class ScanUniqueOpsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/scanunique/fixtures.pt");

  private static Tensor t(String name) {
    return f.tensor(name);
  }

  /** dtype, shape and values; NaN equals NaN, infinities themselves. */
  private static void same(Tensor want, Tensor got, double tol, String what) {
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), tol, what);
  }

  private static ValuesAndIndices run(String op, Tensor x, int dim) {
    return op.equals("cummax") ? x.cummax(dim) : x.cummin(dim);
  }

  @Test
  void cummaxCumminKeepTheLastOfEqualsAndTheLastNaN() {
    Tensor x = t("x");
    for (String op : new String[] {"cummax", "cummin"}) {
      for (int d = 0; d < 2; d++) {
        ValuesAndIndices r = run(op, x, d - 2);  // negative dims wrap
        same(t(op + ".dim" + d + ".values"), r.values(), 0, op + "(" + d + ") values");
        same(t(op + ".dim" + d + ".indices"), r.indices(), 0, op + "(" + d + ") indices");
      }
      ValuesAndIndices r = run(op, x.t(), 0);
      same(t(op + ".t.values"), r.values(), 0, op + " of a transposed input");
      same(t(op + ".t.indices"), r.indices(), 0, op + " of a transposed input: indices");
    }
  }

  @Test
  void cummaxCumminForEveryDtype() {
    for (String dt : new String[] {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"}) {
      for (String op : new String[] {"cummax", "cummin"}) {
        ValuesAndIndices r = run(op, t("dt." + dt), 1);
        same(t("dt." + dt + "." + op + ".values"), r.values(), 0, op + " " + dt);
        same(t("dt." + dt + "." + op + ".indices"), r.indices(), 0, op + " " + dt + ": indices");
      }
    }
  }

  @Test
  void cummaxCumminOfZeroDimAndEmptyInputs() {
    Tensor s = Tensor.scalar(5.0);
    for (int dim : new int[] {0, -1}) {
      ValuesAndIndices r = s.cummax(dim);
      assertArrayEquals(new long[0], r.values().shape());
      assertEquals(5.0, r.values().item(), 0);
      assertArrayEquals(new long[0], r.indices().shape());
      assertEquals(0L, r.indices().toLongArray()[0]);
    }
    Tensor e = Tensor.zeros(0, 3);
    for (int dim : new int[] {0, 1}) {
      ValuesAndIndices r = e.cummin(dim);
      assertArrayEquals(new long[] {0, 3}, r.values().shape());
      assertEquals(DType.INT64, r.indices().dtype());
      assertArrayEquals(new long[] {0, 3}, r.indices().shape());
    }
  }

  @Test
  void cummaxCumminRefuseAsPyTorch() {  // PyTorch 2.13's IndexError words
    assertEquals("cummax(): Expected reduction dim -1 or 0 for scalar but got 1",
        assertThrows(IllegalArgumentException.class, () -> Tensor.scalar(5.0).cummax(1)).getMessage());
    assertEquals("cummin(): Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2, 3).cummin(2)).getMessage());
  }

  @Test
  void cummaxCumminGradientsAsPyTorch() {
    for (String op : new String[] {"cummax", "cummin"}) {
      Tensor a = t("ties").clone().requiresGrad_(true);
      Tensor y = run(op, a, 1).values();
      same(t(op + ".grad.out"), y, 0, op + " values");
      y.mul(t(op + ".grad.up")).sum().backward();
      same(t(op + ".grad.grad"), a.grad(), 1e-12, op + "'s gradient: each output's into its index");
    }
    Tensor x = Tensor.randn(3, 5).to(DType.FLOAT64).requiresGrad_(true);  // distinct values: the extremes are differentiable
    GradCheck.check(in -> in.get(0).cummax(1).values(), List.of(x));
    GradCheck.check(in -> in.get(0).cummin(0).values(), List.of(x));
    Tensor s = Tensor.scalar(2.0).to(DType.FLOAT64).requiresGrad_(true);
    s.cummax(0).values().mul(3.0).backward();
    assertEquals(3.0, s.grad().item(), 0);
  }

  @Test
  void logcumsumexpAsPyTorch() {
    Tensor lx = t("lx");
    same(t("logcumsumexp.dim0"), lx.logcumsumexp(0), 1e-12, "logcumsumexp(0): -inf rows, +inf, NaN");
    same(t("logcumsumexp.dim1"), lx.logcumsumexp(-1), 1e-12, "logcumsumexp(1): 1000s without overflow");
    same(t("logcumsumexp.t"), lx.t().logcumsumexp(0), 1e-12, "logcumsumexp of a transposed input");
    for (String dt : new String[] {"float16", "bfloat16", "float32"}) {  // 16-bit types computed in float, rounded once
      same(t("logcumsumexp." + dt), t("lx." + dt).logcumsumexp(1), 0, "logcumsumexp " + dt);
    }
    assertEquals(2.0, Tensor.scalar(2.0).logcumsumexp(0).item(), 0);
    assertArrayEquals(new long[] {0}, Tensor.zeros(0).logcumsumexp(0).shape());
  }

  @Test
  void logcumsumexpRefusesIntegersAsPyTorch() {
    BiFunction<DType, Integer, String> msg = (dt, d) ->
        assertThrows(UnsupportedOperationException.class, () -> Tensor.zeros(new long[] {3}, dt).logcumsumexp(d)).getMessage();
    assertEquals("logcumsumexp(): \"logcumsumexp_out_cpu\" not implemented for 'Long'", msg.apply(DType.INT64, 0));
    assertEquals("logcumsumexp(): \"logcumsumexp_out_cpu\" not implemented for 'Bool'", msg.apply(DType.BOOL, 0));
    assertEquals("logcumsumexp(): \"logcumsumexp_out_cpu\" not implemented for 'Byte'", msg.apply(DType.UINT8, 0));
  }

  @Test
  void logcumsumexpGradientAsPyTorch() {
    for (String c : new String[] {"grad", "gradinf"}) {  // gradinf: a -inf input, whose gradient PyTorch gives as NaN
      Tensor a = t(c.equals("grad") ? "lg" : "lgi").clone().requiresGrad_(true);
      Tensor y = a.logcumsumexp(1);
      same(t("logcumsumexp." + c + ".out"), y, 1e-12, "logcumsumexp " + c);
      y.mul(t("logcumsumexp." + c + ".up")).sum().backward();
      same(t("logcumsumexp." + c + ".grad"), a.grad(), 1e-10, "logcumsumexp's gradient " + c);
    }
    Tensor x = Tensor.randn(3, 4).to(DType.FLOAT64).requiresGrad_(true);
    GradCheck.check(in -> in.get(0).logcumsumexp(1), List.of(x));
    GradCheck.check(in -> in.get(0).logcumsumexp(0), List.of(x));
    GradCheck.checkSecondOrder(in -> in.get(0).logcumsumexp(1), List.of(x), 5);  // the backward is itself made of differentiable ops
    GradCheck.checkSecondOrder(in -> in.get(0).cummax(0).values(), List.of(x), 6);
  }

  @Test
  void largeInputsSplitAcrossThreadsAgreeAcrossLayouts() {  // lines in parallel; ties everywhere (small integers)
    Tensor x = Tensor.randint(-3, 4, new long[] {300, 700}).to(DType.FLOAT32);
    Tensor xt = x.t().contiguous().t();  // the same values, column-major
    for (int d = 0; d < 2; d++) {
      ValuesAndIndices a = x.cummax(d), b = xt.cummax(d), c = x.cummin(d);
      same(a.values(), b.values(), 0, "cummax(" + d + ") across layouts");
      same(a.indices(), b.indices(), 0, "cummax(" + d + ") indices across layouts");
      same(a.values(), x.gather(d, a.indices()), 0, "cummax(" + d + ") values sit at their indices");
      same(c.values(), x.gather(d, c.indices()), 0, "cummin(" + d + ") values sit at their indices");
      same(x.to(DType.FLOAT64).exp().cumsum(d).log(), x.logcumsumexp(d).to(DType.FLOAT64), 1e-5, "logcumsumexp is log(cumsum(exp))");
    }
  }

  @Test
  void metaTensorsGetShapesAndDtypesOnly() {
    Tensor m = Tensor.empty(new long[] {2, 5}, DType.FLOAT16, Device.META);
    ValuesAndIndices r = m.cummin(1);
    assertEquals(Device.META, r.values().device());
    assertEquals(DType.FLOAT16, r.values().dtype());
    assertEquals(DType.INT64, r.indices().dtype());
    assertArrayEquals(new long[] {2, 5}, r.indices().shape());
    assertArrayEquals(new long[] {2, 5}, m.logcumsumexp(0).shape());
  }

  @Test
  void cumsumCumprodWithDtypeAsPyTorch() {  // the input converted to dtype first: float16 sums in float, int8 wraps
    java.util.Map<String, DType> cases = java.util.Map.of("i32_f16", DType.FLOAT16, "f32_f16", DType.FLOAT16, "i8_i8", DType.INT8,
        "i64_i8", DType.INT8, "f32_i32", DType.INT32, "b_f64", DType.FLOAT64, "f64_f32", DType.FLOAT32);
    cases.forEach((k, dt) -> {
      same(t("cd." + k + ".cumsum"), t("cd." + k).cumsum(0, dt), 0, "cumsum(dtype) " + k);
      same(t("cd." + k + ".cumprod"), t("cd." + k).cumprod(-1, dt), 0, "cumprod(dtype) " + k);
    });
    for (String k : new String[] {"bool", "int32"}) {  // no dtype: bool and integers give int64
      same(t("cdef." + k + ".cumsum"), t("cdef." + k).cumsum(0, null), 0, "cumsum " + k);
      same(t("cdef." + k + ".cumprod"), t("cdef." + k).cumprod(0), 0, "cumprod " + k);
    }
    for (String op : new String[] {"cumsum", "cumprod"}) {
      Tensor a = Tensor.fromArray(new float[] {1, 2, 3}).requiresGrad_(true);
      Tensor y = op.equals("cumsum") ? a.cumsum(0, DType.FLOAT64) : a.cumprod(0, DType.FLOAT64);
      y.backward(Tensor.fromArray(new double[] {1, 2, 3}));
      same(t("cd.grad." + op), a.grad(), 0, op + "(dtype float64)'s gradient, float32 as the input");
      assertEquals("" + op + "(): \"" + op + "_out_cpu\" not implemented for 'Bool'", assertThrows(UnsupportedOperationException.class,
          () -> {
            if (op.equals("cumsum")) a.cumsum(0, DType.BOOL);
            else a.cumprod(0, DType.BOOL);
          }).getMessage());
    }
  }

  private void sameUnique(String key, Unique u) {
    same(t(key + ".values"), u.values(), 0, key + " values");
    same(t(key + ".inverse"), u.inverse(), 0, key + " inverse");
    same(t(key + ".counts"), u.counts(), 0, key + " counts");
  }

  @Test
  void uniqueAndUniqueConsecutiveOverADimAsPyTorch() {  // slices compared whole; sorted lexicographically (sorted=false too, as PyTorch's CPU)
    java.util.Map<String, int[]> dims = java.util.Map.of("m", new int[] {0, 1, -1}, "b3", new int[] {0, 1, 2}, "bo", new int[] {0, 1});
    dims.forEach((name, ds) -> {
      Tensor x = t("u." + name);
      for (int d : ds) {
        for (boolean sorted : new boolean[] {true, false}) sameUnique("unique." + name + "." + d + "." + (sorted ? "True" : "False"), x.unique(sorted, true, true, d));
        sameUnique("consec." + name + "." + d, x.uniqueConsecutive(true, true, d));
      }
      sameUnique("consec." + name + ".None", x.uniqueConsecutive(true, true, null));
    });
    sameUnique("consec.fl.None", t("u.fl").uniqueConsecutive(true, true, null));  // NaN runs: each NaN its own
    sameUnique("unique.fl.None.False", t("u.fl").unique(false, true, true, null));
    try (Unique u = t("u.m").uniqueConsecutive(false, false, 0)) {
      assertEquals(null, u.inverse());
      assertEquals(null, u.counts());
    }
  }

  @Test
  void uniqueOfZeroDimAndEmptyInputsAndRefusalsAsPyTorch() {
    Unique c = Tensor.scalar(3.0).uniqueConsecutive(true, true, null);  // flattened: [3.], inverse 0-dim
    assertArrayEquals(new long[] {1}, c.values().shape());
    assertArrayEquals(new long[0], c.inverse().shape());
    assertArrayEquals(new long[] {1}, c.counts().toLongArray());
    Unique e = Tensor.zeros(0, 3).unique(true, true, true, 0);
    assertArrayEquals(new long[] {0, 3}, e.values().shape());
    assertArrayEquals(new long[] {0}, e.inverse().shape());
    assertArrayEquals(new long[] {0}, e.counts().shape());
    Unique e1 = Tensor.zeros(2, 0).uniqueConsecutive(true, true, 1);
    assertArrayEquals(new long[] {2, 0}, e1.values().shape());
    Unique ef = Tensor.zeros(0, 2).uniqueConsecutive(true, true, null);
    assertArrayEquals(new long[] {0, 2}, ef.inverse().shape());
    assertEquals("unique(): There are 0 sized dimensions, and they aren't selected, so unique cannot be applied",
        assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2, 0).unique(true, true, true, 0)).getMessage());
    assertEquals("uniqueConsecutive(): Dimension specified as 0 but tensor has no dimensions",
        assertThrows(IllegalArgumentException.class, () -> Tensor.scalar(3.0).uniqueConsecutive(false, false, 0)).getMessage());
    assertEquals("unique(): Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        assertThrows(IllegalArgumentException.class, () -> t("u.m").unique(true, false, false, 2)).getMessage());
  }
}
