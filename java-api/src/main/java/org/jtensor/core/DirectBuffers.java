package org.jtensor.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Direct ByteBuffers over native addresses and back, through JavaCPP's JNI (NewDirectByteBuffer,
 * GetDirectBufferAddress): the JDK offers neither to code outside java.base.
 */
public final class DirectBuffers {
  /** The most bytes one buffer spans; larger runs are walked in windows of this size. */
  public static final int MAX_WINDOW = 1 << 30;

  private DirectBuffers() {}

  static {
    // Pointer's natives live in JavaCPP's JNI library, which loads with jtensor's own: a program
    // whose first call is Storage.wrap(ByteBuffer) would otherwise meet an UnsatisfiedLinkError.
    NativeMemory.ensureLoaded();
  }

  /**
   * A little-endian direct buffer over [address, address + nbytes). It keeps nothing alive: the
   * caller holds the memory for as long as the buffer is used and never lets it escape.
   */
  public static ByteBuffer window(long start, int length) {
    if (length == 0) return ByteBuffer.allocateDirect(0).order(ByteOrder.LITTLE_ENDIAN);
    BytePointer p = new BytePointer() {
      {  // Pointer's own fields: the names differ from the parameters, which they would shadow
        address = start;
        capacity = length;
        limit = length;
      }
    };
    return p.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The address of a direct buffer's byte at its position. */
  public static long address(ByteBuffer direct) {
    if (!direct.isDirect()) throw new IllegalArgumentException("not a direct buffer");
    Pointer p = new Pointer(direct);
    return p.address() + p.position();
  }

  /**
   * Unmaps a mapped buffer now rather than when the garbage collector finds it (Java 17 has no
   * public way), so that a mapping ends exactly when its last user lets go. Nothing may reach the
   * buffer afterwards: any access through it would fault.
   */
  public static void unmap(MappedByteBuffer mapped) {
    NativeMemory.UNSAFE.invokeCleaner(mapped);
  }
}
