package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.core.StorageImpl;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.plan.AttentionShape;
import org.jtensor.dispatch.plan.ConvShape;
import org.jtensor.dispatch.plan.GridSamplePacker;
import org.jtensor.dispatch.plan.NormGroups;
import org.jtensor.dispatch.plan.Windows;

/**
 * One device's implementation of the byte-touching primitives. The Dispatcher picks the Backend
 * by device; the Backend picks the kernel by dtype. Arguments arrive validated: shapes match,
 * the source is already broadcast (expanded) to the destination's shape, every tensor is in
 * bounds of its storage.
 */
public interface Backend {
  Device device();

  /** The device's allocator: storages come from it and Memory's statistics are its own. */
  DeviceMemory memory();

  /** what describes the owner for leak reports; its toString() runs only if one is made. */
  default StorageImpl allocate(long nbytes, Object what) {
    return memory().allocate(nbytes, what);
  }

  // Every method below that touches bytes takes op, the name the user called, for its errors: the
  // Backend holds what it touches for the kernel's duration and checks every address it uses.

  /** dst = src converted to dst's dtype; src has dst's shape (stride 0 where broadcast). */
  void copy(String op, TensorImpl dst, TensorImpl src);

  void fill(String op, TensorImpl dst, double value);

  void fill(String op, TensorImpl dst, long value);

  /** dst (contiguous, 1-D) = start + i * step, in int64 arithmetic. */
  void arange(TensorImpl dst, long start, long step);

  /** dst (contiguous, 1-D) = start + i * step, in double arithmetic. */
  void arange(TensorImpl dst, double start, double step);

  void linspace(TensorImpl dst, double start, double end);

  /** One element, elementOffset counted in elements from the tensor's data address. */
  double loadDouble(String op, TensorImpl t, long elementOffset);

  long loadLong(String op, TensorImpl t, long elementOffset);

  void store(String op, TensorImpl t, long elementOffset, double value);

  void store(String op, TensorImpl t, long elementOffset, long value);

  /** Copies a contiguous tensor's bytes into a Java primitive array of the same element size. */
  void read(String op, TensorImpl contiguous, Object array);

  /** Copies a Java primitive array's bytes into a contiguous tensor of the same element size. */
  void write(String op, TensorImpl contiguous, Object array);




  /** Whether an elementwise kernel exists for op on inputs of dtype. */
  boolean hasElementwise(Op op, DType dtype);

  /** Runs a plan whose (op, dtype) hasElementwise; META does nothing. */
  void elementwise(ElementwisePlan plan);

  /**
   * The reduction op of in over the dims flagged in reduced; name is what the user called. outStrides
   * are out's strides laid over in's dims (0 on reduced dims); values (arg reductions only, may be
   * null) shares them. Floating sums are divided by divisor (mean: the count; 1: none). inMeta is the snapshot of in the op read
   * its shapes from: the kernel walks it and holds its storage, whatever set_ did to in since.
   */
  void reduce(Op op, String name, TensorImpl out, TensorImpl values, TensorImpl in, TensorImpl.Meta inMeta, long[] outStrides,
              boolean[] reduced, double divisor);

  /** C = alpha * A @ B + beta * C over broadcast batch dims; see {@link GemmCall}. */
  void gemm(String op, GemmCall call);

  /**
   * out = the scan op (cumsum, cumprod, cummax, cummin, logcumsumexp) of in along dim; out has the
   * dtype op's ReduceKind gives; indices (int64, in's shape) gets cummax/cummin's positions, else null.
   */
  void scan(Op op, int dim, TensorImpl out, TensorImpl indices, TensorImpl in);

  /** out = softmax (log false) or log_softmax of in along dim; out has in's shape and (floating) dtype. */
  void softmax(String op, boolean log, int dim, TensorImpl out, TensorImpl in);

  /**
   * im2col (fold false): columns (w.columnsShape(), contiguous) = image's windows; col2im (fold
   * true): image (w.imageShape(), every element written) = the sums of the column entries that
   * read it, read through the columns' strides (a gradient's layout, as it comes).
   */
  void windows(String op, boolean fold, Windows w, TensorImpl image, TensorImpl columns);

  /** out (image's dtype) and indices (int64), contiguous, w.pooledShape(): each window's maximum and its place in its plane. */
  void maxPool(String op, Windows w, TensorImpl image, TensorImpl out, TensorImpl indices);

  /** gradIn (w.imageShape(), every element written) = the sums of gradOut's entries (contiguous, pooled) at the indices. */
  void maxPoolBackward(String op, Windows w, TensorImpl gradIn, TensorImpl gradOut, TensorImpl indices);

  /**
   * Normalization's forward (the norm plan): y = (x - mean)·rstd·weight + bias over g's groups, x and
   * y contiguous, weight and bias [g.c()] in x's dtype or null; mean and rstd (g.units(), float32 or
   * float64) written, or read when fixed.
   */
  void norm(String op, NormGroups g, boolean fixed, double eps, TensorImpl x, TensorImpl weight, TensorImpl bias,
            TensorImpl mean, TensorImpl rstd, TensorImpl y);

  /** Its backward from grad (x's shape and dtype, contiguous): gradX, gradWeight and gradBias, each written unless null. */
  void normBackward(String op, NormGroups g, boolean fixed, TensorImpl grad, TensorImpl x, TensorImpl weight, TensorImpl mean,
                    TensorImpl rstd, TensorImpl gradX, TensorImpl gradWeight, TensorImpl gradBias);

