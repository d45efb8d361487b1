package org.jtensor.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;

/**
 * One .npy array's body: the elements right after the preamble, in C or Fortran order. Read
 * straight into a new tensor's storage; a Fortran-order array becomes a tensor with Fortran
 * strides over its bytes (as NumPy's np.load gives an F-contiguous array), not a copy.
 * Big-endian arrays ('>' descr) are read and then byte-swapped in place.
 */
final class NpyArrays {
  private NpyArrays() {}

  /**
   * Reads one array from ch, positioned at its magic; at most available bytes (preamble
   * included) can follow, and an array declaring more is refused before anything is allocated.
   */
  static Tensor read(Path file, String what, ReadableByteChannel ch, long available) throws IOException {
    NpyHeader h = NpyHeader.read(file, what, ch);
    long nbytes = h.nbytes(), room = Math.max(0, available - h.preambleBytes());
    if (nbytes > room) {
      throw new TensorFormatException(file, what + " declares shape " + Arrays.toString(h.shape()) + " of " + h.dtype()
          + ", " + nbytes + " bytes, but at most " + room + " follow its header");
    }
    Tensor t = h.fortranOrder()
        ? Tensor.emptyStrided(h.shape(), TensorBytes.fortranStrides(h.shape()), h.dtype(), Device.CPU)
        : Tensor.empty(h.shape(), h.dtype());
    try {
      TensorBytes.readDense(file, what, t, ch);
      if (h.bigEndian() && h.dtype().itemSize() > 1) swapBytes(t);
      return t;
    } catch (IOException | RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /** Reverses the bytes of every element of a fresh dense tensor, through a [numel, itemsize] byte view. */
  private static void swapBytes(Tensor t) {
    int k = t.elementSize();
    try (Storage s = t.untypedStorage();
        Tensor bytes = TensorBytes.over(s, DType.UINT8, 0, new long[] {t.numel(), k}, new long[] {k, 1});
        Tensor reversed = Tensor.arange(k - 1, -1, -1, DType.INT64);
        Tensor swapped = bytes.indexSelect(1, reversed)) {
      bytes.copy_(swapped);
    }
  }

  /** The tensor to write for t and the order it is in; closing it closes the handle it made. */
  record Layout(Tensor dense, boolean fortranOrder) implements AutoCloseable {
    @Override
    public void close() {
      dense.close();
    }

    /** The whole .npy file for this array: preamble then elements. */
    long write(String op, WritableByteChannel ch) throws IOException {
      ByteBuffer head = ByteBuffer.wrap(NpyHeader.encode(op, dense.dtype(), fortranOrder, dense.shape()));
      long n = head.remaining() + dense.nbytes();
      while (head.hasRemaining()) ch.write(head);
      TensorBytes.writeDense(dense, ch);
      return n;
    }
  }

  /**
   * How t is written, as np.save does: C order when t is C-contiguous, Fortran order when it is
   * F-contiguous (no copy either way), else a C-ordered copy. Refuses dtypes NumPy lacks first.
   */
  static Layout layout(String op, Tensor t) {
    NpyHeader.descr(op, t.dtype());
    if (t.device().equals(Device.CPU) && !t.isContiguous() && TensorBytes.isFortranContiguous(t)) {
      return new Layout(t.detach(), true);
    }
    return new Layout(TensorBytes.cpuContiguous(t), false);
  }
}
