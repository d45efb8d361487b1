package org.jtensor.io;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.core.ScalarTypes;

/** The typed-storage class torch.save names for each dtype (torch.FloatStorage for float32, ...). */
final class TorchStorageTypes {
  private TorchStorageTypes() {}

  private static final Map<DType, String> NAMES = new EnumMap<>(DType.class);
  private static final Map<String, DType> DTYPES = new HashMap<>();

  private static void add(DType t, String name) {
    NAMES.put(t, name);
    DTYPES.put(name, t);
  }

  static {
    for (DType t : DType.values()) add(t, ScalarTypes.name(t) + "Storage");  // FloatStorage, LongStorage, ...
  }

  /** The class name in module torch, e.g. "FloatStorage". */
  static String name(DType t) {
    return NAMES.get(t);
  }

  /** The dtype of torch.&lt;name&gt;, or null when name is no storage class jtensor has a dtype for. */
  static DType dtype(String name) {
    return DTYPES.get(name);
  }

  /** Storage classes torch has that jtensor has no dtype for: refused with their name rather than as unknown globals. */
  static boolean isOtherTorchStorage(String name) {
    return name.endsWith("Storage") && !DTYPES.containsKey(name);
  }
}
