package org.jtensor.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jtensor.Tensor;

/**
 * Hugging Face's safetensors format: a JSON header naming each tensor's dtype, shape and byte
 * range, then the tensors' bytes back to back.
 *
 * <p>{@link #load} memory-maps the file: each tensor is a view of a read-only storage over the
 * mapping, so loading costs the same for a megabyte as for a gigabyte and the bytes are paged in
 * only when read; a write through such a tensor throws {@link IllegalStateException}. The file
 * is unmapped when the last view of the mapping closes. Two kinds of tensor are read into storage
 * of their own (writable) instead: one whose bytes do not start on a multiple of its element size
 * in the file (the format does not promise alignment; PyTorch's loader copies these too), and one
 * larger than a Java mapping can hold (2 GiB). The header is checked completely before any tensor
 * is made; a bad file raises {@link TensorFormatException} naming it and the problem.
 *
 * <p>{@link #save} writes a new file and renames it over the old one, so saving over a file whose
 * tensors are still mapped is safe. A mapped file must not be truncated in place by other means
 * while its tensors live (as for any memory mapping, reading pages that no longer exist faults).
 */
public final class SafeTensors {
  private SafeTensors() {}

  /** Writes tensors, in map order within each element size, with no metadata. */
  public static void save(Map<String, Tensor> tensors, Path file) throws IOException {
    save(tensors, Map.of(), file);
  }

  /**
   * Writes tensors and the header's "__metadata__" strings. As the reference writer does, tensors
   * are laid out by element size, largest first, so that each starts aligned to its element size;
   * a non-contiguous or non-CPU tensor is written as its contiguous CPU copy.
   */
  public static void save(Map<String, Tensor> tensors, Map<String, String> metadata, Path file) throws IOException {
    Objects.requireNonNull(file, "save(): file");
    List<Map.Entry<String, Tensor>> order = checkedOrder(tensors, metadata);
    List<SafeTensorsHeader.Entry> entries = new ArrayList<>();
    long at = 0;
    for (Map.Entry<String, Tensor> e : order) {
      Tensor t = e.getValue();
      entries.add(new SafeTensorsHeader.Entry(e.getKey(), t.dtype(), t.shape(), at, at + t.nbytes()));
      at += t.nbytes();
    }
    byte[] header = SafeTensorsHeader.encode(entries, metadata);
    ReplacingWrite.write(file, ch -> {
      ByteBuffer head = ByteBuffer.allocate(8 + header.length).order(ByteOrder.LITTLE_ENDIAN);
      head.putLong(header.length).put(header).flip();
      while (head.hasRemaining()) ch.write(head);
      for (Map.Entry<String, Tensor> e : order) {
        try (Tensor dense = TensorBytes.cpuContiguous(e.getValue())) {
          TensorBytes.writeDense(dense, ch);
        }
      }
    });
  }

  private static List<Map.Entry<String, Tensor>> checkedOrder(Map<String, Tensor> tensors, Map<String, String> metadata) {
    Objects.requireNonNull(tensors, "save(): tensors");
    Objects.requireNonNull(metadata, "save(): metadata");
    for (Map.Entry<String, String> m : metadata.entrySet()) {
      if (m.getKey() == null || m.getValue() == null) throw new IllegalArgumentException("save(): metadata keys and values must not be null");
    }
    List<Map.Entry<String, Tensor>> order = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) throw new IllegalArgumentException("save(): tensor names and tensors must not be null");
      if (e.getKey().equals(SafeTensorsHeader.METADATA_KEY)) {
        throw new IllegalArgumentException("save(): \"" + SafeTensorsHeader.METADATA_KEY + "\" is reserved for the metadata and cannot name a tensor");
      }
      order.add(e);
    }
    order.sort(Comparator.comparingInt((Map.Entry<String, Tensor> e) -> -e.getValue().elementSize()));  // stable
    return order;
  }

  /**
   * The file's tensors by name, in file order, as views of its read-only mapping (see the class
   * comment for the two kinds that are copied). The caller closes every tensor.
   */
  public static Map<String, Tensor> load(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      SafeTensorsHeader header = SafeTensorsHeader.read(file, ch);
      return SafeTensorsMapping.tensors(file, ch, header, SafeTensorsMapping.MAX_MAPPING_BYTES);
    }
  }

  /** The header's "__metadata__" strings (empty when it has none), read without touching the tensors' bytes. */
  public static Map<String, String> metadata(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return SafeTensorsHeader.read(file, ch).metadata;
    }
  }

  /** The file's tensor names in file order, read from the header alone. */
  public static List<String> names(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      List<String> names = new ArrayList<>();
      for (SafeTensorsHeader.Entry e : SafeTensorsHeader.read(file, ch).entries) names.add(e.name());
      return names;
    }
  }
}
