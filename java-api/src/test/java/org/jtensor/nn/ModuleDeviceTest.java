package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/** Tensor.setData (torch's t.data = x) and Module.to(Device), which moves parameters in place with it. */
class ModuleDeviceTest {
  @Test
  void setDataSharesTheNewStorageAndKeepsTheLeaf() {
    try (TensorScope s = TensorScope.open()) {
      Tensor a = Tensor.fromArray(new float[] {1, 2}).requiresGrad_();
      Tensor b = Tensor.fromArray(new float[] {3, 4, 5});
      assertSame(a, a.setData(b));
      assertArrayEquals(new long[] {3}, a.shape());
      b.fill_(7.0);
      assertArrayEquals(new float[] {7, 7, 7}, a.toFloatArray());  // one storage
      assertTrue(a.isLeaf() && a.requiresGrad());
      a.mul(Tensor.fromArray(new float[] {1, 2, 3})).sum().backward();  // the gradient takes the new shape
      assertArrayEquals(new float[] {1, 2, 3}, a.grad().toFloatArray());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.setData(Tensor.ones(new long[] {3}, DType.INT64)));
      assertEquals("setData(): data set to a tensor that requires gradients must be floating point or complex dtype (got int64)",
          e.getMessage());  // another floating dtype is taken: ModuleCastTest
    }
  }

  @Test
  void moduleToMetaKeepsHandlesShapesAndLeavesAndDropsTheBytes() {
    try (Sequential m = new Sequential(new Linear(4, 3, new Generator(1)), new ReLU(), new Linear(3, 2, new Generator(2)));
         TensorScope s = TensorScope.open()) {
      List<Tensor> before = m.parameters();
      m.forward(Tensor.ones(new long[] {5, 4}, DType.FLOAT32)).sum().backward();  // grads exist before the move
      assertSame(m, m.to(Device.META));
      List<Tensor> after = m.parameters();
      for (int i = 0; i < after.size(); i++) {
        Tensor p = after.get(i);
        assertSame(before.get(i), p);
        assertEquals(Device.META, p.device());
        assertEquals(Device.META, p.grad().device());
        assertTrue(p.isLeaf() && p.requiresGrad());
      }
      Tensor y = m.forward(Tensor.ones(new long[] {5, 4}, DType.FLOAT32, Device.META));
      assertEquals(Device.META, y.device());
      assertArrayEquals(new long[] {5, 2}, y.shape());
      assertSame(m, m.to(Device.META));  // already there: nothing moves
    }
  }

  @Test
  void moduleToTheDeviceItIsOnChangesNothing() {
    try (Linear l = new Linear(2, 2, new Generator(3))) {
      float[] w = l.weight().toFloatArray();
      l.to(Device.CPU);
      assertArrayEquals(w, l.weight().toFloatArray());
      assertEquals(Device.CPU, l.bias().device());
    }
  }
}
