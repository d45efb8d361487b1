package org.jtensor;

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
}
