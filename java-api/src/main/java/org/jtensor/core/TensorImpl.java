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
 */
public final class TensorImpl extends RefCounted {
  private StorageImpl storage;
  private final DType dtype;
  private long[] sizes;
  private long[] strides;
  private long storageOffset;
  private long numel;
  private boolean contiguous;
  private final TensorImpl versionOwner;  // holds the counter shared with views and detach(): this or its origin
  @SuppressWarnings("unused") // through VERSION
  private volatile int versionCount;
  private final TensorImpl base;  // the root base of a view, retained; null when not a view
  private volatile AutogradSlot autograd;  // null until the tensor takes part in autograd

  private static final VarHandle VERSION;

  static {
    try {
      VERSION = MethodHandles.lookup().findVarHandle(TensorImpl.class, "versionCount", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private TensorImpl(StorageImpl storage, DType dtype, long[] sizes, long[] strides, long offset,
                     TensorImpl versionOwner, TensorImpl base) {
    this.storage = storage;
    this.dtype = dtype;
    this.versionOwner = versionOwner == null ? this : versionOwner;
    this.base = base;
    setGeometry(sizes, strides, offset);
  }

  /** A tensor owning a fresh reference to storage (the caller's reference moves into it). */
  public static TensorImpl create(StorageImpl storage, DType dtype, long[] sizes, long[] strides, long offset) {
    return new TensorImpl(storage, dtype, sizes, strides, offset, null, null);
  }

  /** A view of this tensor's storage with new geometry; checked by the caller. */
  public TensorImpl view(long[] newSizes, long[] newStrides, long newOffset) {
    return view(dtype, newSizes, newStrides, newOffset);
  }

  /** A view that reinterprets the bytes as another dtype (view(dtype)); checked by the caller. */
  public TensorImpl view(DType newDtype, long[] newSizes, long[] newStrides, long newOffset) {
    TensorImpl root = base != null ? base : this;
    // The root first: on a tensor closed by another thread it throws before anything is taken
    // (the other way round, the storage's reference leaked whenever the root's retain threw).
    // A live root holds the storage, so the storage's retain cannot fail after it.
    root.retain();
    storage.retain();
    return new TensorImpl(storage, newDtype, newSizes, newStrides, newOffset, versionOwner, root);
  }

  /** New geometry over the same storage that is not a view (PyTorch's _unsafe_view). */
  public TensorImpl unsafeView(long[] newSizes, long[] newStrides, long newOffset) {
    storage.retain();
    return new TensorImpl(storage, dtype, newSizes, newStrides, newOffset, null, null);
  }

  /** A tensor over the same storage and version counter that is not a view (detach()). */
  public TensorImpl detached() {
    storage.retain();
    return new TensorImpl(storage, dtype, sizes.clone(), strides.clone(), storageOffset, versionOwner, null);
  }

  private void setGeometry(long[] newSizes, long[] newStrides, long offset) {
    this.sizes = newSizes;
    this.strides = newStrides;
    this.storageOffset = offset;
    this.numel = Shapes.numel("tensor", newSizes);
    this.contiguous = Shapes.isContiguous(newSizes, newStrides);
  }

  /** Re-points this tensor at a storage (torch's set_); the caller checked the bounds. */
  public void set(StorageImpl newStorage, long offset, long[] newSizes, long[] newStrides) {
    newStorage.retain();
    StorageImpl old = storage;
    storage = newStorage;
    setGeometry(newSizes, newStrides, offset);
    old.release();
    bumpVersion();
  }

  public StorageImpl storage() {
    return storage;
  }

  public DType dtype() {
    return dtype;
  }

  public Device device() {
    return storage.device();
  }

  public int dim() {
    return sizes.length;
  }

  /** The sizes array itself: callers must not modify it. */
  public long[] sizes() {
    return sizes;
  }

  /** The strides array itself: callers must not modify it. */
  public long[] strides() {
    return strides;
  }

  public long storageOffset() {
    return storageOffset;
  }

  public long numel() {
    return numel;
  }

  public boolean isContiguous() {
    return contiguous;
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
    return storage.data() + storageOffset * dtype.itemSize();
  }

  /** The storage bytes that (sizes, strides) of this dtype reach from offset: one past the last element, 0 if empty. */
  public long bytesNeeded(String op, long[] sizes, long[] strides, long offset) {
    return Shapes.storageBytesNeeded(op, sizes, strides, offset, dtype.itemSize());
  }

  /**
   * Checks that every element lies inside the storage, which a resize_ or set_ may have shrunk.
   * For errors before any work; the kernel's own check is the one that guards the bytes.
   */
  public void checkInBounds(String op) {
    if (contiguous && storageOffset + numel <= storage.nbytes() / dtype.itemSize()) return;  // the common case
    long need = Shapes.storageBytesNeeded(op, sizes, strides, storageOffset, dtype.itemSize());
    if (need > storage.nbytes()) {
      throw new IllegalStateException(op + "(): tensor of size " + Shapes.str(sizes) + " needs " + need
          + " bytes but its storage now holds " + storage.nbytes());
    }
  }

  /** Its autograd metadata, or null for a tensor that never took part in autograd. */
  public AutogradSlot autograd() {
    return autograd;
  }

  public void setAutograd(AutogradSlot slot) {
    autograd = slot;
  }

  /** Fast path of every op: false unless autograd metadata says so. */
  public boolean requiresGrad() {
    AutogradSlot a = autograd;
    return a != null && a.requiresGrad();
  }

  @Override
  protected void deallocate() {
    AutogradSlot a = autograd;
    autograd = null;
    if (a != null) a.release();
    storage.release();
    if (base != null) base.release();
  }

  @Override
  protected String describe() {
    return dtype + " tensor of size " + Shapes.str(sizes);
  }
}
