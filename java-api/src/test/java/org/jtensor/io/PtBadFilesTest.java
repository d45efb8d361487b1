package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Archives that lie: each is refused with a TensorFormatException naming the file and the problem, and nothing is left allocated. */
class PtBadFilesTest {
  @TempDir Path dir;

  /** A .pt archive with this pickle, version and storage entries (archive/data/&lt;key&gt;). */
  private Path archive(byte[] pickle, String version, Map<String, byte[]> storages) throws IOException {
    Path f = dir.resolve("bad.pt");
    try (ZipWriter z = new ZipWriter(FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING), ZipWriter.ZIP64_AT)) {
      if (pickle != null) z.add("archive/data.pkl", pickle);
      for (Map.Entry<String, byte[]> e : storages.entrySet()) z.add("archive/data/" + e.getKey(), e.getValue());
      if (version != null) z.add("archive/version", version.getBytes(StandardCharsets.US_ASCII));
      z.finish();
    }
    return f;
  }

  /** A dict {"t": tensor} whose persistent id and geometry the test chooses. */
  private static byte[] tensorPickle(String storageType, long numel, long offset, long[] size, long[] stride, boolean requiresGrad,
      Consumer<PickleWriter> hooks) {
    PickleWriter w = new PickleWriter();
    w.emptyDict().mark().string("t");
    w.global("torch._utils", "_rebuild_tensor_v2").mark();
    w.mark().string("storage").global("torch", storageType).string("0").string("cpu").integer(numel).tuple(5).persistentId();
    w.integer(offset).longs(size).longs(stride).bool(requiresGrad);
    hooks.accept(w);
    return w.tuple(6).reduce().setItems().finish();
  }

  private static final Consumer<PickleWriter> NO_HOOKS = w -> w.global("collections", "OrderedDict").tuple(0).reduce();

  private static Map<String, byte[]> storage(int nbytes) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("0", new byte[nbytes]);
    return m;
  }

  private void refused(Path f, String expect) {
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.loadObject(f));
    assertEquals(f, e.file());
    assertTrue(e.getMessage().startsWith(f.toString()) && e.getMessage().contains(expect), e.getMessage());
  }

  @Test
  void aSoundHandMadeArchiveLoads() throws IOException {
    Path f = archive(tensorPickle("FloatStorage", 4, 1, new long[] {3}, new long[] {1}, false, NO_HOOKS), "3\n", storage(16));
    Map<String, org.jtensor.Tensor> m = Tensors.load(f);
    try {
      assertEquals(3, m.get("t").numel());
    } finally {
      Tensors.closeAll(m);
    }
  }

  @Test
  void storagesTooSmallOrHugeAreRefusedBeforeAllocation() throws IOException {
    refused(archive(tensorPickle("FloatStorage", 4, 0, new long[] {3, 3}, new long[] {3, 1}, false, NO_HOOKS), "3", storage(16)),
        "does not fit");
    refused(archive(tensorPickle("FloatStorage", 4, 2, new long[] {3}, new long[] {1}, false, NO_HOOKS), "3", storage(16)),
        "does not fit");
    refused(archive(tensorPickle("FloatStorage", 1L << 40, 0, new long[] {1}, new long[] {1}, false, NO_HOOKS), "3", storage(16)),
        "but the pickle declares 4398046511104");
    refused(archive(tensorPickle("DoubleStorage", 1L << 62, 0, new long[] {1}, new long[] {1}, false, NO_HOOKS), "3", storage(16)),
        "declares 4611686018427387904 elements");
    refused(archive(tensorPickle("FloatStorage", 4, 0, new long[] {1L << 40, 1L << 40}, new long[] {0, 0}, false, NO_HOOKS), "3",
        storage(16)), "does not fit");
    refused(archive(tensorPickle("FloatStorage", 4, 0, new long[] {2}, new long[] {-1}, false, NO_HOOKS), "3", storage(16)),
        "does not fit");
    refused(archive(tensorPickle("FloatStorage", 4, -1, new long[] {2}, new long[] {1}, false, NO_HOOKS), "3", storage(16)),
        "does not fit");
    refused(archive(tensorPickle("FloatStorage", 4, 0, new long[] {2}, new long[] {1}, false, NO_HOOKS), "3", Map.of()),
        "has no entry archive/data/0");
  }

  @Test
  void torchNamesThatAreNotDenseTensorsAreRefused() throws IOException {
    refused(archive(tensorPickle("ComplexFloatStorage", 4, 0, new long[] {2}, new long[] {1}, false, NO_HOOKS), "3", storage(32)),
        "torch.ComplexFloatStorage has no jtensor dtype");
    refused(archive(tensorPickle("LongStorage", 2, 0, new long[] {2}, new long[] {1}, true, NO_HOOKS), "3", storage(16)),
        "requires_grad");
    byte[] withHook = tensorPickle("FloatStorage", 2, 0, new long[] {2}, new long[] {1}, false,
        w -> w.emptyDict().mark().integer(0).string("hook").setItems());
    refused(archive(withHook, "3", storage(8)), "backward hooks");
    PickleWriter evil = new PickleWriter();
    evil.global("builtins", "eval").string("1+1").tuple(1).reduce();
    refused(archive(evil.finish(), "3", Map.of()), "global 'builtins.eval' is not allowed");
    PickleWriter scripted = new PickleWriter();
    scripted.global("__torch__", "MyModule").tuple(0).reduce();
    refused(archive(scripted.finish(), "3", Map.of()), "global '__torch__.MyModule' is not allowed");
  }

  /** torch 2.x writes a tensor with Python attributes as _rebuild_from_type_v2(rebuild, type, args, state). */
  private static byte[] fromTypePickle(boolean nested) {
    PickleWriter w = new PickleWriter();
    w.global("torch._tensor", "_rebuild_from_type_v2").mark();
    if (nested) w.global("torch._tensor", "_rebuild_from_type_v2");
    else w.global("torch._utils", "_rebuild_tensor_v2");
    w.global("torch", "Tensor").mark();
    w.mark().string("storage").global("torch", "FloatStorage").string("0").string("cpu").integer(2).tuple(5).persistentId();
    w.integer(0).longs(new long[] {2}).longs(new long[] {1}).bool(false).global("collections", "OrderedDict").tuple(0).reduce();
    w.tuple(6).emptyDict().tuple(4).reduce();
    return w.finish();
  }

  @Test
  void tensorsWithPythonAttributesLoadButRebuildsDoNotNest() throws IOException {
    Object t = Tensors.loadObject(archive(fromTypePickle(false), "3", storage(8)));
    try {
      assertEquals(2, ((org.jtensor.Tensor) t).numel());
    } finally {
      Tensors.closeAll(t);
    }
    refused(archive(fromTypePickle(true), "3", storage(8)), "_rebuild_from_type_v2 takes");
  }

  @Test
  void archivesMissingTheirPartsAreRefused() throws IOException {
    byte[] ok = tensorPickle("FloatStorage", 2, 0, new long[] {2}, new long[] {1}, false, NO_HOOKS);
    refused(archive(ok, null, storage(8)), "no archive/version entry");
    refused(archive(ok, "99\n", storage(8)), "archive format version 99");
    refused(archive(ok, "three", storage(8)), "not a number");
    refused(archive(null, "3", storage(8)), "no archive/data.pkl entry");
    byte[] deep = new byte[2 + 3000 + 2999 + 1];
    Arrays.fill(deep, 2, 3002, (byte) ']');
    Arrays.fill(deep, 3002, deep.length - 1, (byte) 'a');
    deep[0] = (byte) 0x80;
    deep[1] = 2;
    deep[deep.length - 1] = '.';
    refused(archive(deep, "3", Map.of()), "deeper than");
  }

  @Test
  void filesThatAreNotArchivesAreRefused() throws IOException {
    Path f = dir.resolve("legacy.pt");
    Files.write(f, new byte[] {(byte) 0x80, 2, (byte) 0x8a, 10, 0x6c, (byte) 0xfc, (byte) 0x9c, 0x46, (byte) 0xf9, 0x20, 0x6a, (byte) 0xa8, 0x50, 0x19, '.'});
    refused(f, "legacy");
    Files.write(f, "hello, not a checkpoint at all........".getBytes(StandardCharsets.US_ASCII));
    refused(f, "wrong magic");
    byte[] good = Files.readAllBytes(archive(tensorPickle("FloatStorage", 2, 0, new long[] {2}, new long[] {1}, false, NO_HOOKS), "3",
        storage(8)));
    Files.write(f, Arrays.copyOf(good, good.length - 1));
    refused(f, "truncated");
  }
}
