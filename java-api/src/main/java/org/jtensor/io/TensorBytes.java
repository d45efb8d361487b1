package org.jtensor.io;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.core.Shapes;

/**
 * Moving a tensor's bytes between its storage and a channel, with no copy in between: the
 * storage reads from or writes to the channel directly. Shared by the safetensors and NumPy
 * formats, whose payloads are both a tensor's elements stored densely, little-endian.
 */
final class TensorBytes {
  private TensorBytes() {}

  /**
   * Writes a dense tensor's bytes (its elements occupy storage bytes [offset, offset + nbytes)
   * in row-major or column-major order) to ch.
   */
  static void writeDense(Tensor dense, WritableByteChannel ch) throws IOException {
    long nbytes = dense.nbytes();
    if (nbytes == 0) return;
    try (Storage s = dense.untypedStorage()) {
      s.writeTo(ch, dense.storageOffset() * dense.elementSize(), nbytes);
    }
  }

  /** t on the CPU in row-major order, as a new handle the caller closes (t itself when it already is). */
  static Tensor cpuContiguous(Tensor t) {
    try (Tensor cpu = t.to(Device.CPU)) {
      return cpu.contiguous();
    }
  }

  /**
   * Fills t's whole storage (a fresh, dense tensor's) from ch; a channel that ends early is a
   * truncated file.
   */
  static void readDense(Path file, String what, Tensor t, ReadableByteChannel ch) throws IOException {
    long nbytes = t.nbytes();
    if (nbytes == 0) return;
    long got;
    try (Storage s = t.untypedStorage()) {
      got = s.readFrom(ch, 0, nbytes);
    }
    if (got < nbytes) throw new TensorFormatException(file, what + " is truncated: " + got + " of its " + nbytes + " data bytes are there");
  }

  /** A tensor over storage bytes from element offset on, with the given geometry (its own reference). */
  static Tensor over(Storage storage, DType dtype, long offset, long[] shape, long[] stride) {
    Tensor t = Tensor.empty(new long[] {0}, dtype);
    try {
      return t.set_(storage, offset, shape, stride);
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /**
   * Whether the item size times the product of shape's non-zero dims fits a long: NumPy's "array is
   * too big" rule. A tensor with a zero dim still needs its strides, which are products of the others.
   */
  static boolean nonZeroDimsFit(long itemSize, long[] shape) {
    long n = itemSize;
    for (long d : shape) {
      if (d == 0) continue;
      if (n > Long.MAX_VALUE / d) return false;
      n *= d;
    }
    return true;
  }

  /** Column-major (Fortran) strides: the first dim varies fastest. */
  static long[] fortranStrides(long[] shape) {
    long[] st = new long[shape.length];
    long s = 1;
    for (int d = 0; d < shape.length; d++) {
      st[d] = s;
      s *= Math.max(shape[d], 1);
    }
    return st;
  }

  /** Whether t's elements lie densely in column-major order (NumPy's F-contiguous). */
  static boolean isFortranContiguous(Tensor t) {
    return Shapes.isContiguous(reversed(t.shape()), reversed(t.stride()));
  }

  private static long[] reversed(long[] a) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[a.length - 1 - i];
    return r;
  }

  /** Closes every tensor in ts, ignoring nulls; used to undo a half-finished load. */
  static void closeAll(Iterable<Tensor> ts) {
    for (Tensor t : ts) {
      if (t != null) t.close();
    }
  }
}
