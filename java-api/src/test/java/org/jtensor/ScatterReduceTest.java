package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tensor.scatterReduce against PyTorch 2.13 (resources/scatterreduce/fixtures.pt from
 * make_fixtures.py beside it): every reduce and includeSelf over float64, float32, float16,
 * bfloat16, the integer types and bool, with repeated positions, NaN, wrapping integers and
 * floor-dividing integer means, and float64 gradients (prod's zeros, amax/amin's shared ties);
 * PyTorch's refusals; the in-place form; GradCheck of prod, amax and amin (sum and mean are in
 * GradCheckOpsTest, whose cases also run on CUDA).
 */
class ScatterReduceTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/scatterreduce/fixtures.pt");

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(234, cases.size());
    for (Object o : cases) {
      List<?> c = (List<?>) o;
      String name = (String) c.get(0), reduce = (String) c.get(1);
      boolean includeSelf = (Boolean) c.get(2);
      int dim = ((Number) c.get(3)).intValue();
      Tensor self = fixtures.tensor(name + ".self"), index = fixtures.tensor(name + ".index"), src = fixtures.tensor(name + ".src");
      boolean grad = fixtures.has(name + ".up");
      Tensor s = self.detach(), r = src.detach();
      if (grad) {
        s.requiresGrad_();
        r.requiresGrad_();
      }
      Tensor out = s.scatterReduce(dim, index, r, reduce, includeSelf);
      Goldens.assertMatches(fixtures.tensor(name + ".out"), out.detach(), name);
      if (grad) {
        out.mul(fixtures.tensor(name + ".up")).sum().backward();
        Goldens.assertMatches(fixtures.tensor(name + ".grad_self"), s.grad(), name + " grad self");
        Goldens.assertMatches(fixtures.tensor(name + ".grad_src"), r.grad(), name + " grad src");
      }
      // the in-place form writes the same values into self
      Tensor copy = self.clone();
      assertTrue(copy.scatterReduce_(dim, index, src, reduce, includeSelf) == copy);
      Goldens.assertMatches(fixtures.tensor(name + ".out"), copy, name + " in place");
    }
  }

  @Test
  void signedZeroTiesKeepSelfAsPyTorch() {
    for (String name : List.of("amax_signed_zero", "amin_signed_zero")) {
      Tensor got = fixtures.tensor(name + ".self").scatterReduce(0, fixtures.tensor(name + ".index"), fixtures.tensor(name + ".src"),
          name.substring(0, 4));
      float[] want = fixtures.tensor(name + ".out").toFloatArray(), g = got.toFloatArray();
      for (int i = 0; i < want.length; i++) assertEquals(Float.floatToIntBits(want[i]), Float.floatToIntBits(g[i]), name + " [" + i + "]");
    }
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.zeros(2, 3);
    Tensor i = Tensor.fromArray(new long[] {0, 1}, 1, 2);
    Tensor ones = Tensor.ones(3, 3);
    Goldens.refused("scatterReduce(): reduce argument must be either sum, prod, mean, amax or amin, got max",
        () -> x.scatterReduce(1, i, ones, "max"));
    Goldens.refused("scatterReduce(): Expected dtype int32/int64 for index, got int16", () -> x.scatterReduce(1, i.to(DType.INT16), ones, "sum"));
    Goldens.refused("scatterReduce(): Expected self.dtype to be equal to src.dtype", () -> x.scatterReduce(1, i, ones.to(DType.FLOAT64), "sum"));
    Goldens.refused("Index tensor must have the same number of dimensions as self tensor",
        () -> x.scatterReduce(1, Tensor.fromArray(new long[] {0, 1}), ones, "sum"));
    Goldens.refused("scatterReduce(): Size does not match at dimension 0",
        () -> x.scatterReduce(1, Tensor.zeros(new long[] {3, 1}, DType.INT64), ones, "amax"));
    Goldens.refused("to be smaller than src", () -> x.scatterReduce(1, Tensor.zeros(new long[] {1, 4}, DType.INT64), ones, "sum"));
    Goldens.refused("scatterReduce_(): reduce='mean' not implemented for BOOL",
        () -> x.gt(0L).scatterReduce_(1, i, ones.gt(0L), "mean"));
    Goldens.refused("scatterReduce(): Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        () -> x.scatterReduce(2, i, ones, "sum"));
  }

  @Test
  void outOfRangeAndNegativeIndicesAreRefusedAndSelfIsKept() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4});
    for (long bad : new long[] {4, -1}) {
      for (String reduce : List.of("sum", "prod", "mean", "amax", "amin")) {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
            () -> x.scatterReduce_(0, Tensor.fromArray(new long[] {0, bad}), Tensor.fromArray(new float[] {9, 9}), reduce, false));
        assertTrue(e.getMessage().contains("index " + bad + " is out of bounds for dimension 0 with size 4"), e.getMessage());
        assertArrayEquals(new float[] {1, 2, 3, 4}, x.toFloatArray(), reduce);
      }
    }
  }

  @Test
  void anEmptyIndexLeavesACopyOfSelf() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3});
    Tensor got = x.scatterReduce(0, Tensor.zeros(new long[] {0}, DType.INT64), Tensor.zeros(0), "prod", false);
    assertArrayEquals(new float[] {1, 2, 3}, got.toFloatArray());
    got.fill_(0.0);
    assertArrayEquals(new float[] {1, 2, 3}, x.toFloatArray(), "a copy, not self");
  }

  @Test
  void prodAmaxAndAminPassGradCheck() {
    for (String reduce : List.of("prod", "amax", "amin", "mean", "sum")) {
      for (boolean includeSelf : new boolean[] {true, false}) {
        Tensor self = Tensor.fromArray(new double[] {0.5, -1.25, 2.0, 0.75, 1.5, -0.4}, 2, 3).requiresGrad_();
        Tensor src = Tensor.fromArray(new double[] {1.1, 0.3, -0.7, 2.2, -1.3, 0.9, 0.6, 1.7}, 2, 4).requiresGrad_();
        GradCheck.check(x -> x.get(0).scatterReduce(1, Tensor.fromArray(new long[] {2, 0, 2, 2, 1, 1, 0, 1}, 2, 4), x.get(1),
            reduce, includeSelf), List.of(self, src));
      }
    }
  }

  @Test
  void theInPlaceFormHasTheSameGradientAsTheCopy() {
    Tensor index = Tensor.fromArray(new long[] {1, 1, 0, 2, 2}, 1, 5);
    for (String reduce : List.of("prod", "amax", "mean")) {
      double[][] grads = new double[4][];
      for (int k = 0; k < 2; k++) {
        Tensor leaf = Tensor.fromArray(new double[] {0.0, 2.0, -1.5}, 1, 3).requiresGrad_();
        Tensor src = Tensor.fromArray(new double[] {3.0, 0.5, 4.0, -2.0, 1.25}, 1, 5).requiresGrad_();
        Tensor x = leaf.mul(1.0);  // not a leaf: in place is allowed, and self's old values must be saved
        Tensor y = k == 0 ? x.scatterReduce(1, index, src, reduce, false) : x.scatterReduce_(1, index, src, reduce, false);
        y.mul(Tensor.fromArray(new double[] {1.5, -2.0, 0.75}, 1, 3)).sum().backward();
        grads[2 * k] = leaf.grad().toDoubleArray();
        grads[2 * k + 1] = src.grad().toDoubleArray();
      }
      assertArrayEquals(grads[0], grads[2], reduce + " self");
      assertArrayEquals(grads[1], grads[3], reduce + " src");
    }
  }

  @Test
  void srcLargerThanIndexTakesZeroGradientOutsideIt() {
    // PyTorch's backward refuses this shape ("returned an invalid gradient"); jtensor gives the
    // src elements that took no part a zero gradient
    Tensor self = Tensor.zeros(new long[] {3}, DType.FLOAT64).requiresGrad_();
    Tensor src = Tensor.fromArray(new double[] {1, 2, 3, 4}).requiresGrad_();
    self.scatterReduce(0, Tensor.fromArray(new long[] {0, 0}), src, "sum").mul(Tensor.fromArray(new double[] {5, 6, 7})).sum().backward();
    assertArrayEquals(new double[] {5, 5, 0, 0}, src.grad().toDoubleArray());
    assertArrayEquals(new double[] {5, 6, 7}, self.grad().toDoubleArray());
  }
}
