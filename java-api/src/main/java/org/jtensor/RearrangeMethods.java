package org.jtensor;

import java.util.List;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.Ops;
import org.jtensor.ops.Recorder;

/**
 * Tensor's rearranging copies (roll, flip, repeat, tile): each result has its own storage, its
 * elements those of this tensor in another order or repeated, composed from views, cat and
 * indexSelect so that autograd needs no derivative of its own. Inherited by {@link Tensor}.
 */
public sealed interface RearrangeMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.roll: elements shifted along each dim, wrapping around; no dims: over the flattened tensor, shape kept. */
  default Tensor roll(long[] shifts, int[] dims) {
    Tensor self = self();
    if (dims.length == 0) {
      if (shifts.length != 1) {
        throw new IllegalArgumentException("roll(): shifts and dimensions must align. shifts: " + shifts.length + ", dims:0");
      }
      try (TensorScope s = TensorScope.open()) {
        return s.keep(freshAs(self.flatten(0, -1).roll(shifts, new int[] {0}), self.shape()));  // a new tensor, not a view
      }
    }
    if (shifts.length != dims.length) {
      throw new IllegalArgumentException("roll(): shifts and dimensions must align. shifts: " + shifts.length + ", dims:" + dims.length);
    }
    if (self.dim() == 0) {  // PyTorch's IndexError, before a dim of no shape is read
      throw Shapes.noDimensions("roll", dims[0]);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor r = self;
      for (int i = 0; i < dims.length; i++) {
        int d = Shapes.wrapDim("roll", dims[i], self.dim());
        long n = self.shape()[d];
        long k = n == 0 ? 0 : Math.floorMod(shifts[i], n);
        if (k != 0) r = Tensor.cat(List.of(r.narrow(d, n - k, k), r.narrow(d, 0, n - k)), d);
      }
      return s.keep(r == self ? self.clone() : r);
    }
  }

  default Tensor roll(long shift, int dim) {
    return roll(new long[] {shift}, new int[] {dim});
  }

  /** torch.flip: a copy with the elements' order reversed along each of dims (each named once). */
  default Tensor flip(int... dims) {
    Tensor self = self();
    int n = self.dim();
    boolean[] seen = new boolean[Math.max(n, 1)];
    try (TensorScope s = TensorScope.open()) {
      Tensor r = self;
      for (int dim : dims) {
        int d = Shapes.wrapDim("flip", dim, n);
        if (seen[d]) throw new IllegalArgumentException("flip(): dim " + d + " appears multiple times in the list of dims");
        seen[d] = true;
        long size = n == 0 ? 1 : self.shape()[d];
        if (size > 1) r = r.indexSelect(d, Tensor.arange(size - 1, -1, -1, DType.INT64).to(self.device()));
      }
      return s.keep(r == self ? self.clone() : r);
    }
  }

  /**
   * torch.Tensor.repeat: a copy tiled repeats[i] times along dim i; with more repeats than dims,
   * the tensor is first seen with leading dims of size 1.
   */
  default Tensor repeat(long... repeats) {
    Tensor self = self();
    long[] shape = self.shape();
    int k = repeats.length;
    if (k < shape.length) {
      throw new IllegalArgumentException("repeat(): Number of dimensions of repeat dims can not be smaller than number of "
          + "dimensions of tensor");
    }
    long[] padded = new long[k], out = new long[k], pairs = new long[2 * k], tiled = new long[2 * k];
    java.util.Arrays.fill(padded, 1);
    System.arraycopy(shape, 0, padded, k - shape.length, shape.length);
    for (int i = 0; i < k; i++) out[i] = padded[i] * repeats[i];
    for (int i = 0; i < k; i++) {
      if (repeats[i] < 0) {
        throw new IllegalArgumentException("repeat(): Trying to create tensor with negative dimension " + out[i] + ": "
            + java.util.Arrays.toString(out));
      }
      pairs[2 * i] = 1;
      pairs[2 * i + 1] = padded[i];
      tiled[2 * i] = repeats[i];
      tiled[2 * i + 1] = padded[i];
    }
    try (TensorScope s = TensorScope.open()) {  // [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...], copied, then viewed
      Tensor copy = self.reshape(pairs).expand(tiled).contiguous();
      if (copy.isAliasOf(self)) copy = copy.clone();  // every repeat 1: still a copy, as PyTorch's
      return s.keep(freshAs(copy, out));  // not a view of the copy: _base None, as PyTorch's
    }
  }

  /** torch.tile: repeat, with dims padded by leading 1s when fewer than the tensor's dims. */
  default Tensor tile(long... dims) {
    int n = self().dim();
    if (dims.length >= n) return repeat(dims);
    long[] padded = new long[n];
    java.util.Arrays.fill(padded, 1);
    System.arraycopy(dims, 0, padded, n - dims.length, dims.length);
    return repeat(padded);
  }

  /**
   * r, a tensor this op has just made (seen by no one else), as shape without being a view of it,
   * as PyTorch's _unsafe_view: the result of a copying op (repeat, roll) is no view (_base None).
   */
  private static Tensor freshAs(Tensor r, long[] shape) {
    TensorImpl t = r.impl("reshape");
    TensorImpl.Meta m = t.meta();
    if (!m.contiguous || t.base() != null) return r.reshape(shape);  // not expected; the plain path
    return Tensor.wrap(Recorder.recorded(Ops.RESHAPE, "reshape", new TensorImpl[] {t}, null,
        t.unsafeView(shape.clone(), Shapes.contiguousStrides(shape), m.offset)));
  }
}
