package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/** The ops a language model needs beside attention: multinomial's distribution and refusals, repeatInterleave, baddbmm. */
class LanguageModelOpsTest extends ScopedTest {
  @Test
  void multinomialWithReplacementFollowsTheWeights() {
    Tensor w = Tensor.fromArray(new double[] {1, 2, 0, 7});  // unnormalised; category 2 impossible
    int n = 40000;
    long[] draws = w.multinomial(n, true, new Generator(3)).toLongArray();
    double[] p = {0.1, 0.2, 0, 0.7};
    long[] counts = new long[4];
    for (long d : draws) counts[(int) d]++;
    for (int c = 0; c < 4; c++) {
      double sd = Math.sqrt(n * p[c] * (1 - p[c]));
      assertEquals(n * p[c], counts[c], 5 * sd + 1e-9, "category " + c + " counts " + Arrays.toString(counts));
    }
    assertArrayEquals(draws, w.multinomial(n, true, new Generator(3)).toLongArray(), "the same seed, the same draws");
    Tensor rows = Tensor.fromArray(new float[] {0, 0, 1, 1, 0, 0}, 2, 3);
    assertArrayEquals(new long[] {2, 2, 2, 0, 0, 0}, rows.multinomial(3, true, new Generator(1)).reshape(-1).toLongArray());
  }

  @Test
  void multinomialWithoutReplacementDrawsDistinctCategories() {
    Tensor w = Tensor.fromArray(new double[] {0, 5, 1, 0, 2});
    Generator g = new Generator(9);
    long[] firsts = new long[5];
    int n = 20000;
    for (int i = 0; i < 200; i++) {
      long[] all = w.multinomial(3, false, g).toLongArray();
      assertEquals(List.of(1L, 2L, 4L), Arrays.stream(all).sorted().boxed().toList(), "every non-zero category once");
    }
    Tensor many = w.unsqueeze(0).expand(n, 5).contiguous();
    for (long d : many.multinomial(1, false, g).toLongArray()) firsts[(int) d]++;
    double[] p = {0, 5 / 8.0, 1 / 8.0, 0, 2 / 8.0};
    for (int c = 0; c < 5; c++) assertEquals(n * p[c], firsts[c], 5 * Math.sqrt(n * p[c] * (1 - p[c])) + 1e-9, "first draws " + c);
  }

  @Test
  void multinomialRefusesWhatPyTorchRefuses() {
    String[][] cases = {
        {"-1,1", "probability tensor contains either `inf`, `nan` or element < 0"},
        {"NaN,1", "probability tensor contains either `inf`, `nan` or element < 0"},
        {"0,0", "invalid multinomial distribution (sum of probabilities <= 0)"},
    };
    for (String[] c : cases) {
      double[] v = Arrays.stream(c[0].split(",")).mapToDouble(Double::parseDouble).toArray();
      String m = assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(v).multinomial(1, true, new Generator(0))).getMessage();
      assertTrue(m.contains(c[1]), m);
    }
    Tensor w = Tensor.fromArray(new double[] {1, 0, 1});
    assertTrue(assertThrows(IllegalArgumentException.class, () -> w.multinomial(4, false, new Generator(0))).getMessage()
        .contains("cannot sample n_sample > prob_dist.size(-1) samples without replacement"));
    // PyTorch 2.13 samples the zero-weight category last rather than refusing
    assertEquals(1L, w.multinomial(3, false, new Generator(0)).toLongArray()[2]);
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(3).multinomial(1, true, new Generator(0)));
    assertThrows(IllegalArgumentException.class, () -> w.multinomial(0, true, new Generator(0)));
  }

  @Test
  void repeatInterleaveRepeatsInPlaceAndSumsTheGradient() {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3, 4, 5, 6}, 2, 3).requiresGrad_();
    assertArrayEquals(new double[] {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, x.repeatInterleave(2, 0).toDoubleArray(), 0);
    assertArrayEquals(new long[] {2, 6}, x.repeatInterleave(2, 1).shape());
    assertArrayEquals(new double[] {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}, x.repeatInterleave(2).toDoubleArray(), 0);
    assertArrayEquals(new double[] {1, 1, 1, 3, 4, 4, 4, 6}, x.repeatInterleave(Tensor.fromArray(new long[] {3, 0, 1}), 1)
        .toDoubleArray(), 0);
    x.repeatInterleave(3, -1).sum().backward();
    assertArrayEquals(new double[] {3, 3, 3, 3, 3, 3}, x.grad().toDoubleArray(), 0);
    assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(Tensor.fromArray(new long[] {1, 2}), 1));
    assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(-1, 0));
  }

  @Test
  void baddbmmScalesAndAdds() {
    Generator g = new Generator(5);
    Tensor in = Tensor.randn(new long[] {1, 3, 4}, g).to(DType.FLOAT64).requiresGrad_();
    Tensor a = Tensor.randn(new long[] {2, 3, 5}, g).to(DType.FLOAT64).requiresGrad_();
    Tensor b = Tensor.randn(new long[] {2, 5, 4}, g).to(DType.FLOAT64).requiresGrad_();
    Tensor want = a.bmm(b).mul(0.5).add(in.mul(2));
    assertArrayEquals(want.toDoubleArray(), in.baddbmm(a, b, 2, 0.5).toDoubleArray(), 1e-12);
    Tensor nan = Tensor.full(new long[] {2, 3, 4}, Double.NaN).to(DType.FLOAT64);
    assertArrayEquals(a.bmm(b).toDoubleArray(), nan.baddbmm(a, b, 0, 1).toDoubleArray(), 0, "beta 0 ignores self");
    GradCheck.check(t -> t.get(0).baddbmm(t.get(1), t.get(2), 0.7, -1.3), List.of(in, a, b));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(3, 3).baddbmm(a, b));
  }
}
