package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** PixelShuffle/PixelUnshuffle and Embedding.fromPretrained against PyTorch 2.13 (its values and messages beside each case). */
class FirstDayLayersTest extends ScopedTest {
  /** F.pixel_shuffle(torch.arange(16.).reshape(1, 4, 2, 2), 2), as PyTorch prints it. */
  @Test
  void pixelShuffleMatchesPyTorch() {
    Tensor x = Tensor.arange(0, 16, 1, DType.FLOAT32).reshape(1, 4, 2, 2);
    Tensor y = Functional.pixelShuffle(x, 2);
    assertArrayEquals(new long[] {1, 1, 4, 4}, y.shape());
    assertArrayEquals(new float[] {0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15}, y.toFloatArray());
    assertTrue(y.isContiguous());
    assertArrayEquals(x.toFloatArray(), Functional.pixelUnshuffle(y, 2).toFloatArray());
  }

  /** out[..., c, h·r + i, w·r + j] = in[..., c·r² + i·r + j, h, w] over two batch dims, r = 3, by a plain loop; unshuffle inverts it. */
  @Test
  void pixelShuffleFollowsItsDefinitionOverBatchDims() {
    int b0 = 2, b1 = 3, c = 2, r = 3, h = 2, w = 4;
    Tensor x = Tensor.arange(0, b0 * b1 * c * r * r * h * w, 1, DType.INT64).reshape(b0, b1, c * r * r, h, w);
    long[] got = new PixelShuffle(r).forward(x).toLongArray(), in = x.toLongArray();
    int k = 0;
    for (int b = 0; b < b0 * b1; b++) {
      for (int ch = 0; ch < c; ch++) {
        for (int oy = 0; oy < h * r; oy++) {
          for (int ox = 0; ox < w * r; ox++) {
            int src = (((b * c + ch) * r * r + (oy % r) * r + ox % r) * h + oy / r) * w + ox / r;
            assertEquals(in[src], got[k++], "element " + (k - 1));
          }
        }
      }
    }
    Tensor back = new PixelUnshuffle(r).forward(new PixelShuffle(r).forward(x));
    assertArrayEquals(x.shape(), back.shape());
    assertArrayEquals(in, back.toLongArray());
  }

  /** The gradient of sum(g · pixel_shuffle(x)) is pixel_unshuffle(g); r = 1 still copies (the result never aliases x). */
  @Test
  void pixelShuffleGradientAndCopy() {
    Tensor x = Tensor.randn(1, 8, 3, 3).requiresGrad_(true), g = Tensor.randn(1, 2, 6, 6);
    Functional.pixelShuffle(x, 2).mul(g).sum().backward();
    try (Tensor grad = x.grad()) {
      assertArrayEquals(Functional.pixelUnshuffle(g, 2).toFloatArray(), grad.toFloatArray());
    }
    Tensor one = Tensor.ones(1, 4, 1, 1), same = Functional.pixelShuffle(one, 1), tiny = Functional.pixelShuffle(one, 2);
    one.fill_(5.0);
    assertEquals(1f, same.toFloatArray()[0], "r = 1 gave a copy");
    assertEquals(1f, tiny.toFloatArray()[0], "a [1, 4, 1, 1] input, whose permutation is contiguous, gave a copy");
    assertArrayEquals(new long[] {0, 1, 4, 4}, Functional.pixelShuffle(Tensor.zeros(0, 4, 2, 2), 2).shape());
  }

  @Test
  void pixelShuffleRefusesInPyTorchsWords() {
    assertMessage("pixelShuffle(): pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)",
        () -> Functional.pixelShuffle(Tensor.zeros(2, 3), 2));
    assertMessage("pixelShuffle(): pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
        + "but input.size(-3)=5 is not divisible by 4", () -> Functional.pixelShuffle(Tensor.zeros(5, 2, 3), 2));
    assertMessage("pixelShuffle(): pixel_shuffle expects a positive upscale_factor, but got 0", () -> Functional.pixelShuffle(Tensor.zeros(4, 2, 3), 0));
    assertMessage("pixelUnshuffle(): pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=3 is not divisible by 2",
        () -> Functional.pixelUnshuffle(Tensor.zeros(1, 3, 4), 2));
    assertMessage("pixelUnshuffle(): pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=3 is not divisible by 2",
        () -> Functional.pixelUnshuffle(Tensor.zeros(1, 4, 3), 2));
    assertMessage("pixelShuffle(): the size 4294967296 · 4294967296 overflows int64", () -> Functional.pixelShuffle(Tensor.zeros(0, 1, 1), 1L << 32));
  }

