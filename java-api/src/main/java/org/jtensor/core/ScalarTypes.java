package org.jtensor.core;

import java.util.EnumMap;
import java.util.Map;
import org.jtensor.DType;

/**
 * PyTorch's C++ name of each dtype (c10::ScalarType: Float for float32, Long for int64, ...), which
 * its messages print ("expected scalar type Float but found Double") and torch.save's typed storage
 * classes carry (FloatStorage).
 */
public final class ScalarTypes {
  private ScalarTypes() {}

  private static final Map<DType, String> NAMES = new EnumMap<>(DType.class);

  static {
    NAMES.put(DType.BOOL, "Bool");
    NAMES.put(DType.UINT8, "Byte");
    NAMES.put(DType.INT8, "Char");
    NAMES.put(DType.INT16, "Short");
    NAMES.put(DType.INT32, "Int");
    NAMES.put(DType.INT64, "Long");
    NAMES.put(DType.FLOAT16, "Half");
    NAMES.put(DType.BFLOAT16, "BFloat16");
    NAMES.put(DType.FLOAT32, "Float");
    NAMES.put(DType.FLOAT64, "Double");
    for (DType t : DType.values()) {
      if (!NAMES.containsKey(t)) throw new IllegalStateException("ScalarTypes: no PyTorch name for " + t);  // a new dtype names itself here
    }
  }

  /** "Float" for float32; every dtype has one (checked when the class loads). */
  public static String name(DType t) {
    return NAMES.get(t);
  }

  /** PyTorch's refusal of an operand whose dtype is not the one an op's kernel reads. */
  public static String expected(DType want, DType found) {
    return "expected scalar type " + name(want) + " but found " + name(found);
  }

  /** PyTorch's NotImplementedError where a kernel has no instance for a dtype: op(): "kernel" not implemented for 'Long'. */
  public static UnsupportedOperationException notImplemented(String op, String kernel, DType t) {
    return new UnsupportedOperationException(op + "(): \"" + kernel + "\" not implemented for '" + name(t) + "'");
  }
}
