package org.jtensor.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Writes a file under a temporary name beside it, then renames it over the target. The old file
 * is never truncated in place: tensors still mapped from it (safetensors loads map the file, and
 * saving a loaded map back to its own path is natural) keep their bytes, where truncating a
 * mapped file would fault every later read. A failed write leaves the target as it was.
 *
 * <p>Otherwise it acts as torch.save's and np.save's open(file, "wb"): a symbolic link is written
 * through (the file it names is replaced, the link stays), an existing file keeps its permissions,
 * and a missing folder, a folder as the target or a file the caller may not write is refused
 * naming the file as given.
 */
final class ReplacingWrite {
  interface Body {
    void write(FileChannel ch) throws IOException;
  }

  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  /** Linux's limit on links followed in one path (ELOOP). */
  private static final int MAX_LINKS = 40;
  /** The longest file name repeated in the temporary name: 200 + 22 bytes stay within 255. */
  private static final int MAX_STEM_BYTES = 200;

  private ReplacingWrite() {}

  static void write(Path file, Body body) throws IOException {
    Path target = linkTarget(file, file.toAbsolutePath());
    Path dir = target.getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new NoSuchFileException(file.toString(), null, "parent directory " + dir + " does not exist");
    }
    if (Files.isDirectory(target)) throw new FileSystemException(file.toString(), null, "is a directory");
    Set<PosixFilePermission> mode = existingMode(target);
    if (Files.exists(target) && !Files.isWritable(target)) throw new AccessDeniedException(file.toString(), null, "the file is not writable");
    Path tmp = target.resolveSibling(tempName(target.getFileName().toString()));
    try {
      try (FileChannel ch = create(file, tmp, mode)) {
        if (mode != null) Files.setPosixFilePermissions(tmp, mode);  // exactly the old file's, whatever the umask
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

  /**
   * A new name of our own beside the file (not createTempFile, whose files are private to the
   * owner). A long name is not repeated in it: 22 more bytes would pass the 255-byte limit on a
   * name that torch.save and np.save take.
   */
  private static String tempName(String name) {
    String stem = name.getBytes(StandardCharsets.UTF_8).length <= MAX_STEM_BYTES ? name : "jtensor-save";
    return "." + stem + "." + Long.toHexString(RANDOM.nextLong()) + ".tmp";
  }

  /** The file a chain of symbolic links ends at (itself when it is none): that file is replaced, not the link. */
  private static Path linkTarget(Path file, Path p) throws IOException {
    for (int links = 0; Files.isSymbolicLink(p); links++) {
      if (links == MAX_LINKS) throw new FileSystemException(file.toString(), null, "too many levels of symbolic links");
      p = p.resolveSibling(Files.readSymbolicLink(p));  // a relative link is relative to its own folder
    }
    return p;
  }

  /** The existing target's POSIX permissions, kept by the new file (null: no such file, or no POSIX). */
  private static Set<PosixFilePermission> existingMode(Path target) throws IOException {
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) return null;
    try {
      return EnumSet.copyOf(Files.getPosixFilePermissions(target));
    } catch (UnsupportedOperationException notPosix) {
      return null;
    } catch (IllegalArgumentException noBits) {  // EnumSet.copyOf of an empty set
      return EnumSet.noneOf(PosixFilePermission.class);
    }
  }

  /** The temporary file, created no more readable than the old file (the umask may narrow it further). */
  private static FileChannel create(Path file, Path tmp, Set<PosixFilePermission> mode) throws IOException {
    Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    FileAttribute<?>[] attrs = mode == null ? new FileAttribute<?>[0]
        : new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE))};
    try {
      return FileChannel.open(tmp, options, attrs);
    } catch (AccessDeniedException e) {
      throw new AccessDeniedException(file.toString(), null, "cannot create a file in " + tmp.getParent());
    }
  }
}
