package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupted files of each format: bit flips, truncation, garbage in the header, huge declared
 * sizes and shapes, and (safetensors) offsets rewritten to overlap. Each load either gives
 * tensors whose every value can be read, or raises TensorFormatException naming the file;
 * anything else (another exception, a crash, a hang) fails. Seeded and bounded in time.
 */
class FormatFuzzTest extends IoTest {
  // per format; a long run: -Djtensor.io.fuzz.millis=600000 -Djtensor.io.fuzz.seed=N
  private static final long BUDGET_NANOS = Long.getLong("jtensor.io.fuzz.millis", 1500) * 1_000_000L;
  private static final long SEED = Long.getLong("jtensor.io.fuzz.seed", 0);
  @TempDir Path dir;

  private interface Loader {
    Collection<Tensor> load(Path p) throws IOException;
  }

  private Map<String, Tensor> tensors() {
    Map<String, Tensor> m = new LinkedHashMap<>();
    m.put("w", Tensor.arange(0, 12, 1, DType.FLOAT32).view(3, 4));
    m.put("idx", Tensor.arange(5));
    m.put("mask", sample(DType.BOOL));
    m.put("h", sample(DType.FLOAT16));
    m.put("s", Tensor.scalar(1.5, DType.FLOAT64));
    m.put("e", Tensor.zeros(new long[] {0, 2}, DType.INT8));
    return m;
  }

  @Test
  void safetensors() throws IOException {
    Path own = dir.resolve("own.safetensors");
    Map<String, Tensor> m = tensors();
    m.put("bf", sample(DType.BFLOAT16));
    SafeTensors.save(m, own);
    fuzz(List.of(own, Fixtures.path("every_dtype.safetensors"), Fixtures.path("unaligned.safetensors")),
        p -> SafeTensors.load(p).values(), 11, true);
  }

  @Test
  void npy() throws IOException {
    Path own = dir.resolve("own.npy");
    Npy.save(Tensor.arange(0, 24, 1, DType.FLOAT64).view(2, 3, 4), own);
    fuzz(List.of(own, Fixtures.path("fortran_i32.npy"), Fixtures.path("big_endian_f8.npy"), Fixtures.path("v3_f16.npy")),
        p -> List.of(Npy.load(p)), 12, false);
  }

  @Test
  void npz() throws IOException {
    Path stored = dir.resolve("own.npz"), deflated = dir.resolve("ownc.npz");
    Npy.saveNpz(tensors(), stored);
    Npy.saveNpzCompressed(tensors(), deflated);
    fuzz(List.of(stored, deflated, Fixtures.path("every_dtype_compressed.npz")), p -> Npy.loadNpz(p).values(), 13, false);
  }

  private void fuzz(List<Path> seeds, Loader loader, long seed, boolean safetensors) throws IOException {
    seed += SEED;
    Random r = new Random(seed);
    List<byte[]> originals = new ArrayList<>();
    for (Path p : seeds) originals.add(Files.readAllBytes(p));
    long start = System.nanoTime();
    int runs = 0, refused = 0;
    while (System.nanoTime() - start < BUDGET_NANOS) {
      byte[] original = originals.get(r.nextInt(originals.size()));
      int kind = r.nextInt(safetensors ? 6 : 5);
      byte[] bytes = mutate(r, original, kind);
      Path p = dir.resolve("case" + runs + (safetensors ? ".safetensors" : ".bin"));
      Files.write(p, bytes);
      try (org.jtensor.TensorScope ignored = org.jtensor.TensorScope.open()) {
        for (Tensor t : loader.load(p)) t.to(DType.FLOAT64).contiguous().toDoubleArray();  // every value readable
      } catch (TensorFormatException e) {
        assertEquals(p, e.file());
        assertTrue(e.getMessage().startsWith(p + ": "), e.getMessage());
        refused++;
      } catch (Throwable t) {
        fail("seed " + seed + " run " + runs + " mutation " + kind + ": " + t, t);
      }
      Files.delete(p);
      runs++;
    }
    System.out.println("FormatFuzzTest seed " + seed + ": " + runs + " corrupted files, " + refused + " refused, the rest loaded whole");
    assertTrue(runs > 50 && refused > runs / 4, runs + " runs, " + refused + " refused: the corruptions must reach the checks");
  }

