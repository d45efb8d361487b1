package org.jtensor.dispatch;

import org.jtensor.core.TensorImpl;
import org.jtensor.core.StorageImpl;


/**
 * The storages one kernel call touches, held until it returns, and the addresses it may use.
 *
 * <p>Note [Operands held for the kernel] Checking that a handle is open is not enough: another
 * thread may close it (or re-point it with set_, or resize its storage) between the check and
 * the kernel. So the kernel's storages are held (see RefCounted) before any address is taken,
 * and every address is checked against the storage actually held, with the exact geometry the
 * kernel will walk. A kernel then never touches bytes that are freed or outside its storage,
 * whatever other threads do; the worst a race can give is IllegalStateException.
 */
final class HeldOperands implements AutoCloseable {
  private final String op;
  // Four slots, not an array: most kernels have at most four operands, and without an array the JIT
  // can keep the whole object in registers (the small-op latency counts every allocation).
  private StorageImpl h0, h1, h2, h3;
  private StorageImpl[] more;  // a fifth and further (advanced indexing with many index tensors): rare
  private int moreCount;

  /** op names the call in errors, as the user called it. */
  HeldOperands(String op) {
    this.op = op;
  }

  /**
   * Holds t's storage; returns the address of t's element 0 after checking that the elements
   * (sizes, strides) from there, which the kernel will walk, lie inside the held storage.
   */
  long address(TensorImpl t, long[] sizes, long[] strides) {
    return address(t, t.meta(), sizes, strides);  // storage and offset from one snapshot (Note [Metadata snapshot])
  }

  /**
   * address() of the snapshot m of t, whose geometry the caller read: the storage held and the
   * offset used are m's, so an op that reads a tensor's metadata once sees no set_ of another thread.
   */
  long address(TensorImpl t, TensorImpl.Meta m, long[] sizes, long[] strides) {
    hold(m.storage);
    return checkedAddress(t, m, sizes, strides);
  }

  /** address() of t's snapshot now, which the kernel reads as dtype (refused when setData made it another since the plan). */
  long address(TensorImpl t, org.jtensor.DType as, long[] sizes, long[] strides) {
    return address(t, readAs(t.meta(), as), sizes, strides);
  }

  /** output() of t's snapshot now, which the kernel writes as dtype (refused as address(t, as, ...)). */
  long output(TensorImpl t, org.jtensor.DType as, long[] sizes, long[] strides) {
    return output(t, readAs(t.meta(), as), sizes, strides);
  }

  /** address() of t walked as numel contiguous elements (t is contiguous: the caller's rule). */
  long flatAddress(TensorImpl t) {
    return flatAddress(t.meta());
  }

  /** flatAddress() of the snapshot m (its numel elements of its dtype). */
  long flatAddress(TensorImpl.Meta m) {
    return address(m.owner, m, new long[] {m.numel}, UNIT);
  }

  /** output() of t written as numel contiguous elements. */
  long flatOutput(TensorImpl t) {
    return flatOutput(t.meta());
  }

  /** flatOutput() of the snapshot m. */
  long flatOutput(TensorImpl.Meta m) {
    return output(m.owner, m, new long[] {m.numel}, UNIT);
  }

  private static final long[] UNIT = {1};

  /**
   * address() for a tensor the kernel writes: refused when its storage is read-only. The storage
   * checked is the one held: read twice, a set_ on another thread between the reads could
   * re-point t at a read-only storage after the check.
   */
  long output(TensorImpl t, long[] sizes, long[] strides) {
    return output(t, t.meta(), sizes, strides);
  }

  /** output() of the snapshot m of t, whose geometry the caller read (as address(t, m, ...)). */
  long output(TensorImpl t, TensorImpl.Meta m, long[] sizes, long[] strides) {
    m.storage.checkWritable(op);
    hold(m.storage);
    return checkedAddress(t, m, sizes, strides);
  }

  /**
   * address() for a tensor the op allocated itself and has not yet returned: no other thread
   * can reach it, so it is checked but not held.
   */
  long addressOfNew(TensorImpl t, long[] sizes, long[] strides) {
    return checkedAddress(t, t.meta(), sizes, strides);
  }

  // Sized with m's dtype, the one its storage was made for: a kernel reads the operand as m.dtype
  // (the caller packs m.dtype, or checks it with readAs), never as a dtype read from t apart from m.
  private long checkedAddress(TensorImpl t, TensorImpl.Meta m, long[] sizes, long[] strides) {
    StorageImpl s = m.storage;
    long offset = m.offset;
    int item = m.dtype.itemSize();
    long need = sizes.length == 1 && strides[0] == 1  // a flat run: the common case, no loop
        ? (sizes[0] == 0 ? 0 : (offset + sizes[0]) * item)
        : org.jtensor.core.Shapes.storageBytesNeeded(op, sizes, strides, offset, item);
    if (need > s.nbytes()) throw outside(op, "tensor of size " + java.util.Arrays.toString(sizes) + " needs " + need, s);
    return s.data() + offset * item;
  }

