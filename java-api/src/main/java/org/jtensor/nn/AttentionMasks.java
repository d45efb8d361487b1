package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * nn.MultiheadAttention's masks as one mask for scaledDotProductAttention: attn_mask [L, S] or
 * [N·H, L, S] and key_padding_mask [N, S] (or [S] unbatched), each bool (true: may NOT attend) or
 * float (added), merged as PyTorch's _canonical_mask does: bool masks become true-takes-part
 * (both bool: their conjunction), otherwise −inf where a bool mask forbids, plus the float masks.
 */
final class AttentionMasks {
  private AttentionMasks() {}

  /** The merged mask broadcastable to [N, H, L, S], or null when neither is given. */
  static Tensor combine(String op, Tensor attnMask, Tensor keyPaddingMask, long n, long heads, long l, long s, boolean batched,
                        DType queryDtype) {
    Tensor attn = null, padding = null;
    if (attnMask != null) {
      long[] a = attnMask.shape();
      if (a.length == 2 && a[0] == l && a[1] == s) {
        attn = attnMask;
      } else if (a.length == 3 && a[0] == n * heads && a[1] == l && a[2] == s) {
        attn = attnMask.reshape(n, heads, l, s);
      } else {
        throw new IllegalArgumentException(op + "(): The shape of the attn_mask should be [" + l + ", " + s + "] or [" + n * heads + ", " + l
            + ", " + s + "], but got " + WindowArgs.shape(a));
      }
    }
    if (keyPaddingMask != null) {
      long[] want = batched ? new long[] {n, s} : new long[] {s};
      if (!java.util.Arrays.equals(keyPaddingMask.shape(), want)) {
        throw new IllegalArgumentException(op + "(): expected key_padding_mask of shape " + WindowArgs.shape(want) + ", but got "
            + WindowArgs.shape(keyPaddingMask.shape()));
      }
      padding = keyPaddingMask.reshape(n, 1, 1, s);
    }
    checkType(op, "attn_mask", attn, queryDtype);
    checkType(op, "key_padding_mask", padding, queryDtype);
    if (attn == null && padding == null) return null;
    if (attn == null || padding == null) {
      Tensor m = attn != null ? attn : padding;
      return m.dtype() == DType.BOOL ? m.logicalNot() : m;
    }
    if (attn.dtype() == DType.BOOL && padding.dtype() == DType.BOOL) return attn.logicalOr(padding).logicalNot();
    return additive(attn).add(additive(padding));
  }

  private static void checkType(String op, String name, Tensor m, DType queryDtype) {
    if (m != null && m.dtype() != DType.BOOL && !m.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): only bool and floating types of " + name + " are supported, got " + m.dtype());
    }
    // scaledDotProductAttention's rule, checked here so that the refusal names the module the user called
    if (m != null && m.dtype() != DType.BOOL && m.dtype() != DType.FLOAT32 && m.dtype() != queryDtype) {
      throw new IllegalArgumentException(op + "(): Expected " + name + " dtype to be bool or float or to match query dtype, but got "
          + name + ".dtype: " + m.dtype() + " and query.dtype: " + queryDtype + " instead.");
    }
  }

  /** PyTorch's rule for the modules: isCausal is a hint that the mask given is causal, not a mask of its own. */
  static void requireMaskForCausal(String op, Tensor mask, boolean isCausal) {
    if (isCausal && mask == null) {
      throw new IllegalArgumentException(op + "(): Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
          + "`generate_square_subsequent_mask` to create this mask.");
    }
  }

  /**
   * The merged mask with extra key columns every query may attend (add_bias_kv's and add_zero_attn's
   * keys, appended after the caller's S; PyTorch pads its masks with 0 there).
   */
  static Tensor padKeys(Tensor mask, long extra) {
    if (mask == null || extra == 0) return mask;
    long[] shape = mask.shape().clone();
    shape[shape.length - 1] = extra;
    Tensor open = mask.dtype() == DType.BOOL ? Tensor.ones(shape, DType.BOOL, mask.device()) : Tensor.zeros(shape, mask.dtype(), mask.device());
    return Tensor.cat(java.util.List.of(mask, open), -1);
  }

  private static Tensor additive(Tensor m) {
    return m.dtype() != DType.BOOL ? m : Tensor.zeros(m.shape(), DType.FLOAT32, m.device()).maskedFill(m, Double.NEGATIVE_INFINITY);
  }
}
