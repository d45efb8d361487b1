package org.jtensor;

import static org.jtensor.WriterMethods.key;
import static org.jtensor.WriterMethods.looksLikeWriter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Every public way to write into a tensor, tried on a read-only one (a tensor over a read-only
 * direct buffer) and on its views: each must throw IllegalStateException naming the op as the
 * user called it, and leave the bytes and the version counter as they were. The writers are
 * found by reflection (names ending in '_' or 'Out', and the set... family), so a new in-place op
 * with no entry in the table below fails this test instead of slipping through unchecked.
 */
class ReadOnlyWritePathsTest extends ScopedTest {
  /** Arguments for one writer, given the read-only target; for an Out form, args[last] is the target. */
  static final Map<String, Function<Tensor, Object[]>> ARGS = new LinkedHashMap<>();

  private static Tensor like(Tensor t) {
    return Tensor.ones(t.shape());
  }

  private static Tensor mask(Tensor t) {
    return Tensor.ones(t.shape(), DType.BOOL);
  }

  private static Tensor zerosIndex(Tensor t) {
    return Tensor.zeros(t.shape(), DType.INT64);
  }

  /** The source of indexAdd_ along dim 0 with one index: t's shape with dim 0 of size 1. */
  private static Tensor row(Tensor t) {
    long[] s = t.shape().clone();
    s[0] = 1;
    return Tensor.ones(s);
  }

