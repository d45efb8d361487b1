package org.jtensor.ops;

import org.jtensor.Device;

/** The one check that an op's tensors share a device, with PyTorch's message. */
final class Devices {
  private Devices() {}

  static void requireSame(String op, Device a, Device b) {
    if (!a.equals(b)) {
      throw new IllegalArgumentException(op + "(): Expected all tensors to be on the same device, but found at least two devices, "
          + a + " and " + b + "!");
    }
  }
}
