package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupted .pt files, a few thousand of them in a few seconds: bit flips, truncations, random
 * central-directory, local-header and end-record fields, and random bytes in the pickle (in a
 * re-zipped archive whose CRCs hold, so the unpickler sees them). Loading each either succeeds
 * or throws TensorFormatException: no other exception, no crash, no hang, nothing left allocated.
 */
class PtFuzzTest {
  private static final long BUDGET_NANOS = Long.getLong("jtensor.fuzz.ptSeconds", 4) * 1_000_000_000L;  // longer runs: -Djtensor.fuzz.ptSeconds=600

  @TempDir Path dir;

  private byte[] jtensorFile() throws IOException {
    Path f = dir.resolve("seed.pt");
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> m = PtSamples.mixed();
      Tensors.save(m, f);
    }
    return Files.readAllBytes(f);
  }

  @Test
  void corruptedFilesLoadOrAreRefusedWithTensorFormatException() throws Exception {
    List<byte[]> seeds = List.of(jtensorFile(), Files.readAllBytes(PtFixturesTest.fixture("state_dict.pt")),
        Files.readAllBytes(PtFixturesTest.fixture("checkpoint.pt")));
    Path f = dir.resolve("fuzz.pt");
    long start = System.nanoTime();
    int runs = 0, loaded = 0;
    for (int i = 0; System.nanoTime() - start < BUDGET_NANOS; i++, runs++) {
      Random r = new Random(i);
      byte[] seed = seeds.get(i % seeds.size());
      int kind = r.nextInt(5);
      byte[] bad = kind == 4 ? mutatedPickle(seed, r) : mutated(seed, kind, r);
      Files.write(f, bad);
      try {
        Tensors.closeAll(Tensors.loadObject(f));
        loaded++;
      } catch (TensorFormatException expected) {
        // refused, as documented
      } catch (Throwable t) {
        Path keep = dir.resolve("case-" + i + ".pt");
        Files.copy(f, keep);
        fail("run " + i + " (mutation " + kind + " of seed " + i % seeds.size() + ") threw " + t, t);
      }
    }
    assertTrue(runs > 200, "ran " + runs + " cases");
    System.out.println("PtFuzzTest: " + runs + " corrupted files, " + loaded + " loaded, the rest refused");
  }

  private static byte[] mutated(byte[] seed, int kind, Random r) {
    byte[] b = seed.clone();
    ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    switch (kind) {
      case 0: {  // bit flips anywhere
        int n = 1 + r.nextInt(8);
        for (int k = 0; k < n; k++) b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        return b;
      }
      case 1:  // truncation
        return Arrays.copyOf(b, r.nextInt(b.length));
      case 2: {  // a field of a central-directory entry or of the end record
        int eocd = b.length - 22;
        int cd = le.getInt(eocd + 16);
        if (r.nextBoolean() || cd < 0 || cd >= eocd) {
          le.putInt(eocd + 4 + 2 * r.nextInt(8), wild(r, b.length));
          return b;
        }
        int at = cd, pick = r.nextInt(8);
        for (int k = 0; k < pick && at + 46 <= eocd; k++) {
          at += 46 + (le.getShort(at + 28) & 0xffff) + (le.getShort(at + 30) & 0xffff) + (le.getShort(at + 32) & 0xffff);
        }
        if (at + 46 > eocd) at = cd;
        int[] fields = {10, 16, 20, 24, 28, 30, 32, 42};
        int field = fields[r.nextInt(fields.length)];
        if (field >= 28 && field <= 32) le.putShort(at + field, (short) wild(r, b.length));
        else le.putInt(at + field, wild(r, b.length));
        return b;
      }
      default: {  // random bytes at a random place: local headers, the pickle, storage data
        int at = r.nextInt(Math.max(1, b.length - 32));
        for (int k = 0; k < 1 + r.nextInt(16); k++) b[at + k] = (byte) r.nextInt(256);
        return b;
      }
    }
  }

  /** Values that break parsers: 0, all ones, around 2^31, around the file's size. */
  private static int wild(Random r, int fileSize) {
    switch (r.nextInt(5)) {
      case 0: return 0;
      case 1: return -1;
      case 2: return Integer.MAX_VALUE - r.nextInt(3);
      case 3: return fileSize - 64 + r.nextInt(128);
      default: return r.nextInt();
    }
  }

  /** The same archive with random changes to data.pkl (and its CRC recomputed by the writer). */
  private byte[] mutatedPickle(byte[] seed, Random r) throws IOException {
    Path in = dir.resolve("in.pt"), out = dir.resolve("re.pt");
    Files.write(in, seed);
    Map<String, byte[]> entries = new LinkedHashMap<>();
    try (ZipReader z = ZipReader.open(in)) {
      for (ZipReader.Entry e : z.entries()) entries.put(e.name(), z.readAll(e, Integer.MAX_VALUE));
    }
    try (ZipWriter w = new ZipWriter(FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING), ZipWriter.ZIP64_AT)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        byte[] v = e.getValue();
        if (e.getKey().endsWith("data.pkl")) {
          v = v.clone();
          int n = 1 + r.nextInt(4);
          for (int k = 0; k < n; k++) {
            int at = r.nextInt(v.length);
            if (r.nextInt(4) == 0) v = Arrays.copyOf(v, at);  // cut short
            else v[at] = (byte) (r.nextBoolean() ? r.nextInt(256) : "()tRQqhK}]u.".charAt(r.nextInt(12)));
            if (v.length == 0) break;
          }
        }
        w.add(e.getKey(), v);
      }
      w.finish();
    }
    return Files.readAllBytes(out);
  }
}
