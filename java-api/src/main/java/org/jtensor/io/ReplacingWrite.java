package org.jtensor.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file under a temporary name beside it, then renames it over the target. The old file
 * is never truncated in place: tensors still mapped from it (safetensors loads map the file, and
 * saving a loaded map back to its own path is natural) keep their bytes, where truncating a
 * mapped file would fault every later read. A failed write leaves the target as it was.
 *
 * <p>Otherwise it acts as torch.save's and np.save's open(file, "wb"): a symbolic link is written
 * through: the file it names is replaced, the link stays.
 */
final class ReplacingWrite {
  interface Body {
    void write(FileChannel ch) throws IOException;
  }

  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  /** Linux's limit on links followed in one path (ELOOP). */
  private static final int MAX_LINKS = 40;

  private ReplacingWrite() {}

  static void write(Path file, Body body) throws IOException {
    Path target = linkTarget(file, file.toAbsolutePath());
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

  /** The file a chain of symbolic links ends at (itself when it is none): that file is replaced, not the link. */
  private static Path linkTarget(Path file, Path p) throws IOException {
    for (int links = 0; Files.isSymbolicLink(p); links++) {
      if (links == MAX_LINKS) throw new FileSystemException(file.toString(), null, "too many levels of symbolic links");
      p = p.resolveSibling(Files.readSymbolicLink(p));  // a relative link is relative to its own folder
    }
    return p;
  }
}
