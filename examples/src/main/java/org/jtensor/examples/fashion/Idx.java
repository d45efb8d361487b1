package org.jtensor.examples.fashion;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.jtensor.DType;
import org.jtensor.Tensor;

/** The IDX files of (Fashion-)MNIST, gzipped or not: images as their bytes, uint8 [N, 1, 28, 28] (FashionImages decodes them per item), labels as int64 [N]. */
final class Idx {
  private Idx() {}

  /** One split: images and labels, both owned by the caller. */
  record Split(Tensor images, Tensor labels) implements AutoCloseable {
    long size() {
      return labels.numel();
    }

    @Override
    public void close() {
      images.close();
      labels.close();
    }
  }

  /** prefix "train" or "t10k", from a folder (either file form) or, with dir null, from the bundled sample. */
  static Split load(Path dir, String prefix) throws IOException {
    byte[] images = read(dir, prefix + "-images-idx3-ubyte", 0x803);
    byte[] labels = read(dir, prefix + "-labels-idx1-ubyte", 0x801);
    int n = labels.length;
    if (images.length != n * 784) throw new IOException(prefix + ": " + images.length / 784 + " images for " + n + " labels");
    long[] ys = new long[n];
    for (int i = 0; i < n; i++) ys[i] = labels[i];
    try (Tensor signed = Tensor.fromArray(images, n, 1, 28, 28)) {  // fromArray(byte[]) gives int8; the bits are the pixels
      return new Split(signed.view(DType.UINT8), Tensor.fromArray(ys));
    }
  }

  /** The payload of one IDX file after its header, whose magic number and dims are checked. */
  private static byte[] read(Path dir, String name, int magic) throws IOException {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(open(dir, name)))) {
      int m = in.readInt();
      if (m != magic) throw new IOException(name + ": not an IDX file of this kind (magic " + Integer.toHexString(m) + ")");
      long count = 1;
      for (int d = 0; d < (m & 0xff); d++) count *= in.readInt();
      if (count > Integer.MAX_VALUE) throw new IOException(name + ": too large");
      byte[] body = new byte[(int) count];
      in.readFully(body);
      return body;
    }
  }

  private static InputStream open(Path dir, String name) throws IOException {
    if (dir == null) {
      InputStream r = Idx.class.getResourceAsStream("/fashion-mnist-sample/" + name + ".gz");
      if (r == null) throw new IOException("the bundled sample lacks " + name + ".gz");
      return new GZIPInputStream(r);
    }
    Path gz = dir.resolve(name + ".gz"), raw = dir.resolve(name);
    if (Files.exists(gz)) return new GZIPInputStream(Files.newInputStream(gz));
    if (Files.exists(raw)) return Files.newInputStream(raw);
    throw new IOException("no " + name + " or " + name + ".gz in " + dir);
  }
}
