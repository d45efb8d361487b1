package org.jtensor.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An intrusive, thread-safe reference count: the count lives in the object, as in c10's
 * intrusive_ptr. The object starts with one reference; the release that takes the count to
 * zero calls {@link #deallocate()} exactly once, and a released object can never be revived.
 */
public abstract class RefCounted {
  private static final VarHandle COUNT;

  static {
    try {
      COUNT = MethodHandles.lookup().findVarHandle(RefCounted.class, "refCount", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // accessed through COUNT
  private volatile int refCount;

  /**
   * Starts with one reference. A release store, not a volatile one: on x86 a volatile write is a
   * full fence, and no other thread can see the object before it is published anyway.
   */
  protected RefCounted() {
    COUNT.setRelease(this, 1);
  }

  /** Adds a reference; throws if the object was already released (use after free). */
  public final void retain() {
    for (;;) {
      int c = (int) COUNT.getVolatile(this);
      if (c <= 0) throw new IllegalStateException(describe() + " was already released");
      if (COUNT.compareAndSet(this, c, c + 1)) return;
    }
  }

  /** Drops a reference; the last one frees the object. */
  public final void release() {
    int c = (int) COUNT.getAndAdd(this, -1);
    if (c == 1) {
      deallocate();
    } else if (c <= 0) {
      COUNT.getAndAdd(this, 1);
      throw new IllegalStateException(describe() + " was released more times than it was retained");
    }
  }

  public final int refCount() {
    return (int) COUNT.getVolatile(this);
  }

  public final boolean isReleased() {
    return refCount() <= 0;
  }

  /** Frees what the object owns; runs once, on the thread of the last release. */
  protected abstract void deallocate();

  /** Names the object in error messages. */
  protected abstract String describe();
}
