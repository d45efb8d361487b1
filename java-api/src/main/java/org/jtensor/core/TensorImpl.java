package org.jtensor.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jtensor.DType;
import org.jtensor.Device;

/**
 * A tensor's metadata over a storage: dtype, sizes, strides and storage offset (in elements),
 * with cached numel and contiguity. The reference count lives here (intrusive); {@link Tensor}
 * handles share one TensorImpl.
 *
 * <p>Note [View lifetime] A view retains its storage and its root base. Closing the base
 * therefore never frees bytes a view can still reach; the last release of the last view frees
 * the storage. Views share the version counter of their base, so an in-place write through any
 * alias is visible to all of them as a new version.
 *
 * <p>Note [Metadata snapshot] The storage reference and the geometry are one immutable {@link Meta},
 * replaced whole by set_ (one atomic swap), so a reader of {@link #meta()} sees a whole set_ or
 * none. Whatever takes a reference to the storage (a view, detach, untypedStorage) takes it through
 * {@link #retainMeta()}: the storage it retains is the one it wraps, whatever another thread re-points.
 */
public final class TensorImpl extends RefCounted {
  /**
   * A storage, the dtype its bytes are read as and the geometry over it (sizes and strides in
   * elements, offset, numel, contiguity), never changed: whatever sizes a byte access reads the
   * dtype from the same snapshot as the storage (setData may change both at once).
   */
  public static final class Meta {
    /** The tensor this is a snapshot of (each snapshot belongs to one tensor). */
    public final TensorImpl owner;
    public final StorageImpl storage;
    public final DType dtype;
    public final long[] sizes, strides;
    public final long offset, numel;
    public final boolean contiguous;

    Meta(TensorImpl owner, StorageImpl storage, DType dtype, long[] sizes, long[] strides, long offset) {
      this.owner = owner;
      this.storage = storage;
      this.dtype = dtype;
      this.sizes = sizes;
      this.strides = strides;
      this.offset = offset;
      this.numel = Shapes.numel("tensor", sizes);
      this.contiguous = Shapes.isContiguous(sizes, strides);
    }

    /** The storage bytes these elements reach from offset, read as this snapshot's dtype. */
    public long bytesNeeded(String op) {
      return Shapes.storageBytesNeeded(op, sizes, strides, offset, dtype.itemSize());
    }
  }

  // Not volatile: a Meta is immutable with final fields, so any thread that sees the reference sees
  // the whole snapshot (JLS 17.5), and a volatile read in every accessor kept the JIT from merging
  // the small-op path's repeated reads (measured: +10-30% on a 4-element add). set() swaps it
  // atomically; an op sees the value as of its first read, refreshed at every hold's CAS at latest.
  private Meta meta;
  private final TensorImpl versionOwner;  // holds the counter shared with views and detach(): this or its origin
  @SuppressWarnings("unused") // through VERSION
  private volatile int versionCount;
  private final TensorImpl base;  // the root base of a view, retained; null when not a view
  private volatile AutogradSlot autograd;  // null until the tensor takes part in autograd
  private volatile Object viewCreation;  // a view's PyTorch CreationMeta (ops.ViewCreation), null for DEFAULT; views of it inherit it

  private static final VarHandle VERSION, META;

