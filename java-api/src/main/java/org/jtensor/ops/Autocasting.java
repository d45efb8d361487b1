package org.jtensor.ops;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.TensorImpl;

/**
 * Autocast (torch.autocast): the per-thread state behind {@code org.jtensor.Autocast}, the table
 * of which ops cast their floating inputs to which dtype, and the one cast each op family's entry
 * runs before its body.
 *
 * <p>Note [Autocast]. As PyTorch's CPU autocast (aten/src/ATen/autocast_mode.cpp): an op on the
 * {@link Policy#LOWER_PRECISION} list casts each eligible input to the autocast dtype and computes
 * there; an op on the {@link Policy#FLOAT32} list casts each eligible input to float32. Eligible:
 * a floating tensor other than float64 on the device type the autocast is on (integer, bool and
 * float64 tensors pass through as they are). Every other op runs on the dtypes it is given, and
 * the multi-input ones already promote to the widest (add, cat, stack: PyTorch's "promote" list).
 * A cast is the recorded {@code to(dtype)} op, so gradients flow back through it and reach each
 * leaf in that leaf's own dtype. Each op family's entry calls {@link #apply} (or {@link #applyImpl})
 * once with its name in this table; a body that calls another entry with inputs already cast finds
 * nothing to cast.
 *
 * <p>Note [Autocast cast cache]. As PyTorch's cached_cast: a float32 leaf that requires grad (a
 * parameter), cast to the autocast dtype with grad mode on, is cast once per outermost autocast
 * scope and the cast reused by every later op in it (a GPT's weights are read by each step's
 * forward once per layer, and its backward holds the casts anyway). The cache holds a reference to
 * each cast until the thread's outermost scope closes. Unlike PyTorch's, an entry is dropped when
 * the leaf's version moved (an in-place update inside the scope), so a cast is never stale.
 */
public final class Autocasting {
  private Autocasting() {}

  /** What an op on the table does with its eligible floating inputs. */
  public enum Policy {
    /** cast to the autocast dtype (PyTorch's lower_precision_fp) */
    LOWER_PRECISION,
    /** cast to float32 (PyTorch's fp32) */
    FLOAT32
  }

  /**
   * The ops jtensor has from PyTorch's CPU autocast lists, under the names the user calls (the
   * single table: each entry runs {@link #apply} with its name). PyTorch's CPU list has einsum
   * through its bmm, and MultiheadAttention through linear and scaled_dot_product_attention.
   */
  static final Map<String, Policy> POLICY = Map.ofEntries(
      Map.entry("matmul", Policy.LOWER_PRECISION), Map.entry("mm", Policy.LOWER_PRECISION),
      Map.entry("bmm", Policy.LOWER_PRECISION), Map.entry("addmm", Policy.LOWER_PRECISION),
      Map.entry("baddbmm", Policy.LOWER_PRECISION), Map.entry("linear", Policy.LOWER_PRECISION),
      Map.entry("conv1d", Policy.LOWER_PRECISION), Map.entry("conv2d", Policy.LOWER_PRECISION),
      Map.entry("conv3d", Policy.LOWER_PRECISION), Map.entry("convTranspose1d", Policy.LOWER_PRECISION),
      Map.entry("convTranspose2d", Policy.LOWER_PRECISION), Map.entry("convTranspose3d", Policy.LOWER_PRECISION),
      Map.entry("scaledDotProductAttention", Policy.LOWER_PRECISION),
      Map.entry("prod", Policy.FLOAT32), Map.entry("crossEntropy", Policy.FLOAT32), Map.entry("nllLoss", Policy.FLOAT32),
      Map.entry("mseLoss", Policy.FLOAT32), Map.entry("l1Loss", Policy.FLOAT32), Map.entry("smoothL1Loss", Policy.FLOAT32),
      Map.entry("huberLoss", Policy.FLOAT32), Map.entry("klDiv", Policy.FLOAT32),
      Map.entry("binaryCrossEntropy", Policy.FLOAT32), Map.entry("binaryCrossEntropyWithLogits", Policy.FLOAT32));

  /** The ops on the table, by name (for the API's documentation and the tests). */
  public static Map<String, Policy> policies() {
    return POLICY;
  }

  // ---- the per-thread state: per device type, whether autocast is on and its dtype ----

  private static final int TYPES = Device.Type.values().length;

  private static final class State {
    final boolean[] enabled = new boolean[TYPES];
    final DType[] dtype = new DType[TYPES];
    int depth;  // open Autocast scopes on this thread, any device type
    final Map<TensorImpl, Cached> cache = new IdentityHashMap<>();  // Note [Autocast cast cache]

    State() {
      for (Device.Type t : Device.Type.values()) dtype[t.ordinal()] = t == Device.Type.CUDA ? DType.FLOAT16 : DType.BFLOAT16;
    }
  }

  private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

  public static boolean isEnabled(Device.Type type) {
    return STATE.get().enabled[type.ordinal()];
  }

  public static DType dtype(Device.Type type) {
    return STATE.get().dtype[type.ordinal()];
  }

  /** A leaf's cast: its dtype, the leaf's version when cast, and the cache's reference to it. */
  private record Cached(DType dtype, int version, TensorImpl cast) {}