  static {
    for (String unary : List.of("neg_", "negative_", "abs_", "exp_", "log_", "sqrt_", "tanh_", "sigmoid_", "erfinv_", "relu_", "zero_", "i0_", "floor_", "ceil_", "round_", "trunc_", "sin_", "cos_", "tan_", "log2_", "log10_", "log1p_", "expm1_", "rsqrt_", "erf_", "reciprocal_")) {
      ARGS.put(unary + "[]", t -> new Object[0]);
    }
    for (String binary : List.of("add_", "sub_", "mul_", "div_")) {
      ARGS.put(binary + "[Tensor]", t -> new Object[] {like(t)});
      ARGS.put(binary + "[double]", t -> new Object[] {2.0});
    }
    for (String binary : List.of("bitwiseLeftShift_", "bitwiseRightShift_", "ldexp_", "nextafter_")) {
      ARGS.put(binary + "[Tensor]", t -> new Object[] {like(t)});
    }
    ARGS.put("bitwiseLeftShift_[long]", t -> new Object[] {2L});
    ARGS.put("polygamma_[int]", t -> new Object[] {2});
    ARGS.put("bitwiseRightShift_[long]", t -> new Object[] {2L});
    ARGS.put("add_[long]", t -> new Object[] {2L});
    ARGS.put("sub_[long]", t -> new Object[] {2L});
    ARGS.put("mul_[long]", t -> new Object[] {2L});
    ARGS.put("add_[Tensor, double]", t -> new Object[] {like(t), 3.0});
    ARGS.put("sub_[Tensor, double]", t -> new Object[] {like(t), 3.0});
    ARGS.put("add_[Tensor, long]", t -> new Object[] {like(t), 3L});
    ARGS.put("sub_[Tensor, long]", t -> new Object[] {like(t), 3L});
    for (String out : List.of("addOut", "subOut", "mulOut", "divOut")) {
      ARGS.put(out + "[Tensor, Tensor]", t -> new Object[] {like(t), t});
    }
    // PyTorch's aliases and the fused and in-place forms (AliasMethods, FusedArithmeticMethods, pow_, lerp_)
    for (String unary : List.of("absolute_", "fix_")) ARGS.put(unary + "[]", t -> new Object[0]);
    for (String binary : List.of("multiply_", "divide_", "subtract_", "trueDivide_", "pow_")) {
      ARGS.put(binary + "[Tensor]", t -> new Object[] {like(t)});
      ARGS.put(binary + "[double]", t -> new Object[] {2.0});
    }
    for (String binary : List.of("multiply_", "subtract_", "pow_")) ARGS.put(binary + "[long]", t -> new Object[] {2L});
    for (String fused : List.of("addcmul_", "addcdiv_")) {
      ARGS.put(fused + "[Tensor, Tensor]", t -> new Object[] {like(t), like(t)});
      ARGS.put(fused + "[Tensor, Tensor, double]", t -> new Object[] {like(t), like(t), 0.5});
    }
    ARGS.put("lerp_[Tensor, double]", t -> new Object[] {like(t), 0.5});
    ARGS.put("lerp_[Tensor, Tensor]", t -> new Object[] {like(t), like(t)});
    ARGS.put("copy_[Tensor]", t -> new Object[] {like(t)});
    ARGS.put("fill_[double]", t -> new Object[] {7.0});
    ARGS.put("fill_[long]", t -> new Object[] {7L});
    ARGS.put("fill_[boolean]", t -> new Object[] {true});
    ARGS.put("clamp_[double, double]", t -> new Object[] {5.0, 6.0});
    ARGS.put("clamp_[long, long]", t -> new Object[] {5L, 6L});
    ARGS.put("clip_[double, double]", t -> new Object[] {5.0, 6.0});
    ARGS.put("clip_[long, long]", t -> new Object[] {5L, 6L});
    ARGS.put("scatter_[int, Tensor, Tensor]", t -> new Object[] {0, zerosIndex(t), like(t)});
    ARGS.put("scatter_[int, Tensor, double]", t -> new Object[] {0, zerosIndex(t), 7.0});
    ARGS.put("scatterAdd_[int, Tensor, Tensor]", t -> new Object[] {0, zerosIndex(t), like(t)});
    ARGS.put("scatterReduce_[int, Tensor, Tensor, String]", t -> new Object[] {0, zerosIndex(t), like(t), "amax"});
    ARGS.put("scatterReduce_[int, Tensor, Tensor, String, boolean]", t -> new Object[] {0, zerosIndex(t), like(t), "mean", false});
    ARGS.put("indexAdd_[int, Tensor, Tensor]", t -> new Object[] {0, Tensor.fromArray(new long[] {0}), row(t)});
    ARGS.put("indexAdd_[int, Tensor, Tensor, double]", t -> new Object[] {0, Tensor.fromArray(new long[] {0}), row(t), 2.0});
    ARGS.put("maskedFill_[Tensor, double]", t -> new Object[] {mask(t), 5.0});
    ARGS.put("indexFill_[int, Tensor, double]", t -> new Object[] {0, Tensor.fromArray(new long[] {0}), 5.0});
    ARGS.put("indexFill_[int, Tensor, Tensor]", t -> new Object[] {0, Tensor.fromArray(new long[] {0}), Tensor.scalar(5.0)});
    ARGS.put("indexCopy_[int, Tensor, Tensor]", t -> new Object[] {0, Tensor.fromArray(new long[] {0}), row(t)});
    ARGS.put("maskedScatter_[Tensor, Tensor]", t -> new Object[] {mask(t), Tensor.ones(t.numel())});
    ARGS.put("indexPut_[Tensor[], Tensor]", t -> new Object[] {new Tensor[] {Tensor.fromArray(new long[] {0})}, Tensor.scalar(1.0f)});
    ARGS.put("indexPut_[Tensor[], Tensor, boolean]", t -> new Object[] {new Tensor[] {Tensor.fromArray(new long[] {0})}, Tensor.scalar(1.0f), true});
    ARGS.put("triu_[long]", t -> new Object[] {0L});
    ARGS.put("tril_[long]", t -> new Object[] {-1L});
    ARGS.put("uniform_[double, double, Generator]", t -> new Object[] {0.0, 1.0, Generator.manualSeed(1)});
    ARGS.put("normal_[double, double, Generator]", t -> new Object[] {0.0, 1.0, Generator.manualSeed(1)});
    ARGS.put("exponential_[double, Generator]", t -> new Object[] {1.0, Generator.manualSeed(1)});
    ARGS.put("exponential_[double]", t -> new Object[] {1.0});
    ARGS.put("geometric_[double, Generator]", t -> new Object[] {0.5, Generator.manualSeed(1)});
    ARGS.put("geometric_[double]", t -> new Object[] {0.5});
    ARGS.put("cauchy_[double, double, Generator]", t -> new Object[] {0.0, 1.0, Generator.manualSeed(1)});
    ARGS.put("cauchy_[double, double]", t -> new Object[] {0.0, 1.0});
    ARGS.put("logNormal_[double, double, Generator]", t -> new Object[] {0.0, 1.0, Generator.manualSeed(1)});
    ARGS.put("logNormal_[double, double]", t -> new Object[] {0.0, 1.0});
    ARGS.put("random_[long, long, Generator]", t -> new Object[] {0L, 5L, Generator.manualSeed(1)});
    ARGS.put("random_[long, long]", t -> new Object[] {0L, 5L});
    ARGS.put("random_[long, Generator]", t -> new Object[] {5L, Generator.manualSeed(1)});
    ARGS.put("random_[long]", t -> new Object[] {5L});
    ARGS.put("setDouble[double, long[]]", t -> new Object[] {9.0, new long[t.dim()]});
    ARGS.put("setLong[long, long[]]", t -> new Object[] {9L, new long[t.dim()]});
    ARGS.put("set[Number, Index[]]", t -> new Object[] {9, new Index[] {Index.all()}});
    ARGS.put("set[Index[], Number]", t -> new Object[] {new Index[] {Index.at(0)}, 9.5});
    ARGS.put("set[Tensor, Index[]]", t -> new Object[] {like(t), new Index[] {Index.ellipsis()}});
    ARGS.put("set[Index[], Tensor]", t -> new Object[] {new Index[] {Index.of(Tensor.fromArray(new long[] {0, 0}))},
                                                       Tensor.scalar(3.0)});
  }

