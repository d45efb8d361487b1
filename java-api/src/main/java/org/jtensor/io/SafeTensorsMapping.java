package org.jtensor.io;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.core.DirectBuffers;
import org.jtensor.core.Shapes;

/**
 * Turns a checked safetensors header into tensors over a memory mapping of the file. Tensors are
 * grouped into mappings of at most {@code maxMapping} bytes (Java maps at most 2 GiB per
 * buffer); each tensor is a read-only storage of its own bytes in a mapping, which is unmapped
 * when the last of its tensors closes.
 * A mapping starts on an 8-byte file offset, so a tensor whose file offset is a multiple of its
 * element size is aligned in memory; the others, and any tensor too large to map, are read into
 * storages of their own.
 */
final class SafeTensorsMapping {
  /** The most one MappedByteBuffer holds. */
  static final long MAX_MAPPING_BYTES = Integer.MAX_VALUE;
  /** The largest element size: mappings start on a multiple of it. */
  private static final int ALIGN = 8;

  private SafeTensorsMapping() {}

  /** A run of file bytes [start, end) mapped as one storage, and the entries viewing it. */
  private static final class Region {
    final long start;
    long end;
    final List<Integer> entries = new ArrayList<>();

    Region(long start) {
      this.start = start;
    }
  }

  static Map<String, Tensor> tensors(Path file, FileChannel read, SafeTensorsHeader h, long maxMapping) throws IOException {
    List<SafeTensorsHeader.Entry> entries = h.entries;
    Tensor[] made = new Tensor[entries.size()];
    List<Region> regions = new ArrayList<>();
    List<Integer> copies = new ArrayList<>();
    Region cur = null;
    for (int i = 0; i < entries.size(); i++) {
      SafeTensorsHeader.Entry e = entries.get(i);
      long at = h.dataStart + e.begin(), nbytes = e.nbytes();
      if (nbytes == 0) continue;
      if (at % e.dtype().itemSize() != 0 || nbytes > maxMapping - ALIGN) {
        copies.add(i);
        continue;
      }
      if (cur == null || at + nbytes - cur.start > maxMapping) {
        cur = new Region(at - at % ALIGN);
        regions.add(cur);
      }
      cur.end = at + nbytes;
      cur.entries.add(i);
    }
    try {
      for (int i = 0; i < entries.size(); i++) {
        if (entries.get(i).nbytes() == 0) made[i] = Tensor.empty(entries.get(i).shape(), entries.get(i).dtype());
      }
      if (!regions.isEmpty()) mapRegions(file, read, h, regions, made);
      for (int i : copies) made[i] = copied(file, read, h, entries.get(i));
    } catch (IOException | RuntimeException | Error e) {
      TensorBytes.closeAll(Arrays.asList(made));
      throw e;
    }
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (int i = 0; i < made.length; i++) out.put(entries.get(i).name(), made[i]);
    return out;
  }

  /**
   * Maps each region privately (copy-on-write, so no stray write can reach the file or fault),
   * or read-only where the file cannot be opened for writing; either way the storage is
   * read-only to jtensor.
   */
  private static void mapRegions(Path file, FileChannel read, SafeTensorsHeader h, List<Region> regions, Tensor[] made)
      throws IOException {
    FileChannel writable = null;
    try {
      writable = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (FileSystemException | UnsupportedOperationException readOnlyFile) {
      // a read-only file or file system: map read-only instead
    }
    try {
      FileChannel ch = writable != null ? writable : read;
      FileChannel.MapMode mode = writable != null ? FileChannel.MapMode.PRIVATE : FileChannel.MapMode.READ_ONLY;
      for (Region r : regions) {
        MappedByteBuffer mapped = ch.map(mode, r.start, r.end - r.start);
        long base = DirectBuffers.address(mapped);
        // one read-only storage per tensor, of exactly its bytes (PyTorch's format keeps one dtype per
        // storage: a storage shared by the file's dtypes could not be saved to .pt); the region is
        // unmapped when the last of them goes, not at a later GC
        AtomicInteger holds = new AtomicInteger(1);
        Runnable drop = () -> {
          if (holds.decrementAndGet() == 0) DirectBuffers.unmap(mapped);
        };
        try {
          for (int i : r.entries) {
            SafeTensorsHeader.Entry e = h.entries.get(i);
            holds.incrementAndGet();
            Storage s;
            try {
              s = Storage.wrap(base + h.dataStart + e.begin() - r.start, e.nbytes(), true, drop);
            } catch (RuntimeException | Error failed) {
              drop.run();  // a refused wrap never runs its release
              throw failed;
            }
            try (s) {
              made[i] = TensorBytes.over(s, e.dtype(), 0, e.shape(), Shapes.contiguousStrides(e.shape()));
            }
          }
        } finally {
          drop.run();
        }
      }
    } finally {
      if (writable != null) writable.close();
    }
  }

  private static Tensor copied(Path file, FileChannel read, SafeTensorsHeader h, SafeTensorsHeader.Entry e) throws IOException {
    Tensor t = Tensor.empty(e.shape(), e.dtype());
    try {
      read.position(h.dataStart + e.begin());
      TensorBytes.readDense(file, "safetensors: tensor \"" + e.name() + "\"", t, read);
      return t;
    } catch (IOException | RuntimeException ex) {
      t.close();
      throw ex;
    }
  }
}
