package org.jtensor.io;

import java.lang.reflect.Field;
import java.nio.MappedByteBuffer;
import sun.misc.Unsafe;

/**
 * Unmaps a mapped buffer now rather than when the garbage collector finds it (Java 17 has no
 * public way): a loaded file's mapping then ends exactly when its last tensor closes, and loading
 * many files cannot pile up mappings until a collection. Only for buffers that nothing else can
 * reach: any later access through one would fault.
 */
final class Unmapper {
  private static final Unsafe UNSAFE = unsafe();

  private Unmapper() {}

  private static Unsafe unsafe() {
    try {
      Field f = Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  static void unmap(MappedByteBuffer mapped) {
    UNSAFE.invokeCleaner(mapped);
  }
}
