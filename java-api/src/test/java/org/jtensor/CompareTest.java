package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** isclose/allclose/equal with torch's rules for infinities and NaN; shapeString; cat's default dim. */
class CompareTest {
  @Test
  void iscloseFollowsTorch() {
    double inf = Double.POSITIVE_INFINITY, nan = Double.NaN;
    try (TensorScope s = TensorScope.open()) {
      Tensor a = Tensor.fromArray(new double[] {1.0, 1.0, inf, 5.0, nan, -inf, 100.0});
      Tensor b = Tensor.fromArray(new double[] {1.0 + 1e-9, 1.1, inf, inf, nan, inf, 100.0005});
      assertArrayEquals(new boolean[] {true, false, true, false, false, false, true}, a.isclose(b).toBooleanArray());
      assertArrayEquals(new boolean[] {true, false, true, false, true, false, true}, a.isclose(b, 1e-5, 1e-8, true).toBooleanArray());
      assertFalse(a.allclose(b));
      assertTrue(Tensor.ones(3).allclose(Tensor.ones(3).add(1e-7)));
      assertTrue(Tensor.ones(2, 2).allclose(Tensor.ones(2)));  // broadcast
      assertTrue(Tensor.fromArray(new long[] {1, 2}).isclose(Tensor.fromArray(new long[] {1, 2})).all().item() != 0);
    }
  }

  @Test
  void equalAndShapeAndCat() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.arange(6).reshape(2, 3);
      assertTrue(x.equal(Tensor.arange(6).reshape(2, 3)));
      assertFalse(x.equal(Tensor.arange(6)));
      assertFalse(Tensor.fromArray(new double[] {Double.NaN}).equal(Tensor.fromArray(new double[] {Double.NaN})));
      assertEquals("torch.Size([2, 3])", x.shapeString());
      assertEquals("torch.Size([])", Tensor.scalar(1.0).shapeString());
      assertArrayEquals(new long[] {4, 3}, Tensor.cat(List.of(x, x)).shape());
    }
  }
}