  /**
   * nn.Embedding.from_pretrained(w, padding_idx=1): frozen, the same storage as w, padding_idx 1;
   * from_pretrained(w, freeze=False, padding_idx=-1) trains, padding_idx 2, and e(tensor([2, 0])).sum()
   * gives the weight the gradient [[1, 1], [0, 0], [0, 0]]; float64 stays float64, int64 loads frozen.
   */
  @Test
  void embeddingFromPretrainedSharesTheWeightAndKeepsItsDtype() {
    Tensor w = Tensor.randn(3, 2);
    try (Embedding frozen = Embedding.fromPretrained(w, true, 1L)) {
      assertFalse(frozen.weight().requiresGrad());
      assertEquals(w.dataPtr(), frozen.weight().dataPtr(), "the same storage, as PyTorch's");
      assertEquals(1L, frozen.paddingIdx());
      assertEquals(1, frozen.parameters().size(), "a frozen weight is still a parameter");
      assertArrayEquals(w.select(0, 2).toFloatArray(), frozen.forward(Tensor.fromArray(new long[] {2})).toFloatArray());
    }
    try (Embedding trained = Embedding.fromPretrained(w, false, -1L)) {
      assertEquals(2L, trained.paddingIdx());
      trained.forward(Tensor.fromArray(new long[] {2, 0})).sum().backward();
      try (Tensor grad = trained.weight().grad()) {
        assertArrayEquals(new float[] {1, 1, 0, 0, 0, 0}, grad.toFloatArray());
      }
    }
    try (Embedding wide = Embedding.fromPretrained(w.to(DType.FLOAT64)); Embedding ints = Embedding.fromPretrained(Tensor.zeros(new long[] {3, 2}, DType.INT64))) {
      assertEquals(DType.FLOAT64, wide.weight().dtype());
      assertEquals(DType.INT64, ints.weight().dtype());
    }
    assertFalse(w.requiresGrad(), "the caller's tensor is left as it was");
    assertMessage("Embedding.fromPretrained(): Embeddings parameter is expected to be 2-dimensional, got 1-D",
        () -> Embedding.fromPretrained(Tensor.zeros(3)));
    assertMessage("Embedding.fromPretrained(): Padding_idx must be within num_embeddings, got padding_idx 3 for 3 embeddings",
        () -> Embedding.fromPretrained(w, true, 3L));
  }

  /**
   * avg_pool2d(arange(16.).reshape(1, 1, 4, 4), 2, divisor_override=3) is [[10/3, 6], [14, 50/3]];
   * with kernel 3, stride 2, padding 1 and divisor 2 (count_include_pad False makes no difference)
   * [[5, 12], [25.5, 45]], the gradient of its sum 1/2 per window an element is in; avg_pool3d of
   * arange(8.) with divisor 5 is 5.6; divisor 0 is refused as "divisor must be not zero".
   */
  @Test
  void avgPoolDividesByTheOverride() {
    Tensor x = Tensor.arange(0, 16, 1, DType.FLOAT32).reshape(1, 1, 4, 4).requiresGrad_(true);
    long[] two = {2}, three = {3}, one = {1}, none = {0};
    assertArrayEquals(new float[] {10f / 3, 6, 14, 50f / 3}, Functional.avgPool2d(x, two, null, none, false, true, 3).toFloatArray(), 1e-6f);
    Tensor y = new AvgPool2d(three, LayerOptions.of().stride(2).padding(1).countIncludePad(false).divisorOverride(2)).forward(x);
    assertArrayEquals(new float[] {5, 12, 25.5f, 45}, y.toFloatArray());
    y.sum().backward();
    try (Tensor g = x.grad()) {
      assertArrayEquals(new float[] {.5f, 1, .5f, .5f, 1, 2, 1, 1, .5f, 1, .5f, .5f, .5f, 1, .5f, .5f}, g.toFloatArray());
    }
    Tensor cube = Tensor.arange(0, 8, 1, DType.FLOAT32).reshape(1, 1, 2, 2, 2);
    assertArrayEquals(new float[] {5.6f}, new AvgPool3d(two, LayerOptions.of().divisorOverride(5)).forward(cube).toFloatArray(), 1e-6f);
    assertMessage("avg_pool2d(): divisor must be not zero", () -> Functional.avgPool2d(x, two, null, none, false, true, 0));
    assertThrows(IllegalArgumentException.class, () -> new AvgPool1d(one, LayerOptions.of().divisorOverride(2)));
  }

