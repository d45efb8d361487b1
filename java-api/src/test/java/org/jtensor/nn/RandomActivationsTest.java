package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * rrelu (and RReLU) and gumbelSoftmax: for the slopes and noise PyTorch 2.13 drew
 * (resources/nnlayers/fixtures.pt), its outputs and gradients; over jtensor's draws, the slopes'
 * range and mean, eval mode's mean slope, Gumbel-max sampling at softmax's probabilities; GradCheck
 * in float64 and PyTorch's refusals.
 */
class RandomActivationsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/nnlayers/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  @Test
  void givenSlopesAndNoiseMatchPyTorch() {
    Tensor x = f("rrelu.x").clone().requiresGrad_(true);
    Tensor y = RandomActivations.withSlopes(x, f("rrelu.slopes"));
    Close.assertTensor("rrelu", f("rrelu.out"), y, 1e-15);
    y.mul(f("rrelu.up")).sum().backward();
    Close.assertTensor("rrelu's gradient", f("rrelu.grad"), x.grad(), 1e-15);
    for (String pre : new String[] {"gumbel.", "gumbel_hard."}) {
      Tensor logits = f(pre + "logits").clone().requiresGrad_(true);
      Tensor s = RandomActivations.withNoise(logits, f(pre + "noise"), 0.7, pre.contains("hard"), 1);
      Close.assertTensor(pre + "out", f(pre + "out"), s, 1e-12);
      s.mul(f(pre + "up")).sum().backward();
      Close.assertTensor(pre + "grad", f(pre + "grad"), logits.grad(), 1e-12);
    }
  }

  /** Slopes in [lower, upper] with mean (lower + upper)/2 (20,000 draws, 4 standard errors); positives untouched; eval: the mean slope. */
  @Test
  void rreluDrawsItsSlopesInRangeAndUsesTheirMeanInEval() {
    Tensor x = Tensor.ones(20_000).neg().to(DType.FLOAT64);
    Tensor slopes = Functional.rrelu(x, 0.1, 0.3, true, new Generator(4)).neg();
    assertTrue(slopes.ge(0.1).all().item() == 1 && slopes.le(0.3).all().item() == 1, "every slope in [lower, upper]");
    assertEquals(0.2, slopes.mean().item(), 4 * 0.2 / Math.sqrt(12) / Math.sqrt(20_000));
    Tensor mixed = Tensor.fromArray(new double[] {-1, 0, 2});
    assertArrayEquals(new double[] {-0.2, 0, 2}, Functional.rrelu(mixed, 0.1, 0.3, false, new Generator(1)).toDoubleArray(), 1e-15);
    try (RReLU m = new RReLU(0.1, 0.3, new Generator(5))) {
      assertEquals(2.0, m.forward(mixed).toDoubleArray()[2], "a positive input passes in training");
      m.eval();
      assertArrayEquals(new double[] {-0.2, 0, 2}, m.forward(mixed).toDoubleArray(), 1e-15);
    }
  }

  /** The hard sample's class frequencies are softmax(logits) (30,000 rows, 4 standard errors); each hard row one-hot, each soft row summing to 1. */
  @Test
  void gumbelSoftmaxSamplesAtTheSoftmaxProbabilities() {
    double[] p = {0.5, 0.3, 0.2};
    Tensor logits = Tensor.fromArray(p).log().unsqueeze(0).expand(30_000, 3);
    Tensor hard = Functional.gumbelSoftmax(logits, 1.0, true, -1, new Generator(8));
    assertTrue(hard.sum(1).eq(1.0).all().item() == 1 && hard.eq(0.0).logicalOr(hard.eq(1.0)).all().item() == 1, "one-hot rows");
    double[] freq = hard.mean(new int[] {0}, false).toDoubleArray();
    for (int k = 0; k < 3; k++) assertEquals(p[k], freq[k], 4 * Math.sqrt(p[k] * (1 - p[k]) / 30_000), "class " + k);
    Tensor soft = Functional.gumbelSoftmax(Tensor.randn(5, 4), 0.5, false, 1, new Generator(9));
    Close.assertElements("rows sum to 1", new double[] {1, 1, 1, 1, 1}, soft.sum(1).toDoubleArray(), Close.absolute(1e-6));
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor x = Tensor.randn(3, 4).to(DType.FLOAT64);
    Generator g = new Generator(0);
    GradCheck.check(in -> Functional.rrelu(in.get(0), 0.1, 0.4, true, g.setSeed(3)), List.of(x));
    GradCheck.check(in -> Functional.gumbelSoftmax(in.get(0), 0.8, false, 1, g.setSeed(4)), List.of(x));
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(3, 4), ints = Tensor.ones(new long[] {2}, DType.INT64);
    Generator g = new Generator(1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.rrelu(x, 0.5, 0.2, true, g));
    assertEquals("rrelu(): Lower bound should be less than or equal to the upper bound", e.getMessage());
    UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class, () -> Functional.rrelu(ints, 0.1, 0.3, true, g));
    assertEquals("rrelu(): \"rrelu_with_noise_out_cpu\" not implemented for 'int64'", u.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.gumbelSoftmax(ints, 1, false, 0, g));
    assertEquals("gumbelSoftmax(): Exponential distribution is a continuous probability distribution. dtype must be a floating point but you "
        + "specified int64", e.getMessage());
  }
}
