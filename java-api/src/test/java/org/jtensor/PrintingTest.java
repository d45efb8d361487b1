package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** toString() against strings printed by PyTorch 2.x for the same tensors. */
class PrintingTest {
  private static String repr(Tensor t) {
    try (t) {
      return t.toString();
    }
  }

  @Test
  void integersBoolsAndZeroDim() {
    try (TensorScope s = TensorScope.open()) {
      assertEquals("tensor([[0, 1, 2],\n        [3, 4, 5]])", Tensor.arange(6).reshape(2, 3).toString());
      assertEquals("tensor(5)", Tensor.scalar(5L).toString());
      assertEquals("tensor([ True, False])", Tensor.fromArray(new boolean[] {true, false}).toString());
      assertEquals("tensor([1, 2], dtype=torch.int32)", Tensor.fromArray(new int[] {1, 2}).toString());
      assertEquals("tensor([[[ 0,  1],\n         [ 2,  3]],\n\n        [[ 4,  5],\n         [ 6,  7]],\n\n"
          + "        [[ 8,  9],\n         [10, 11]]])", Tensor.arange(12).view(3, 2, 2).toString());
    }
  }

  @Test
  void floatsInIntFixedAndScientificModes() {
    assertEquals("tensor([0., 1., 2., 3.])", repr(Tensor.arange(0, 4, 1, DType.FLOAT32)));
    assertEquals("tensor([1.5000, 2.2500])", repr(Tensor.fromArray(new float[] {1.5f, 2.25f})));
    assertEquals("tensor([1., 2.], dtype=torch.float64)", repr(Tensor.fromArray(new double[] {1, 2})));
    assertEquals("tensor([1.0000e-05, 1.0000e+00])", repr(Tensor.fromArray(new float[] {1e-5f, 1f})));
    assertEquals("tensor([   nan, 1.5000,   -inf])", repr(Tensor.fromArray(new float[] {Float.NaN, 1.5f, Float.NEGATIVE_INFINITY})));
    assertEquals("tensor([-0.5000,  2.0000])", repr(Tensor.fromArray(new float[] {-0.5f, 2f})));
    assertEquals("tensor(2.5000)", repr(Tensor.scalar(2.5)));
    try (Tensor x = Tensor.fromArray(new float[] {1, 2})) {
      assertEquals("tensor([1., 2.], dtype=torch.float16)", repr(x.to(DType.FLOAT16)));
    }
  }

  @Test
  void requiresGradAndGradFnAsPyTorchPrintsThem() {  // issue 21 point 4
    try (TensorScope s = TensorScope.open()) {
      Tensor leaf = Tensor.fromArray(new float[] {1, 2}).requiresGrad_(true);
      assertEquals("tensor([1., 2.], requires_grad=True)", leaf.toString());
      assertEquals("tensor([2., 3.], grad_fn=<AddBackward0>)", leaf.add(1.0).toString());
      assertEquals("tensor(3., grad_fn=<SumBackward0>)", leaf.sum().toString());
      assertEquals("tensor([2., 4.], dtype=torch.float64, grad_fn=<MulBackward0>)", leaf.to(DType.FLOAT64).mul(2.0).toString());
      assertEquals("tensor([1., 2.])", leaf.detach().toString());
    }
  }

  @Test
  void emptySummarizedAndMeta() {
    assertEquals("tensor([])", repr(Tensor.empty(0)));
    assertEquals("tensor([], size=(0, 3))", repr(Tensor.empty(0, 3)));
    assertEquals("tensor([], dtype=torch.int64)", repr(Tensor.arange(0)));
    assertEquals("tensor([   0,    1,    2,  ..., 1997, 1998, 1999])", repr(Tensor.arange(2000)));
    try (Tensor a = Tensor.arange(2000 * 3); Tensor b = a.view(2000, 3)) {
      assertEquals("tensor([[   0,    1,    2],\n        [   3,    4,    5],\n        [   6,    7,    8],\n"
          + "        ...,\n        [5991, 5992, 5993],\n        [5994, 5995, 5996],\n        [5997, 5998, 5999]])", b.toString());
    }
    assertEquals("tensor(..., device='meta', size=(2, 3))", repr(Tensor.empty(new long[] {2, 3}, DType.FLOAT32, Device.META)));
    assertEquals("tensor(..., device='meta', size=(2,), dtype=torch.int64)",
        repr(Tensor.empty(new long[] {2}, DType.INT64, Device.META)));
  }

  @Test
  void longLinesWrapAtEightyColumns() {
    assertEquals("tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
        + "        18, 19])", repr(Tensor.arange(20)));
  }

  @Test
  void storagePrintsItsBytes() {
    try (Tensor t = Tensor.fromArray(new short[] {1, 258}); Storage s = t.untypedStorage()) {
      assertEquals(" 1\n 0\n 2\n 1\n[torch.storage.UntypedStorage(device=cpu) of size 4]", s.toString());
    }
  }
}
