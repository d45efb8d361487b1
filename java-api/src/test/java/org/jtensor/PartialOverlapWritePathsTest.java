package org.jtensor;

import static org.jtensor.WriterMethods.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every public writer that reads a tensor operand, given one that partially overlaps the tensor
 * it writes (base[0:3] written, base[1:4] read): each must refuse with PyTorch's words before
 * writing anything, as torch 2.13 does for add_, copy_, out=, scatter_, scatter_add_, index_add_,
 * index_put_ and clamp_ (issue 22 point 8). Full aliasing (x.mul_(x)) stays allowed. Writers are
 * found by reflection as in ReadOnlyWritePathsTest; one that reads no tensor goes in NO_TENSOR_READ,
 * so a new writer with neither entry fails this test.
 */
class PartialOverlapWritePathsTest extends ScopedTest {
  static final String WORDS = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
      + "single memory location. Please clone() the tensor before performing the operation.";

  /** Writers whose only operands are scalars, shapes or generators: nothing to overlap. */
  private static final Set<String> NO_TENSOR_READ = Set.of("neg_[]", "negative_[]", "abs_[]", "exp_[]", "log_[]", "sqrt_[]", "tanh_[]",
      "sigmoid_[]", "erfinv_[]", "relu_[]", "zero_[]", "add_[double]", "sub_[double]", "mul_[double]", "div_[double]", "add_[long]", "sub_[long]", "mul_[long]",
      "fill_[double]", "fill_[long]", "fill_[boolean]", "clamp_[double, double]", "clamp_[long, long]", "clip_[double, double]", "clip_[long, long]", "scatter_[int, Tensor, double]",
      "maskedFill_[Tensor, double]", "triu_[long]", "tril_[long]", "uniform_[double, double, Generator]",
      "normal_[double, double, Generator]", "setDouble[double, long[]]", "setLong[long, long[]]", "set[Number, Index[]]",
      "set[Index[], Number]", "indexFill_[int, Tensor, double]",
      "indexFill_[int, Tensor, Tensor]", "maskedScatter_[Tensor, Tensor]", "i0_[]", "floor_[]", "ceil_[]", "round_[]", "trunc_[]", "sin_[]", "cos_[]", "tan_[]", "log2_[]", "log10_[]", "log1p_[]", "expm1_[]", "rsqrt_[]", "erf_[]", "reciprocal_[]", "polygamma_[int]", "bitwiseLeftShift_[long]", "bitwiseRightShift_[long]",
      "absolute_[]", "fix_[]", "multiply_[double]", "multiply_[long]", "divide_[double]", "subtract_[double]", "subtract_[long]", "trueDivide_[double]",
      "pow_[double]", "pow_[long]", "exponential_[double, Generator]", "exponential_[double]", "geometric_[double, Generator]", "geometric_[double]",
      "cauchy_[double, double, Generator]", "cauchy_[double, double]", "logNormal_[double, double, Generator]", "logNormal_[double, double]",
      "random_[long, long, Generator]", "random_[long, long]", "random_[long, Generator]", "random_[long]");  // their value or source is read before the write:
      // torch 2.13 takes b[0:3].index_fill_(0, i, b[1]) and b[0:3].masked_scatter_(m, b[1:4])

  /** Given the target (base[0:3]) and the overlapping operand (base[1:4]), the writer's arguments; Out forms write args[last]. */
  private static final Map<String, Function<Tensor[], Object[]>> OVERLAP = new LinkedHashMap<>();

  static {
    for (String binary : List.of("add_", "sub_", "mul_", "div_")) {
      OVERLAP.put(binary + "[Tensor]", p -> new Object[] {p[1]});
    }
    for (String binary : List.of("bitwiseLeftShift_", "bitwiseRightShift_", "ldexp_", "nextafter_")) {
      OVERLAP.put(binary + "[Tensor]", p -> new Object[] {p[1]});
    }
    OVERLAP.put("add_[Tensor, double]", p -> new Object[] {p[1], 3.0});
    OVERLAP.put("sub_[Tensor, double]", p -> new Object[] {p[1], 3.0});
    OVERLAP.put("add_[Tensor, long]", p -> new Object[] {p[1], 3L});
    OVERLAP.put("sub_[Tensor, long]", p -> new Object[] {p[1], 3L});
    for (String out : List.of("addOut", "subOut", "mulOut", "divOut")) {
      OVERLAP.put(out + "[Tensor, Tensor]", p -> new Object[] {p[1], p[0]});  // receiver: a fresh tensor
    }
    for (String binary : List.of("multiply_", "divide_", "subtract_", "trueDivide_", "pow_")) {
      OVERLAP.put(binary + "[Tensor]", p -> new Object[] {p[1]});
    }
    for (String fused : List.of("addcmul_", "addcdiv_")) {
      OVERLAP.put(fused + "[Tensor, Tensor]", p -> new Object[] {Tensor.ones(3), p[1]});
      OVERLAP.put(fused + "[Tensor, Tensor, double]", p -> new Object[] {p[1], Tensor.ones(3), 0.5});
    }
    OVERLAP.put("lerp_[Tensor, double]", p -> new Object[] {p[1], 0.5});
    OVERLAP.put("lerp_[Tensor, Tensor]", p -> new Object[] {Tensor.ones(3), p[1]});
    OVERLAP.put("copy_[Tensor]", p -> new Object[] {p[1]});
    Function<Tensor[], Tensor> zeros = p -> Tensor.zeros(new long[] {3}, DType.INT64);
    OVERLAP.put("scatter_[int, Tensor, Tensor]", p -> new Object[] {0, zeros.apply(p), p[1]});
    OVERLAP.put("scatterAdd_[int, Tensor, Tensor]", p -> new Object[] {0, zeros.apply(p), p[1]});
    OVERLAP.put("scatterReduce_[int, Tensor, Tensor, String]", p -> new Object[] {0, zeros.apply(p), p[1], "prod"});
    OVERLAP.put("scatterReduce_[int, Tensor, Tensor, String, boolean]", p -> new Object[] {0, zeros.apply(p), p[1], "sum", false});
    OVERLAP.put("indexAdd_[int, Tensor, Tensor]", p -> new Object[] {0, Tensor.fromArray(new long[] {0, 1, 2}), p[1]});
    OVERLAP.put("indexAdd_[int, Tensor, Tensor, double]", p -> new Object[] {0, Tensor.fromArray(new long[] {0, 1, 2}), p[1], 2.0});
    OVERLAP.put("indexCopy_[int, Tensor, Tensor]", p -> new Object[] {0, Tensor.fromArray(new long[] {0, 1, 2}), p[1]});
    OVERLAP.put("indexPut_[Tensor[], Tensor]", p -> new Object[] {new Tensor[] {Tensor.fromArray(new long[] {0, 1, 2})}, p[1]});
    OVERLAP.put("indexPut_[Tensor[], Tensor, boolean]", p -> new Object[] {new Tensor[] {Tensor.fromArray(new long[] {0, 1, 2})}, p[1], true});
    OVERLAP.put("set[Tensor, Index[]]", p -> new Object[] {p[1], new Index[] {Index.all()}});
    OVERLAP.put("set[Index[], Tensor]", p -> new Object[] {new Index[] {Index.of(Tensor.fromArray(new long[] {2, 0, 1}))}, p[1]});
  }

