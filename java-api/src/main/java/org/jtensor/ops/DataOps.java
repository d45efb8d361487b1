package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/** Ops that move bytes: allocation, copy (contiguous, clone, to, copy_), fill, element access. */
public final class DataOps {
  private DataOps() {}

  /** An uninitialized tensor with the given strides (dense over its own storage). */
  /** emptyStrided as the user's op (op) makes it: refusals name op. */
  public static TensorImpl emptyStrided(String op, long[] sizes, long[] strides, DType dtype, Device device) {
    Shapes.checkDims(op, sizes.length);
    Shapes.numel(op, sizes);
    long nbytes = Shapes.storageBytesNeeded(op, sizes, strides, 0, dtype.itemSize());
    return allocate(sizes.clone(), strides.clone(), nbytes, dtype, device);
  }

  /**
   * emptyStrided for geometry already known to be valid (the sizes of an existing tensor, their
   * numel, and dense strides over them); takes ownership of the arrays, which must never be modified.
   * The bytes are still checked: the sizes of an expanded int8 tensor hold 2^62 elements that no
   * float32 storage can (numel × itemsize past 2^63 wrapped to a negative size, refused unnamed).
   */
  static TensorImpl emptyOwned(String op, long[] sizes, long[] strides, long numel, DType dtype, Device device) {
    return allocate(sizes, strides, Shapes.multiply(op, numel, dtype.itemSize()), dtype, device);
  }

  private static TensorImpl allocate(long[] sizes, long[] strides, long nbytes, DType dtype, Device device) {
    return TensorImpl.create(Dispatcher.backend(device).allocate(nbytes, new TensorDescription(dtype, sizes)), dtype, sizes,
        strides, 0);
  }

  /** Names a tensor in a leak report; formatted only if the report happens. */
  private record TensorDescription(DType dtype, long[] sizes) {
    @Override
    public String toString() {
      return dtype + " tensor of size " + Shapes.str(sizes);
    }
  }

  /** A new contiguous tensor for the user's op (empty, zeros, full, arange, ...): its refusals name op. */
  public static TensorImpl empty(String op, long[] sizes, DType dtype, Device device) {
    for (long s : sizes) {
      if (s < 0) throw new IllegalArgumentException(op + "(): Trying to create tensor with negative dimension " + s + ": " + Shapes.str(sizes));
    }
    Shapes.checkDims(op, sizes.length);
    Shapes.numel(op, sizes);  // the element count before the strides: PyTorch refuses [2^62, 4, 0] for its size, [0, 2^62, 4] for its stride
    return emptyStrided(op, sizes, Shapes.contiguousStrides(op, sizes), dtype, device);
  }

  /** empty_like with preserve_format: dense tensors keep their strides, others keep their dim order. */
  public static TensorImpl emptyLike(String op, TensorImpl t, DType dtype, Device device) {
    return emptyStrided(op, t.sizes(), Shapes.preservedStrides(t.sizes(), t.strides()), dtype, device);
  }

  /** cloneAs as the user calls it (clone, contiguous, to, a reshape that copies): recorded as op when autograd records. */
  public static TensorImpl cloneRecorded(org.jtensor.dispatch.Op op, String name, TensorImpl t, DType dtype, boolean contiguous) {
    return Recorder.recorded(op, name, new TensorImpl[] {t}, null, cloneAs(name, t, t.meta(), dtype, t.device(), contiguous));
  }

  /** A copy of t in dtype on device (dense, or keeping t's dim order), for the user's op: a refused size names op. */
  public static TensorImpl cloneAs(String op, TensorImpl t, DType dtype, Device device, boolean contiguous) {
    return cloneAs(op, t, t.meta(), dtype, device, contiguous);  // the copy's shape and its bytes from one snapshot
  }

