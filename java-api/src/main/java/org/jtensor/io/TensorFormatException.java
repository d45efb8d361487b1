package org.jtensor.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file that is not what its format says: wrong magic, truncated, a header that points outside
 * the file or declares more than it holds, a pickle that names a forbidden global. The message
 * names the file and the problem; nothing was allocated at a size the file declared before it
 * was checked.
 */
public class TensorFormatException extends IOException {
  private final transient Path file;

  public TensorFormatException(Path file, String problem) {
    super(file + ": " + problem);
    this.file = file;
  }

  public TensorFormatException(Path file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
  }

  /** The file that was refused. */
  public Path file() {
    return file;
  }
}
