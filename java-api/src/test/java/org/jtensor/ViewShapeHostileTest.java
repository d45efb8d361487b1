package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A hostile review of the view and shape ops against PyTorch 2.13 (CPU): refusals, shapes,
 * strides, offsets, shared storage and autograd's rules for in-place writes through views; each
 * expectation is PyTorch's answer to the same call, noted beside it.
 */
class ViewShapeHostileTest extends ScopedTest {

  private static Tensor f32(long... shape) {
    long n = 1;
    for (long s : shape) n *= s;
    return Tensor.arange(n).to(DType.FLOAT32).view(shape);
  }

  /**
   * torch.tensor(5.).roll(1, 0) raises IndexError "Dimension specified as 0 but tensor has no
   * dimensions" (and with dim -1: "Dimension specified as -1 ..."); here an
   * ArrayIndexOutOfBoundsException escaped from the shape lookup. (jtensor's rule: a dim out of
   * range is a bad argument, as unbind's same words are.)
   */
  @Test
  void rollOfAZeroDimTensorAlongADimThrewArrayIndexOutOfBounds() {
    Tensor s = Tensor.scalar(5.0);
    String m = assertThrows(IllegalArgumentException.class, () -> s.roll(1, 0)).getMessage();
    assertTrue(m.contains("Dimension specified as 0 but tensor has no dimensions"), m);
    m = assertThrows(IllegalArgumentException.class, () -> s.roll(1, -1)).getMessage();
    assertTrue(m.contains("Dimension specified as -1 but tensor has no dimensions"), m);
    assertEquals(5.0, s.roll(new long[] {1}, new int[] {}).item());  // torch.tensor(5.).roll(1): 5.
  }

  /** torch.roll(x, (1, 2)) with no dims: "shifts and dimensions must align. shifts: 2, dims:0". */
  @Test
  void rollWithTwoShiftsAndNoDimsHadItsOwnWords() {
    Tensor x = f32(2, 3);
    String m = assertThrows(IllegalArgumentException.class, () -> x.roll(new long[] {1, 2}, new int[] {})).getMessage();
    assertTrue(m.contains("shifts and dimensions must align. shifts: 2, dims:0"), m);
  }

  /**
   * torch.tensor(5.).unflatten(0, (1,)) raises "Dimension specified as 0 but tensor has no
   * dimensions" (as does dim -1); here it gave a 0-dim tensor back.
   */
  @Test
  void unflattenOfAZeroDimTensorWasAccepted() {
    Tensor s = Tensor.scalar(5.0);
    String m = assertThrows(IllegalArgumentException.class, () -> s.unflatten(0, 1)).getMessage();
    assertTrue(m.contains("Dimension specified as 0 but tensor has no dimensions"), m);
    assertThrows(IllegalArgumentException.class, () -> s.unflatten(-1, 1));
    // torch.arange(6.).view(2, 3).unflatten(1, (3, -1)): shape (2, 3, 1), strides (3, 1, 1)
    Tensor u = f32(2, 3).unflatten(1, 3, -1);
    assertArrayEquals(new long[] {2, 3, 1}, u.shape());
    assertArrayEquals(new long[] {3, 1, 1}, u.stride());
  }

