package org.jtensor.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An intrusive, thread-safe reference count: the count lives in the object, as in c10's
 * intrusive_ptr. The object starts with one reference; a released object can never be revived.
 *
 * <p>Note [References and holds] Besides references (owners: handles, views), the object counts
 * holds: a kernel holds what it touches for as long as it runs, so a close() on another thread
 * cannot free bytes under it (PyTorch's ops keep their operands' intrusive_ptrs for the same
 * reason). A hold can only be taken while a reference exists, and the object is freed when the
 * last reference and the last hold are both gone: whichever of release() and unhold() takes the
 * state to zero calls {@link #deallocate()}, exactly once. One more bit marks exclusive use
 * (a storage's resize_), which waits for no hold and admits none until it ends.
 */
public abstract class RefCounted {
  private static final long REF = 1L << 32;          // references in the high 31 bits
  private static final long EXCLUSIVE = 1L << 31;
  private static final long HOLDS = EXCLUSIVE - 1;   // holds in the low 31 bits
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(RefCounted.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // accessed through STATE
  private volatile long state;

  /**
   * Starts with one reference. A release store, not a volatile one: on x86 a volatile write is a
   * full fence, and no other thread can see the object before it is published anyway.
   */
  protected RefCounted() {
    STATE.setRelease(this, REF);
  }

  /** Adds a reference; throws if the object was already released (use after free). */
  public final void retain() {
    for (;;) {
      long s = (long) STATE.getVolatile(this);
      if (s < REF) throw new IllegalStateException(describe() + " was already released");
      if (STATE.compareAndSet(this, s, s + REF)) return;
    }
  }

  /** Adds a reference unless the object was already released: false then, and nothing taken. */
  public final boolean tryRetain() {
    for (;;) {
      long s = (long) STATE.getVolatile(this);
      if (s < REF) return false;
      if (STATE.compareAndSet(this, s, s + REF)) return true;
    }
  }

  /** Drops a reference; the last one frees the object unless a kernel still holds it. */
  public final void release() {
    long s = (long) STATE.getAndAdd(this, -REF);
    if (s < REF) {
      STATE.getAndAdd(this, REF);
      throw new IllegalStateException(describe() + " was released more times than it was retained");
    }
    if (s == REF) deallocate();
  }

  /**
   * Holds the object for a running kernel: false when no reference is left (it was closed) or
   * it is in exclusive use. Each true must be matched by one {@link #unhold()}.
   */
  public final boolean hold() {
    for (;;) {
      long s = (long) STATE.getVolatile(this);
      if (s < REF || (s & EXCLUSIVE) != 0) return false;
      if (STATE.compareAndSet(this, s, s + 1)) return true;
    }
  }

  /** Ends a hold; frees the object when it was the last thing keeping it. */
  public final void unhold() {
    if ((long) STATE.getAndAdd(this, -1L) == 1) deallocate();
  }

  /** Starts exclusive use: false while anything holds the object or it was released. */
  protected final boolean tryExclusive() {
    for (;;) {
      long s = (long) STATE.getVolatile(this);
      if (s < REF || (s & (EXCLUSIVE | HOLDS)) != 0) return false;
      if (STATE.compareAndSet(this, s, s | EXCLUSIVE)) return true;
    }
  }

  protected final void endExclusive() {
    if ((long) STATE.getAndAdd(this, -EXCLUSIVE) == EXCLUSIVE) deallocate();
  }

  public final int refCount() {
    return (int) ((long) STATE.getVolatile(this) >>> 32);
  }

  /** Whether every reference is gone (a kernel may still be finishing with it). */
  public final boolean isReleased() {
    return (long) STATE.getVolatile(this) < REF;
  }

  /** Frees what the object owns; runs once, on the thread that ends the last reference or hold. */
  protected abstract void deallocate();

  /** Names the object in error messages. */
  protected abstract String describe();
}
