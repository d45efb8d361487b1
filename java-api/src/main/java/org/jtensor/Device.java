package org.jtensor;

import java.util.Objects;

/** Where a tensor's bytes live. META tensors carry shape, stride and dtype with no bytes. */
public final class Device {
  public enum Type { CPU, CUDA, META }

  public static final Device CPU = new Device(Type.CPU, -1);
  public static final Device META = new Device(Type.META, -1);

  private final Type type;
  private final int index;

  private Device(Type type, int index) {
    this.type = type;
    this.index = index;
  }

  public static Device cuda(int index) {
    if (index < 0) throw new IllegalArgumentException("Device.cuda(): index must be >= 0, got " + index);
    return new Device(Type.CUDA, index);
  }

  /** Parses PyTorch's spelling: "cpu", "meta", "cuda", "cuda:1". */
  public static Device of(String spec) {
    switch (spec) {
      case "cpu": return CPU;
      case "meta": return META;
      case "cuda": return cuda(0);
      default:
        if (spec.startsWith("cuda:")) {
          try {
            return cuda(Integer.parseInt(spec.substring(5)));
          } catch (NumberFormatException e) {
            // fall through to the error below
          }
        }
        throw new IllegalArgumentException("Device.of(): unknown device '" + spec + "'");
    }
  }

  public Type type() {
    return type;
  }

  public int index() {
    return index;
  }

  public boolean isCpu() {
    return type == Type.CPU;
  }

  public boolean isMeta() {
    return type == Type.META;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Device && ((Device) o).type == type && ((Device) o).index == index;
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, index);
  }

  @Override
  public String toString() {
    String name = type.name().toLowerCase(java.util.Locale.ROOT);
    return index >= 0 ? name + ":" + index : name;
  }
}
