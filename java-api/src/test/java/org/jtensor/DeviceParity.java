package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

/**
 * How the device-parameterized tests run an op on a second device: the CPU's inputs are copied
 * there with the same sizes, strides and offset ({@link #twin}), the op runs on both, and the two
 * results must agree: exactly for integer and bool results, within the dtype's tolerance for
 * floats ({@link #assertAgree}). On the CPU itself it only runs the op.
 */
public final class DeviceParity {
  public static final DeviceParity CPU = new DeviceParity(Device.CPU, false);

  private final Device device;
  private final boolean twice;

  /** twice: run each op on twins and compare even where device is the CPU (CudaAccounting's dry run). */
  public DeviceParity(Device device, boolean twice) {
    this.device = device;
    this.twice = twice || !device.isCpu();
  }

  public Device device() {
    return device;
  }

  /** Whether ops run once, on the CPU, with nothing to compare. */
  public boolean onCpu() {
    return !twice;
  }

  /** t's bytes copied to this device, viewed with t's sizes, strides and storage offset. */
  public Tensor twin(Tensor t) {
    if (t.numel() == 0) return Tensor.emptyStrided(t.shape(), t.stride(), t.dtype(), device);
    long span = t.storageOffset() + 1;
    for (int d = 0; d < t.dim(); d++) span += (t.size(d) - 1) * t.stride(d);
    try (Tensor bytes = t.asStrided(new long[] {span}, new long[] {1}, 0);
         Tensor there = device.equals(t.device()) ? bytes.clone() : bytes.to(device)) {
      return there.asStrided(t.shape(), t.stride(), t.storageOffset());
    }
  }

  /**
   * op on the CPU tensors in; elsewhere also on their twins (made first: op may write its inputs),
   * asserted to agree, or to throw the same exception class, which is then rethrown (an exception
   * on the device alone is an AssertionError). Returns the result this device gave, as a CPU tensor.
   */
  public Tensor apply(String what, Function<Tensor[], Tensor> op, Tensor... in) {
    if (onCpu()) return op.apply(in);
    Tensor[] there = twins(in);
    try {
      Tensor want;
      try {
        want = op.apply(in);
      } catch (RuntimeException e) {
        assertThrows(e.getClass(), () -> closeUnlessInput(op.apply(there), there), what + " on " + device);
        throw e;
      }
      Tensor got = null;
      try {
        got = op.apply(there);
        return agree(what, want, got);
      } catch (RuntimeException e) {  // not a refusal alike: the CPU gave a result
        throw new AssertionError(what + ": the CPU gave a result, " + device + " threw " + e, e);
      } finally {
        closeUnlessInput(want, in);
        if (got != null) closeUnlessInput(got, there);
      }
    } finally {
      close(there);
    }
  }

  /** One-input form of {@link #apply(String, Function, Tensor...)}. */
  public Tensor apply1(String what, Function<Tensor, Tensor> op, Tensor in) {
    return apply(what, t -> op.apply(t[0]), in);
  }

  /** Asserts got (on this device) agrees with want (the CPU's) and returns got's CPU copy; want is kept. */
  public Tensor agree(String what, Tensor want, Tensor got) {
    assertEquals(device, got.device(), what + ": result device");
    Tensor back = got.cpu();
    assertAgree(what + " (CPU vs " + device + ")", want, back);
    return back;
  }

  /** Same shape and dtype; integer and bool values equal, floats within the dtype's tolerance (NaN where NaN). */
  public static void assertAgree(String what, Tensor want, Tensor got) {
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    if (!want.dtype().isFloatingPoint()) {
      try (Tensor w = want.to(DType.INT64); Tensor g = got.to(DType.INT64)) {
        assertArrayEquals(w.toLongArray(), g.toLongArray(), what);
      }
      return;
    }
    double tol = tolerance(want.dtype());
    try (Tensor close = want.isclose(got, tol, tol, true); Tensor all = close.all()) {
      assertTrue(all.item() != 0, () -> what + ": CPU " + want + " vs " + got);
    }
  }

  /** The relative and absolute tolerance floats of a dtype are compared with across devices. */
  public static double tolerance(DType dtype) {
    switch (dtype) {
      case FLOAT64: return 1e-12;
      case FLOAT32: return 1e-5;
      default: return 1e-2;  // float16 and bfloat16: an ulp or so of a different rounding order
    }
  }

  private Tensor[] twins(Tensor[] in) {
    Tensor[] out = new Tensor[in.length];
    for (int i = 0; i < in.length; i++) out[i] = in[i] == null ? null : twin(in[i]);
    return out;
  }

  /** An in-place op returns its input's own handle: that one stays open. */
  private static void closeUnlessInput(Tensor t, Tensor[] in) {
    for (Tensor i : in) if (i == t) return;
    t.close();
  }

  private static void close(Tensor[] ts) {
    for (Tensor t : ts) if (t != null) t.close();
  }
}