  private static byte[] mutate(Random r, byte[] in, int kind) {
    byte[] b = in.clone();
    int headerEnd = Math.min(b.length, 256);
    switch (kind) {
      case 0: {  // bit flips, half of them in the header
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
          int at = r.nextBoolean() ? r.nextInt(headerEnd) : r.nextInt(b.length);
          b[at] ^= (byte) (1 << r.nextInt(8));
        }
        return b;
      }
      case 1:  // truncation
        return java.util.Arrays.copyOf(b, r.nextInt(b.length));
      case 2: {  // a run of garbage in the header
        int at = r.nextInt(headerEnd), n = 1 + r.nextInt(16);
        for (int i = at; i < Math.min(b.length, at + n); i++) b[i] = (byte) r.nextInt(256);
        return b;
      }
      case 3:  // a declared number (a length, a dim, an offset) made huge, in place or longer
        return hugeNumber(r, b);
      case 4: {  // a huge binary length prefix (safetensors' first 8 bytes; .npy's header length; a zip size field)
        int at = r.nextInt(Math.max(1, Math.min(b.length - 8, 64)));
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(Math.max(0, at), r.nextBoolean() ? Long.MAX_VALUE : (1L << (32 + r.nextInt(31))));
        return b;
      }
      default:
        return overlappingOffsets(r, b);
    }
  }

  private static final Pattern DIGITS = Pattern.compile("\\d+");

  private static byte[] hugeNumber(Random r, byte[] b) {
    String head = new String(b, 0, Math.min(b.length, 512), StandardCharsets.ISO_8859_1);
    List<int[]> runs = new ArrayList<>();
    Matcher m = DIGITS.matcher(head);
    while (m.find()) runs.add(new int[] {m.start(), m.end()});
    if (runs.isEmpty()) return b;
    int[] run = runs.get(r.nextInt(runs.size()));
    String huge = r.nextBoolean() ? "9".repeat(run[1] - run[0]) : (r.nextBoolean() ? "18446744073709551615" : "4294967296");
    byte[] h = huge.getBytes(StandardCharsets.ISO_8859_1);
    byte[] out = new byte[b.length - (run[1] - run[0]) + h.length];
    System.arraycopy(b, 0, out, 0, run[0]);
    System.arraycopy(h, 0, out, run[0], h.length);
    System.arraycopy(b, run[1], out, run[0] + h.length, b.length - run[1]);
    return out;
  }

  /** Rewrites one entry's data_offsets to another's (or shifted), keeping the length prefix right. */
  private static byte[] overlappingOffsets(Random r, byte[] b) {
    long n = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    String header = new String(b, 8, (int) n, StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("\"data_offsets\":\\[(\\d+),(\\d+)\\]").matcher(header);
    List<String> offsets = new ArrayList<>();
    while (m.find()) offsets.add(m.group());
    if (offsets.size() < 2) return b;
    String victim = offsets.get(r.nextInt(offsets.size()));
    Matcher v = Pattern.compile("(\\d+),(\\d+)").matcher(victim);
    v.find();
    long shift = 1 + r.nextInt(8);
    String replacement = r.nextBoolean() ? offsets.get(r.nextInt(offsets.size()))
        : "\"data_offsets\":[" + (Long.parseLong(v.group(1)) + shift) + "," + (Long.parseLong(v.group(2)) + shift) + "]";
    byte[] text = header.replace(victim, replacement).getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.allocate(8 + text.length + (b.length - 8 - (int) n)).order(ByteOrder.LITTLE_ENDIAN);
    out.putLong(text.length).put(text).put(b, 8 + (int) n, b.length - 8 - (int) n);
    return out.array();
  }
}
