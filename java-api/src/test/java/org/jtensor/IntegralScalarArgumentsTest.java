package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/**
 * Python float scalars given to ops of integer tensors that PyTorch 2.13 converts with a
 * static_cast instead of refusing (add/sub refuse them; index_add, addmm and baddbmm do not):
 * truncated toward zero for an integer tensor, nonzero for a bool one. Values from PyTorch 2.13.
 */
class IntegralScalarArgumentsTest extends ScopedTest {
  private static final Tensor AT_ZERO = Tensor.fromArray(new long[] {0});

  /** x.index_add(0, tensor([0]), tensor([1]), alpha=2.5) is [2, 0, 0]; alpha=-2.5 gives [-2, 0, 0]. */
  @Test
  void indexAddTruncatesAFloatAlphaOfAnIntegerSelf() {
    Tensor x = Tensor.zeros(new long[] {3}, DType.INT64), one = Tensor.fromArray(new long[] {1});
    assertArrayEquals(new long[] {2, 0, 0}, x.indexAdd_(0, AT_ZERO, one, 2.5).toLongArray());
    assertArrayEquals(new long[] {0, 0, 0}, x.indexAdd_(0, AT_ZERO, one, -2.5).toLongArray());
  }

  /** A bool self takes alpha as alpha != 0: index_add(..., tensor([True]), alpha=0.5) sets True (the cast to int gave 0). */
  @Test
  void indexAddOfABoolSelfTakesANonzeroAlphaAsTrue() {
    Tensor x = Tensor.zeros(new long[] {3}, DType.BOOL), yes = Tensor.fromArray(new boolean[] {true});
    assertArrayEquals(new boolean[] {true, false, false}, x.indexAdd_(0, AT_ZERO, yes, 0.5).toBooleanArray());
  }

  /** torch.addmm and torch.baddbmm of int64 ones with beta=2.5, alpha=2.5: 2·1 + 2·2 = 6 (baddbmm refused it). */
  @Test
  void addmmAndBaddbmmTruncateFloatBetaAndAlphaAlike() {
    Tensor m = Tensor.ones(new long[] {2, 2}, DType.INT64), b = Tensor.ones(new long[] {1, 2, 2}, DType.INT64);
    assertArrayEquals(new long[] {6, 6, 6, 6}, m.addmm(m, m, 2.5, 2.5).toLongArray());
    assertArrayEquals(new long[] {6, 6, 6, 6}, b.baddbmm(b, b, 2.5, 2.5).toLongArray());
  }
}
