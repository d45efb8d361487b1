package org.jtensor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jtensor.bindings.JtNative;

/**
 * The instruction set the CPU kernels' loops run with, as torch.backends.cpu.get_cpu_capability():
 * "avx512", "avx2" or "baseline" (plain x86-64). The elementwise, reduction, softmax, normalization
 * and random kernels are built once for each and the best this CPU runs is chosen when the library
 * loads; the environment variable JT_CPU_CAPABILITY lowers it. Every capability computes the same
 * bits, so the choice changes speed only.
 */
public final class Cpu {
  private Cpu() {}

  /** The capability in use. */
  public static String getCpuCapability() {
    return JtNative.jt_cpu_capability_name(JtNative.jt_cpu_capability());
  }

  /** The capabilities this CPU runs, from "baseline" up to the best. */
  public static List<String> supportedCpuCapabilities() {
    List<String> names = new ArrayList<>();
    for (int c = 0; c <= JtNative.jt_cpu_capability_supported(); ++c) names.add(JtNative.jt_cpu_capability_name(c));
    return Collections.unmodifiableList(names);
  }

  /**
   * Runs the kernels with {@code name} from the next call on, on every thread (a benchmark's
   * comparison, a check that results do not depend on it).
   */
  public static void setCpuCapability(String name) {
    List<String> supported = supportedCpuCapabilities();
    int c = supported.indexOf(name);
    if (c < 0)
      throw new IllegalArgumentException("setCpuCapability(): '" + name + "' is not a capability this CPU runs; expected one of " + supported);
    if (JtNative.jt_set_cpu_capability(c) != 0) throw new IllegalStateException("setCpuCapability(): the library refused '" + name + "'");
  }
}
