package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * median, quantile and bincount against PyTorch 2.13 (resources/orderstats/fixtures.pt from
 * make_fixtures.py beside it): the lower median and its index along a dim (ties, a NaN row), of
 * every element, with keepdim; quantile of every element, along a dim with NaN, several levels
 * with keepdim; bincount's counts, float32 weights and minlength; median's and quantile's gradients.
 */
class OrderStatisticsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/orderstats/fixtures.pt");

  private static Tensor t(String name) {
    return f.tensor(name);
  }

  private static void same(Tensor want, Tensor got, String what) {
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 1e-12, what);
  }

  @Test
  void medianAsPyTorch() {
    Tensor x = t("x"), clean = t("clean");
    same(t("median_all"), clean.median(), "median()");
    try (ValuesAndIndices m = x.median(1, false); ValuesAndIndices k = clean.median(0, true)) {
      same(t("median_dim1.values"), m.values(), "median(1) values, a NaN row");
      same(t("median_dim1.indices"), m.indices(), "median(1) indices");
      same(t("median_dim0_keep.values"), k.values(), "median(0, keepdim) values");
      same(t("median_dim0_keep.indices"), k.indices(), "median(0, keepdim) indices");
    }
    Tensor a = clean.clone().requiresGrad_(true);
    try (ValuesAndIndices m = a.median(1, false)) {
      same(t("median_dim1_clean.out"), m.values(), "median values");
      m.values().mul(t("median_dim1_clean.up")).sum().backward();
    }
    same(t("median_dim1_clean.grad"), a.grad(), "median's gradient");
  }

  @Test
  void quantileAsPyTorch() {
    Tensor x = t("x"), clean = t("clean"), q = t("q");
    same(t("quantile_all"), clean.quantile(0.3), "quantile(0.3)");
    same(t("quantile_dim1"), x.quantile(Tensor.full(new long[] {}, 0.3, DType.FLOAT64), 1, false), "quantile(0.3, dim 1), a NaN row");
    same(t("quantile_levels_dim0_keep"), clean.quantile(q, 0, true), "quantile(q, dim 0, keepdim)");
    Tensor a = clean.clone().requiresGrad_(true);
    Tensor y = a.quantile(q, 1, false);
    same(t("quantile_grad.out"), y, "quantile(q, dim 1)");
    y.mul(t("quantile_grad.up")).sum().backward();
    same(t("quantile_grad.grad"), a.grad(), "quantile's gradient");
    assertThrows(IllegalArgumentException.class, () -> clean.quantile(1.5));
  }

  @Test
  void uniqueAsPyTorch() {  // torch.unique(x, return_inverse=True, return_counts=True), printed by PyTorch 2.13
    Tensor x = Tensor.fromArray(new long[] {2, 1, 2, 3, 1, 1}).reshape(2, 3);
    try (Unique u = x.unique(true, true)) {
      assertArrayEquals(new long[] {1, 2, 3}, u.values().toLongArray());
      assertArrayEquals(new long[] {2, 3}, u.inverse().shape());
      assertArrayEquals(new long[] {1, 0, 1, 2, 0, 0}, u.inverse().toLongArray());
      assertArrayEquals(new long[] {3, 2, 1}, u.counts().toLongArray());
    }
    assertArrayEquals(new double[] {-0.5, 0.0, 1.5}, Tensor.fromArray(new double[] {1.5, -0.5, 1.5, 0.0, -0.0}).unique().toDoubleArray(), 0);
    try (Unique u = x.unique(false, false)) {
      assertEquals(null, u.inverse());
      assertEquals(null, u.counts());
    }
  }

  @Test
  void bincountAsPyTorch() {
    Tensor b = t("b"), w = t("w");
    same(t("bincount"), b.bincount(), "bincount");
    same(t("bincount_weights"), b.bincount(w, 0), "bincount with float32 weights");
    same(t("bincount_minlength"), b.bincount(null, 10), "bincount minlength 10");
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new long[] {1, -1}).bincount());
  }
}