  /**
   * nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1) on [1, 2, 4, 5] gives [1, 3, 7, 9], and with
   * output_size [8, 10] (or the whole [1, 3, 8, 10]) [1, 3, 8, 10], the module's output_padding (1, 1);
   * [9, 11] is refused: "requested an output size of [9, 11], but valid sizes range from [7, 9] to
   * [8, 10] (for an input of torch.Size([4, 5]))".
   */
  @Test
  void convTransposeTakesAnOutputSize() {
    try (ConvTranspose2d m = new ConvTranspose2d(2, 3, new long[] {3}, LayerOptions.of().stride(2).padding(1), new long[] {0}, new org.jtensor.Generator(0));
         ConvTranspose2d padded = new ConvTranspose2d(2, 3, new long[] {3}, LayerOptions.of().stride(2).padding(1), new long[] {1}, new org.jtensor.Generator(0))) {
      Tensor x = Tensor.randn(1, 2, 4, 5);
      assertArrayEquals(new long[] {1, 3, 7, 9}, m.forward(x).shape());
      Tensor sized = m.forward(x, new long[] {8, 10});
      assertArrayEquals(new long[] {1, 3, 8, 10}, sized.shape());
      assertArrayEquals(padded.forward(x).toFloatArray(), sized.toFloatArray(), "output padding (1, 1), as the module built with it");
      assertArrayEquals(new long[] {1, 3, 8, 10}, m.forward(x, new long[] {1, 3, 8, 10}).shape());
      assertArrayEquals(new long[] {3, 8, 10}, m.forward(x.squeeze(0), new long[] {3, 8, 10}).shape());
      assertMessage("ConvTranspose2D: requested an output size of [9, 11], but valid sizes range from [7, 9] to [8, 10] (for an input of [4, 5])",
          () -> m.forward(x, new long[] {9, 11}));
      assertMessage("ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements (got 1)", () -> m.forward(x, new long[] {8}));
    }
  }

  /**
   * PyTorch's nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1) written without a
   * generator, as PyTorch does: [1, 16, 5, 5] to [1, 8, 10, 10], and 1-D and 3-D the same way
   * ([1, 4, 6] to [1, 2, 12]; [1, 2, 3, 3, 3] to [1, 2, 5, 5, 5] without output_padding).
   */
  @Test
  void convTransposeTakesOptionsWithoutAGenerator() {
    try (ConvTranspose2d two = new ConvTranspose2d(16, 8, 3, LayerOptions.of().stride(2).padding(1), 1);
         ConvTranspose1d one = new ConvTranspose1d(4, 2, 3, LayerOptions.of().stride(2).padding(1), 1);
         ConvTranspose3d three = new ConvTranspose3d(2, 2, 3, LayerOptions.of().stride(2).padding(1).bias(false))) {
      assertArrayEquals(new long[] {1, 8, 10, 10}, two.forward(Tensor.randn(1, 16, 5, 5)).shape());
      assertArrayEquals(new long[] {1, 2, 12}, one.forward(Tensor.randn(1, 4, 6)).shape());
      assertArrayEquals(new long[] {1, 2, 5, 5, 5}, three.forward(Tensor.randn(1, 2, 3, 3, 3)).shape());
      assertEquals(java.util.Set.of("weight"), three.stateDict().keySet());
    }
  }

  private static void assertMessage(String want, org.junit.jupiter.api.function.Executable call) {
    assertEquals(want, assertThrows(IllegalArgumentException.class, call).getMessage());
  }
}
