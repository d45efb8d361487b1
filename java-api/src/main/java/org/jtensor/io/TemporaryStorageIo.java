package org.jtensor.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.jtensor.DType;
import org.jtensor.Storage;
import org.jtensor.Tensor;

/** TEMPORARY until Storage.readFrom/writeTo land on main: heap copies through int8 views. */
final class TemporaryStorageIo {
  private TemporaryStorageIo() {}

  static long readFrom(Storage s, ReadableByteChannel ch, long offset, long nbytes) throws IOException {
    long done = 0;
    while (done < nbytes) {
      ByteBuffer b = ByteBuffer.allocate((int) Math.min(1 << 20, nbytes - done));
      while (b.hasRemaining() && ch.read(b) >= 0) {}
      int n = b.position();
      if (n == 0) break;
      byte[] a = new byte[n];
      b.flip().get(a);
      try (Tensor src = Tensor.fromArray(a, n); Tensor dst = Tensor.empty(new long[] {0}, DType.INT8).set_(s, offset + done, new long[] {n}, new long[] {1})) {
        dst.copy_(src);
      }
      done += n;
      if (n < b.capacity()) break;
    }
    return done;
  }

  static long writeTo(Storage s, WritableByteChannel ch, long offset, long nbytes) throws IOException {
    long done = 0;
    while (done < nbytes) {
      int n = (int) Math.min(1 << 20, nbytes - done);
      try (Tensor src = Tensor.empty(new long[] {0}, DType.INT8).set_(s, offset + done, new long[] {n}, new long[] {1})) {
        int[] v = src.toIntArray();
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) a[i] = (byte) v[i];
        ByteBuffer b = ByteBuffer.wrap(a);
        while (b.hasRemaining()) ch.write(b);
      }
      done += n;
    }
    return done;
  }
}