  static {
    try {
      VERSION = MethodHandles.lookup().findVarHandle(TensorImpl.class, "versionCount", int.class);
      META = MethodHandles.lookup().findVarHandle(TensorImpl.class, "meta", Meta.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private TensorImpl(StorageImpl storage, DType dtype, long[] sizes, long[] strides, long offset,
                     TensorImpl versionOwner, TensorImpl base) {
    this.versionOwner = versionOwner == null ? this : versionOwner;
    this.base = base;
    this.meta = new Meta(this, storage, dtype, sizes, strides, offset);
  }

  /** A tensor owning a fresh reference to storage (the caller's reference moves into it). */
  public static TensorImpl create(StorageImpl storage, DType dtype, long[] sizes, long[] strides, long offset) {
    return new TensorImpl(storage, dtype, sizes, strides, offset, null, null);
  }

  /** A view of this tensor's storage with new geometry; checked by the caller. */
  public TensorImpl view(long[] newSizes, long[] newStrides, long newOffset) {
    Meta m = meta;
    return viewOf("view", m, m.dtype, newSizes, newStrides, newOffset);
  }

  /** A view whose geometry the caller (op, as the user called it) computed from m, a snapshot of this tensor's {@link #meta()}. */
  public TensorImpl viewOf(String op, Meta m, long[] newSizes, long[] newStrides, long newOffset) {
    return viewOf(op, m, m.dtype, newSizes, newStrides, newOffset);
  }

  /**
   * A view (of newDtype) over m's storage, m being the snapshot the caller computed the geometry
   * from: the view and its geometry agree even when set_ on another thread has re-pointed this
   * tensor since (the view then sees the tensor as it was, as if made before the set_). Throws
   * IllegalStateException naming op (when given) if the tensor was closed, or that storage freed, meanwhile.
   */
  public TensorImpl viewOf(String op, Meta m, DType newDtype, long[] newSizes, long[] newStrides, long newOffset) {
    TensorImpl root = base != null ? base : this;
    String by = op == null ? "" : op + "(): ";
    if (!root.tryRetain()) throw new IllegalStateException(by + "tensor is closed (by another thread, as the op began)");
    if (!m.storage.tryRetain()) {
      root.release();
      throw new IllegalStateException(by + "the tensor was re-pointed by set_ on another thread and its former storage freed");
    }
    try {
      TensorImpl v = new TensorImpl(m.storage, newDtype, newSizes, newStrides, newOffset, versionOwner, root);
      v.viewCreation = viewCreation;  // a view of a view made under no_grad (or cut by split) keeps its rule, as PyTorch's
      return v;
    } catch (RuntimeException e) {  // a geometry the caller did not check (a numel past 2^63): nothing kept
      m.storage.release();
      root.release();
      throw e;
    }
  }

  /**
   * m's bytes read as newDtype (view(dtype)): the same storage and version counter, but no view to
   * autograd (PyTorch's _base is None), so an in-place op on it never rewrites this tensor's history.
   */
  public TensorImpl reinterpretOf(String op, Meta m, DType newDtype, long[] newSizes, long[] newStrides, long newOffset) {
    if (!m.storage.tryRetain()) {
      throw new IllegalStateException(op + "(): the tensor was re-pointed by set_ on another thread and its former storage freed");
    }
    try {
      return new TensorImpl(m.storage, newDtype, newSizes, newStrides, newOffset, versionOwner, null);
    } catch (RuntimeException e) {
      m.storage.release();
      throw e;
    }
  }

  /** New geometry over the same storage that is not a view (PyTorch's _unsafe_view). */
  public TensorImpl unsafeView(long[] newSizes, long[] newStrides, long newOffset) {
    Meta m = retainMeta();
    try {
      return new TensorImpl(m.storage, m.dtype, newSizes, newStrides, newOffset, null, null);
    } catch (RuntimeException e) {
      m.storage.release();
      throw e;
    }
  }

  /** A tensor over the same storage, geometry and version counter that is not a view (detach()). */
  public TensorImpl detached() {
    Meta m = retainMeta();
    return new TensorImpl(m.storage, m.dtype, m.sizes.clone(), m.strides.clone(), m.offset, versionOwner, null);
  }

  /**
   * The current metadata with a reference taken on its storage for the caller. A set_ on another
   * thread may release the storage just read; then the new one is read and retained instead, so
   * the storage retained is always the one returned. Throws only when this tensor itself is closed.
   */
  public Meta retainMeta() {
    for (;;) {
      Meta m = (Meta) META.getAcquire(this);
      if (m.storage.tryRetain()) return m;
      if (META.getAcquire(this) == m) throw new IllegalStateException(describe() + ": its storage was already released (the tensor is closed)");
    }
  }

  /**
   * A private view of this tensor as it is now: no other thread holds it, so no set_ re-points it,
   * and an op that reads its input only through it sees one geometry over one storage. The caller
   * releases it; autograd still records on this tensor.
   */
  public TensorImpl frozen(String op) {
    return frozen(op, meta);
  }

  /** frozen(op) of a snapshot m of this tensor that the caller already read; op names the op in the error of a close racing it. */
  public TensorImpl frozen(String op, Meta m) {
    return viewOf(op, m, m.sizes, m.strides, m.offset);
  }

  /**
   * frozen() of each of an op's operands: null stays null, and a tensor passed twice (x.matmul(x))
   * gets one view for both, so the op sees one geometry of it. Release with {@link #releaseFrozen}.
   */
  public static TensorImpl[] frozen(String op, TensorImpl... ts) {
    TensorImpl[] f = new TensorImpl[ts.length];
    try {
      for (int i = 0; i < ts.length; i++) {
        if (ts[i] == null) continue;
        for (int j = 0; j < i && f[i] == null; j++) if (ts[j] == ts[i]) f[i] = f[j];
        if (f[i] == null) f[i] = ts[i].frozen(op);
      }
      return f;
    } catch (RuntimeException e) {
      releaseFrozen(f);
      throw e;
    }
  }

  /** Releases what {@link #frozen(String, TensorImpl...)} made: each distinct view once. */
  public static void releaseFrozen(TensorImpl[] f) {
    for (int i = 0; i < f.length; i++) {
      boolean seen = false;
      for (int j = 0; j < i; j++) seen |= f[j] == f[i];
      if (f[i] != null && !seen) f[i].release();
    }
  }

  /** The storage and geometry as one snapshot: read it once where an op needs more than one of them. */
  public Meta meta() {
    return meta;
  }

  /** Re-points this tensor at a storage (torch's set_); the caller checked the bounds. */
  public void set(StorageImpl newStorage, long offset, long[] newSizes, long[] newStrides) {
    set(newStorage, meta.dtype, offset, newSizes, newStrides);
  }

  /**
   * Re-points this tensor at a storage read as newDtype (setData of another dtype): storage, dtype
   * and geometry change in one swap, so no reader pairs the new dtype with the old bytes.
   */
  public void set(StorageImpl newStorage, DType newDtype, long offset, long[] newSizes, long[] newStrides) {
    Meta next = new Meta(this, newStorage, newDtype, newSizes, newStrides, offset);  // may throw (numel overflow): nothing taken yet
    newStorage.retain();
    Meta old = (Meta) META.getAndSet(this, next);  // each old snapshot is swapped out, and released, exactly once
    old.storage.release();
    bumpVersion();
  }

  public StorageImpl storage() {
    return meta.storage;
  }

  /** The dtype now; an op that sizes a byte access with it reads it from the same {@link #meta()} as the storage. */
  public DType dtype() {
    return meta.dtype;
  }

  public Device device() {
    return meta.storage.device();
  }

  public int dim() {
    return meta.sizes.length;
  }

  /** The sizes array itself: callers must not modify it. */
  public long[] sizes() {
    return meta.sizes;
  }

  /** The strides array itself: callers must not modify it. */
  public long[] strides() {
    return meta.strides;
  }

  public long storageOffset() {
    return meta.offset;
  }

  public long numel() {
    return meta.numel;
  }

  public boolean isContiguous() {
    return meta.contiguous;
  }

  public TensorImpl base() {
    return base;
  }

  public int version() {
    return (int) VERSION.getVolatile(versionOwner);
  }

  public void bumpVersion() {
    VERSION.getAndAdd(versionOwner, 1);
  }

  /** Address of element 0 (storage data + offset); kernels get theirs through the dispatcher's holds. */
  public long dataAddress() {
    Meta m = meta;
    return m.storage.data() + m.offset * m.dtype.itemSize();
  }


  /**
   * Checks that every element lies inside the storage, which a resize_ or set_ may have shrunk.
   * For errors before any work; the kernel's own check is the one that guards the bytes.
   */
  public void checkInBounds(String op) {
    checkInBounds(op, meta);
  }

  /** checkInBounds() of m, a snapshot of this tensor the op read. */
  public void checkInBounds(String op, Meta m) {
    if (m.contiguous && m.offset + m.numel <= m.storage.nbytes() / m.dtype.itemSize()) return;  // the common case
    long need = m.bytesNeeded(op);
    if (need > m.storage.nbytes()) {
      throw new IllegalStateException(op + "(): tensor of size " + Shapes.str(m.sizes) + " needs " + need
          + " bytes but its storage now holds " + m.storage.nbytes());
    }
  }

  /** Its autograd metadata, or null for a tensor that never took part in autograd. */
  public AutogradSlot autograd() {
    return autograd;
  }

  public void setAutograd(AutogradSlot slot) {
    autograd = slot;
  }

  /** Fast path of every op: false unless autograd metadata says so (its own, or its base's for a view: AutogradSlot). */
  public boolean requiresGrad() {
    AutogradSlot a = autograd;
    if (a != null && a.requiresGrad()) return true;
    TensorImpl b = base;
    AutogradSlot ba = b == null ? null : b.autograd;
    // PyTorch's view requires grad when its base does, even one made under no_grad or before the base's requires_grad_()
    return ba != null && (ba.requiresGrad() || ba.rewroteViewsSince(a));
  }

  /** The view's creation rule (ops.ViewCreation), or null. */
  public Object viewCreation() {
    return viewCreation;
  }

  public void setViewCreation(Object c) {
    viewCreation = c;
  }

  @Override
  protected void deallocate() {
    AutogradSlot a = autograd;
    autograd = null;
    if (a != null) a.release();
    meta.storage.release();
    if (base != null) base.release();
  }

  @Override
  protected String describe() {
    Meta m = meta;
    return m.dtype + " tensor of size " + Shapes.str(m.sizes);
  }
}
