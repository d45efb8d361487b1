package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
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
}
