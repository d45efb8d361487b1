package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * kthvalue, nanmedian, mode, msort, searchsorted and bucketize against PyTorch 2.13
 * (resources/orderstats/selection.pt from make_selection_fixtures.py beside it): values and the
 * index PyTorch's CPU kernels pick among ties and NaNs (every k of tie-heavy rows, both dims,
 * keepdim, a transposed input, 0-dim), per dtype, gradients against PyTorch's and GradCheck's;
 * searchsorted's positions (NaN, infinities, per-row boundaries, a sorter, promotion, scalars);
 * empty inputs and PyTorch's refusals.
 */
class OrderStatisticsOpsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/orderstats/selection.pt");

  private static Tensor t(String name) {
    return f.tensor(name);
  }

  private static void same(Tensor want, Tensor got, String what) {
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 0, what);  // NaN equals NaN here
  }

  private static void same(String name, ValuesAndIndices got) {
    same(t(name + ".values"), got.values(), name + " values");
    same(t(name + ".indices"), got.indices(), name + " indices");
  }

  private static void refused(Class<? extends Throwable> type, String message, Executable call) {
    assertEquals(message, assertThrows(type, call).getMessage());
  }

  /** The gradient of y = fn(x) for PyTorch's upstream, and GradCheck's on smooth (distinct) values. */
  private static void gradient(String name, Function<Tensor, Tensor> fn, Tensor x) {
    Tensor a = x.clone().requiresGrad_(true);
    Tensor y = fn.apply(a);
    same(t(name + ".out"), y, name + " values");
    y.mul(t(name + ".up")).sum().backward();
    same(t(name + ".grad"), a.grad(), name + "'s gradient");
  }

  private static void gradCheck(Function<Tensor, Tensor> fn) {
    GradCheck.check(in -> fn.apply(in.get(0)), List.of(t("smooth").clone().requiresGrad_(true)));
  }

  @Test
  void kthvalueAsPyTorch() {
    Tensor ties = t("ties");
    for (int k : new int[] {1, 2, 7, 20, 33, 40}) same("kth_k" + k, ties.kthvalue(k, 1));
    same("kth_dim0_keep", ties.kthvalue(4, 0, true));
    same("kth_t", ties.t().kthvalue(3, 0));
    same("kth_scalar", Tensor.scalar(2.5, DType.FLOAT64).kthvalue(1));
    same("kth_offset", ties.narrow(0, 1, 5).narrow(1, 3, 20).kthvalue(5, 1));
    for (String dt : new String[] {"float32", "float64", "int64", "float16", "bfloat16"}) {
      same("kth_" + dt, t("clean").to(DType.valueOf(dt.toUpperCase())).kthvalue(3, 1));
    }
    gradient("kth_grad", a -> a.kthvalue(3, 1).values(), ties);
    gradCheck(a -> a.kthvalue(2, 1, true).values());
  }

  @Test
  void nanmedianAsPyTorch() {
    Tensor ties = t("ties");
    same("nanmedian_dim1", ties.nanmedian(1, false));
    same("nanmedian_dim0_keep", ties.nanmedian(0, true));
    same(t("nanmedian_all"), ties.nanmedian(), "nanmedian()");
    same(t("nanmedian_all_nan"), Tensor.full(new long[] {3}, Double.NaN, DType.FLOAT64).nanmedian(), "nanmedian() of NaNs");
    for (String dt : new String[] {"float32", "float64", "int64", "float16", "bfloat16"}) {
      Tensor x = t("clean").to(DType.valueOf(dt.toUpperCase()));
      same("nanmedian_" + dt, x.nanmedian(1, false));
      same(t("nanmedian_all_" + dt), x.nanmedian(), "nanmedian() " + dt);
    }
    gradient("nanmedian_grad", a -> a.nanmedian(1, false).values(), ties);
    gradient("nanmedian_all_grad", Tensor::nanmedian, Tensor.fromArray(new double[] {2, Double.NaN, 2, 1, 2}));
    gradient("nanmedian_all_nan_grad", Tensor::nanmedian, Tensor.full(new long[] {2, 2}, Double.NaN, DType.FLOAT64));
    gradCheck(a -> a.nanmedian(0, false).values());
    gradCheck(Tensor::nanmedian);
  }

  @Test
  void modeAsPyTorch() {
    Tensor ties = t("ties");
    same("mode_dim1", ties.mode(1));
    same("mode_dim0_keep", ties.mode(0, true));
    same("mode_t", ties.t().mode(0));
    same("mode_offset", ties.narrow(0, 1, 5).narrow(1, 3, 20).mode(1));
    for (String dt : new String[] {"float32", "float64", "int64", "float16", "bfloat16"}) {
      same("mode_" + dt, t("clean").to(DType.valueOf(dt.toUpperCase())).mode());
    }
    same("mode_bool", t("clean").gt(4L).mode(1));
    gradient("mode_grad", a -> a.mode(0).values(), ties);
    gradCheck(a -> a.mode(1).values());
  }

  @Test
  void msortAsPyTorch() {
    same(t("msort"), t("ties").narrow(1, 0, 5).msort(), "msort");
    gradient("msort_grad", Tensor::msort, t("smooth"));
    assertEquals(2.5, Tensor.scalar(2.5).msort().item());
  }

  @Test
  void zeroDimAndEmptyAsPyTorch() {  // shapes printed by PyTorch 2.13
    try (ValuesAndIndices m = Tensor.scalar(3.0).kthvalue(1, 0, true)) {
      assertArrayEquals(new long[] {}, m.values().shape());
      assertArrayEquals(new long[] {}, m.indices().shape());
    }
    assertArrayEquals(new long[] {0}, Tensor.zeros(2, 0).kthvalue(1, 0).values().shape());
    assertArrayEquals(new long[] {0, 1}, Tensor.zeros(0, 2).kthvalue(1, 1, true).indices().shape());
    assertArrayEquals(new long[] {0}, Tensor.zeros(3, 0).mode(0).indices().shape());
    assertArrayEquals(new long[] {0}, Tensor.zeros(0, 3).nanmedian(1, false).values().shape());
    assertEquals(0L, Tensor.scalar(Double.NaN).nanmedian(0, false).indices().itemLong());
    assertEquals(Double.NaN, Tensor.zeros(0).nanmedian().item());
    assertEquals(DType.FLOAT16, Tensor.zeros(new long[] {0}, DType.FLOAT16).nanmedian().dtype());
  }

  @Test
  void metaGivesShapesAndDtypes() {  // META runs no kernel: the shapes and dtypes the CPU would give
    Tensor m = Tensor.zeros(new long[] {2, 5}, DType.FLOAT32, Device.META);
    try (ValuesAndIndices k = m.kthvalue(2, 1, true); ValuesAndIndices o = m.mode(0); ValuesAndIndices n = m.nanmedian(1, false)) {
      assertArrayEquals(new long[] {2, 1}, k.values().shape());
      assertEquals(DType.INT64, k.indices().dtype());
      assertArrayEquals(new long[] {5}, o.indices().shape());
      assertArrayEquals(new long[] {2}, n.values().shape());
    }
    Tensor s = Tensor.searchsorted(m, m, true, false, null, null);
    assertEquals(DType.INT32, s.dtype());
    assertEquals(Device.META, s.device());
  }

  @Test
  void refusalsAsPyTorch() {  // PyTorch 2.13's messages, named by the op as called
    Tensor x = Tensor.zeros(2, 3);
    refused(IllegalArgumentException.class, "kthvalue(): selected number k out of range for dimension 1", () -> x.kthvalue(4, 1));
    refused(IllegalArgumentException.class, "kthvalue(): selected number k out of range for dimension 0", () -> x.kthvalue(0, -2));
    refused(IllegalArgumentException.class, "kthvalue(): selected number k out of range for dimension 0", () -> Tensor.scalar(1.0).kthvalue(2));
    refused(IllegalArgumentException.class, "kthvalue(): Dimension out of range (expected to be in range of [-2, 1], but got 5)", () -> x.kthvalue(1, 5));
    refused(IllegalArgumentException.class, "kthvalue(): Expected reduction dim 0 to have non-zero size.", () -> Tensor.zeros(0, 3).kthvalue(1, 0));
    refused(UnsupportedOperationException.class, "kthvalue(): \"kthvalue_cpu\" not implemented for 'Bool'", () -> x.gt(0L).kthvalue(1));
    refused(UnsupportedOperationException.class, "kthvalue(): \"kthvalue_cpu\" not implemented for 'Bool'", () -> Tensor.zeros(0, 3).gt(0L).kthvalue(1, 1));
    refused(IllegalArgumentException.class, "mode(): Expected reduction dim 0 to have non-zero size.", () -> Tensor.zeros(0, 3).mode(-2));
    refused(IllegalArgumentException.class, "nanmedian(): Expected reduction dim 0 to have non-zero size.", () -> Tensor.zeros(0, 3).nanmedian(0, false));
    refused(UnsupportedOperationException.class, "nanmedian(): \"median_out\" not implemented for 'Bool'", () -> x.gt(0L).nanmedian(1, false));
    refused(UnsupportedOperationException.class, "nanmedian(): \"median_cpu\" not implemented for 'Bool'", () -> x.gt(0L).nanmedian());
    refused(IllegalArgumentException.class, "nanmedian(): input must not be empty", () -> Tensor.zeros(new long[] {0}, DType.INT64).nanmedian());
  }

  @Test
  void searchsortedAsPyTorch() {
    Tensor seq = t("ss_seq"), vals = t("ss_vals"), rows = t("ss_rows"), rvals = t("ss_rvals");
    same(t("ss_left"), Tensor.searchsorted(seq, vals), "searchsorted, NaN and infinities");
    same(t("ss_right"), Tensor.searchsorted(seq, vals, true), "searchsorted right");
    same(t("ss_side_int32"), Tensor.searchsorted(seq, vals, true, false, "right", null), "searchsorted side right, int32");
    same(t("ss_rows_left"), Tensor.searchsorted(rows, rvals), "searchsorted per row");
    same(t("ss_rows_right"), Tensor.searchsorted(rows, rvals, true), "searchsorted per row, right");
    Tensor unsorted = t("ss_unsorted"), sorter = t("ss_sorter"), svals = t("ss_svals");
    same(t("ss_sorter_right"), Tensor.searchsorted(unsorted, svals, false, true, null, sorter), "searchsorted with a sorter");
    same(t("ss_sorter_1d"), Tensor.searchsorted(unsorted.select(0, 0), svals, false, false, "left", sorter.select(0, 0)), "a 1-D sorter");
    for (String dt : new String[] {"float32", "float64", "int64", "float16", "bfloat16"}) {
      DType d = DType.valueOf(dt.toUpperCase());
      same(t("ss_" + dt), Tensor.searchsorted(rows.to(d), rvals.add(0.5).to(d)), "searchsorted " + dt);
    }
    same(t("ss_promote"), Tensor.searchsorted(rows.to(DType.INT64), rvals.add(0.5)), "int64 boundaries, float64 values");
    Tensor half = t("ss_half");
    same(t("ss_half_0dim"), Tensor.searchsorted(half, Tensor.scalar(2.0009765625, DType.FLOAT64), false), "a 0-dim value keeps float16");
    same(t("ss_half_1d"), Tensor.searchsorted(half, Tensor.fromArray(new double[] {2.0009765625})), "a 1-D float64 value promotes");
    same(t("ss_scalar_float"), Tensor.searchsorted(Tensor.fromArray(new long[] {1, 2, 3}), 2.5, false), "a double value");
    same(t("ss_scalar_long"), Tensor.searchsorted(seq, 3L, true), "a long value");
    // a scalar converts to the result type as PyTorch's does, wrapping or overflowing (printed by PyTorch 2.13)
    assertEquals(1L, Tensor.searchsorted(Tensor.fromArray(new int[] {1, 2, 3}), (1L << 32) + 2, false).itemLong());
    assertEquals(3L, Tensor.searchsorted(Tensor.fromArray(new long[] {1, 2, 3}).to(DType.INT8), 300L, false).itemLong());
    assertEquals(3L, Tensor.searchsorted(Tensor.fromArray(new long[] {1, 2, 3}).to(DType.UINT8), -1L, false).itemLong());
    assertEquals(3L, Tensor.searchsorted(Tensor.fromArray(new double[] {1, 2, 3}).to(DType.FLOAT16), 1e6, false).itemLong());
    same(t("ss_big"), Tensor.searchsorted(t("ss_big_seq"), t("ss_big_vals")), "5000 values, in parallel");
    same(t("ss_offset"), Tensor.searchsorted(seq.narrow(0, 1, 7), vals.t().narrow(0, 1, 4)), "views with an offset and strides");
    same(t("bucketize"), Tensor.bucketize(rvals, seq, false), "bucketize");
    same(t("bucketize_right_int32"), Tensor.bucketize(rvals, seq, true, true), "bucketize right int32");
    // empty values or boundaries, as PyTorch 2.13 printed them
    assertArrayEquals(new long[] {2, 0}, Tensor.searchsorted(seq, Tensor.zeros(2, 0)).shape());
    assertArrayEquals(new long[] {0, 0}, Tensor.searchsorted(Tensor.zeros(2, 0), Tensor.zeros(2, 1)).toLongArray());
    assertEquals(DType.INT32, Tensor.searchsorted(Tensor.zeros(0), Tensor.zeros(1), true, false, null, null).dtype());
    Tensor x = Tensor.ones(2).requiresGrad_(true);
    assertEquals(false, Tensor.searchsorted(x, x).requiresGrad(), "no gradient: the positions are integers");
  }

  @Test
  void searchsortedRefusalsAsPyTorch() {  // PyTorch 2.13's messages less their "torch." prefix
    Tensor b = Tensor.fromArray(new double[] {1, 3, 5}), v = Tensor.fromArray(new double[] {2});
    Tensor b2 = Tensor.zeros(2, 2);
    refused(IllegalArgumentException.class, "searchsorted(): side can only be 'left' or 'right' but got middle",
        () -> Tensor.searchsorted(b, v, false, false, "middle", null));
    refused(IllegalArgumentException.class, "searchsorted(): side and right can't be set to opposites, got side of left while right was True",
        () -> Tensor.searchsorted(b, v, false, true, "left", null));
    refused(IllegalArgumentException.class, "searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor"
        + " and input value tensor must match, but we got boundaries tensor [2, 2] and input value tensor [1, 3]",
        () -> Tensor.searchsorted(b2, Tensor.zeros(1, 3)));
    refused(IllegalArgumentException.class, "searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got"
        + " boundaries tensor dim(2) and input value's dim(0) numel(1)", () -> Tensor.searchsorted(b2, 2.5, false));
    refused(IllegalArgumentException.class, "searchsorted(): boundary and sorter must have the same size, but got boundary tensor [3]and got sorter tensor [2]",
        () -> Tensor.searchsorted(b, v, false, false, null, Tensor.fromArray(new long[] {1, 0})));
    refused(IllegalArgumentException.class, "searchsorted(): sorter must be a tensor of long dtype but got dtype Int",
        () -> Tensor.searchsorted(b, v, false, false, null, Tensor.fromArray(new int[] {1, 0, 2})));
    refused(IndexOutOfBoundsException.class, "searchsorted(): sorter index out of range",
        () -> Tensor.searchsorted(b, v, false, false, null, Tensor.fromArray(new long[] {1, 0, 3})));
    refused(IndexOutOfBoundsException.class, "searchsorted(): sorter index out of range",
        () -> Tensor.searchsorted(b, v, false, false, null, Tensor.fromArray(new long[] {1, 0, -1})));
    refused(UnsupportedOperationException.class, "searchsorted(): \"searchsorted_out_cpu\" not implemented for 'Bool'",
        () -> Tensor.searchsorted(b.gt(2L), v.gt(2L)));
    refused(IllegalArgumentException.class, "searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension",
        () -> Tensor.searchsorted(Tensor.scalar(2.0), v));
    refused(IllegalArgumentException.class, "searchsorted(): boundary and sorter must have the same size, but got boundary tensor [2, 3]and got sorter tensor [2]",
        () -> Tensor.searchsorted(Tensor.zeros(2, 3), Tensor.zeros(3, 3), false, false, null, Tensor.fromArray(new long[] {0, 5})));
    refused(IllegalArgumentException.class, "bucketize(): boundaries tensor must be 1 dimension, but got dim(2)", () -> Tensor.bucketize(v, b2, false));
    refused(IllegalArgumentException.class, "bucketize(): boundaries tensor must be 1 dimension, but got dim(0)",
        () -> Tensor.bucketize(v, Tensor.scalar(1.0), false));
  }
}