  /**
   * Sets this thread's state for the device type (a scope opens) and returns the previous one as
   * {enabled ? 1 : 0, dtype ordinal}.
   */
  public static int[] set(Device.Type type, boolean enabled, DType dtype) {
    State s = STATE.get();
    s.depth++;
    int[] previous = {s.enabled[type.ordinal()] ? 1 : 0, s.dtype[type.ordinal()].ordinal()};
    s.enabled[type.ordinal()] = enabled;
    s.dtype[type.ordinal()] = dtype;
    return previous;
  }

  /** Restores what {@link #set} returned (a scope closes); the outermost one empties the cast cache. */
  public static void restore(Device.Type type, int[] previous) {
    State s = STATE.get();
    s.enabled[type.ordinal()] = previous[0] == 1;
    s.dtype[type.ordinal()] = DType.values()[previous[1]];
    if (--s.depth == 0) {
      for (Cached c : s.cache.values()) c.cast().release();
      s.cache.clear();
    }
  }

  /** The casts this thread's cache holds (for the tests). */
  public static int cachedCasts() {
    return STATE.get().cache.size();
  }

  /** Whether t's cast to `to` goes through the cache: a float32 parameter, to the lower precision, recorded. */
  private static boolean cacheable(TensorImpl t, Policy policy) {
    if (policy != Policy.LOWER_PRECISION || t.dtype() != DType.FLOAT32 || t.base() != null || !GradMode.isEnabled()) return false;
    AutogradMeta m = AutogradMeta.peek(t);
    return m != null && m.requiresGrad && m.isLeaf();
  }

  /** leaf's cast to `to` from the cache (a new reference for the caller), or null when there is none or it is stale. */
  private static TensorImpl cachedCast(TensorImpl leaf, DType to) {
    State s = STATE.get();
    Cached c = s.cache.get(leaf);
    if (c == null) return null;
    if (c.dtype() == to && c.version() == leaf.version()) {
      c.cast().retain();
      return c.cast();
    }
    s.cache.remove(leaf);
    c.cast().release();
    return null;
  }

  /** Keeps a reference to cast as leaf's, made at leaf's current version. */
  private static void remember(TensorImpl leaf, DType to, TensorImpl cast) {
    cast.retain();
    Cached old = STATE.get().cache.put(leaf, new Cached(to, leaf.version(), cast));
    if (old != null) old.cast().release();
  }

  // ---- the cast ----

  /** The dtype op casts t to under this thread's autocast, or null where t stays as it is. */
  private static DType target(Policy policy, DType dtype, Device device) {
    if (!dtype.isFloatingPoint() || dtype == DType.FLOAT64) return null;
    State s = STATE.get();
    int type = device.type().ordinal();
    if (!s.enabled[type]) return null;
    DType to = policy == Policy.FLOAT32 ? DType.FLOAT32 : s.dtype[type];
    return to == dtype ? null : to;
  }

  private static Policy policy(String op) {
    Policy p = POLICY.get(op);
    if (p == null) throw new IllegalStateException("Autocasting: " + op + " is not on the autocast table");
    return p;
  }

  /**
   * body over args, each eligible one cast as op's policy says (null args stay null). Without a
   * cast to make, body runs on args themselves.
   */
  public static Tensor apply(String op, Function<Tensor[], Tensor> body, Tensor... args) {
    return run(op, body, args, Tensor::dtype, Tensor::device, Tensor::to, Tensor::close, t -> Handles.implOf(t, op), Handles::wrap);
  }

  /** {@link #apply} for the entries that work on TensorImpls: each cast is a new reference, released after body. */
  public static TensorImpl applyImpl(String op, Function<TensorImpl[], TensorImpl> body, TensorImpl... args) {
    return run(op, body, args, TensorImpl::dtype, TensorImpl::device, (t, to) -> DataOps.cloneRecorded(Ops.TO_COPY, "to", t, to, false),
        TensorImpl::release, t -> t, t -> t);
  }

  /** implOf: the TensorImpl behind an argument; wrap: an argument over a TensorImpl reference (taking it). */
  private static <T> T run(String op, Function<T[], T> body, T[] args, Function<T, DType> dtypeOf, Function<T, Device> deviceOf,
                           BiFunction<T, DType, T> castTo, Consumer<T> drop, Function<T, TensorImpl> implOf, Function<TensorImpl, T> wrap) {
    Policy policy = policy(op);
    T[] cast = null;
    try {
      for (int i = 0; i < args.length; i++) {
        T a = args[i];
        DType to = a == null ? null : target(policy, dtypeOf.apply(a), deviceOf.apply(a));
        if (to == null) continue;
        if (cast == null) cast = args.clone();
        TensorImpl leaf = implOf.apply(a);
        if (!cacheable(leaf, policy)) {
          cast[i] = castTo.apply(a, to);
          continue;
        }
        TensorImpl hit = cachedCast(leaf, to);
        if (hit != null) {
          cast[i] = wrap.apply(hit);
        } else {
          cast[i] = castTo.apply(a, to);
          remember(leaf, to, implOf.apply(cast[i]));
        }
      }
      return body.apply(cast == null ? args : cast);
    } finally {
      if (cast != null) {
        for (int i = 0; i < cast.length; i++) if (cast[i] != null && cast[i] != args[i]) drop.accept(cast[i]);
      }
    }
  }
}
