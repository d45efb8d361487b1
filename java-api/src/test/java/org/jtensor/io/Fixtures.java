package org.jtensor.io;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The files make_np_fixtures.py and make_pt_fixtures.py made, kept in the test resources under io/. */
final class Fixtures {
  private Fixtures() {}

  static Path path(String name) {
    try {
      return Path.of(Fixtures.class.getResource("/io/" + name).toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new AssertionError("missing test resource io/" + name, e);
    }
  }

  /** The every-dtype arrays' values: [[0, 1, -2], [3, 100, 127]], absolute for unsigned and bool dtypes. */
  static double[] everyDtypeValues(boolean signed) {
    return signed ? new double[] {0, 1, -2, 3, 100, 127} : new double[] {0, 1, 2, 3, 100, 127};
  }
}
