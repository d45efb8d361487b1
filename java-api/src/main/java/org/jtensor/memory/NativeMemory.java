package org.jtensor.memory;

import org.jtensor.bindings.JtNative;

/** The only place the memory package crosses into native code. */
final class NativeMemory {
  private NativeMemory() {}

  static long allocate(long nbytes) {
    return JtNative.jt_storage_new(nbytes);
  }

  static long data(long handle) {
    return JtNative.jt_storage_data(handle);
  }

  static void release(long handle) {
    JtNative.jt_storage_release(handle);
  }

  static boolean resize(long handle, long nbytes) {
    return JtNative.jt_storage_resize(handle, nbytes) == 0;
  }

  static long nativeRefCount(long handle) {
    return JtNative.jt_storage_refcount(handle);
  }
}
