package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The memory-safety issue's reproducers: inputs that once crashed the JVM, read other tensors'
 * bytes or gave silent wrong values. Each now raises PyTorch's error (or gives its value), with
 * a message that names the op as the user called it.
 */
class HostileInputTest extends ScopedTest {
  private static <T extends Throwable> T raises(Class<T> type, String messageStart, Executable call) {
    T e = assertThrows(type, call);
    assertEquals(type, e.getClass(), "exactly " + type.getSimpleName());
    assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    return e;
  }

  @Test
  void scatterChecksSrcAgainstIndexBeforeTouchingMemory() {
    Tensor index = Tensor.fromArray(new long[] {0, 1}, 2);
    raises(IllegalArgumentException.class, "scatter(): Index tensor must have the same number of dimensions as src",
        () -> Tensor.zeros(3).scatter(0, index, Tensor.zeros(4, 0)));
    Tensor empty = Tensor.zeros(2).asStrided(new long[] {8, 0}, new long[] {128, 1});  // no elements, huge strides
    raises(IllegalArgumentException.class, "scatter()", () -> Tensor.zeros(8).scatter(0, Tensor.arange(8), empty));
    Tensor flatEmpty = Tensor.zeros(2).asStrided(new long[] {0}, new long[] {1 << 20});
    raises(IllegalArgumentException.class, "scatterAdd(): Expected index [8] to be smaller than src [0]",
        () -> Tensor.zeros(8).scatterAdd(0, Tensor.arange(8), flatEmpty));
    raises(IllegalArgumentException.class, "scatter_()", () -> Tensor.zeros(3).scatter_(0, index, Tensor.zeros(1)));
    raises(IllegalArgumentException.class, "scatterAdd(): Expected self.dtype to be equal to src.dtype",
        () -> Tensor.zeros(3).scatterAdd(0, index, Tensor.ones(new long[] {2}, DType.FLOAT64)));
    raises(IllegalArgumentException.class, "scatter(): Expected dtype int64 for index",
        () -> Tensor.zeros(3).scatter(0, index.to(DType.INT32), Tensor.ones(2)));
    raises(IllegalArgumentException.class, "scatter_(): unsupported operation: more than one element",
        () -> Tensor.zeros(1).expand(4).scatter_(0, index, Tensor.ones(2)));
    Tensor ok = Tensor.zeros(3).scatter(0, Tensor.fromArray(new long[0]), Tensor.zeros(4, 0).view(-1));
    assertArrayEquals(new float[3], ok.toFloatArray(), "an empty index scatters nothing");
  }

  @Test
  void indexOpsOnZeroDimTensorsFollowPyTorch() {
    Tensor s = Tensor.scalar(5.0);
    Tensor picked = s.indexSelect(0, Tensor.fromArray(new long[] {0}));
    assertEquals(0, picked.dim(), "index_select of a scalar is a scalar");
    assertEquals(5.0, picked.item());
    raises(IllegalArgumentException.class, "indexSelect(): Index to scalar can have only 1 value, got 2",
        () -> s.indexSelect(0, Tensor.fromArray(new long[] {0, 0})));
    assertArrayEquals(new float[] {5, 5, 5}, s.gather(0, Tensor.fromArray(new long[] {0, 0, 0})).toFloatArray());
    raises(IndexOutOfBoundsException.class, "gather(): index 1 is out of bounds for dimension 0 with size 1",
        () -> s.gather(0, Tensor.fromArray(new long[] {1})));
    raises(IllegalArgumentException.class, "get(): tensors used as indices must be long, int, byte or bool tensors, got int8",
        () -> Tensor.arange(4).get(Index.of(Tensor.fromArray(new byte[] {1}))));
  }

  @Test
  void writesThroughAdvancedIndexingIntoAnExpandedTensorAreRefused() {
    Tensor e = Tensor.zeros(1).expand(4);
    raises(IllegalArgumentException.class, "set(): unsupported operation: more than one element",
        () -> e.set(new Index[] {Index.of(Tensor.fromArray(new long[] {0, 2}))}, 1.0));
  }