  static List<Method> writers() {
    List<Method> found = new ArrayList<>();
    Set<String> unlisted = new TreeSet<>();
    for (Method m : Tensor.class.getMethods()) {
      if (!looksLikeWriter(m)) continue;
      if (ARGS.containsKey(key(m))) found.add(m);
      else unlisted.add(key(m));
    }
    if (!unlisted.isEmpty()) fail("writers with no entry in ReadOnlyWritePathsTest.ARGS (add one): " + unlisted);
    return found;
  }

  /** A read-only [2, 2] float32 tensor over a read-only direct buffer holding 1, 2, 3, 4. */
  private static final class ReadOnly {
    final ByteBuffer bytes;
    final Tensor t;

    ReadOnly() {
      ByteBuffer b = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
      b.asFloatBuffer().put(new float[] {1, 2, 3, 4});
      bytes = b.asReadOnlyBuffer();
      t = Tensor.fromBuffer(bytes, DType.FLOAT32, 2, 2);
    }

    byte[] snapshot() {
      byte[] out = new byte[16];
      bytes.duplicate().get(out);
      return out;
    }
  }

  private static void expectRefused(String what, String op, ReadOnly ro, Tensor target, Runnable write) {
    byte[] before = ro.snapshot();
    int version = target.version();
    Throwable e = assertThrows(Throwable.class, write::run, what + " was not refused");
    assertTrue(e instanceof IllegalStateException, what + ": " + e);
    assertTrue(e.getMessage().startsWith(op + "(): ") && e.getMessage().contains("read-only"), what + ": " + e.getMessage());
    assertArrayEquals(before, ro.snapshot(), what + " wrote into the read-only bytes");
    assertEquals(version, target.version(), what + " bumped the version counter of a tensor it did not write");
  }

  static final Map<String, UnaryOperator<Tensor>> VIEWS = new LinkedHashMap<>();

  static {
    VIEWS.put("itself", t -> t);
    VIEWS.put("transpose(0, 1)", t -> t.transpose(0, 1));
    VIEWS.put("narrow(0, 1, 1)", t -> t.narrow(0, 1, 1));
    VIEWS.put("select(0, 1)", t -> t.select(0, 1));
    VIEWS.put("view(4)", t -> t.view(4));
    VIEWS.put("detach()", Tensor::detach);
  }

  @Test
  void everyWriterIsRefusedOnTheTensorAndEachOfItsViews() {
    ReadOnly ro = new ReadOnly();
    for (Method m : writers()) {
      for (Map.Entry<String, UnaryOperator<Tensor>> v : VIEWS.entrySet()) {
        Tensor target = v.getValue().apply(ro.t);
        Object[] args = ARGS.get(key(m)).apply(target);
        boolean out = m.getName().endsWith("Out");
        Tensor receiver = out ? like(target) : target;
        expectRefused(key(m) + " on " + v.getKey(), m.getName(), ro, target, () -> WriterMethods.invoke(m, receiver, args));
      }
    }
    assertArrayEquals(new float[] {1, 2, 3, 4}, ro.t.toFloatArray());
  }

  @Test
  void viewsOfAnotherDtypeAndExpandedViewsWriteNothingEither() {
    ReadOnly ro = new ReadOnly();
    Tensor ints = ro.t.view(DType.INT32);
    expectRefused("fill_ on view(int32)", "fill_", ro, ints, () -> ints.fill_(5L));
    expectRefused("add_ on view(int32)", "add_", ro, ints, () -> ints.add_(1L));
    expectRefused("copy_ on view(int32)", "copy_", ro, ints, () -> ints.copy_(Tensor.zeros(new long[] {2, 2}, DType.INT32)));
    Tensor rows = Tensor.fromArray(new long[] {1, 1, 0});
    Tensor mask = Tensor.fromArray(new boolean[] {true, false, false, true}, 2, 2);
    expectRefused("set(mask, 1.0)", "set", ro, ro.t, () -> ro.t.set(new Index[] {Index.of(mask)}, 1.0));
    expectRefused("set(mask, tensor)", "set", ro, ro.t, () -> ro.t.set(Tensor.scalar(1.0), Index.of(mask)));
    expectRefused("set(rows, :, 2)", "set", ro, ro.t, () -> ro.t.set(2L, Index.of(rows), Index.all()));
    Tensor firstTwo = rows.narrow(0, 0, 2);
    expectRefused("set(:, rows[:2])", "set", ro, ro.t, () -> ro.t.set(Tensor.zeros(2, 2), Index.all(), Index.of(firstTwo)));
    expectRefused("maskedFill_(broadcast mask)", "maskedFill_", ro, ro.t,
        () -> ro.t.maskedFill_(Tensor.fromArray(new boolean[] {true, false}, 2), 0.0));
    Tensor wide = ro.t.select(0, 0).expand(3, 2);
    byte[] before = ro.snapshot();
    assertThrows(RuntimeException.class, () -> wide.fill_(0.0));
    assertThrows(RuntimeException.class, () -> wide.add_(1.0));
    assertArrayEquals(before, ro.snapshot());
  }

