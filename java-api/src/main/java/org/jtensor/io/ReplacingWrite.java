package org.jtensor.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file under a temporary name beside it, then renames it over the target. The old file
 * is never truncated in place: tensors still mapped from it (safetensors loads map the file, and
 * saving a loaded map back to its own path is natural) keep their bytes, where truncating a
 * mapped file would fault every later read. A failed write leaves the target as it was.
 */
final class ReplacingWrite {
  interface Body {
    void write(FileChannel ch) throws IOException;
  }

  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private ReplacingWrite() {}

  static void write(Path file, Body body) throws IOException {
    Path target = file.toAbsolutePath();
    // a new name of our own (not createTempFile, whose files are private to the owner)
    Path tmp = target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(RANDOM.nextLong()) + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW)) {
        body.write(ch);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