  @Test
  void integerDivisionByZeroRaisesLikeZeroDivisionError() {
    Tensor a = Tensor.fromArray(new long[] {7, -7});
    Tensor zero = Tensor.fromArray(new long[] {2, 0});
    raises(ArithmeticException.class, "floorDivide(): ZeroDivisionError", () -> a.floorDivide(zero));
    raises(ArithmeticException.class, "floorDivide(): ZeroDivisionError", () -> a.floorDivide(0L));
    raises(ArithmeticException.class, "remainder(): ZeroDivisionError", () -> a.remainder(zero));
    raises(ArithmeticException.class, "div(): ZeroDivisionError", () -> a.div(zero, "trunc"));
    raises(ArithmeticException.class, "div(): ZeroDivisionError", () -> a.div(Tensor.scalar(0L), "floor"));
    assertEquals(Double.POSITIVE_INFINITY, a.div(0.0, "floor").getDouble(0), "a float divisor promotes: no error");
    assertArrayEquals(new long[] {3, -4}, a.floorDivide(2L).toLongArray());
    assertArrayEquals(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY},
        a.to(DType.FLOAT32).floorDivide(0.0).toFloatArray(), "floats divide by zero as IEEE does");
    assertEquals(0, Tensor.fromArray(new long[0]).floorDivide(0L).numel(), "no element, no division");
  }

  @Test
  void fillValuesMustFitTheDtype() {
    raises(IllegalArgumentException.class, "fill_(): value 1000 cannot be converted to type int8 without overflow",
        () -> Tensor.zeros(new long[] {2}, DType.INT8).fill_(1000L));
    raises(IllegalArgumentException.class, "fill_(): value NaN cannot be converted to type int32 without overflow",
        () -> Tensor.zeros(new long[] {2}, DType.INT32).fill_(Double.NaN));
    raises(IllegalArgumentException.class, "full(): value 70000.0 cannot be converted to type float16",
        () -> Tensor.full(new long[] {2}, 70000.0, DType.FLOAT16));
    raises(IllegalArgumentException.class, "maskedFill(): value 300 cannot be converted to type uint8",
        () -> Tensor.zeros(new long[] {2}, DType.UINT8).maskedFill(Tensor.fromArray(new boolean[] {true, false}), 300));
    assertArrayEquals(new long[] {255, 255}, Tensor.zeros(new long[] {2}, DType.UINT8).fill_(-1L).toLongArray(),
        "a negative int wraps into uint8 once, as PyTorch");
    assertArrayEquals(new long[] {2, 2}, Tensor.zeros(new long[] {2}, DType.INT32).fill_(2.5).toLongArray(), "truncates");
    assertTrue(Tensor.zeros(new long[] {1}, DType.FLOAT16).fill_(Double.POSITIVE_INFINITY).item() == Double.POSITIVE_INFINITY);
  }

  @Test
  void logsumexpAndSoftmaxAtTheEdges() {
    float inf = Float.POSITIVE_INFINITY;
    assertEquals(Double.POSITIVE_INFINITY, Tensor.fromArray(new float[] {inf, 1}).logsumexp(0, false).item());
    assertEquals(Double.NEGATIVE_INFINITY, Tensor.fromArray(new float[] {-inf, -inf}).logsumexp(0, false).item());
    assertEquals(Double.NEGATIVE_INFINITY, Tensor.zeros(0).logsumexp(0, false).item(), "log of an empty sum");
    assertArrayEquals(new long[] {3, 0}, Tensor.zeros(3, 0).softmax(1).shape());
    assertArrayEquals(new long[] {0, 4}, Tensor.zeros(0, 4).logSoftmax(0).shape());
    assertArrayEquals(new long[] {0}, Tensor.zeros(0, 4).logsumexp(1, false).shape());
  }

  @Test
  void slicesWithHugeStepsDoNotOverflow() {
    Tensor x = Tensor.arange(10);
    Tensor s = x.slice(0, 1, Long.MAX_VALUE, Long.MAX_VALUE);
    assertArrayEquals(new long[] {1}, s.toLongArray());
    assertEquals(0, x.slice(0, Long.MAX_VALUE - 1, Long.MAX_VALUE, Long.MAX_VALUE).numel());
    assertArrayEquals(new long[] {0}, x.get(Index.slice(null, null, Long.MAX_VALUE)).toLongArray());
    assertArrayEquals(new long[] {1, 9}, x.unfold(0, 9, Long.MAX_VALUE).shape(), "one window");
  }

  @Test
  void squeezeRefusesARepeatedDim() {
    raises(IllegalArgumentException.class, "squeeze(): dim 0 appears multiple times", () -> Tensor.zeros(1, 3).squeeze(0, 0));
    raises(IllegalArgumentException.class, "squeeze(): dim 0 appears multiple times", () -> Tensor.zeros(1, 3).squeeze(0, -2));
  }

  @Test
  void nullArgumentsAreNamed() {
    raises(IllegalArgumentException.class, "fromArray(): argument 'data' must not be null", () -> Tensor.fromArray((float[]) null));
    raises(IllegalArgumentException.class, "fromArray(): argument 'shape' must not be null",
        () -> Tensor.fromArray(new long[] {1}, (long[]) null));
  }

  @Test
  void aScopeIsClosedOnlyByItsOwnThread() throws Exception {
    TensorScope scope = TensorScope.open();
    try {
      Throwable[] seen = new Throwable[1];
      Thread other = new Thread(() -> {
        try {
          scope.close();
        } catch (Throwable t) {
          seen[0] = t;
        }
      });
      other.start();
      other.join();
      assertEquals(IllegalStateException.class, seen[0].getClass());
      assertTrue(seen[0].getMessage().startsWith("TensorScope.close(): the scope belongs to thread"), seen[0].getMessage());
    } finally {
      scope.close();
    }
  }

  @Test
  void nullTensorArgumentsAreBadArgumentsNotNullPointers() {  // found by the fuzzer
    Tensor x = Tensor.ones(2, 2);
    raises(IllegalArgumentException.class, "matmul(): expected a Tensor, got null", () -> x.matmul(null));
    raises(IllegalArgumentException.class, "add(): expected a Tensor, got null", () -> x.add((Tensor) null));
    raises(IllegalArgumentException.class, "copy_(): expected a Tensor, got null", () -> x.copy_(null));
    raises(IllegalArgumentException.class, "maskedFill(): expected a Tensor, got null", () -> x.maskedFill(null, 1.0));
    raises(IllegalArgumentException.class, "where(): expected a Tensor, got null", () -> Tensor.where(null, x, 0.0));
    raises(IllegalArgumentException.class, "addOut(): expected a Tensor, got null", () -> x.addOut(x, null));
    raises(IllegalArgumentException.class, "stack(): expected a Tensor, got null",
        () -> Tensor.stack(java.util.Arrays.asList(x, null), 0));
    Tensor closed = Tensor.ones(2, 2);
    closed.close();
    raises(IllegalStateException.class, "stack(): tensor is closed", () -> Tensor.stack(java.util.List.of(x, closed), 0));
  }
}