  /**
   * Fused scaled dot-product attention (the attention plan; AttentionPacker's modes). FORWARD: out
   * and lse from q, k, v and the mask; BACKWARD: gradQ, gradK and gradV (each written unless null)
   * from gradOut, out and lse; DROPOUT_FACTORS: out [a.scoresShape()] alone. q, k, v, out, lse and
   * the gradients are contiguous in a's shapes; mask (null: none) is a bool or additive view of
   * a.scoresShape() with any strides. UnsupportedOperationException where the device has no such kernel.
   */
  void attention(String op, int mode, AttentionShape a, TensorImpl q, TensorImpl k, TensorImpl v, TensorImpl mask, TensorImpl out,
                 TensorImpl lse, TensorImpl gradOut, TensorImpl gradQ, TensorImpl gradK, TensorImpl gradV);

  /** Whether {@link #attention} runs (forward and backward) for dtype and head sizes e and ev; nn composes the reference where not. */
  default boolean fusesAttention(DType dtype, long e, long ev) {
    return false;
  }

  /**
   * Direct convolution (the conv plan; ConvPacker's modes), every operand contiguous in s's
   * shapes. FORWARD: y from x, weight and bias (null: none); INPUT_GRAD: x (the input's gradient,
   * s.takesDirectInputGradient()) from y (the output's) and weight; WEIGHT_GRAD: weight (its gradient)
   * from x and y. False where a gradient declines (an infinite or NaN weight for INPUT_GRAD, input
   * for WEIGHT_GRAD: the kernels would multiply it by zeros PyTorch never multiplies; the caller
   * composes that gradient). UnsupportedOperationException where the device has no such kernel.
   */
  default boolean convolution(String op, int mode, ConvShape s, TensorImpl x, TensorImpl weight, TensorImpl bias, TensorImpl y) {
    throw new UnsupportedOperationException(op + "(): no direct convolution kernel on " + device());
  }

  /**
   * grid_sample (the grid_sample plan), every operand contiguous in s's shapes and of one floating
   * dtype. Forward (gradOut null): out from input and grid. Backward: gradInput and gradGrid (each
   * written unless null) from gradOut, input and grid. UnsupportedOperationException where the
   * device has no such kernel.
   */
  default void gridSample(String op, GridSamplePacker.Sampling s, TensorImpl input, TensorImpl grid, TensorImpl out, TensorImpl gradOut,
                          TensorImpl gradInput, TensorImpl gradGrid) {
    throw new UnsupportedOperationException(op + "(): not implemented for " + device().type());
  }

  /** Whether {@link #convolution} runs for dtype; nn's convolution composes im2col and a GEMM where not. */
  default boolean convolvesDirectly(DType dtype) {
    return false;
  }

  /**
   * torch.linalg's factorizations, in place on contiguous [batch, n, n] float32/float64 matrices
   * (kernels/linalg.h): LU with partial pivoting (pivots [batch, n] and info [batch], int32), the
   * solve of contiguous [batch, n, k] b from those factors, and the lower Cholesky factor. A
   * singular or non-positive-definite matrix is an info entry, for the op to word. The CPU's only.
   */
  default void luFactor(String op, TensorImpl a, TensorImpl pivots, TensorImpl info) {
    throw noFactorizations(op);
  }

  default void luSolve(String op, TensorImpl lu, TensorImpl pivots, TensorImpl b) {
    throw noFactorizations(op);
  }

  default void cholesky(String op, TensorImpl a, TensorImpl info) {
    throw noFactorizations(op);
  }

  /** PyTorch solves with cuSOLVER on CUDA; there is none here. */
  private UnsupportedOperationException noFactorizations(String op) {
    return new UnsupportedOperationException(op + "(): not implemented for " + device().type());
  }

  /** values (in's dtype) and indices (int64), in's shape: in sorted along dim, stably, NaN largest. */
  void sort(String op, int dim, boolean descending, TensorImpl values, TensorImpl indices, TensorImpl in);

  /** indices (int64, in's shape with 1 at dim): each line's position of its k-th smallest, its mode or its NaN-less median (SelectPacker's kinds), as PyTorch's CPU picks. */
  void select(String op, int kind, int dim, long k, TensorImpl indices, TensorImpl in);

  /**
   * out (int64 or int32, contiguous like in, bd and sorter): searchsorted's position of each value of
   * in within its row of bd (rows of len; value i's row is i / inner, or the one row when shared),
   * ordered through sorter (int64 positions within each row; null for none).
   */
  void search(String op, boolean right, boolean shared, long inner, long rows, long len, TensorImpl out, TensorImpl in, TensorImpl bd,
              TensorImpl sorter);

  /** Copies raw bytes between two storages (Storage.copy_). */
  void copyBytes(String op, StorageImpl dst, StorageImpl src, long nbytes);

  /** Indexing along one dim; index values are checked by the kernel (IndexOutOfBoundsException, nothing written). */
  void indexAlong(IndexAlong call);

  /** A random draw; BERNOULLI_TENSOR refuses a probability outside [0, 1] (IllegalArgumentException, nothing written). */
  void random(RandomDraw draw);

  /** Advanced indexing get or put; index values are checked by the kernel (IndexOutOfBoundsException). */
  void indexAdvanced(IndexAdvanced call);

  /** How many elements of t are non-zero. */
  long countNonzero(String op, TensorImpl t);

  /**
   * The coordinates of t's non-zero elements into out ([rows, t.dim()] int64, contiguous);
   * returns how many there were (rows unless t changed on another thread since it was counted).
   */
  long nonzero(String op, TensorImpl t, TensorImpl out);
}
