package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jtensor.nn.Conv1d;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Conv3d;
import org.jtensor.nn.LayerOptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 point 4's overloads, each a compile error a PyTorch user hit: int slice bounds beside
 * null, stack(list), argmax(dim), a scalar scatter_, and Functional.normalize.
 */
class FirstDayOverloadsTest extends ScopedTest {
  @Test
  void theOverloadsCompileAndMeanWhatPyTorchsDo() {
    Tensor x = Tensor.arange(12).reshape(3, 4);
    assertArrayEquals(new long[] {5, 6, 7, 9, 10, 11}, x.get(Index.slice(1, null), Index.slice(1, null)).contiguous().toLongArray());  // x[1:, 1:]
    assertArrayEquals(new long[] {0, 1, 4, 5}, x.get(Index.slice(null, 2), Index.slice(null, 2)).contiguous().toLongArray());    // x[:2, :2]
    assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, x.get(Index.slice(null, null)).contiguous().toLongArray());
    assertArrayEquals(new long[] {2, 3, 4}, Tensor.stack(List.of(x, x)).shape());
    assertArrayEquals(new long[] {3, 3, 3}, x.argmax(1).toLongArray());
    Tensor z = Tensor.zeros(new long[] {2, 3}, DType.INT64);
    z.scatter_(1, Tensor.fromArray(new long[] {2, 0}).reshape(2, 1), 7.0);  // torch: z.scatter_(1, idx, 7)
    assertArrayEquals(new long[] {0, 0, 7, 7, 0, 0}, z.toLongArray());
    assertArrayEquals(new double[] {0.6, 0.8, 0, 0},  // torch.nn.functional.normalize(tensor([[3., 4.], [0., 0.]]), dim=1)
        org.jtensor.nn.Functional.normalize(Tensor.fromArray(new double[] {3, 4, 0, 0}).reshape(2, 2), 2.0, 1, 1e-12).toDoubleArray(), 1e-15);
  }

  /** Session 33's first day: x.all(1) and its kin did not compile (only (dim, keepdim)); values from PyTorch 2.13. */
  @Test
  void reductionsTakeOneDimAlone() {
    Tensor x = Tensor.fromArray(new float[] {1, Float.NaN, 3, 0, 2, 5}, 2, 3);  // tensor([[1., nan, 3.], [0., 2., 5.]])
    assertArrayEquals(new double[] {Double.NaN, 0}, x.prod(1).toDoubleArray());
    assertArrayEquals(new double[] {4, 7}, x.nansum(1).toDoubleArray());
    assertArrayEquals(new double[] {2, 7 / 3.0}, x.nanmean(1).toDoubleArray(), 1e-6);
    assertArrayEquals(new boolean[] {true, true}, x.to(DType.BOOL).any(1).toBooleanArray());
    assertArrayEquals(new boolean[] {true, false}, x.to(DType.BOOL).all(1).toBooleanArray());
    assertArrayEquals(new long[] {0, 0}, x.to(DType.UINT8).all(1).to(DType.INT64).toLongArray());  // uint8 keeps uint8
    assertEquals(DType.UINT8, x.to(DType.UINT8).all(1).dtype());
    assertArrayEquals(new double[] {Double.NaN, 5.0550}, x.logsumexp(1).toDoubleArray(), 1e-4);
    assertArrayEquals(new long[] {2}, x.prod(1).shape(), "keepdim false, as PyTorch's default");
  }

  /** torch.full_like, rand_like, randn_like: t's shape, dtype and device; the draws are rand's and randn's. */
  @Test
  void likeFactoriesKeepShapeAndDtype() {
    Tensor ints = Tensor.zeros(new long[] {2, 3}, DType.INT64);
    Tensor full = Tensor.fullLike(ints, 2.5);  // torch.full_like(int64, 2.5) is 2 everywhere
    assertEquals(DType.INT64, full.dtype());
    assertArrayEquals(new long[] {2, 2, 2, 2, 2, 2}, full.toLongArray());
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Tensor.fullLike(Tensor.zeros(new long[] {1}, DType.UINT8), 300));
    assertTrue(e.getMessage().startsWith("fullLike(): "), e.getMessage());
    Tensor f64 = Tensor.zeros(new long[] {4, 5}, DType.FLOAT64);
    assertTrue(Tensor.randLike(f64, new Generator(3)).equal(Tensor.rand(new long[] {4, 5}, DType.FLOAT64, new Generator(3))));
    assertTrue(Tensor.randnLike(f64, new Generator(3)).equal(Tensor.randn(new long[] {4, 5}, DType.FLOAT64, new Generator(3))));
    assertArrayEquals(new long[] {4, 5}, Tensor.randLike(f64).shape());
    Tensor f32 = Tensor.zeros(new long[] {7}, DType.FLOAT32);  // float32's uniform draw is rand's too
    assertTrue(Tensor.randLike(f32, new Generator(5)).equal(Tensor.rand(new long[] {7}, DType.FLOAT32, new Generator(5))));
    e = assertThrows(UnsupportedOperationException.class, () -> Tensor.randnLike(ints));
    assertTrue(e.getMessage().startsWith("randnLike(): "), e.getMessage());
  }

  /** Session 35's first day: torch.arange(0, 1, 0.25), arange(5.), zeros_like(x, dtype=...) did not compile; values from PyTorch 2.13. */
  @Test
  void arangeWithAStepAndLikeFactoriesWithADtype() {
    Tensor quarters = Tensor.arange(0, 1, 0.25);  // tensor([0.0000, 0.2500, 0.5000, 0.7500]), float32
    assertEquals(DType.FLOAT32, quarters.dtype());
    assertArrayEquals(new double[] {0, 0.25, 0.5, 0.75}, quarters.toDoubleArray());
    Tensor ints = Tensor.arange(1, 10, 3);  // tensor([1, 4, 7]), int64
    assertEquals(DType.INT64, ints.dtype());
    assertArrayEquals(new long[] {1, 4, 7}, ints.toLongArray());
    assertEquals(DType.FLOAT32, Tensor.arange(5.0).dtype());  // torch.arange(5.) is float32
    assertArrayEquals(new double[] {0, 1, 2, 3, 4}, Tensor.arange(5.0).toDoubleArray());
    assertArrayEquals(new double[] {0.5, 1.5, 2.5}, Tensor.arange(0.5, 3).toDoubleArray());
    // PyTorch 2.13's words; jtensor said "upper bound and larger bound"
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Tensor.arange(0, 10, -1));
    assertEquals("arange(): upper bound and lower bound inconsistent with step sign", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.arange(0.0, 10.0, -0.5));
    assertEquals("arange(): upper bound and lower bound inconsistent with step sign", e.getMessage());
    Tensor i = Tensor.fromArray(new long[][] {{1, 2, 3}});
    Tensor z = Tensor.zerosLike(i, DType.FLOAT32);  // tensor([[0., 0., 0.]])
    assertEquals(DType.FLOAT32, z.dtype());
    assertArrayEquals(new long[] {1, 3}, z.shape());
    assertArrayEquals(new double[] {0, 0, 0}, z.toDoubleArray());
    assertArrayEquals(new boolean[] {true, true, true}, Tensor.onesLike(i, DType.BOOL).toBooleanArray());
    assertEquals(DType.FLOAT16, Tensor.emptyLike(i, DType.FLOAT16).dtype());
    assertEquals(DType.INT64, i.dtype(), "the source keeps its dtype");
  }

  /** y.backward(gradient, retain_graph=True) and torch.autograd.grad(z, [x]) without create_graph; PyTorch 2.13's values and words. */
  @Test
  void backwardRetainsTheGraphAndShapeMismatchesAreWorded() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3}).requiresGrad_();
    Tensor y = x.mul(x);
    Tensor ones = Tensor.ones(3);
    y.backward(ones, true);
    y.backward(ones);  // the retained graph backs again: grad 2x twice
    assertArrayEquals(new double[] {4, 8, 12}, x.grad().toDoubleArray());
    assertArrayEquals(new double[] {3, 12, 27}, org.jtensor.autograd.Autograd.grad(x.pow(3).sum(), List.of(x)).get(0).toDoubleArray());
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> x.sum().backward(Tensor.ones(2)));
    assertEquals("backward(): Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of torch.Size([]).",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> x.mul(2).backward(Tensor.ones(3, 1)));
    assertEquals("backward(): Mismatch in shape: grad_output[0] has a shape of torch.Size([3, 1]) and output[0] has a shape of torch.Size([3]).",
        e.getMessage());
  }

  /**
   * F.layer_norm(x, (3, 4), w, b), F.scaled_dot_product_attention(q, k, v) and torch.multinomial(p, 5, replacement=True):
   * a normalized_shape (not a count of dims), the defaults left out and no generator did not compile (session 35's
   * first day); values and words from PyTorch 2.13.
   */
  @Test
  void layerNormTakesANormalizedShapeAndDefaultsCanBeLeftOut() {
    Tensor x = Tensor.arange(24.0).reshape(2, 3, 4).pow(1.5);
    Tensor w = Tensor.arange(12.0).reshape(3, 4).div(10), b = Tensor.ones(3, 4);
    assertArrayEquals(new double[] {1.0, 0.8732187747955322, 0.7974212765693665, 0.7753899693489075, 0.8097813725471497, 0.9031410217285156,
        1.0579158067703247, 1.2764644622802734, 1.5610661506652832, 1.9139273166656494, 2.337188243865967, 2.8329286575317383},
        org.jtensor.nn.Functional.layerNorm(x, new long[] {3, 4}, w, b, 1e-5).get(Index.at(1)).contiguous().toDoubleArray(), 1e-6);
    assertArrayEquals(new double[] {-1.3416354656219482, -0.4472118318080902, 0.4472118318080902, 1.3416354656219482},
        org.jtensor.nn.Functional.layerNorm(Tensor.fromArray(new float[][] {{1, 2, 3, 4}}), 4).toDoubleArray(), 1e-6);
    assertLayerNormRefusal("Given normalized_shape=[2, 4], expected input with shape [*, 2, 4], but got input of size[2, 3, 4]", x, new long[] {2, 4}, null, null);
    assertLayerNormRefusal("Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and normalized_shape = [3, 4]",
        x, new long[] {3, 4}, Tensor.ones(4), null);
    assertLayerNormRefusal("Expected bias to be of same shape as normalized_shape, but got bias of shape [4] and normalized_shape = [3, 4]",
        x, new long[] {3, 4}, null, Tensor.ones(4));
    assertLayerNormRefusal("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []",
        x, new long[0], null, null);
    Tensor q = Tensor.randn(new long[] {1, 2, 3, 4}, new Generator(0));
    assertTrue(org.jtensor.nn.Functional.scaledDotProductAttention(q, q, q).equal(org.jtensor.nn.Functional.scaledDotProductAttention(q, q, q, null, 0.0, false)));
    Tensor p = Tensor.fromArray(new float[] {0.1f, 0.2f, 0.7f});
    Generator.manualSeed(42);
    Tensor drawn = p.multinomial(5, true);
    Generator.manualSeed(42);
    assertTrue(drawn.equal(p.multinomial(5, true, Generator.defaultGenerator())), "the default generator's draws");
    assertArrayEquals(new long[] {5}, drawn.shape());
  }

  /** x.floor_(), ceil_(), round_(), trunc_(): PyTorch 2.13's values; an integer tensor is left as it is; the gradient is 0. */
  @Test
  void roundingInPlace() {
    double[] v = {1.5, -2.5, 0.5, 2.7};
    Tensor f = Tensor.fromArray(v);
    assertTrue(f == f.floor_());
    assertArrayEquals(new double[] {1, -3, 0, 2}, f.toDoubleArray());
    assertArrayEquals(new double[] {2, -2, 1, 3}, Tensor.fromArray(v).ceil_().toDoubleArray());
    assertArrayEquals(new double[] {2, -2, 0, 3}, Tensor.fromArray(v).round_().toDoubleArray());  // half to even
    assertArrayEquals(new double[] {1, -2, 0, 2}, Tensor.fromArray(v).trunc_().toDoubleArray());
    Tensor ints = Tensor.fromArray(new long[] {1, -2});
    assertArrayEquals(new long[] {1, -2}, ints.round_().toLongArray());
    RuntimeException e = assertThrows(UnsupportedOperationException.class, () -> Tensor.fromArray(new boolean[] {true}).floor_());
    assertTrue(e.getMessage().startsWith("floor_ "), e.getMessage());
    java.nio.ByteBuffer ro = java.nio.ByteBuffer.allocateDirect(8).asReadOnlyBuffer();
    e = assertThrows(IllegalStateException.class, () -> Tensor.fromBuffer(ro, DType.INT32, 2).ceil_());
    assertTrue(e.getMessage().startsWith("ceil_(): "), e.getMessage());
    Tensor x = Tensor.fromArray(new float[] {1.5f}).requiresGrad_();
    e = assertThrows(IllegalStateException.class, x::floor_);
    assertTrue(e.getMessage().contains("a leaf Variable that requires grad is being used in an in-place operation."), e.getMessage());
    Tensor y = x.mul(1);
    y.floor_().sum().backward();
    assertArrayEquals(new double[] {0}, x.grad().toDoubleArray());
  }

  /** x.sin_(), x.log1p_() and the rest of torch's everyday in-place math: PyTorch 2.13's float64 values and gradient; an integer tensor refused as PyTorch's (in jtensor's dtype names). */
  @Test
  void mathInPlace() {
    double[] v = {0.5, 2.0, 4.0};
    Map<String, UnaryOperator<Tensor>> ops = new LinkedHashMap<>();
    ops.put("sin_", Tensor::sin_);
    ops.put("cos_", Tensor::cos_);
    ops.put("tan_", Tensor::tan_);
    ops.put("log2_", Tensor::log2_);
    ops.put("log10_", Tensor::log10_);
    ops.put("log1p_", Tensor::log1p_);
    ops.put("expm1_", Tensor::expm1_);
    ops.put("rsqrt_", Tensor::rsqrt_);
    ops.put("erf_", Tensor::erf_);
    ops.put("reciprocal_", Tensor::reciprocal_);
    double[][] want = {
        {0.479425538604203, 0.9092974268256817, -0.7568024953079282}, {0.8775825618903728, -0.4161468365471424, -0.6536436208636119},
        {0.5463024898437905, -2.185039863261519, 1.1578212823495775}, {-1.0, 1.0, 2.0}, {-0.3010299956639812, 0.3010299956639812, 0.6020599913279624},
        {0.4054651081081644, 1.0986122886681098, 1.6094379124341003}, {0.6487212707001282, 6.38905609893065, 53.598150033144236},
        {1.414213562373095, 0.7071067811865475, 0.5}, {0.5204998778130465, 0.9953222650189527, 0.9999999845827421}, {2.0, 0.5, 0.25}};
    int i = 0;
    for (Map.Entry<String, UnaryOperator<Tensor>> op : ops.entrySet()) {
      Tensor t = Tensor.fromArray(v);
      assertTrue(t == op.getValue().apply(t), op.getKey());
      assertArrayEquals(want[i++], t.toDoubleArray(), 1e-15, op.getKey());
      RuntimeException e = assertThrows(RuntimeException.class, () -> op.getValue().apply(Tensor.fromArray(new long[] {1, 2})));
      assertTrue(e.getMessage().startsWith(op.getKey() + "(): ") && e.getMessage().contains("result type float32 can't be cast to the desired output type int64"),
          e.getMessage());
    }
    Tensor x = Tensor.fromArray(new double[] {0.5, 2.0}).requiresGrad_();
    Tensor y = x.mul(1);
    y.sin_().log1p_().sum().backward();
    assertArrayEquals(new double[] {0.5931914374807586, -0.217958098460862}, x.grad().toDoubleArray(), 1e-15);
  }

  /** torch.count_nonzero: PyTorch 2.13's counts (NaN counts), dtype, dims and refusals. */
  @Test
  void countNonzero() {
    Tensor x = Tensor.fromArray(new float[] {0, 1, Float.NaN, 0, 0, 2}, 2, 3).requiresGrad_();
    Tensor all = x.countNonzero();
    assertEquals(DType.INT64, all.dtype());
    assertEquals(0, all.dim());
    assertEquals(3L, all.itemLong());
    assertTrue(!all.requiresGrad());
    assertArrayEquals(new long[] {0, 1, 2}, x.countNonzero(0).toLongArray());
    assertArrayEquals(new long[] {2, 1}, x.countNonzero(1).toLongArray());
    assertEquals(3L, x.countNonzero(0, 1).itemLong());
    assertEquals(1L, Tensor.fromArray(new boolean[] {true, false}).countNonzero().itemLong());
    assertEquals(1L, Tensor.scalar(5.0).countNonzero(0).itemLong());
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> x.countNonzero(2));
    assertEquals("countNonzero(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> x.countNonzero(0, 0));
    assertEquals("countNonzero(): dim 0 appears multiple times in the list of dims", e.getMessage());
  }

  /** F.softmax(x, dim=-1), F.log_softmax, F.sigmoid, F.tanh, F.leaky_relu, F.gelu(approximate=): the Tensor methods under torch.nn.functional's names; PyTorch 2.13's values. */
  @Test
  void functionalActivations() {
    Tensor x = Tensor.fromArray(new double[][] {{1, -2, 3}});
    assertArrayEquals(new double[] {0.11849965453500959, 0.005899750401902781, 0.8756005950630876}, org.jtensor.nn.Functional.softmax(x, -1).toDoubleArray(), 1e-15);
    assertArrayEquals(new double[] {-2.1328452337275756, -5.132845233727576, -0.13284523372757556}, org.jtensor.nn.Functional.logSoftmax(x, 1).toDoubleArray(), 1e-15);
    assertArrayEquals(new double[] {0.7310585786300049, 0.11920292202211755, 0.9525741268224334}, org.jtensor.nn.Functional.sigmoid(x).toDoubleArray(), 1e-15);
    assertArrayEquals(new double[] {0.7615941559557649, -0.9640275800758169, 0.9950547536867305}, org.jtensor.nn.Functional.tanh(x).toDoubleArray(), 1e-15);
    assertArrayEquals(new double[] {1.0, -0.4, 3.0}, org.jtensor.nn.Functional.leakyRelu(x, 0.2).toDoubleArray(), 1e-15);
    assertArrayEquals(new double[] {0.8411919906082768, -0.04540230591222494, 2.996362607918227}, org.jtensor.nn.Functional.gelu(x, "tanh").toDoubleArray(), 1e-15);
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> org.jtensor.nn.Functional.gelu(x, "fast"));
    assertTrue(e.getMessage().startsWith("gelu(): approximate argument must be either none or tanh"), e.getMessage());
  }

  private static void assertLayerNormRefusal(String words, Tensor x, long[] shape, Tensor w, Tensor b) {
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> org.jtensor.nn.Functional.layerNorm(x, shape, w, b, 1e-5));
    assertEquals("layerNorm(): " + words, e.getMessage());
  }

  /** nn.Conv2d(1, 8, 3, padding=1) without a Generator: the default one draws, as the 3-argument form's. */
  @Test
  void convolutionsTakeOptionsWithoutAGenerator() {
    LayerOptions pad = LayerOptions.of().padding(1);
    Generator.manualSeed(5);
    try (Conv2d a = new Conv2d(1, 8, 3, pad); Conv1d c1 = new Conv1d(2, 4, 3, pad); Conv3d c3 = new Conv3d(1, 2, 3, pad)) {
      Generator.manualSeed(5);
      try (Conv2d b = new Conv2d(1, 8, 3, pad, Generator.defaultGenerator())) {
        assertTrue(a.weight().equal(b.weight()));
      }
      assertArrayEquals(new long[] {1, 8, 5, 5}, a.forward(Tensor.zeros(1, 1, 5, 5)).shape());
      assertArrayEquals(new long[] {1, 4, 7}, c1.forward(Tensor.zeros(1, 2, 7)).shape());
      assertArrayEquals(new long[] {1, 2, 4, 4, 4}, c3.forward(Tensor.zeros(1, 1, 4, 4, 4)).shape());
    }
  }
}