  /** cloneAs of the snapshot m of t (a caller that read t's shape from m). */
  public static TensorImpl cloneAs(String op, TensorImpl t, TensorImpl.Meta m, DType dtype, Device device, boolean contiguous) {
    TensorImpl out = contiguous ? empty(op, m.sizes, dtype, device)
                                : emptyStrided(op, m.sizes, Shapes.preservedStrides(m.sizes, m.strides), dtype, device);
    try {
      copyInto(op, out, t, m);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
    return out;
  }

  /**
   * t itself (a new reference) when it is contiguous and of dtype, else a contiguous copy in dtype
   * on t's device (a refused size names op); null stays null. What a kernel reading dense operands takes.
   */
  static TensorImpl contiguousAs(String op, TensorImpl t, DType dtype) {
    if (t == null) return null;
    if (t.isContiguous() && t.dtype() == dtype) {
      t.retain();
      return t;
    }
    return cloneAs(op, t, t.meta(), dtype, t.device(), true);
  }

  /** dst.copy_(src): broadcasts src to dst's shape and converts its dtype. */
  public static void copyInto(String op, TensorImpl dst, TensorImpl src) {
    copyInto(op, dst, src, src.meta());
  }

  /** copyInto of the snapshot m of src: its shape checked, expanded and copied, whatever set_ does to src meanwhile. */
  private static void copyInto(String op, TensorImpl dst, TensorImpl src, TensorImpl.Meta m) {
    long[] shape = Shapes.broadcastShapes(op, dst.sizes(), m.sizes);
    if (!java.util.Arrays.equals(shape, dst.sizes())) {
      throw new IllegalArgumentException(op + "(): source of size " + Shapes.str(m.sizes)
          + " does not broadcast to the destination's size " + Shapes.str(dst.sizes()));
    }
    checkWritable(op, dst);
    Device srcDevice = m.storage.device();
    if (dst.device().isMeta()) return;
    if (srcDevice.isMeta()) throw new UnsupportedOperationException(op + "(): Cannot copy out of meta tensor; no data!");
    if (!dst.device().equals(srcDevice)) {
      if (dst.numel() > 0) {
        TensorImpl frozen = src.frozen(op, m);
        try {
          DeviceCopy.copy(op, dst, frozen);
        } finally {
          frozen.release();
        }
      }
      return;
    }
    if (dst.numel() == 0) return;
    if (dst == src) {  // x.copy_(x): nothing moves
      dst.bumpVersion();
      return;
    }
    TensorImpl expanded = ViewOps.expand(src, m, dst.sizes());  // a private view: its geometry is fixed
    TensorImpl staged = null;  // a copy of src, when it may alias dst in ways we cannot prove apart
    try {
      Overlap o = overlap(dst, expanded);
      if (o == Overlap.FULL && dst.dtype() == src.dtype()) {
        dst.bumpVersion();
        return;
      }
      if (o == Overlap.PARTIAL) {
        throw new IllegalArgumentException(op + "(): " + OVERLAP_WORDS);
      }
      if (o == Overlap.TOO_HARD) {
        TensorImpl tmp = cloneAs(op, expanded, src.dtype(), src.device(), true);
        try {
          staged = ViewOps.expand(tmp, dst.sizes());
        } finally {
          tmp.release();  // the expanded view keeps it alive
        }
      }
      Dispatcher.backend(dst.device()).copy(op, dst, staged != null ? staged : expanded);
      dst.bumpVersion();
    } finally {
      expanded.release();
      if (staged != null) staged.release();
    }
  }

  enum Overlap { NONE, FULL, PARTIAL, TOO_HARD }

  /**
   * Whether dst.copy_(src), src of dst's shape, would be refused for reading what it writes: a loader
   * (Module.loadStateDict) asks before it copies anything, so a refusal leaves every entry as it was.
   */
  public static boolean copyWouldOverlap(Tensor dst, Tensor src) {
    TensorImpl d = Handles.implOf(dst, "copy_"), s = Handles.implOf(src, "copy_");
    return d != s && d.device().equals(s.device()) && overlap(d, s) == Overlap.PARTIAL;
  }

  /** PyTorch's words when an op would read what it writes. */
  static final String OVERLAP_WORDS = "unsupported operation: some elements of the input tensor and the written-to tensor refer to "
      + "a single memory location. Please clone() the tensor before performing the operation.";

  /**
   * PyTorch's assert_no_overlap, for the index writers (scatter_, scatterAdd_, indexAdd_, indexCopy_,
   * an advanced-index set): an operand sharing any element with the tensor written is refused, a full
   * alias too (elementwise ops and copy_ allow that one).
   */
  public static void checkNoOverlap(String op, TensorImpl written, TensorImpl read) {
    Overlap o = overlap(written, read);
    if (o == Overlap.PARTIAL || o == Overlap.FULL) throw new IllegalArgumentException(op + "(): " + OVERLAP_WORDS);
  }

  /** PyTorch's get_overlap_status, with "too hard" for strided aliases of one storage. */
  static Overlap overlap(TensorImpl a, TensorImpl b) {
    TensorImpl.Meta am = a.meta(), bm = b.meta();
    return overlap(am, am.dtype.itemSize(), bm, bm.dtype.itemSize());
  }

  /** overlap() of two snapshots whose elements are aItem and bItem bytes. */
  static Overlap overlap(TensorImpl.Meta a, int aItem, TensorImpl.Meta b, int bItem) {
    if (a.storage != b.storage) return Overlap.NONE;
    if (a.numel == 0 || b.numel == 0) return Overlap.NONE;
    boolean denseA = Shapes.isNonOverlappingAndDense(a.sizes, a.strides);
    boolean denseB = Shapes.isNonOverlappingAndDense(b.sizes, b.strides);
    long aStart = a.offset * aItem, bStart = b.offset * bItem;
    long aEnd = aStart + Shapes.storageBytesNeeded("copy_", a.sizes, a.strides, 0, aItem);
    long bEnd = bStart + Shapes.storageBytesNeeded("copy_", b.sizes, b.strides, 0, bItem);
    if (aEnd <= bStart || bEnd <= aStart) return Overlap.NONE;
    if (!denseA || !denseB) return Overlap.TOO_HARD;
    if (aStart == bStart && aEnd == bEnd && java.util.Arrays.equals(a.strides, b.strides) && aItem == bItem) return Overlap.FULL;
    return Overlap.PARTIAL;
  }

  /** checkWritable() of a tensor handle, for code above the implementation (GradScaler.unscale_ checks before it divides any). */
  public static void checkWritable(String op, Tensor t) {
    checkWritable(op, Handles.implOf(t, op));
  }

  /** A tensor written in place must not have two elements at one address (an expanded dim). */
  public static void checkWritable(String op, TensorImpl t) {
    checkWritable(op, t.meta());
  }

  /** checkWritable() of a snapshot: the storage and geometry the op will write. */
  static void checkWritable(String op, TensorImpl.Meta m) {
    // Before any work or side effect (a random draw reserving numbers); the kernel's own check guards the bytes.
    m.storage.checkWritable(op);
    if (m.contiguous) return;  // the common case: a dense tensor has no repeated element
    for (int d = 0; d < m.sizes.length; d++) {
      if (m.sizes[d] > 1 && m.strides[d] == 0) {
        throw new IllegalArgumentException(op + "(): unsupported operation: more than one element of the written-to "
            + "tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
      }
    }
  }

  /** t.fill_(v): v must fit t's dtype (PyTorch's checked_convert). */
  public static void fill(String op, TensorImpl t, double v) {
    checkWritable(op, t);
    t.dtype().checkFits(op, v);
    if (t.numel() > 0) Dispatcher.backend(t.device()).fill(op, t, v);
    t.bumpVersion();
  }

  public static void fill(String op, TensorImpl t, long v) {
    checkWritable(op, t);
    t.dtype().checkFits(op, v);
    if (t.numel() > 0) Dispatcher.backend(t.device()).fill(op, t, v);
    t.bumpVersion();
  }

  /** Offset in elements of the element at idx, checked: one index per dim, each in range. */
  public static long elementOffset(String op, TensorImpl t, long[] idx) {
    if (idx.length != t.dim()) {
      throw new IllegalArgumentException(op + "(): expected " + t.dim() + " indices for a " + t.dim()
          + "-D tensor, got " + idx.length);
    }
    long off = 0;
    for (int d = 0; d < idx.length; d++) {
      long i = idx[d], size = t.sizes()[d];
      if (i < -size || i >= size) {
        throw new IndexOutOfBoundsException(op + "(): index " + i + " is out of bounds for dimension " + d
            + " with size " + size);
      }
      off += (i < 0 ? i + size : i) * t.strides()[d];
    }
    return off;
  }

  /** Reads the whole tensor into a new Java array whose element type matches dtype's size. */
  public static void readAll(String op, TensorImpl t, DType as, Object array) {
    if (t.device().isMeta()) throw new UnsupportedOperationException(op + "(): a meta tensor has no data to read");
    TensorImpl c = t.isContiguous() && t.dtype() == as ? t : cloneAs(op, t, as, t.device(), true);
    try {
      if (c.numel() > 0) Dispatcher.backend(c.device()).read(op, c, array);
    } finally {
      if (c != t) c.release();
    }
  }

  public static int checkedArrayLength(String op, long numel) {
    if (numel > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(op + "(): " + numel + " elements do not fit in a Java array");
    }
    return (int) numel;
  }
}
