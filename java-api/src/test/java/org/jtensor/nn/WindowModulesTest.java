package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * The convolution and pooling modules: PyTorch's parameter shapes and state-dict names, its
 * initialisation bound (kaiming_uniform with a = √5: 1/√fanIn, fanIn = in/groups · kernel), and
 * forward equal to the functional form with the same LayerOptions.
 */
class WindowModulesTest extends ScopedTest {
  @Test
  void convolutionModulesHavePyTorchsParametersAndForward() {
    Generator g = new Generator(3);
    try (Conv1d c1 = new Conv1d(4, 6, 3, LayerOptions.of().stride(2).padding(1).groups(2), g);
         Conv2d c2 = new Conv2d(3, 5, new long[] {3, 2}, LayerOptions.of().dilation(2).bias(false), g);
         Conv3d c3 = new Conv3d(2, 4, new long[] {2}, LayerOptions.of().padding("same"), g);
         Conv2d plain = new Conv2d(2, 3, 3)) {
      assertArrayEquals(new long[] {6, 2, 3}, c1.weight().shape());
      assertEquals(List.of("weight", "bias"), List.copyOf(c1.stateDict().keySet()));
      assertNull(c2.bias());
      assertEquals(List.of("weight"), List.copyOf(c2.stateDict().keySet()));
      assertArrayEquals(new long[] {4, 2, 2, 2, 2}, c3.weight().shape());
      assertArrayEquals(new long[] {3, 2, 3, 3}, plain.weight().shape());
      for (ConvNd c : List.<ConvNd>of(c1, c2, c3, plain)) {
        double bound = 1 / Math.sqrt(Init.fanIn(c.weight()));
        assertTrue(c.weight().abs().amax().item() <= bound, "weight within 1/sqrt(fanIn)");
      }
      Tensor x1 = Tensor.randn(new long[] {2, 4, 9}, g);
      assertArrayEquals(Functional.conv1d(x1, c1.weight(), c1.bias(), new long[] {2}, new long[] {1}, new long[] {1}, 2).toDoubleArray(),
          c1.forward(x1).toDoubleArray(), 0);
      Tensor x2 = Tensor.randn(new long[] {1, 3, 8, 7}, g);
      assertArrayEquals(Functional.conv2d(x2, c2.weight(), null, new long[] {1}, new long[] {0}, new long[] {2}, 1).toDoubleArray(),
          c2.forward(x2).toDoubleArray(), 0);
      Tensor x3 = Tensor.randn(new long[] {1, 2, 4, 5, 3}, g);
      assertArrayEquals(new long[] {1, 4, 4, 5, 3}, c3.forward(x3).shape());  // "same": the input's size
    }
  }

  @Test
  void transposedConvolutionModule() {
    Generator g = new Generator(5);
    try (ConvTranspose2d ct = new ConvTranspose2d(4, 6, new long[] {3}, LayerOptions.of().stride(2).padding(1).groups(2), new long[] {1}, g)) {
      assertArrayEquals(new long[] {4, 3, 3, 3}, ct.weight().shape());
      assertEquals(List.of("weight", "bias"), List.copyOf(ct.stateDict().keySet()));
      assertTrue(ct.weight().abs().amax().item() <= 1 / Math.sqrt(Init.fanIn(ct.weight())));
      Tensor x = Tensor.randn(new long[] {2, 4, 5, 5}, g);
      Tensor y = ct.forward(x);
      assertArrayEquals(new long[] {2, 6, 10, 10}, y.shape());  // (5 − 1)·2 − 2 + 2 + 1 + 1
      assertArrayEquals(Functional.convTranspose2d(x, ct.weight(), ct.bias(), new long[] {2}, new long[] {1}, new long[] {1}, 2,
          new long[] {1}).toDoubleArray(), y.toDoubleArray(), 0);
    }
  }

