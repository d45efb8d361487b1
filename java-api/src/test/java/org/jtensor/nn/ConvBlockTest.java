package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * conv2d -> max_pool2d -> batch_norm (training) -> layer_norm at batch 4 against PyTorch 2.13
 * (resources/conv_block/fixtures.pt from make_fixtures.py), float32: the output, the gradients of
 * the input, weight and bias, and the running statistics (issue 22 point 5: at batch > 1, where
 * the libtorch presets' oneDNN went wrong; NnLibtorchTest reproduces that in libtorch alone).
 */
class ConvBlockTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/conv_block/fixtures.pt");

  @Test
  void aBatchOfFourMatchesPyTorch() {
    Tensor x = f.tensor("x").clone().requiresGrad_(true);
    Tensor w = f.tensor("weight").clone().requiresGrad_(true), b = f.tensor("bias").clone().requiresGrad_(true);
    Tensor rm = Tensor.zeros(3), rv = Tensor.ones(3);
    Tensor y = Functional.maxPool2d(Functional.conv2d(x, w, b, 1, 1), 2);
    y = Functional.batchNorm(y, rm, rv, Tensor.ones(3), Tensor.zeros(3), true, 0.1, 1e-5);
    y = Functional.layerNorm(y, 2, Tensor.ones(3, 3), Tensor.zeros(3, 3), 1e-5);
    assertArrayEquals(f.tensor("out").toFloatArray(), y.toFloatArray(), 2e-5f, "output");
    y.mul(f.tensor("up")).sum().backward();
    assertArrayEquals(f.tensor("x.grad").toFloatArray(), x.grad().toFloatArray(), 5e-5f, "input's gradient");
    assertArrayEquals(f.tensor("weight.grad").toFloatArray(), w.grad().toFloatArray(), 2e-4f, "weight's gradient");
    assertArrayEquals(f.tensor("bias.grad").toFloatArray(), b.grad().toFloatArray(), 2e-4f, "bias's gradient");
    assertArrayEquals(f.tensor("running_mean").toFloatArray(), rm.toFloatArray(), 1e-6f, "running mean");
    assertArrayEquals(f.tensor("running_var").toFloatArray(), rv.toFloatArray(), 1e-6f, "running variance");
  }
}
