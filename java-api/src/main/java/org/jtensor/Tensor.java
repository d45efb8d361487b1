package org.jtensor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jtensor.access.SharedSecrets;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.cuda.Cuda;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.LeakLevel;
import org.jtensor.ops.AutogradMeta;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.Ops;
import org.jtensor.ops.Recorder;
import org.jtensor.ops.StridedViews;
import org.jtensor.ops.TensorFormatter;
import org.jtensor.ops.TypePromotion;

/**
 * A strided view over a flat storage, PyTorch's tensor model: dtype, shape, stride and storage
 * offset, with element (i0, i1, ...) at storage index {@code offset + Σ i_k·stride_k}.
 *
 * <p>Every factory and op returns a new handle that the caller owns and must {@link #close()}
 * (or leave to a {@link TensorScope}). A handle is one reference to its {@link TensorImpl};
 * views share the storage, and the last close of the last view returns the bytes to the
 * allocator. Using a closed handle throws {@link IllegalStateException} naming the op.
 */
public final class Tensor extends TensorFactories
    implements ElementwiseMethods, AliasMethods, FusedArithmeticMethods, TrigonometricMethods, ActivationMethods, ClampMethods, ReductionMethods, SortingMethods, ScanMethods, ViewMethods, ShapeMethods, DiagonalMethods, RearrangeMethods, IndexingMethods, IndexWriteMethods, IndexFillMethods, IndexPutMethods, LinalgMethods, ProductMethods, StatisticsMethods, RandomMethods,
    BitLevelMethods, AutogradMethods, CompareMethods, InteropMethods, CudaMethods, AutoCloseable {
  private static final VarHandle CLOSED;

  static {
    SharedSecrets.setApiAccess(new PackageAccess());  // Note [Shared secrets]: how org.jtensor.ops reaches wrap, implOf, ...
    try {
      CLOSED = MethodHandles.lookup().findVarHandle(Tensor.class, "closed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final TensorImpl impl;
  @SuppressWarnings("unused") // through CLOSED
  private volatile boolean closed;
  // Who closed this handle, for the error of a later use: the TensorScope that closed it, or where
  // close() was called (a Throwable, under leak detection PARANOID), or CLOSE_CALLED.
  private volatile Object closedBy;
  private static final Object CLOSE_CALLED = new Object();

  private Tensor(TensorImpl impl) {
    this.impl = impl;
    TensorScope.register(this);
  }

  /** A new handle owning one reference to impl (the caller's reference moves into it). */
  static Tensor wrap(TensorImpl impl) {
    return new Tensor(impl);
  }

  /** A new handle for each impl (each caller's reference moves into it). */
  static List<Tensor> wrapAll(List<TensorImpl> impls) {
    List<Tensor> out = new ArrayList<>(impls.size());
    for (TensorImpl t : impls) out.add(new Tensor(t));
    return out;
  }

  /** The impl, for the library's own packages; fails on a closed handle. */
  TensorImpl impl(String op) {
    if (closed) throw closedError(op);
    return impl;
  }

  /** The error of a use after close, saying what closed the handle and how to keep it. */
  IllegalStateException closedError(String op) {
    Object by = closedBy;
    if (by instanceof TensorScope s) {
      Throwable opened = s.openedAt();
      return new IllegalStateException(op + "(): tensor is closed: the TensorScope it was made in has closed"
          + (opened != null ? " (the cause shows where that scope was opened)" : "")
          + ". To use a tensor after its scope, return scope.keep(t) from inside the scope, or TensorScope.escape(t) for "
          + "state that outlives every scope." + (opened != null ? "" : " Run with -Djtensor.leakDetection=PARANOID to "
          + "see where the scope was opened."), opened);
    }
    if (by instanceof Throwable closedAt) {
      return new IllegalStateException(op + "(): tensor is closed: close() was called on it (the cause shows where)", closedAt);
    }
    if (by == CLOSE_CALLED) {
      return new IllegalStateException(op + "(): tensor is closed: close() was called on it (run with "
          + "-Djtensor.leakDetection=PARANOID to see where)");
    }
    return new IllegalStateException(op + "(): tensor is closed");
  }

  /** A tensor argument's impl: a null is refused as a bad argument, a closed tensor as closed. */
  static TensorImpl implOf(Tensor t, String op) {
    if (t == null) throw new IllegalArgumentException(op + "(): expected a Tensor, got null");
    return t.impl(op);
  }

  /** A new handle on this tensor's impl. */
  Tensor same(String op) {
    TensorImpl t = impl(op);
    t.retain();
    return new Tensor(t);
  }

  /** Releases this handle's reference; idempotent. */
  @Override
  public void close() {
    closeBy(LeakDetector.level() == LeakLevel.PARANOID
        ? new Throwable("close() was called here") : CLOSE_CALLED);
  }

  /** close(), recording who closed it (a TensorScope, where close() ran, or CLOSE_CALLED). */
  void closeBy(Object by) {
    if (closed) return;
    closedBy = by;  // before the flag: a use that sees the handle closed sees who closed it
    if (CLOSED.compareAndSet(this, false, true)) impl.release();
  }

  public boolean isClosed() {
    return closed;
  }

  // ---------------------------------------------------------------- metadata

  public long[] shape() {
    return impl("shape").sizes().clone();
  }

  public long size(int dim) {
    TensorImpl t = impl("size");
    return t.sizes()[Shapes.wrapDim("size", dim, t.dim())];
  }

  public long[] stride() {
    return impl("stride").strides().clone();
  }

  public long stride(int dim) {
    TensorImpl t = impl("stride");
    return t.strides()[Shapes.wrapDim("stride", dim, t.dim())];
  }

  public long storageOffset() {
    return impl("storageOffset").storageOffset();
  }

  public int dim() {
    return impl("dim").dim();
  }

  public long numel() {
    return impl("numel").numel();
  }

  public DType dtype() {
    return impl("dtype").dtype();
  }

  public Device device() {
    return impl("device").device();
  }

  public int elementSize() {
    return impl("elementSize").dtype().itemSize();
  }

  public long nbytes() {
    TensorImpl t = impl("nbytes");
    TensorImpl.Meta m = t.meta();
    return m.numel * m.dtype.itemSize();
  }

  public boolean isContiguous() {
    return impl("isContiguous").isContiguous();
  }

  public boolean isView() {
    return impl("isView").base() != null;
  }

  /** The root tensor this is a view of (a new handle), or null when this is not a view. */
  public Tensor base() {
    TensorImpl b = impl("base").base();
    if (b == null) return null;
    b.retain();
    return new Tensor(b);
  }

  /** A new handle to the untyped storage under this tensor. */
  public Storage untypedStorage() {
    return new Storage(impl("untypedStorage").retainMeta().storage);  // the storage retained is the one wrapped
  }

  /** Address of element 0 (storage data + offset · itemsize); 0 for META and empty storages. */
  public long dataPtr() {
    TensorImpl t = impl("dataPtr");
    return t.storage().data() == 0 ? 0 : t.dataAddress();
  }

  /** The version counter shared with every view: bumped by each in-place write. An inference tensor has none. */
  public int version() {
    TensorImpl t = impl("version");
    if (t.storage().isInference()) throw new IllegalStateException("version(): Inference tensors do not track version counter.");
    return t.version();
  }

  /** Whether this tensor was allocated in inference mode, or is a view of one (torch's is_inference; GradMode.inferenceMode()). */
  public boolean isInference() {
    return impl("isInference").storage().isInference();
  }

  /** Whether both tensors sit on the same storage object (torch's is_alias_of). */
  public boolean isAliasOf(Tensor other) {
    return impl("isAliasOf").storage() == implOf(other, "isAliasOf").storage();
  }

  // ---------------------------------------------------------------- type promotion

  public DType resultType(Tensor other) {
    return TypePromotion.start().tensor(impl("resultType")).tensor(implOf(other, "resultType")).result();
  }

  public DType resultType(long scalar) {
    return TypePromotion.start().tensor(impl("resultType")).scalarLong().result();
  }

  public DType resultType(double scalar) {
    return TypePromotion.start().tensor(impl("resultType")).scalarDouble().result();
  }

  public DType resultType(boolean scalar) {
    return TypePromotion.start().tensor(impl("resultType")).scalarBoolean().result();
  }

  /** Shares storage and version counter, but is not a view and carries no autograd history. */
  public Tensor detach() {
    return wrap(impl("detach").detached());
  }

  /** This tensor (a new handle) when already contiguous, else a contiguous copy. */
  public Tensor contiguous() {
    TensorImpl t = impl("contiguous");
    if (t.isContiguous()) return same("contiguous");
    return wrap(DataOps.cloneRecorded(Ops.CLONE, "contiguous", t, t.dtype(), true));
  }

  /** A copy with its own storage; dense layouts (a transpose, say) keep their strides. */
  public Tensor clone() {
    TensorImpl t = impl("clone");
    return wrap(DataOps.cloneRecorded(Ops.CLONE, "clone", t, t.dtype(), false));
  }

  // ---------------------------------------------------------------- data

  /** Copies src (broadcast, converted) into this tensor; under autograd, src's gradient flows back through it. */
  public Tensor copy_(Tensor src) {
    TensorImpl self = impl("copy_"), s = implOf(src, "copy_");
    Recorder.Pending rec = Recorder.active(self, s) ? Recorder.begin(Ops.COPY_, "copy_", new TensorImpl[] {self, s}, null, null, null, self) : null;
    overwrite(rec, () -> DataOps.copyInto("copy_", self, s));
    return this;
  }

  public Tensor fill_(double value) {
    TensorImpl self = impl("fill_");
    overwrite(fillRecord(self), () -> DataOps.fill("fill_", self, value));
    return this;
  }

  public Tensor fill_(long value) {
    return fill_("fill_", value);
  }

  private Tensor fill_(String op, long value) {
    TensorImpl self = impl(op);
    overwrite(fillRecord(self), () -> DataOps.fill(op, self, value));
    return this;
  }

  private static Recorder.Pending fillRecord(TensorImpl self) {
    return Recorder.active(self) ? Recorder.begin(Ops.FILL_, "fill_", new TensorImpl[] {self}, null, null, null, self) : null;
  }

  /** Runs an op that overwrites this tensor, finishing its graph node (if any) after it, or dropping it on failure. */
  private void overwrite(Recorder.Pending rec, Runnable op) {
    Recorder.complete(rec, op, impl, null);
  }

  public Tensor fill_(boolean value) {
    return fill_(value ? 1L : 0L);
  }

  public Tensor zero_() {
    return fill_("zero_", 0L);
  }

  /** This tensor (a new handle) when already of that dtype, else a converted copy. */
  public Tensor to(DType dtype) {
    TensorImpl t = impl("to");
    if (t.dtype() == dtype) return same("to");
    return wrap(DataOps.cloneRecorded(Ops.TO_COPY, "to", t, dtype, false));  // ToCopyBackward0, as PyTorch names it
  }

  /**
   * This tensor (a new handle) when already on device, else a copy there with the same dtype and
   * strides. Moving to CUDA where this process cannot run it throws UnsupportedOperationException
   * naming what is missing (see {@link Cuda#unavailableReason()}). Recorded by autograd: the
   * gradient goes back to this tensor's device.
   */
  public Tensor to(Device device) {
    TensorImpl t = impl("to");
    if (t.device().equals(device)) return same("to");
    if (device.isMeta()) return wrap(DataOps.emptyLike("to", t, t.dtype(), device));
    if (t.device().isMeta()) throw new UnsupportedOperationException("to(): Cannot copy out of meta tensor; no data!");
    return wrap(Recorder.recorded(Ops.TO_COPY, "to", new TensorImpl[] {t}, null, DataOps.cloneAs("to", t, t.dtype(), device, false)));
  }

  /** {@code to(Device.cuda(0))}: torch's {@code t.cuda()}. */
  public Tensor cuda() {
    return to(Device.cuda(0));
  }

  /** {@code to(Device.CPU)}: torch's {@code t.cpu()}. */
  public Tensor cpu() {
    return to(Device.CPU);
  }

  /** Re-points this tensor at storage with new geometry (torch's set_), bounds checked. */
  public Tensor set_(Storage storage, long storageOffset, long[] size, long[] stride) {
    TensorImpl t = impl("set_");
    var s = storage.impl("set_");
    if (!s.device().equals(t.device())) {
      throw new IllegalArgumentException("set_(): storage is on " + s.device() + " but the tensor is on " + t.device());
    }
    StridedViews.checkStridedGeometry("set_", size, stride, storageOffset, t.dtype().itemSize(), s.nbytes());
    t.set(s, storageOffset, size.clone(), stride.clone());
    return this;
  }

  /**
   * Points this tensor at other's data, as PyTorch's {@code t.data = other}: other's storage (shared),
   * offset, sizes and strides, on other's device, while this handle keeps its identity and autograd
   * state (a parameter stays the same leaf; its gradient, if any, is left where it is). other may
   * have another dtype, as in PyTorch: storage, dtype and geometry change in one swap (Note
   * [Metadata snapshot]), and later gradients arrive in the new dtype; a tensor that requires grad
   * takes only a floating-point one. This is how {@code Module.to(Device)} and {@code Module.to(DType)}
   * change parameters in place.
   */
  public Tensor setData(Tensor other) {
    TensorImpl t = impl("setData"), o = implOf(other, "setData");
    if (o == t) return this;
    TensorImpl.Meta data = o.retainMeta();  // one snapshot of other, its storage kept while t takes it
    try {
      if (data.dtype != t.dtype() && !data.dtype.isFloatingPoint() && t.requiresGrad()) {
        throw new IllegalArgumentException("setData(): data set to a tensor that requires gradients must be floating point or complex "
            + "dtype (got " + data.dtype + ")");
      }
      t.set(data.storage, data.dtype, data.offset, data.sizes.clone(), data.strides.clone());
    } finally {
      data.storage.release();
    }
    AutogradMeta.retargetAccumulator(t);  // kept, not made again: the leaf's hooks live on it, as PyTorch keeps them
    return this;
  }

  /** PyTorch's repr: {@code tensor([[0., 1.], [2., 3.]])}, with dtype, size and device as torch adds them. */
  @Override
  public String toString() {
    if (closed) return "tensor(<closed>)";
    return TensorFormatter.format(impl);
  }
}
