package org.jtensor.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The zip archive torch.save writes, checked before its pickle is read: its folder, version and byte order. */
final class PtArchive {
  private PtArchive() {}

  /** The archive, or a refusal naming a legacy (pre-zip) torch.save file as such. */
  static ZipReader open(Path file) throws IOException {
    try {
      return ZipReader.open(file);
    } catch (TensorFormatException e) {
      byte[] head = new byte[2];
      try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
        if (in.readNBytes(head, 0, 2) == 2 && (head[0] & 0xff) == 0x80 && head[1] == 2) {  // a bare pickle: torch's format before 1.6
          throw bad(file, "a legacy torch.save file (PyTorch before 1.6, or _use_new_zipfile_serialization=False), which is not"
              + " read: load it in PyTorch and save it again");
        }
      }
      throw e;
    }
  }

  /** All entries live in one folder, named by the first (PyTorch's reader does the same). */
  static String prefix(ZipReader zip) throws TensorFormatException {
    if (zip.entries().isEmpty()) throw bad(zip.file(), "archive holds no entries");
    String first = zip.entries().iterator().next().name();
    int slash = first.indexOf('/');
    if (slash <= 0) throw bad(zip.file(), "entry '" + first + "' is not inside the archive's folder: not a torch.save archive");
    return first.substring(0, slash + 1);
  }

  /** version (or .data/version) must be a format PyTorch reads; byteorder, when present, must be little. */
  static void checkVersion(ZipReader zip, String prefix) throws IOException {
    ZipReader.Entry v = zip.entry(prefix + ".data/version");
    if (v == null) v = zip.entry(prefix + "version");
    if (v == null) throw bad(zip.file(), "no " + prefix + "version entry: not a torch.save archive");
    String text = new String(zip.readAll(v, 64), StandardCharsets.US_ASCII).trim();
    long version;
    try {
      version = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw bad(zip.file(), "version entry holds '" + text + "', not a number");
    }
    if (version < 1 || version > 0xF) throw bad(zip.file(), "archive format version " + version + " is not one PyTorch writes (1 to 15)");
    ZipReader.Entry order = zip.entry(prefix + "byteorder");
    if (order != null) {
      String o = new String(zip.readAll(order, 64), StandardCharsets.US_ASCII).trim();
      if (!o.equals("little")) throw bad(zip.file(), "byteorder is '" + o + "'; only little-endian files are read");
    }
  }

  private static TensorFormatException bad(Path file, String problem) {
    return new TensorFormatException(file, problem);
  }
}
