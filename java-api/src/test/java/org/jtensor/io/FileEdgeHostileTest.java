package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile review of file input and output edge cases (session 32): each test is named after a
 * bug, checked against PyTorch 2.13 and NumPy; the hostile files are made here.
 */
class FileEdgeHostileTest {
  @TempDir Path dir;

  private static Tensor arange(int n) {
    return Tensor.arange(0, n, 1, DType.FLOAT32);
  }

  private static int lastIndexOf(byte[] hay, byte[] needle) {
    for (int i = hay.length - needle.length; i >= 0; i--) {
      if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) return i;
    }
    throw new AssertionError("not found");
  }

  /** Writes each tensor kind this package saves, to path, so that every writer's path rules are checked. */
  private static void saveEach(String kind, Path path) throws IOException {
    try (Tensor x = arange(3)) {
      switch (kind) {
        case "pt": Tensors.save(Map.of("x", x), path); break;
        case "npy": Npy.save(x, path); break;
        case "npz": Npy.saveNpz(Map.of("x", x), path); break;
        default: SafeTensors.save(Map.of("x", x), path); break;
      }
    }
  }

  private static final List<String> KINDS = List.of("pt", "npy", "npz", "safetensors");

  /**
   * Before: java.util.zip.ZipFile checks no CRC-32, so a .npz with a flipped data byte loaded its
   * wrong value (1.0000001 for 1.0) silently. np.load refuses it: "Bad CRC-32 for file 'x.npy'".
   */
  @Test
  void npzWithAFlippedByteLoadedWithoutItsCrcCheck() throws IOException {
    Path stored = dir.resolve("stored.npz"), deflated = dir.resolve("deflated.npz");
    try (Tensor x = arange(6)) {
      Npy.saveNpz(Map.of("x", x), stored);
      Npy.saveNpzCompressed(Map.of("x", x), deflated);
    }
    byte[] b = Files.readAllBytes(stored);
    byte[] data = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putFloat(0).putFloat(1).putFloat(2).putFloat(3)
        .putFloat(4).putFloat(5).array();
    b[lastIndexOf(b, data) + 4] ^= 1;  // 1.0f becomes 1.0000001f
    Files.write(stored, b);
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Npy.loadNpz(stored));
    assertTrue(e.getMessage().contains("stored.npz") && e.getMessage().contains("entry \"x.npy\" fails its CRC-32 check"), e.getMessage());

    byte[] c = Files.readAllBytes(deflated);
    c[lastIndexOf(c, new byte[] {'P', 'K', 1, 2}) + 16] ^= 1;  // the central directory's CRC-32 of x.npy
    Files.write(deflated, c);
    e = assertThrows(TensorFormatException.class, () -> Npy.loadNpz(deflated));
    assertTrue(e.getMessage().contains("fails its CRC-32 check"), e.getMessage());
  }

  /**
   * Before: saving to a symbolic link renamed the new file over the link, so the link was gone and
   * the file it named kept its old bytes. torch.save and np.save open the path, writing through
   * the link (a dangling one creates the file it names).
   */
  @Test
  void saveThroughASymbolicLinkReplacedTheLinkNotItsFile() throws IOException {
    Files.createDirectories(dir.resolve("real"));
    for (String kind : KINDS) {
      Path real = dir.resolve("real/model." + kind), link = dir.resolve("link." + kind), dangling = dir.resolve("dangling." + kind);
      Files.write(real, new byte[] {42});
      Files.createSymbolicLink(link, Path.of("real/model." + kind));  // relative: to the link's own folder
      saveEach(kind, link);
      assertTrue(Files.isSymbolicLink(link), kind + ": the link stays");
      assertTrue(Files.size(real) > 1, kind + ": the file the link names holds the new bytes");
      Files.createSymbolicLink(dangling, dir.resolve("made." + kind));
      saveEach(kind, dangling);
      assertTrue(Files.isSymbolicLink(dangling) && Files.size(dir.resolve("made." + kind)) > 1, kind);
    }
    Map<String, Tensor> back = Tensors.load(dir.resolve("link.pt"));
    try {
      assertArrayEquals(new float[] {0, 1, 2}, back.get("x").toFloatArray());
    } finally {
      Tensors.closeAll(back);
    }
  }

  /**
   * Before: the new file took the umask's permissions, so saving over a private (0600) checkpoint
   * left it readable by everyone (0644). torch.save and np.save truncate the file, keeping its mode.
   */
  @Test
  void saveOverAPrivateFileMadeItReadableByAll() throws IOException {
    for (String kind : KINDS) {
      Path p = dir.resolve("private." + kind);
      Files.write(p, new byte[] {42});
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
      saveEach(kind, p);
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), kind);
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-rw-r--"));  // wider than the umask's 0644 too
      saveEach(kind, p);
      assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), kind);
    }
  }

  /**
   * Before: a missing folder or a folder as the target threw naming the hidden temporary file
   * (".x.pt.40fff806975db863.tmp"), not the path the caller gave. torch.save: "Parent directory
   * nodir does not exist."; a folder: "Is a directory". Nothing is left behind.
   */
  @Test
  void saveIntoAMissingFolderNamedTheTemporaryFile() throws IOException {
    Files.createDirectories(dir.resolve("folder"));
    for (String kind : KINDS) {
      Path missing = dir.resolve("nodir/x." + kind);
      NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> saveEach(kind, missing));
      assertEquals(missing.toString(), e.getFile(), kind);
      assertTrue(e.getMessage().contains("parent directory") && e.getMessage().contains("does not exist"), e.getMessage());
      IOException d = assertThrows(IOException.class, () -> saveEach(kind, dir.resolve("folder")));
      assertTrue(d.getMessage().startsWith(dir.resolve("folder") + ": is a directory"), d.getMessage());
      assertTrue(Files.isDirectory(dir.resolve("folder")), kind);
    }
    try (var files = Files.list(dir)) {
      assertEquals(List.of("folder"), files.map(f -> f.getFileName().toString()).toList(), "no temporary file left");
    }
  }

  /**
   * Before: the temporary name repeats the file's and adds 22 bytes, so a 254-byte name that
   * torch.save and np.save write was refused ("File name too long", naming the temporary file).
   */
  @Test
  void saveToALongFileNameWasRefused() throws IOException {
    for (String kind : KINDS) {
      String name = "m".repeat(254 - kind.length() - 1) + "." + kind;
      assertEquals(254, name.length());
      Path p = dir.resolve(name);
      saveEach(kind, p);
      saveEach(kind, p);  // over the old file too
      assertTrue(Files.size(p) > 1, kind);
    }
    try (var files = Files.list(dir)) {
      assertEquals(4, files.count(), "no temporary file left");
    }
  }

  /**
   * Before: a .pt whose entries `zip` deflated again was refused ("entry archive/data/0 is
   * compressed"); torch.load reads it. Now it loads (views still share their storage); a deflated
   * storage is inflated once, its size and CRC-32 checked, before its declared size is allocated.
   */
  @Test
  void ptWhoseStoragesZipDeflatedWasRefused() throws IOException {
    Path pt = dir.resolve("model.pt"), deflated = dir.resolve("deflated.pt");
    try (Tensor x = arange(6); Tensor v = x.view(2, 3); Tensor t = v.t()) {
      Tensors.save(Map.of("x", x, "t", t), pt);
    }
    try (ZipFile in = new ZipFile(pt.toFile()); ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(deflated))) {
      for (ZipEntry e : Collections.list(in.entries())) {
        out.putNextEntry(new ZipEntry(e.getName()));  // deflated, as zip -r writes it
        try (InputStream s = in.getInputStream(e)) {
          s.transferTo(out);
        }
        out.closeEntry();
      }
    }
    Map<String, Tensor> m = Tensors.load(deflated);
    try {
      assertArrayEquals(new long[] {1, 3}, m.get("t").stride());
      assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, m.get("t").toFloatArray());
      m.get("x").fill_(7);
      assertArrayEquals(new float[] {7, 7, 7, 7, 7, 7}, m.get("t").toFloatArray(), "one storage");
    } finally {
      Tensors.closeAll(m);
    }
    byte[] b = Files.readAllBytes(deflated);
    int cd = lastIndexOf(b, "archive/data/0".getBytes(StandardCharsets.US_ASCII)) - 46;  // its central-directory record
    b[cd + 16] ^= 1;  // its CRC-32
    Path bad = dir.resolve("bad.pt");
    Files.write(bad, b);
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.load(bad));
    assertTrue(e.getMessage().contains("bad.pt") && e.getMessage().contains("'archive/data/0' fails its CRC-32 check"), e.getMessage());
  }

  /** A .pt archive around a hand-made pickle. */
  private static Path ptOf(Path file, byte[] pickle) throws IOException {
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(file))) {
      out.putNextEntry(new ZipEntry("archive/data.pkl"));
      out.write(pickle);
      out.putNextEntry(new ZipEntry("archive/version"));
      out.write("3\n".getBytes(StandardCharsets.US_ASCII));
    }
    return file;
  }

  /** Protocol 2's bytes: _codecs.encode(text, codec), as Python pickles bytes below protocol 3. */
  private static byte[] encodePickle(String text, String codec) {
    ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0x80, 2}).put("c_codecs\nencode\n".getBytes(StandardCharsets.US_ASCII));
    for (String s : List.of(text, codec)) {
      byte[] u = s.getBytes(StandardCharsets.UTF_8);
      b.put((byte) 'X').putInt(u.length).put(u);
    }
    b.put(new byte[] {(byte) 0x86, 'R', '.'});
    return Arrays.copyOf(b.array(), b.position());
  }

  /**
   * Before: _codecs.encode('\u0100A', 'latin1') in a pickle gave the bytes "?A": String.getBytes
   * writes '?' for a character the codec lacks. torch.load(weights_only=True) refuses the file:
   * "'latin-1' codec can't encode character '\u0100' in position 0".
   */
  @Test
  void pickledBytesOutsideTheirCodecBecameQuestionMarks() throws IOException {
    Path bad = ptOf(dir.resolve("enc.pt"), encodePickle("\u0100A", "latin1"));
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.loadObject(bad));
    assertTrue(e.getMessage().contains("enc.pt") && e.getMessage().contains("can't encode"), e.getMessage());
    Object ok = Tensors.loadObject(ptOf(dir.resolve("ok.pt"), encodePickle("\u00ffA", "latin1")));
    assertArrayEquals(new byte[] {(byte) 0xff, 'A'}, (byte[]) ok);
  }

  /** Protocol 2's {key: 1}, the key a BINUNICODE of these bytes. */
  private static byte[] dictPickle(byte... key) {
    ByteBuffer b = ByteBuffer.allocate(32 + key.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0x80, 2, '}', 'X'}).putInt(key.length).put(key).put(new byte[] {'K', 1, 's', '.'});
    return Arrays.copyOf(b.array(), b.position());
  }

  /**
   * Before: a pickled str of invalid UTF-8 (a state-dict key "w\xff") loaded as "w\ufffd";
   * torch.load refuses it ("'utf-8' codec can't decode byte 0xff in position 1"). A lone
   * surrogate's bytes (ED A0 80), which Python's unpickler passes, gave U+FFFD too; it is U+D800.
   */
  @Test
  void pickledStrOfInvalidUtf8BecameReplacementCharacters() throws IOException {
    Path bad = ptOf(dir.resolve("u8.pt"), dictPickle((byte) 'w', (byte) 0xff));
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.loadObject(bad));
    assertTrue(e.getMessage().contains("u8.pt") && e.getMessage().contains("not valid UTF-8"), e.getMessage());
    Object lone = Tensors.loadObject(ptOf(dir.resolve("sur.pt"), dictPickle((byte) 'w', (byte) 0xED, (byte) 0xA0, (byte) 0x80)));
    assertEquals(Map.of("w\ud800", 1L), lone);
    Object ok = Tensors.loadObject(ptOf(dir.resolve("ok.pt"), dictPickle("wé€😀".getBytes(StandardCharsets.UTF_8))));
    assertEquals(Map.of("wé€😀", 1L), ok);
  }

  private static byte[] npy(String dict) {
    byte[] text = dict.getBytes(StandardCharsets.ISO_8859_1);
    int total = (10 + text.length + 1 + 63) / 64 * 64;
    ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) (total - 10)).put(text);
    while (b.position() < total - 1) b.put((byte) ' ');
    return b.put((byte) '\n').array();
  }

  /**
   * Before: an empty array whose other dims overflow a long ((0, 2^62, 4) float32) passed the
   * header's byte count (0) and then empty() threw an IllegalArgumentException naming no file.
   * np.load refuses it ("array is too big"), as torch.empty does ("Stride calculation overflowed").
   */
  @Test
  void zeroSizeShapeWhoseStridesOverflowWasRefusedWithoutTheFile() throws IOException {
    String[] dicts = {"{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4611686018427387904, 4), }",
        "{'descr': '<f4', 'fortran_order': True, 'shape': (4, 4611686018427387904, 0), }"};
    for (String dict : dicts) {
      Path p = dir.resolve("huge.npy");
      Files.write(p, npy(dict));
      TensorFormatException e = assertThrows(TensorFormatException.class, () -> Npy.load(p));
      assertTrue(e.getMessage().contains("huge.npy") && e.getMessage().contains("too big"), e.getMessage());
    }
    byte[] json = "{\"w\":{\"dtype\":\"F32\",\"shape\":[0,4611686018427387904,4],\"data_offsets\":[0,0]}}".getBytes(StandardCharsets.UTF_8);
    Path st = dir.resolve("huge.safetensors");
    Files.write(st, ByteBuffer.allocate(8 + json.length).order(ByteOrder.LITTLE_ENDIAN).putLong(json.length).put(json).array());
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> SafeTensors.load(st));
    assertTrue(e.getMessage().contains("huge.safetensors") && e.getMessage().contains("strides overflow"), e.getMessage());
    // an empty array whose other dims fit still loads, with PyTorch's strides
    Files.write(dir.resolve("empty.npy"), npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3, 4), }"));
    try (Tensor t = Npy.load(dir.resolve("empty.npy"))) {
      assertArrayEquals(new long[] {0, 3, 4}, t.shape());
      assertArrayEquals(new long[] {12, 4, 1}, t.stride());
    }
  }
}