  @Test
  void transposedConvolutionsInOneAndThreeDims() {
    Generator g = new Generator(6);
    try (ConvTranspose1d c1 = new ConvTranspose1d(2, 4, new long[] {3}, LayerOptions.of().stride(2), new long[] {1}, g);
         ConvTranspose3d c3 = new ConvTranspose3d(2, 3, new long[] {2, 3, 1}, LayerOptions.of().padding(0, 1, 0).bias(false), new long[] {0}, g);
         TensorScope s = TensorScope.open()) {
      assertArrayEquals(new long[] {2, 4, 3}, c1.weight().shape());
      assertArrayEquals(new long[] {2, 3, 2, 3, 1}, c3.weight().shape());
      assertEquals(List.of("weight"), List.copyOf(c3.stateDict().keySet()));
      Tensor x1 = Tensor.randn(new long[] {2, 2, 5}, g), x3 = Tensor.randn(new long[] {1, 2, 3, 4, 2}, g);
      assertArrayEquals(new long[] {2, 4, 12}, c1.forward(x1).shape());  // (5 − 1)·2 + 3 + 1
      assertArrayEquals(Functional.convTranspose1d(x1, c1.weight(), c1.bias(), new long[] {2}, new long[] {0}, new long[] {1}, 1,
          new long[] {1}).toDoubleArray(), c1.forward(x1).toDoubleArray(), 0);
      assertArrayEquals(new long[] {1, 3, 4, 4, 2}, c3.forward(x3).shape());
      assertThrows(IllegalArgumentException.class, () -> new ConvTranspose1d(3, 4, new long[] {2}, LayerOptions.of().groups(2), new long[] {0}, g));
    }
  }

  @Test
  void threeDimensionalAndOneDimensionalPoolingModules() {
    Generator g = new Generator(7);
    try (TensorScope s = TensorScope.open()) {
      Tensor x3 = Tensor.randn(new long[] {1, 2, 4, 4, 4}, g), x1 = Tensor.randn(new long[] {2, 3, 7}, g);
      assertArrayEquals(Functional.maxPool3d(x3, new long[] {2}, null, new long[] {0}, new long[] {1}, false).toDoubleArray(),
          new MaxPool3d(2).forward(x3).toDoubleArray(), 0);
      assertArrayEquals(new long[] {1, 2, 2, 2, 2}, new AvgPool3d(2).forward(x3).shape());
      assertArrayEquals(Functional.avgPool1d(x1, new long[] {3}, new long[] {2}, new long[] {1}, true, false).toDoubleArray(),
          new AvgPool1d(new long[] {3}, LayerOptions.of().stride(2).padding(1).ceilMode(true).countIncludePad(false)).forward(x1).toDoubleArray(), 0);
    }
  }

  @Test
  void poolingModulesForwardTheirOptions() {
    Generator g = new Generator(4);
    Tensor x = Tensor.randn(new long[] {2, 3, 9, 8}, g);
    try (MaxPool2d mp = new MaxPool2d(new long[] {3}, LayerOptions.of().stride(2).padding(1).ceilMode(true));
         AvgPool2d ap = new AvgPool2d(new long[] {3, 2}, LayerOptions.of().stride(2).countIncludePad(false).padding(1));
         AdaptiveAvgPool2d aap = new AdaptiveAvgPool2d(4, 3); MaxPool1d m1 = new MaxPool1d(2, LayerOptions.of())) {
      assertArrayEquals(Functional.maxPool2d(x, new long[] {3}, new long[] {2}, new long[] {1}, new long[] {1}, true).toDoubleArray(),
          mp.forward(x).toDoubleArray(), 0);
      assertArrayEquals(Functional.avgPool2d(x, new long[] {3, 2}, new long[] {2}, new long[] {1}, false, false).toDoubleArray(),
          ap.forward(x).toDoubleArray(), 0);
      assertArrayEquals(new long[] {2, 3, 4, 3}, aap.forward(x).shape());
      assertArrayEquals(new long[] {2, 3, 4}, m1.forward(x.select(3, 0)).shape());
    }
  }

  @Test
  void badModuleArgumentsAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Conv2d(3, 4, 3, LayerOptions.of().groups(2), new Generator(1)));
    assertEquals("Conv2d(): in_channels must be divisible by groups", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new Conv1d(2, 4, 3, LayerOptions.of().stride(2).padding("same"), new Generator(1)));
    assertEquals("Conv1d(): padding='same' is not supported for strided convolutions", e.getMessage());
  }
}