  private static List<Method> writersReadingTensors() {
    List<Method> found = new ArrayList<>();
    Set<String> unlisted = new TreeSet<>();
    for (Method m : Tensor.class.getMethods()) {
      if (!WriterMethods.looksLikeWriter(m) || NO_TENSOR_READ.contains(key(m))) continue;
      if (OVERLAP.containsKey(key(m))) found.add(m);
      else unlisted.add(key(m));
    }
    if (!unlisted.isEmpty()) fail("writers with no entry in PartialOverlapWritePathsTest (OVERLAP or NO_TENSOR_READ): " + unlisted);
    return found;
  }

  @Test
  void everyWriterRefusesAPartiallyOverlappingOperandAndWritesNothing() {
    List<Method> writers = writersReadingTensors();
    assertTrue(writers.size() >= OVERLAP.size(), "every listed writer exists");
    List<String> problems = new ArrayList<>();
    for (Method m : writers) {
      Tensor base = Tensor.arange(0, 8, 1, DType.FLOAT32);
      Tensor target = base.narrow(0, 0, 3), operand = base.narrow(0, 1, 3);
      Object[] args = OVERLAP.get(key(m)).apply(new Tensor[] {target, operand});
      Tensor receiver = m.getName().endsWith("Out") ? operand.clone() : target;
      int version = base.version();
      try {
        WriterMethods.invoke(m, receiver, args);
        problems.add(key(m) + ": accepted");
      } catch (IllegalArgumentException e) {
        if (!e.getMessage().equals(m.getName() + "(): " + WORDS)) problems.add(key(m) + ": " + e.getMessage());
      } catch (RuntimeException e) {
        problems.add(key(m) + ": " + e);
      }
      if (!java.util.Arrays.equals(new float[] {0, 1, 2, 3, 4, 5, 6, 7}, base.toFloatArray())) problems.add(key(m) + ": wrote");
      if (version != base.version()) problems.add(key(m) + ": bumped the version");
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void fullAliasingAndDisjointViewsStayAllowed() {
    Tensor base = Tensor.arange(0, 8, 1, DType.FLOAT32);
    Tensor a = base.narrow(0, 0, 3);
    a.mul_(a);
    a.copy_(a);
    a.scatterAdd_(0, Tensor.fromArray(new long[] {0, 1, 2}), base.narrow(0, 4, 3));
    base.narrow(0, 4, 3).indexAdd_(0, Tensor.fromArray(new long[] {0, 1, 2}), a);
    assertArrayEquals(new float[] {4, 6, 10, 3, 8, 11, 16, 7}, base.toFloatArray());
  }

  /** PyTorch's assert_no_overlap: the index writers refuse a fully aliased operand too (torch 2.13: x.scatter_(0, i, x) raises). */
  @Test
  void indexWritersRefuseAFullAliasAsPyTorchDoes() {
    Tensor a = Tensor.arange(0, 3, 1, DType.FLOAT32);
    Tensor i = Tensor.fromArray(new long[] {2, 0, 1});
    List<Runnable> calls = List.of(() -> a.scatter_(0, i, a), () -> a.scatterAdd_(0, i, a), () -> a.indexAdd_(0, i, a),
        () -> a.set(new Index[] {Index.of(i)}, a), () -> a.set(new Index[] {Index.of(i)}, a.select(0, 1)), () -> a.indexCopy_(0, i, a),
        () -> a.scatterReduce_(0, i, a, "amin"));
    List<String> ops = List.of("scatter_", "scatterAdd_", "indexAdd_", "set", "set", "indexCopy_", "scatterReduce_");
    for (int k = 0; k < calls.size(); k++) {
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, calls.get(k)::run);
      assertEquals(ops.get(k) + "(): " + WORDS, e.getMessage());
    }
    assertArrayEquals(new float[] {0, 1, 2}, a.toFloatArray());
    a.set(new Index[] {Index.of(i)}, a.clone());  // the fix the message names
    assertArrayEquals(new float[] {1, 2, 0}, a.toFloatArray());
  }
}
