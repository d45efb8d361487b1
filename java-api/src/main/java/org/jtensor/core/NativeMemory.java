package org.jtensor.core;

import java.lang.reflect.Field;
import org.jtensor.Device;
import org.jtensor.bindings.JtNative;
import sun.misc.Unsafe;

/**
 * The only place the memory package crosses into native code.
 *
 * <p>Note [Reading the data pointer] A JNI call costs ~15 ns here, as much as the rest of a
 * small allocation. The native StorageImpl keeps its data pointer at a fixed offset (see
 * storage.h), so {@link #data} reads it with one load. The offset comes from the library and is
 * checked against the JNI answer once, when this class loads.
 */
final class NativeMemory {
  static final Unsafe UNSAFE = unsafe();  // also DirectBuffers.unmap's
  private static final long DATA_OFFSET = JtNative.jt_storage_data_offset();

  static {
    long h = JtNative.jt_storage_new(deviceCode(Device.Type.CPU), 64);
    try {
      if (h == 0 || UNSAFE.getLong(h + DATA_OFFSET) != JtNative.jt_storage_data(h)) {
        throw new ExceptionInInitializerError("jtensor: the native StorageImpl layout does not match this jar");
      }
    } finally {
      if (h != 0) JtNative.jt_storage_release(h);
    }
  }

  private NativeMemory() {}

  private static Unsafe unsafe() {
    try {
      Field f = Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Loads jtensor's native library (and JavaCPP's, which it needs) if nothing has yet: this class's initializer does it. */
  static void ensureLoaded() {}

  static long allocate(int device, long nbytes) {
    return JtNative.jt_storage_new(device, nbytes);
  }

  /**
   * The native jt_device_type code of a device type: its ordinal, which native code must know by
   * the same name (checked here, so a reordered enum cannot send bytes to another device).
   */
  static int deviceCode(Device.Type type) {
    int code = type.ordinal();
    String name = JtNative.jt_device_type_name(code), want = type.name().toLowerCase(java.util.Locale.ROOT);
    if (!want.equals(name)) {
      throw new IllegalStateException("jtensor: device type " + want + " is native device code " + code
          + ", which the native library calls " + (name == null ? "unknown" : name));
    }
    return code;
  }

  /** The storage's data pointer; handle must be a live storage this package holds. */
  static long data(long handle) {
    return UNSAFE.getLong(handle + DATA_OFFSET);
  }

  static void release(long handle) {
    JtNative.jt_storage_release(handle);
  }

  static boolean resize(long handle, long nbytes) {
    return KernelStatus.of(JtNative.jt_storage_resize(handle, nbytes)) == KernelStatus.OK;
  }

  static boolean recordStream(long handle, long stream) {
    return KernelStatus.of(JtNative.jt_storage_record_stream(handle, stream)) == KernelStatus.OK;
  }

  static long nativeRefCount(long handle) {
    return JtNative.jt_storage_refcount(handle);
  }
}
