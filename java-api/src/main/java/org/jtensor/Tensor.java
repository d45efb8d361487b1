package org.jtensor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jtensor.access.SharedSecrets;
import org.jtensor.cuda.Cuda;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.LeakLevel;
import org.jtensor.ops.Searching;
import org.jtensor.ops.AutogradMeta;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.Einsum;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.IndexAlongOps;
import org.jtensor.ops.Autocasting;
import org.jtensor.ops.LinearOp;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.Recorder;
import org.jtensor.ops.TensorFormatter;
import org.jtensor.ops.TypePromotion;
import org.jtensor.ops.StridedViews;

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
    implements ElementwiseMethods, TrigonometricMethods, ActivationMethods, ClampMethods, ReductionMethods, ScanMethods, ViewMethods, ShapeMethods, DiagonalMethods, RearrangeMethods, IndexingMethods, IndexWriteMethods, IndexFillMethods, IndexPutMethods, LinalgMethods, ProductMethods, StatisticsMethods, RandomMethods,
    AutogradMethods, CompareMethods, InteropMethods, CudaMethods, AutoCloseable {
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
    return t.numel() * t.dtype().itemSize();
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

  /** The version counter shared with every view: bumped by each in-place write. */
  public int version() {
    return impl("version").version();
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

  /** Concatenates along dim 0. */
  /**
   * torch.einsum: "ij,jk->ik", "bhqd,bhkd->bhqk", "ii->i", "...ij,...jk" (implicit output: the
   * ellipsis dims, then the letters used once, sorted); contractions through batched GEMMs,
   * differentiable. PyTorch's refusals for bad equations and shapes.
   */
  public static Tensor einsum(String equation, Tensor... operands) {
    return Einsum.einsum(equation, operands);
  }

  public static Tensor cat(java.util.List<Tensor> tensors) {
    return cat(tensors, 0);
  }

  /** Concatenates along dim; dtypes promote, shapes match except along dim. */
  public static Tensor cat(java.util.List<Tensor> tensors, int dim) {
    return wrap(IndexAlongOps.cat(tensors, dim));
  }

  /** torch.stack(tensors): along a new dim 0. */
  public static Tensor stack(java.util.List<Tensor> tensors) {
    return stack(tensors, 0);
  }

  /** Joins same-shaped tensors along a new dim. */
  public static Tensor stack(java.util.List<Tensor> tensors, int dim) {
    if (tensors == null) throw new IllegalArgumentException("stack(): tensors must not be null");
    if (tensors.isEmpty()) throw new IllegalArgumentException("stack(): expects a non-empty TensorList");
    for (Tensor t : tensors) implOf(t, "stack");  // a null entry is a bad argument, a closed one closed
    long[] shape = tensors.get(0).shape();
    int d = Shapes.wrapDim("stack", dim, shape.length + 1);  // a new dim: one more place than the inputs have
    List<Tensor> parts = new ArrayList<>(tensors.size());
    try {
      for (Tensor t : tensors) {
        if (!java.util.Arrays.equals(shape, t.shape())) {
          throw new IllegalArgumentException("stack(): stack expects each tensor to be equal size, but got "
              + Shapes.str(shape) + " at entry 0 and " + Shapes.str(t.shape()) + " at entry " + tensors.indexOf(t));
        }
        parts.add(t.unsqueeze(d));
      }
      return wrap(IndexAlongOps.cat("stack", parts, d));
    } finally {
      for (Tensor p : parts) p.close();
    }
  }

  /** torch.nn.functional.linear: input @ weight.T + bias (bias may be null). */
  public static Tensor linear(Tensor input, Tensor weight, Tensor bias) {
    return Autocasting.apply("linear", c -> linearAs(c[0], c[1], c[2]), input, weight, bias);
  }

  private static Tensor linearAs(Tensor input, Tensor weight, Tensor bias) {
    TensorImpl w = implOf(weight, "linear"), in = implOf(input, "linear");
    if (in.dim() == 0 || w.dim() == 0) {  // PyTorch's words
      throw new IllegalArgumentException("linear(): both arguments to linear need to be at least 1D, but they are " + in.dim() + "D and "
          + w.dim() + "D");
    }
    if (w.dim() != 2 && w.dim() != 1) {
      throw new IllegalArgumentException("linear(): weight must be 1D or 2D, got " + w.dim() + "D");
    }
    if (w.dim() == 2 && bias != null && implOf(bias, "linear").dim() != 1) {
      if (bias.dtype() != w.dtype()) throw org.jtensor.ops.LinearOp.biasDtype(implOf(bias, "linear"), w);
      if (in.dim() == 2) {  // PyTorch's addmm: the bias expands to [rows, out] (a [2, 1, 4] bias is refused)
        org.jtensor.ops.LinalgOps.requireBroadcastsTo("linear", bias.shape(), new long[] {in.sizes()[0], w.sizes()[0]});
      }
      try (Tensor wt = weight.t(); Tensor y = input.matmul(wt)) {
        return y.add(bias);  // a bias that is not a row: broadcast as PyTorch does, op by op
      }
    }
    if (w.dim() == 2) return wrap(LinearOp.linear(implOf(input, "linear"), w, bias == null ? null : implOf(bias, "linear")));
    try (Tensor wt = weight.t(); Tensor y = input.matmul(wt)) {
      return bias == null ? y.contiguous() : y.add(bias);
    }
  }

  /** where(condition, a, b): a where condition is true, else b; all three broadcast together. */
  public static Tensor where(Tensor condition, Tensor a, Tensor b) {
    return wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(implOf(condition, "where")),
        Operand.of(implOf(a, "where")), Operand.of(implOf(b, "where"))));
  }

  /** a where condition is true, else b; the result is the default float dtype, shaped as condition. */
  public static Tensor where(Tensor condition, double a, double b) {
    DType.DEFAULT_FLOAT.checkFits("where", b);  // refused as where, not as the full() below
    try (Tensor fill = full(implOf(condition, "where").sizes().clone(), b)) {
      return wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(implOf(condition, "where")),
          Operand.of(a), Operand.of(fill.impl("where"))));
    }
  }

  /** a where condition is true, else b: where(condition, scalar, tensor), as torch.where(c, 1.0, x). */
  public static Tensor where(Tensor condition, double a, Tensor b) {
    implOf(condition, "where");
    try (Tensor not = condition.logicalNot()) {
      return where(not, b, a);
    }
  }

  public static Tensor where(Tensor condition, Tensor a, double b) {
    return wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(implOf(condition, "where")),
        Operand.of(implOf(a, "where")), Operand.of(b)));
  }

  /** where with Python ints: int64, shaped as condition, as torch.where(c, 1, 0). */
  public static Tensor where(Tensor condition, long a, long b) {
    try (Tensor fill = full(implOf(condition, "where").sizes().clone(), b)) {
      return wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(implOf(condition, "where")),
          Operand.of(a), Operand.of(fill.impl("where"))));
    }
  }

  /** a where condition is true, else the Python int b: a's dtype when integral, as torch.where(c, int8, 0). */
  public static Tensor where(Tensor condition, Tensor a, long b) {
    return wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(implOf(condition, "where")),
        Operand.of(implOf(a, "where")), Operand.of(b)));
  }

  /** the Python int a where condition is true, else b, as torch.where(c, 0, int8). */
  public static Tensor where(Tensor condition, long a, Tensor b) {
    implOf(condition, "where");
    try (Tensor not = condition.logicalNot()) {
      return where(not, b, a);
    }
  }

  // ---- searchsorted and bucketize (ops.Searching): int64 positions (int32 when asked), no gradient ----
  /** torch.searchsorted: where each value goes in sortedSequence (1-D, or a row per leading index of values), the first such place. */
  public static Tensor searchsorted(Tensor sortedSequence, Tensor values) { return searchsorted(sortedSequence, values, false, false, null, null); }
  /** right: the last such place (PyTorch's right=True). */
  public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean right) { return searchsorted(sortedSequence, values, false, right, null, null); }
  /** PyTorch's keywords in its order: side ("left" or "right") and sorter (int64, each row's sorting positions) may be null. */
  public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean outInt32, boolean right, String side, Tensor sorter) {
    return Searching.searchsorted("searchsorted", sortedSequence, values, outInt32, right, side, sorter);
  }
  /** A scalar value (a 0-dim result), searched in the result type of sortedSequence and value. */
  public static Tensor searchsorted(Tensor sortedSequence, double value, boolean right) {
    implOf(sortedSequence, "searchsorted");
    try (Tensor v = scalar(value, sortedSequence.resultType(value))) { return searchsorted(sortedSequence, v, right); }
  }
  public static Tensor searchsorted(Tensor sortedSequence, long value, boolean right) {
    implOf(sortedSequence, "searchsorted");
    try (Tensor v0 = scalar(value); Tensor v = v0.to(sortedSequence.resultType(value))) { return searchsorted(sortedSequence, v, right); }
  }
  /** torch.bucketize: searchsorted of input's values in 1-D boundaries. */
  public static Tensor bucketize(Tensor input, Tensor boundaries, boolean right) { return bucketize(input, boundaries, false, right); }
  public static Tensor bucketize(Tensor input, Tensor boundaries, boolean outInt32, boolean right) { return Searching.bucketize(input, boundaries, outInt32, right); }

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
   * state (a parameter stays the same leaf; its gradient, if any, is left where it is). The dtypes
   * must match. This is how {@code Module.to(Device)} moves parameters in place.
   */
  public Tensor setData(Tensor other) {
    TensorImpl t = impl("setData"), o = implOf(other, "setData");
    if (t.dtype() != o.dtype()) {
      throw new IllegalArgumentException("setData(): the new data's dtype " + o.dtype() + " differs from the tensor's " + t.dtype());
    }
    if (o == t) return this;
    TensorImpl.Meta data = o.retainMeta();  // one snapshot of other, its storage kept while t takes it
    try {
      t.set(data.storage, data.offset, data.sizes.clone(), data.strides.clone());
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
