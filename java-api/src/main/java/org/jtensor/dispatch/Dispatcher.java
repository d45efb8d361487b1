package org.jtensor.dispatch;

import org.jtensor.Device;

/** Device first: every byte-touching primitive reaches its kernel through the device's Backend. */
public final class Dispatcher {
  private static final Backend CPU = new CpuBackend();
  private static final Backend META = new MetaBackend();

  private Dispatcher() {}

  public static Backend backend(Device device) {
    switch (device.type()) {
      case CPU: return CPU;
      case META: return META;
      default: throw new UnsupportedOperationException("jtensor was built without a " + device + " backend");
    }
  }
}
