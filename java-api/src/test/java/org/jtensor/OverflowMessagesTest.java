package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, point 8: a size past 2^63 is refused naming the op the user called (not an internal
 * one such as tensor() or empty()), and nothing is left retained by the refusal (MemoryAccounting).
 */
class OverflowMessagesTest extends ScopedTest {
  @Test
  void viewAsASmallerDtypeThatOverflowsNamesView() {
    Tensor huge = Tensor.ones(4).expand(1L << 60, 4);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> huge.view(DType.INT8));
    assertTrue(e.getMessage().startsWith("view(): "), e.getMessage());
  }

  @Test
  void catWhoseSizesAddUpPast63BitsNamesCat() {
    Tensor half = Tensor.ones(1).expand((1L << 62) + 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensor.cat(List.of(half, half, half, half)));
    assertTrue(e.getMessage().startsWith("cat(): the tensors' sizes in dimension 0 add up past 2^63-1"), e.getMessage());
  }

  /** PyTorch: torch.empty((0, 2**62, 4)) raises "Stride calculation overflowed"; a zero-element tensor's strides must not wrap. */
  @Test
  void stridesPastTheInt64RangeAreRefusedNamingTheFactory() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(0, 1L << 62, 4));
    assertEquals("zeros(): Stride calculation overflowed for size [0, 4611686018427387904, 4]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.empty(new long[] {0, 1L << 40, 1L << 30}, DType.FLOAT32));
    assertTrue(e.getMessage().startsWith("empty(): Stride calculation overflowed"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(1L << 62, 4, 0));  // numel's overflow comes first, as PyTorch's
    assertTrue(e.getMessage().startsWith("zeros(): "), e.getMessage());
    assertArrayEquals(new long[] {1L << 31, 1, 1}, Tensor.empty(0, 1L << 31, 1).stride());  // large but representable: made
  }

  @Test
  void aCopyOfAHugeViewNamesTheOpCalled() {
    Tensor huge = Tensor.ones(4).expand(1L << 60, 4);  // 2^62 elements: their bytes pass 2^63
    RuntimeException e = assertThrows(RuntimeException.class, () -> huge.contiguous());
    assertTrue(e.getMessage().startsWith("contiguous()"), e.getMessage());
    e = assertThrows(RuntimeException.class, () -> huge.add(1L));
    assertTrue(e.getMessage().startsWith("add()"), e.getMessage());
    e = assertThrows(RuntimeException.class, () -> huge.to(DType.FLOAT64));
    assertTrue(e.getMessage().startsWith("to()"), e.getMessage());
  }

  /** Ops whose output was allocated by an internal empty() named it; each now names itself. */
  @Test
  void internalAllocationsNameTheOpCalled() {
    Tensor huge = Tensor.ones(4).expand(1L << 60, 4);
    Tensor row = Tensor.ones(4);
    java.util.Map<String, org.junit.jupiter.api.function.Executable> calls = new java.util.LinkedHashMap<>();
    calls.put("mul()", () -> huge.mul(row));                     // a broadcast binary op
    calls.put("cumsum()", () -> huge.cumsum(0));
    calls.put("softmax()", () -> huge.softmax(1));
    calls.put("sort()", () -> huge.sort(1, false));
    calls.put("bernoulli()", () -> huge.bernoulli(new Generator(0)));
    calls.put("emptyLike()", () -> Tensor.emptyLike(huge));
    Tensor hugeLong = Tensor.ones(new long[] {4}, DType.INT64).expand(1L << 60, 4);
    calls.put("floor()", hugeLong::floor);                       // a copy for an integer input
    calls.put("clamp()", () -> hugeLong.clamp(0.5, 2.5));        // a float bound converts the input
    calls.put("reshape()", () -> huge.reshape(1L << 61, 2));     // a reshape that must copy
    calls.put("toFloatArray()", huge::toFloatArray);
    Tensor image = Tensor.ones(1, 1, 4, 4).expand(1L << 58, 1, 4, 4);
    calls.put("conv2d()", () -> org.jtensor.nn.Functional.conv2d(image, Tensor.ones(1, 1, 3, 3), null, 1, 0));  // im2col's columns
    calls.put("unfold()", () -> org.jtensor.nn.Functional.unfold(image, new long[] {2}, new long[] {1}, new long[] {0}, new long[] {1}));
    for (var c : calls.entrySet()) {
      RuntimeException e = assertThrows(RuntimeException.class, c.getValue(), c.getKey());
      assertTrue(e.getMessage().startsWith(c.getKey()), c.getKey() + " gave: " + e.getMessage());
    }
  }
}
