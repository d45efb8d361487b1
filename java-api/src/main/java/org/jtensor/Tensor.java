package org.jtensor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jtensor.access.SharedSecrets;
import org.jtensor.cuda.Cuda;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.LeakLevel;
import org.jtensor.ops.ArrayInterop;
import org.jtensor.ops.AutogradMeta;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.Einsum;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Factories;
import org.jtensor.ops.IndexAlongOps;
import org.jtensor.ops.Autocasting;
import org.jtensor.ops.LinearOp;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.Recorder;
import org.jtensor.ops.TensorFormatter;
import org.jtensor.ops.TypePromotion;
import org.jtensor.ops.StridedViews;
import org.jtensor.ops.ViewOps;

/**
 * A strided view over a flat storage, PyTorch's tensor model: dtype, shape, stride and storage
 * offset, with element (i0, i1, ...) at storage index {@code offset + Σ i_k·stride_k}.
 *
 * <p>Every factory and op returns a new handle that the caller owns and must {@link #close()}
 * (or leave to a {@link TensorScope}). A handle is one reference to its {@link TensorImpl};
 * views share the storage, and the last close of the last view returns the bytes to the
 * allocator. Using a closed handle throws {@link IllegalStateException} naming the op.
 */
public final class Tensor
    implements ElementwiseMethods, ClampMethods, ReductionMethods, ViewMethods, RearrangeMethods, IndexingMethods, LinalgMethods, RandomMethods,
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

  // ---------------------------------------------------------------- factories

  public static Tensor empty(long... shape) {
    return empty(shape, DType.FLOAT32);
  }

  public static Tensor empty(long[] shape, DType dtype) {
    return empty(shape, dtype, Device.CPU);
  }

  public static Tensor empty(long[] shape, DType dtype, Device device) {
    return wrap(DataOps.empty("empty", shape, dtype, device));
  }

  /** An uninitialized tensor with explicit strides (torch.empty_strided). */
  public static Tensor emptyStrided(long[] shape, long[] stride, DType dtype, Device device) {
    if (shape.length != stride.length) {
      throw new IllegalArgumentException("emptyStrided(): mismatch in length of strides and shape");
    }
    for (long s : stride) if (s < 0) throw new IllegalArgumentException("emptyStrided(): negative stride " + s);
    return wrap(DataOps.emptyStrided("emptyStrided", shape, stride, dtype, device));
  }

  public static Tensor zeros(long... shape) {
    return zeros(shape, DType.FLOAT32);
  }

  public static Tensor zeros(long[] shape, DType dtype) {
    return zeros(shape, dtype, Device.CPU);
  }

  public static Tensor zeros(long[] shape, DType dtype, Device device) {
    return wrap(Factories.full("zeros", shape, 0L, dtype, device));
  }

  public static Tensor ones(long... shape) {
    return ones(shape, DType.FLOAT32);
  }

  public static Tensor ones(long[] shape, DType dtype) {
    return ones(shape, dtype, Device.CPU);
  }

  public static Tensor ones(long[] shape, DType dtype, Device device) {
    return wrap(Factories.full("ones", shape, 1L, dtype, device));
  }

  /** Filled with value: float32 for a float value, as torch.full(shape, 1.5). */
  public static Tensor full(long[] shape, double value) {
    return full(shape, value, DType.DEFAULT_FLOAT);
  }

  /** Filled with an integer value: int64, as torch.full(shape, 2). */
  public static Tensor full(long[] shape, long value) {
    return full(shape, value, DType.INT64, Device.CPU);
  }

  public static Tensor full(long[] shape, double value, DType dtype) {
    return full(shape, value, dtype, Device.CPU);
  }

  public static Tensor full(long[] shape, double value, DType dtype, Device device) {
    return wrap(Factories.full("full", shape, value, dtype, device));
  }

  /** full with an exact integer value (int64 values beyond 2^53 survive). */
  public static Tensor full(long[] shape, long value, DType dtype, Device device) {
    return wrap(Factories.full("full", shape, value, dtype, device));
  }

  public static Tensor emptyLike(Tensor t) {
    TensorImpl s = implOf(t, "emptyLike");
    return wrap(DataOps.emptyLike("emptyLike", s, s.dtype(), s.device()));
  }

  public static Tensor zerosLike(Tensor t) {
    return emptyLike(t).fill_(0L);
  }

  public static Tensor onesLike(Tensor t) {
    return emptyLike(t).fill_(1L);
  }

  /** 0, 1, ..., end - 1 as int64. */
  public static Tensor arange(long end) {
    return arange(0, end, 1, DType.INT64);
  }

  public static Tensor arange(long start, long end) {
    return arange(start, end, 1, DType.INT64);
  }

  public static Tensor arange(long start, long end, long step, DType dtype) {
    return wrap(Factories.arange(start, end, step, dtype, Device.CPU));
  }

  public static Tensor arange(double start, double end, double step, DType dtype) {
    return wrap(Factories.arange(start, end, step, dtype, Device.CPU));
  }

  public static Tensor linspace(double start, double end, long steps) {
    return linspace(start, end, steps, DType.FLOAT32);
  }

  public static Tensor linspace(double start, double end, long steps, DType dtype) {
    return wrap(Factories.linspace(start, end, steps, dtype, Device.CPU));
  }

  public static Tensor eye(long n) {
    return eye(n, n, DType.FLOAT32);
  }

  public static Tensor eye(long n, long m, DType dtype) {
    return wrap(Factories.eye(n, m, dtype, Device.CPU));
  }

  // fromArray(data) is 1-D (torch.tensor of a list); fromArray(data, shape) takes the shape as given,
  // so an empty one, fromArray(new float[] {3}, new long[0]), is 0-dim (torch.tensor(3.)). Each
  // element type has both overloads: a call with no shape never reaches the varargs form, so an
  // empty shape there can only have been written out.

  /** A 1-D float32 tensor holding data. */
  public static Tensor fromArray(float[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A float32 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(float[] data, long... shape) {
    return wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.FLOAT32));
  }

  /** A 1-D float64 tensor holding data. */
  public static Tensor fromArray(double[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A float64 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(double[] data, long... shape) {
    return wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.FLOAT64));
  }

  /** A 1-D int64 tensor holding data. */
  public static Tensor fromArray(long[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int64 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(long[] data, long... shape) {
    return wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT64));
  }

  /** A 1-D int32 tensor holding data. */
  public static Tensor fromArray(int[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int32 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(int[] data, long... shape) {
    return wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT32));
  }

  /** A 1-D int16 tensor holding data. */
  public static Tensor fromArray(short[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int16 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(short[] data, long... shape) {
    return wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT16));
  }

  /** A 1-D int8 tensor holding data. */
  public static Tensor fromArray(byte[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A int8 tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(byte[] data, long... shape) {
    return wrap(Factories.fromArray(data, nonNull(data).length, shapeArg(shape), DType.INT8));
  }

  /** A 1-D bool tensor holding data. */
  public static Tensor fromArray(boolean[] data) {
    return fromArray(data, nonNull(data).length);
  }

  /** A bool tensor of the given shape holding data (0-dim for an empty shape, with one element). */
  public static Tensor fromArray(boolean[] data, long... shape) {
    return wrap(Factories.fromBooleans(nonNull(data), shapeArg(shape)));
  }

  /** A [rows, cols] float32 tensor from a rectangular 2-D array (a ragged one is refused); each row is copied once. */
  public static Tensor fromArray(float[][] data) {
    return wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.FLOAT32));
  }

  public static Tensor fromArray(float[][][] data) {
    return wrap(ArrayInterop.fromNested(nonNull(data), 3, DType.FLOAT32));
  }

  public static Tensor fromArray(double[][] data) {
    return wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.FLOAT64));
  }

  public static Tensor fromArray(double[][][] data) {
    return wrap(ArrayInterop.fromNested(nonNull(data), 3, DType.FLOAT64));
  }

  public static Tensor fromArray(long[][] data) {
    return wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.INT64));
  }

  public static Tensor fromArray(int[][] data) {
    return wrap(ArrayInterop.fromNested(nonNull(data), 2, DType.INT32));
  }

  /**
   * A contiguous CPU tensor of dtype and shape over a direct buffer's bytes from its position,
   * with no copy (torch.frombuffer): writes through either are seen by the other, and the buffer
   * stays reachable while any view lives. Read-only when the buffer is. The data must be aligned
   * to the dtype's size. With no shape, a 1-D tensor over every remaining byte (torch.frombuffer's
   * default count). The bytes are read in the platform's order (little-endian), whatever the
   * buffer's order() says. A memory-mapped file must not be truncated while a tensor over it
   * lives: native kernels reading past the file's new end fault (SIGBUS), which the JVM turns
   * into an InternalError only for its own buffer accesses. Keeping the buffer keeps its memory
   * only when the buffer owns it (as {@link Storage#wrap(java.nio.ByteBuffer)} says): for a JavaCPP
   * Pointer's asByteBuffer(), use Storage.wrap(pointer.address(), n, pointer::deallocate) and set_.
   */
  public static Tensor fromBuffer(java.nio.ByteBuffer direct, DType dtype, long... shape) {
    return wrap(ArrayInterop.fromBuffer(direct, dtype, shape));
  }

  private static long[] shapeArg(long[] shape) {
    if (shape == null) throw new IllegalArgumentException("fromArray(): argument 'shape' must not be null");
    return shape;
  }

  private static <A> A nonNull(A data) {
    if (data == null) throw new IllegalArgumentException("fromArray(): argument 'data' must not be null");
    return data;
  }

  /** A 0-dim tensor: a double is float32 (PyTorch's default dtype), as torch.tensor(2.5). */
  public static Tensor scalar(double v) {
    return scalar(v, DType.DEFAULT_FLOAT);
  }

  /**
   * torch.tensor(v, dtype=dtype): a floating dtype rounds v, to infinity past its range (1e39 in
   * float32 is inf; only full checks the range); an integral one refuses a value it cannot hold.
   */
  public static Tensor scalar(double v, DType dtype) {
    if (dtype.isFloatingPoint() && Math.abs(v) > dtype.maxFinite() && !Double.isInfinite(v)) {
      try (Tensor d = full(new long[0], v, DType.FLOAT64)) {
        return d.to(dtype);
      }
    }
    return full(new long[0], v, dtype);
  }

  public static Tensor scalar(long v) {
    return full(new long[0], v, DType.INT64, Device.CPU);
  }

  public static Tensor scalar(boolean v) {
    return full(new long[0], v ? 1L : 0L, DType.BOOL, Device.CPU);
  }

  /** Uniform [0, 1) float32 from the default generator (Generator.manualSeed seeds it). */
  public static Tensor rand(long... shape) {
    return rand(shape, Generator.defaultGenerator());
  }

  /** Standard normal float32 from the default generator. */
  public static Tensor randn(long... shape) {
    return randn(shape, Generator.defaultGenerator());
  }

  public static Tensor randint(long low, long high, long... shape) {
    return randint(low, high, shape, Generator.defaultGenerator());
  }

  public static Tensor randperm(long n) {
    return randperm(n, Generator.defaultGenerator());
  }

  public static Tensor rand(long[] shape, Generator g) {
    return rand(shape, DType.FLOAT32, g);
  }

  public static Tensor rand(long[] shape, DType dtype, Generator g) {
    return wrap(Factories.random(shape, dtype, g, false));
  }

  public static Tensor randn(long[] shape, Generator g) {
    return randn(shape, DType.FLOAT32, g);
  }

  public static Tensor randn(long[] shape, DType dtype, Generator g) {
    return wrap(Factories.random(shape, dtype, g, true));
  }

  /** Integers uniform in [low, high), int64. */
  public static Tensor randint(long low, long high, long[] shape, Generator g) {
    return randint(low, high, shape, DType.INT64, g);
  }

  public static Tensor randint(long low, long high, long[] shape, DType dtype, Generator g) {
    return wrap(Factories.randint(low, high, shape, dtype, g));
  }

  /**
   * A random permutation of 0..n-1, int64 (torch.randperm): n uniform draws from g are the sort
   * keys, so the permutation depends only on the generator's state, never on the thread count.
   */
  public static Tensor randperm(long n, Generator g) {
    if (n < 0) throw new IllegalArgumentException("randperm(): n must be non-negative, got " + n);
    if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("randperm(): n must fit a Java array, got " + n);
    double[] keys;
    try (Tensor k = rand(new long[] {n}, DType.FLOAT64, g)) {
      keys = k.toDoubleArray();
    }
    Integer[] order = new Integer[(int) n];
    for (int i = 0; i < order.length; i++) order[i] = i;
    java.util.Arrays.sort(order, (a, b) -> Double.compare(keys[a], keys[b]));
    long[] perm = new long[order.length];
    for (int i = 0; i < perm.length; i++) perm[i] = order[i];
    return fromArray(perm);
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
    AutogradMeta m = AutogradMeta.peek(t);
    if (m != null) {
      synchronized (m) {
        m.accumulator = null;  // made again from the new sizes and device on the next backward
      }
    }
    return this;
  }

  /** The one element's value (item()); int64 values beyond 2^53 need {@link #itemLong()}. */
  public double item() {
    TensorImpl t = checkOne("item");
    return Dispatcher.backend(t.device()).loadDouble("item", t, 0);
  }

  public long itemLong() {
    TensorImpl t = checkOne("itemLong");
    return Dispatcher.backend(t.device()).loadLong("itemLong", t, 0);
  }

  private TensorImpl checkOne(String op) {
    TensorImpl t = impl(op);
    if (t.numel() != 1) {
      throw new IllegalArgumentException(op + "(): a Tensor with " + t.numel() + " elements cannot be converted to Scalar");
    }
    return t;
  }

  /** The element at a logical index, through offset + Σ index·stride. */
  public double getDouble(long... index) {
    TensorImpl t = impl("getDouble");
    return Dispatcher.backend(t.device()).loadDouble("getDouble", t, DataOps.elementOffset("getDouble", t, index));
  }

  public long getLong(long... index) {
    TensorImpl t = impl("getLong");
    return Dispatcher.backend(t.device()).loadLong("getLong", t, DataOps.elementOffset("getLong", t, index));
  }

  /** x[index] = value (a Python float): refused when the dtype cannot hold it (NaN into an integer, 1e39 into float32), as PyTorch's. */
  public Tensor setDouble(double value, long... index) {
    TensorImpl t = impl("setDouble");
    t.dtype().checkFits("setDouble", value);
    Dispatcher.backend(t.device()).store("setDouble", t, DataOps.elementOffset("setDouble", t, index), value);
    t.bumpVersion();
    return this;
  }

  /** x[index] = value (a Python int): refused when the dtype cannot hold it (300 into int8; -1 into uint8 is 255), as PyTorch's. */
  public Tensor setLong(long value, long... index) {
    TensorImpl t = impl("setLong");
    t.dtype().checkFits("setLong", value);
    Dispatcher.backend(t.device()).store("setLong", t, DataOps.elementOffset("setLong", t, index), value);
    t.bumpVersion();
    return this;
  }

  public float[] toFloatArray() {
    return toArray("toFloatArray", DType.FLOAT32, float[]::new);
  }

  public double[] toDoubleArray() {
    return toArray("toDoubleArray", DType.FLOAT64, double[]::new);
  }

  public long[] toLongArray() {
    return toArray("toLongArray", DType.INT64, long[]::new);
  }

  public int[] toIntArray() {
    return toArray("toIntArray", DType.INT32, int[]::new);
  }

  public boolean[] toBooleanArray() {
    byte[] b = toArray("toBooleanArray", DType.BOOL, byte[]::new);
    boolean[] a = new boolean[b.length];
    for (int i = 0; i < b.length; i++) a[i] = b[i] != 0;
    return a;
  }

  /** Every element, converted to `as`, in row-major order, in a new array made by `make`. */
  private <A> A toArray(String op, DType as, java.util.function.IntFunction<A> make) {
    TensorImpl t = impl(op);
    TensorImpl.Meta m = t.meta();
    A a = make.apply(DataOps.checkedArrayLength(op, m.numel));
    TensorImpl frozen = t.frozen(op, m);  // the array's length and the bytes from one snapshot
    try {
      DataOps.readAll(op, frozen, as, a);
    } finally {
      frozen.release();
    }
    return a;
  }

  /** PyTorch's repr: {@code tensor([[0., 1.], [2., 3.]])}, with dtype, size and device as torch adds them. */
  @Override
  public String toString() {
    if (closed) return "tensor(<closed>)";
    return TensorFormatter.format(impl);
  }
}
