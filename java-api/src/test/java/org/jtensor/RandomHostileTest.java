package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A hostile review of the random draws (session 29): each test is named after a bug it found and
 * checks PyTorch 2.13's behaviour (verified against it): ranges after rounding to the dtype,
 * refusals, dtypes and gradients. Statistics are loose bounds over many samples, never bits.
 */
class RandomHostileTest extends ScopedTest {

  /** The largest value of t (read as float64) and its smallest. */
  private static double[] minMax(Tensor t) {
    try (Tensor d = t.to(DType.FLOAT64)) {
      return new double[] {d.amin().item(), d.amax().item()};
    }
  }

  @Test
  void uniformRoundedUpToItsUpperBoundInFloat16Bfloat16AndFloat32() {
    // PyTorch 2.13's CPU kernel gives `from` where the cast rounds up to `to`: 10^7 float16 draws of
    // uniform_(100, 101) reach 100.9375, never 101. Here 3% of them were 101.
    Generator g = new Generator(1);
    double[][] cases = {{100, 101}, {1, 2}, {1000, 1001}, {-3, 0.1}};
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32}) {
      for (double[] c : cases) {
        Tensor t = Tensor.empty(new long[] {200_000}, dt).uniform_(c[0], c[1], g);
        try (Tensor top = Tensor.scalar(c[1], dt).to(DType.FLOAT64); Tensor bottom = Tensor.scalar(c[0], dt).to(DType.FLOAT64)) {
          double[] mm = minMax(t);
          if (top.item() == bottom.item()) continue;  // bfloat16's 1001 is 1000: every draw is `from` (PyTorch's too)
          assertTrue(mm[1] < top.item(), dt + " uniform_(" + c[0] + ", " + c[1] + ") reached " + mm[1]);
          assertTrue(mm[0] >= bottom.item(), dt + " uniform_(" + c[0] + ", " + c[1] + ") went below to " + mm[0]);
        }
        if (dt != DType.FLOAT32 && c[1] > 2) continue;  // coarse float16/bfloat16 steps there move the mean
        double mean = t.to(DType.FLOAT64).mean().item(), mid = (c[0] + c[1]) / 2, width = c[1] - c[0];
        assertEquals(mid, mean, 0.03 * width, dt + " mean of uniform_(" + c[0] + ", " + c[1] + ")");
      }
    }
  }
}
