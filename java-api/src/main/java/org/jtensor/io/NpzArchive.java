package org.jtensor.io;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.jtensor.Tensor;

/**
 * NumPy's .npz: a zip archive with one "name.npy" entry per array, stored (np.savez) or
 * deflated (np.savez_compressed). java.util.zip reads both, Zip64 included.
 */
final class NpzArchive {
  /** Deflate's largest expansion: no entry inflates to more than this many bytes per compressed byte. */
  private static final long MAX_INFLATE_RATIO = 1032;

  private NpzArchive() {}

  static Map<String, Tensor> read(Path file) throws IOException {
    long fileSize = Files.size(file);
    ZipFile zip;
    try {
      zip = new ZipFile(file.toFile());
    } catch (ZipException | EOFException e) {  // no end-of-archive record, or one pointing past the file
      String why = e.getMessage() != null ? e.getMessage() : "it ends before its end-of-archive record";
      throw new TensorFormatException(file, "not a .npz (zip) archive: " + why, e);
    }
    Map<String, Tensor> out = new LinkedHashMap<>();
    try (zip) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        if (e.isDirectory()) continue;
        String name = e.getName(), what = "entry \"" + name + "\"";
        if (!name.endsWith(".npy")) throw new TensorFormatException(file, what + " is not a .npy array");
        String key = name.substring(0, name.length() - 4);
        if (out.containsKey(key)) throw new TensorFormatException(file, "two entries are named \"" + name + "\"");
        // ZipFile checks no CRC-32: count it here, over the whole entry, as Python's zipfile (np.load) does
        try (CheckedInputStream in = new CheckedInputStream(zip.getInputStream(e), new CRC32());
            ReadableByteChannel ch = Channels.newChannel(in)) {
          out.put(key, NpyArrays.read(file, what, ch, bound(e, fileSize)));
          in.skip(e.getSize() >= 0 ? e.getSize() : Long.MAX_VALUE);  // bytes after the array count too (at most the declared size)
          if (e.getCrc() != -1 && in.getChecksum().getValue() != e.getCrc()) {
            throw new TensorFormatException(file, what + String.format(" fails its CRC-32 check (stored %08x, computed %08x)",
                e.getCrc(), in.getChecksum().getValue()));
          }
        } catch (ZipException | EOFException bad) {
          throw new TensorFormatException(file, what + " is corrupt: " + (bad.getMessage() != null ? bad.getMessage() : "it ends early"), bad);
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      TensorBytes.closeAll(out.values());
      if (e instanceof IllegalArgumentException || e instanceof ZipException) {
        throw new TensorFormatException(file, "corrupt .npz (zip) archive: " + e.getMessage(), e);
      }
      throw e;
    }
    return out;
  }

  /** The most bytes entry e can yield, from what the archive declares and the file's size. */
  private static long bound(ZipEntry e, long fileSize) {
    long compressed = e.getCompressedSize() >= 0 ? Math.min(e.getCompressedSize(), fileSize) : fileSize;
    long bound = e.getMethod() == ZipEntry.STORED ? compressed : saturatingTimes(compressed, MAX_INFLATE_RATIO);
    return e.getSize() >= 0 ? Math.min(bound, e.getSize()) : bound;
  }

  private static long saturatingTimes(long a, long b) {
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  static void write(String op, Map<String, Tensor> tensors, Path file, boolean compressed) throws IOException {
    Objects.requireNonNull(tensors, op + "(): tensors");
    for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) throw new IllegalArgumentException(op + "(): names and tensors must not be null");
      NpyHeader.descr(op, e.getValue().dtype());  // refuse bfloat16 before the file is created
    }
    ReplacingWrite.write(file, fileChannel -> {
      try (ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(Channels.newOutputStream(fileChannel)))) {
        WritableByteChannel ch = Channels.newChannel(zip);  // not closed: closing it would close the archive
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) writeEntry(op, zip, ch, e.getKey(), e.getValue(), compressed);
      }
    });
  }

  private static void writeEntry(String op, ZipOutputStream zip, WritableByteChannel ch, String name, Tensor t, boolean compressed)
      throws IOException {
    try (NpyArrays.Layout layout = NpyArrays.layout(op, t)) {
      ZipEntry entry = new ZipEntry(name + ".npy");
      if (compressed) {
        entry.setMethod(ZipEntry.DEFLATED);
      } else {
        // a stored entry declares its size and CRC before its bytes: one pass over them to count
        CrcChannel crc = new CrcChannel();
        long n = layout.write(op, crc);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(n);
        entry.setCompressedSize(n);
        entry.setCrc(crc.crc.getValue());
      }
      zip.putNextEntry(entry);
      layout.write(op, ch);
      zip.closeEntry();
    }
  }

  /** Discards bytes, keeping their CRC-32. */
  private static final class CrcChannel implements WritableByteChannel {
    final CRC32 crc = new CRC32();

    @Override
    public int write(ByteBuffer src) {
      int n = src.remaining();
      crc.update(src);
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