  /**
   * Refuses a snapshot whose dtype is not the one the kernel was planned for (dtype, read before m):
   * setData on another thread gave the tensor another dtype in between, and its bytes would be misread.
   */
  TensorImpl.Meta readAs(TensorImpl.Meta m, org.jtensor.DType dtype) {
    if (m.dtype != dtype) throw retyped(op, dtype, m.dtype);
    return m;
  }

  private static IllegalStateException retyped(String op, org.jtensor.DType planned, org.jtensor.DType now) {
    return new IllegalStateException(op + "(): a tensor was made " + now + " by setData on another thread while the op ran (planned for "
        + planned + ")");
  }

  /**
   * Holds t's storage and returns the address of its element 0; range receives the element
   * offsets from there that stay inside the storage, [range[0], range[1]), for a kernel that
   * checks offsets it reads from data (gather, scatter).
   */
  long addressWithin(TensorImpl t, long[] range) {
    return addressWithin(t, t.meta(), range);
  }

  private long addressWithin(TensorImpl t, TensorImpl.Meta m, long[] range) {
    StorageImpl s = m.storage;
    long offset = m.offset;
    hold(s);
    range[0] = -offset;
    range[1] = s.nbytes() / m.dtype.itemSize() - offset;
    return s.data() + offset * m.dtype.itemSize();
  }

  /** elementAddress() of an element the kernel writes, in the snapshot m: refused when its storage is read-only. */
  long outputElement(TensorImpl.Meta m, long elementOffset) {
    TensorImpl t = m.owner;
    m.storage.checkWritable(op);
    return elementAddress(t, m, elementOffset);
  }

  /** The address of one element of m (a snapshot the caller reads the element's dtype from), elementOffset elements from element 0, checked. */
  long elementAddress(TensorImpl.Meta m, long elementOffset) {
    return elementAddress(m.owner, m, elementOffset);
  }

  private long elementAddress(TensorImpl t, TensorImpl.Meta m, long elementOffset) {
    long[] range = new long[2];
    long base = addressWithin(t, m, range);
    if (elementOffset < range[0] || elementOffset >= range[1]) {
      throw outside(op, "element " + elementOffset + " of a tensor at offset " + -range[0] + " needs more", m.storage);
    }
    return base + elementOffset * m.dtype.itemSize();
  }

  /** storageAddress() of a storage the kernel writes: refused when it is read-only. */
  long outputStorage(StorageImpl s, long nbytes) {
    s.checkWritable(op);
    return storageAddress(s, nbytes);
  }

  /** Holds s and returns its data after checking that it has at least nbytes. */
  long storageAddress(StorageImpl s, long nbytes) {
    hold(s);
    if (nbytes > s.nbytes()) throw outside(op, "the copy needs " + nbytes + " bytes", s);
    return s.data();
  }

  // The throws below build their messages in cold helpers, so these methods stay small enough to
  // inline and the JIT can drop the holder object entirely (escape analysis).
  private void hold(StorageImpl s) {
    if (s == h0 || s == h1 || s == h2 || s == h3) return;  // already held (x.add_(x), a view beside its base)
    if (!s.hold()) throw notHeld(op);
    if (h0 == null) h0 = s;
    else if (h1 == null) h1 = s;
    else if (h2 == null) h2 = s;
    else if (h3 == null) h3 = s;
    else holdMore(s);
  }

  private void holdMore(StorageImpl s) {
    if (more == null) more = new StorageImpl[4];
    else if (moreCount == more.length) more = java.util.Arrays.copyOf(more, 2 * moreCount);
    more[moreCount++] = s;
  }

  private static IllegalStateException notHeld(String op) {
    return new IllegalStateException(op + "(): a tensor's storage was released or is being resized on another thread");
  }

  private static IllegalStateException outside(String op, String what, StorageImpl s) {
    return new IllegalStateException(op + "(): " + what + " bytes but its storage now holds " + s.nbytes());
  }

  @Override
  public void close() {
    while (moreCount > 0) more[--moreCount].unhold();
    if (h3 != null) h3.unhold();
    if (h2 != null) h2.unhold();
    if (h1 != null) h1.unhold();
    if (h0 != null) h0.unhold();
    h0 = h1 = h2 = h3 = null;
  }
}