  /**
   * torch.tensor(5.).mT is the identity (a deprecation warning: "Tensor.mT is deprecated on 0-D
   * tensors"); here refused. A 1-D tensor stays refused: "tensor.mT is only supported on matrices
   * or batches of matrices. Got 1-D tensor."
   */
  @Test
  void mTOfAZeroDimTensorWasRefused() {
    Tensor s = Tensor.scalar(5.0);
    Tensor t = s.mT();
    assertEquals(0, t.dim());
    assertEquals(5.0, t.item());
    assertTrue(t.isAliasOf(s));
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.arange(3).mT()).getMessage();
    assertTrue(m.contains("Got 1-D tensor."), m);
  }

  /**
   * torch.empty(0).view(0, -1) and torch.empty(2, 0, 3).reshape(0, -1) raise "cannot reshape
   * tensor of 0 elements into shape [0, -1] because the unspecified dimension size -1 can be any
   * value and is ambiguous"; torch.arange(6.).view(-2, 3) raises "invalid shape dimension -2 at
   * index 0 of shape [-2, 3]". The refusals were kept, their words were other ones.
   */
  @Test
  void anAmbiguousMinusOneAndANegativeSizeWereRefusedInOtherWords() {
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.empty(0).view(0, -1)).getMessage();
    assertTrue(m.contains("cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension "
        + "size -1 can be any value and is ambiguous"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Tensor.empty(2, 0, 3).reshape(-1, 0)).getMessage();
    assertTrue(m.contains("cannot reshape tensor of 0 elements into shape [-1, 0]"), m);
    m = assertThrows(IllegalArgumentException.class, () -> f32(2, 3).view(-2, 3)).getMessage();
    assertTrue(m.contains("invalid shape dimension -2 at index 0 of shape [-2, 3]"), m);
    // unchanged: torch.arange(6.).view(0, -1): "shape '[0, -1]' is invalid for input of size 6"
    m = assertThrows(IllegalArgumentException.class, () -> f32(6).view(0, -1)).getMessage();
    assertTrue(m.contains("shape '[0, -1]' is invalid for input of size 6"), m);
  }

  /**
   * x = torch.arange(12.).view(3, 4).requires_grad_() is a leaf whose _base (the arange) needs no
   * grad; x.t().add_(1) raises "a view of a leaf Variable that requires grad is being used in an
   * in-place operation." (check_inplace: the view requires grad and its base is a leaf). Here the
   * write went through, changing the leaf x.
   */
  @Test
  void anInPlaceWriteThroughAViewOfALeafThatIsItselfAViewWentThrough() {
    Tensor x = f32(3, 4).requiresGrad_(true);
    assertTrue(x.isLeaf());
    String m = assertThrows(IllegalStateException.class, () -> x.t().add_(1)).getMessage();
    assertTrue(m.contains("a view of a leaf Variable that requires grad is being used in an in-place operation."), m);
    assertThrows(IllegalStateException.class, () -> x.select(0, 1).fill_(0.0));
    assertThrows(IllegalStateException.class, () -> x.diagonal().mul_(2));
    assertEquals(66.0, x.sum().item());  // unchanged
    // still allowed, as in PyTorch: a view of a non-leaf (y = x.clone(); y.t().mul_(2))
    Tensor y = x.clone();
    y.t().mul_(2);
    y.mul(f32(3, 4)).sum().backward();
    // torch: x.grad is [0., 2., 4., ..., 22.]
    double[] g = x.grad().toDoubleArray();
    for (int i = 0; i < 12; i++) assertEquals(2.0 * i, g[i]);
    // and a view that needs no grad written with a grad-requiring operand (the base becomes a non-leaf)
    Tensor a = Tensor.zeros(3);
    Tensor w = Tensor.ones(2).requiresGrad_(true);
    a.narrow(0, 0, 2).mul_(w);
    a.narrow(0, 1, 2).add_(1);  // a's history now comes from the first write
  }
  /**
   * torch.zeros(6).repeat(1), .tile(1), .roll(0), .roll(2) and torch.zeros(2, 3).repeat(2, 1) are
   * fresh tensors: _base is None (not views), their storage not a's. Here repeat, tile and a roll
   * with no dims came back as views (isView() true, base() a hidden intermediate copy).
   */
  @Test
  void repeatTileAndAFlatRollGaveViewsOfAHiddenCopy() {
    Tensor a = Tensor.zeros(6), b = Tensor.zeros(2, 3);
    Tensor[] fresh = {a.repeat(1), a.tile(1), a.repeat(2, 1), b.repeat(2, 1), b.tile(2), a.roll(new long[] {0}, new int[] {}),
        a.roll(new long[] {2}, new int[] {}), b.roll(new long[] {1}, new int[] {}), Tensor.scalar(5.0).repeat(2, 3)};
    for (Tensor r : fresh) {
      assertTrue(!r.isView(), "a fresh tensor, not a view");
      assertTrue(r.base() == null);
      assertTrue(!r.isAliasOf(a) && !r.isAliasOf(b));
      assertTrue(r.isContiguous());
      assertEquals(0, r.storageOffset());
    }
    // values and gradients unchanged: torch.arange(6.).view(2, 3).roll(1) is [[5, 0, 1], [2, 3, 4]]
    assertArrayEquals(new double[] {5, 0, 1, 2, 3, 4}, f32(2, 3).roll(new long[] {1}, new int[] {}).toDoubleArray());
    Tensor x = f32(2, 3).requiresGrad_(true);
    x.repeat(2, 1, 2).mul(f32(2, 2, 6)).sum().backward();
    // torch: (x.repeat(2, 1, 2) * torch.arange(24.).view(2, 2, 6)).sum() gives x.grad [[30, 34, 38], [54, 58, 62]]
    assertArrayEquals(new double[] {30, 34, 38, 54, 58, 62}, x.grad().toDoubleArray());
  }
  /**
   * s = torch.tensor(5.): s[0] raises IndexError "invalid index of a 0-dim tensor. Use
   * `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
   * s[:] "slice() cannot be applied to a 0-dim tensor."; with more terms (s[None, 0], s[..., 0])
   * "too many indices for tensor of dimension 0". Here all three said the last.
   */
  @Test
  void indexingAZeroDimTensorWithOneTermHadOtherWords() {
    Tensor s = Tensor.scalar(5.0);
    String m = assertThrows(IndexOutOfBoundsException.class, () -> s.get(Index.at(0))).getMessage();
    assertTrue(m.contains("invalid index of a 0-dim tensor."), m);
    m = assertThrows(IndexOutOfBoundsException.class, () -> s.get(Index.all())).getMessage();
    assertTrue(m.contains("slice() cannot be applied to a 0-dim tensor."), m);
    m = assertThrows(IndexOutOfBoundsException.class, () -> s.get(Index.none(), Index.at(0))).getMessage();
    assertTrue(m.contains("too many indices for tensor of dimension 0"), m);
    assertEquals(5.0, s.get(Index.none()).get(Index.at(0)).item());  // s[None][0]: tensor(5.)
  }
  /**
   * torch.zeros(2, 3).permute(0): "number of dimensions in the tensor input does not match the
   * length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) =
   * 1"; .permute(0, 0): "permute(): duplicate dims are not allowed.". Here the first read
   * "inpum.sizes.length = 2", the second "repeated dim in permute".
   */
  @Test
  void permuteRefusedInGarbledWords() {
    Tensor x = Tensor.zeros(2, 3);
    String m = assertThrows(IllegalArgumentException.class, () -> x.permute(0)).getMessage();
    assertTrue(m.contains("number of dimensions in the tensor input does not match the length of the desired ordering of "
        + "dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1"), m);
    m = assertThrows(IllegalArgumentException.class, () -> x.permute(0, 0)).getMessage();
    assertTrue(m.contains("duplicate dims are not allowed."), m);
    m = assertThrows(IllegalArgumentException.class, () -> x.permute(1, -1)).getMessage();
    assertTrue(m.contains("duplicate dims are not allowed."), m);
  }

  /** torch.zeros(2, 3).split(-1): "split expects split_size be non-negative, but got split_size=-1" (was "split_size must be >= 0"). */
  @Test
  void splitOfANegativeSizeRefusedInOtherWords() {
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2, 3).split(-1, 0)).getMessage();
    assertTrue(m.contains("split expects split_size be non-negative, but got split_size=-1"), m);
  }
}