  @Test
  void storageWritesAreRefusedAndSetOntoAReadOnlyStorageStaysReadOnly() {
    ReadOnly ro = new ReadOnly();
    try (Storage s = ro.t.untypedStorage(); Storage shared = s.share(); Storage w = Storage.allocate(16, Device.CPU)) {
      expectRefused("Storage.fill_", "fill_", ro, ro.t, () -> shared.fill_((byte) 1));
      expectRefused("Storage.copy_", "copy_", ro, ro.t, () -> shared.copy_(w));
      assertThrows(UnsupportedOperationException.class, () -> shared.resize_(8));
      expectRefused("Storage.readFrom", "readFrom", ro, ro.t, () -> {
        try {
          shared.readFrom(java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(new byte[16])), 0, 16);
        } catch (java.io.IOException e) {
          throw new AssertionError(e);
        }
      });
      try (Storage c = s.clone()) {
        assertFalse(c.isReadOnly(), "a clone of a read-only storage is writable");
      }
      Tensor onto = Tensor.empty(new long[] {0}).set_(shared, 1, new long[] {3}, new long[] {1});
      expectRefused("fill_ after set_", "fill_", ro, onto, () -> onto.fill_(0.0));
      w.fill_((byte) 9);
      w.copy_(shared);  // reading a read-only storage is fine
      try (Tensor back = Tensor.empty(new long[] {0}).set_(w, 0, new long[] {4}, new long[] {1})) {
        assertArrayEquals(new float[] {1, 2, 3, 4}, back.toFloatArray());
      }
    }
  }

  @Test
  void aRefusedRandomFillConsumesNoRandomNumbers() {
    ReadOnly ro = new ReadOnly();
    Generator g = Generator.manualSeed(42);
    assertThrows(IllegalStateException.class, () -> ro.t.uniform_(0, 1, g));
    assertThrows(IllegalStateException.class, () -> ro.t.normal_(0, 1, g));
    Tensor drawn = Tensor.empty(4).uniform_(0, 1, g);
    Tensor expected = Tensor.empty(4).uniform_(0, 1, Generator.manualSeed(42));
    assertArrayEquals(expected.toFloatArray(), drawn.toFloatArray(), "the refused draws left the generator where it was");
  }

  @Test
  void initializersAndEveryStorageWriterAreRefusedToo() throws ReflectiveOperationException {
    ReadOnly ro = new ReadOnly();
    for (Method m : org.jtensor.nn.Init.class.getMethods()) {
      if (!m.getName().endsWith("_")) continue;
      // Every initializer, whatever its arguments: a tensor, numbers, a mode and a nonlinearity, a generator.
      Object[] args = new Object[m.getParameterCount()];
      java.util.Iterator<String> words = List.of("fan_in", "relu").iterator();
      for (int i = 0; i < args.length; i++) {
        Class<?> type = m.getParameterTypes()[i];
        if (type == Tensor.class) args[i] = ro.t;
        else if (type == double.class) args[i] = 1.0;
        else if (type == Generator.class) args[i] = Generator.manualSeed(2);
        else if (type == String.class) args[i] = words.next();
        else throw new AssertionError("a new initializer's argument type " + type + ": give it a value here");
      }
      String name = m.getName();
      String writer = name.startsWith("constant") || name.startsWith("zeros") || name.startsWith("ones") ? "fill_"
          : name.startsWith("eye") ? "zero_" : name.startsWith("truncNormal") ? "uniform_" : name.contains("ormal") ? "normal_" : "uniform_";
      expectRefused("Init." + name + java.util.Arrays.toString(m.getParameterTypes()), writer, ro, ro.t,
          () -> WriterMethods.invoke(m, null, args));
    }
    Set<String> storageWriters = new TreeSet<>();
    for (Method m : Storage.class.getMethods()) {
      if (m.getName().endsWith("_") || m.getName().startsWith("readFrom")) storageWriters.add(m.getName());
    }
    assertEquals(Set.of("copy_", "fill_", "readFrom", "resize_"), storageWriters,
        "a new Storage writer: try it on a read-only storage in storageWritesAreRefused...");
  }
}
