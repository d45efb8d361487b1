package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * Hostile inputs to the ops the random fuzzer leaves out: sort/argsort/topk/median/unique, the
 * scans, cat/stack/split/chunk/narrow/tensorSplit, triu/tril, repeatInterleave, multinomial,
 * einsum, baddbmm and scaledDotProductAttention. Each expectation is PyTorch 2.13's answer (worked
 * out by hand or by a plain loop beside the call): NaN ordering, -0.0, stability, every dtype,
 * empty and size-1 dims, non-contiguous and expanded inputs, overflowing arguments, and refusals
 * that name the op.
 */
class OrderScanAttentionHostileTest extends ScopedTest {
  private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

  private static void message(Throwable e, String... parts) {
    for (String p : parts) assertTrue(e.getMessage() != null && e.getMessage().contains(p), "'" + p + "' not in: " + e.getMessage());
  }

  private static void bits(double[] want, double[] got, String what) {
    assertEquals(want.length, got.length, what + ": length");
    for (int i = 0; i < want.length; i++) {
      assertEquals(Double.doubleToLongBits(want[i]), Double.doubleToLongBits(got[i]), what + " at " + i + ": want " + want[i] + " got " + got[i]);
    }
  }

  // ---- sort ----

  @Test
  void sortOrdersNanLastAndKeepsSignedZerosStable() {
    Tensor x = Tensor.fromArray(new double[] {NAN, 1, -0.0, 0.0, -INF, INF, NAN});
    for (DType dt : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.FLOAT16, DType.BFLOAT16}) {
      Tensor xd = x.to(dt);
      ValuesAndIndices up = xd.sort(0, false), down = xd.sort(0, true);
      bits(new double[] {-INF, -0.0, 0.0, 1, INF, NAN, NAN}, up.values().to(DType.FLOAT64).toDoubleArray(), dt + " ascending");
      assertArrayEquals(new long[] {4, 2, 3, 1, 5, 0, 6}, up.indices().toLongArray(), dt + " ascending indices");
      bits(new double[] {NAN, NAN, INF, 1, -0.0, 0.0, -INF}, down.values().to(DType.FLOAT64).toDoubleArray(), dt + " descending");
      assertArrayEquals(new long[] {0, 6, 5, 1, 2, 3, 4}, down.indices().toLongArray(), dt + " descending indices");
      assertArrayEquals(new long[] {0, 6, 5, 1, 2, 3, 4}, xd.argsort(0, true).toLongArray(), dt + " argsort");
    }
  }

  @Test
  void sortEveryIntegerDtypeAndBool() {
    Tensor b = Tensor.fromArray(new boolean[] {true, false, true, false});
    ValuesAndIndices sb = b.sort(0, false);
    assertArrayEquals(new boolean[] {false, false, true, true}, sb.values().toBooleanArray());
    assertArrayEquals(new long[] {1, 3, 0, 2}, sb.indices().toLongArray());
    assertArrayEquals(new long[] {0, 2, 1, 3}, b.sort(0, true).indices().toLongArray());
    Tensor u = Tensor.fromArray(new long[] {255, 0, 128, 127}).to(DType.UINT8);
    assertArrayEquals(new long[] {0, 127, 128, 255}, u.sort(0, false).values().toLongArray(), "uint8 unsigned order");
    Tensor i8 = Tensor.fromArray(new long[] {127, -128, 0, -1}).to(DType.INT8);
    assertArrayEquals(new long[] {-128, -1, 0, 127}, i8.sort(0, false).values().toLongArray());
    Tensor i64 = Tensor.fromArray(new long[] {Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1});
    assertArrayEquals(new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}, i64.sort(0, false).values().toLongArray(),
        "int64 compared exactly");
    assertEquals(DType.INT16, Tensor.fromArray(new long[] {3, 1}).to(DType.INT16).sort(0, false).values().dtype());
  }

  @Test
  void sortNonContiguousExpandedAndEmpty() {
    Tensor x = Tensor.fromArray(new double[] {3, 1, 2, 9, 8, 7}, 2, 3);
    Tensor t = x.t();  // [3, 2], strides [1, 3]
    ValuesAndIndices s = t.sort(0, false);
    assertArrayEquals(new double[] {1, 7, 2, 8, 3, 9}, s.values().toDoubleArray());
    assertArrayEquals(new long[] {1, 2, 2, 1, 0, 0}, s.indices().toLongArray());
    Tensor e = Tensor.fromArray(new double[] {2, 1}).expand(3, 2);
    assertArrayEquals(new double[] {1, 2, 1, 2, 1, 2}, e.sort(1, false).values().toDoubleArray());
    assertArrayEquals(new double[] {2, 2, 2, 1, 1, 1}, e.sort(0, true).values().t().contiguous().toDoubleArray());
    Tensor empty = Tensor.zeros(0, 4);
    assertArrayEquals(new long[] {0, 4}, empty.sort(1, false).values().shape());
    Tensor scalar = Tensor.full(new long[] {}, 5.0);
    ValuesAndIndices ss = scalar.sort(0, false);
    assertEquals(0, ss.values().dim());
    assertEquals(0L, ss.indices().toLongArray()[0]);
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> x.sort(2, false));
    message(bad, "sort()");
    message(assertThrows(IllegalArgumentException.class, () -> x.argsort(-3, false)), "argsort()");
  }

  // ---- topk, median, unique ----

  @Test
  void topkEdges() {
    Tensor x = Tensor.fromArray(new double[] {1, NAN, 3, 2});
    ValuesAndIndices top = x.topk(2, 0, true);
    bits(new double[] {NAN, 3}, top.values().toDoubleArray(), "topk largest: NaN is largest");
    assertArrayEquals(new long[] {1, 2}, top.indices().toLongArray());
    bits(new double[] {1, 2}, x.topk(2, 0, false).values().toDoubleArray(), "topk smallest");
    ValuesAndIndices none = x.topk(0, 0, true);
    assertArrayEquals(new long[] {0}, none.values().shape());
    assertEquals(DType.INT64, none.indices().dtype());
    message(assertThrows(IllegalArgumentException.class, () -> x.topk(5, 0, true)), "topk()", "k out of range");
    message(assertThrows(IllegalArgumentException.class, () -> x.topk(-1, 0, true)), "topk()");
    Tensor s = Tensor.full(new long[] {}, 4.0);
    assertEquals(0, s.topk(1, 0, true).values().dim());
    assertEquals(0, s.topk(0, -1, true).values().dim(), "a 0-dim input keeps its shape for k = 0 too");
    Tensor empty = Tensor.zeros(3, 0);
    assertArrayEquals(new long[] {3, 0}, empty.topk(0, 1, true).values().shape());
    Tensor t = Tensor.fromArray(new double[] {5, 1, 4, 2, 6, 3}, 2, 3).t();
    assertArrayEquals(new double[] {5, 6, 4, 3}, t.topk(2, 0, true).values().toDoubleArray(), "non-contiguous topk");
  }

  @Test
  void topkOfBoolAsPyTorch() {
    Tensor b = Tensor.fromArray(new boolean[] {true, false, true});
    // PyTorch 2.13 (torch.tensor([True, False]).topk(0), torch.tensor(True).topk(1)): refused before anything else
    String words = "topk(): topk does not support bool dtypes on CPU";
    assertEquals(words, assertThrows(UnsupportedOperationException.class, () -> b.topk(1, 0, true)).getMessage());
    assertEquals(words, assertThrows(UnsupportedOperationException.class, () -> b.topk(0, 0, true)).getMessage(), "k = 0");
    Tensor s = Tensor.fromArray(new boolean[] {true}).reshape();
    assertEquals(words, assertThrows(UnsupportedOperationException.class, () -> s.topk(1, 0, true)).getMessage(), "0-dim");
  }

  @Test
  void medianEdges() {
    Tensor x = Tensor.fromArray(new double[] {3, 1, 2, 4});
    assertEquals(2.0, x.median().item(), "lower median");
    Tensor n = Tensor.fromArray(new double[] {3, NAN, 1, NAN});
    ValuesAndIndices m = n.median(0, false);
    assertTrue(Double.isNaN(m.values().item()));
    assertEquals(1L, m.indices().toLongArray()[0], "the first NaN's index");
    Tensor ints = Tensor.fromArray(new long[] {5, 2, 9});
    assertEquals(5L, ints.median().toLongArray()[0]);
    assertEquals(DType.INT64, ints.median().dtype());
    // an empty floating tensor's median is NaN, as PyTorch's (ReductionDtypeHostileTest); an integer one's is refused
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(new long[] {0}, DType.INT64).median()), "median()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2, 0).median(1, false)), "median()");
    ValuesAndIndices ke = Tensor.zeros(0, 3).median(1, true);
    assertArrayEquals(new long[] {0, 1}, ke.values().shape(), "an empty kept dim: an empty result");
    Tensor t = Tensor.fromArray(new double[] {5, 1, 4, 2, 6, 3}, 2, 3).t();  // rows [5,2] [1,6] [4,3]
    assertArrayEquals(new double[] {2, 1, 3}, t.median(1, false).values().toDoubleArray());
    assertArrayEquals(new long[] {1, 0, 1}, t.median(1, false).indices().toLongArray());
  }

  @Test
  void medianOfBoolAndQuantileOfNoLevels() {
    Tensor b = Tensor.fromArray(new boolean[] {true, false, true});
    assertEquals("median(): \"median_cpu\" not implemented for 'Bool'", assertThrows(UnsupportedOperationException.class, b::median).getMessage());
    assertEquals("median(): \"median_out\" not implemented for 'Bool'",
        assertThrows(UnsupportedOperationException.class, () -> b.median(0, false)).getMessage());
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Tensor none = Tensor.zeros(0).to(DType.FLOAT64);
    assertArrayEquals(new long[] {0}, x.quantile(none, null, false).shape(), "torch.quantile(x, empty q): an empty result");
    assertArrayEquals(new long[] {0, 1, 1}, x.quantile(none, null, true).shape());
    assertArrayEquals(new long[] {0, 2}, x.quantile(none, 1, false).shape());
    assertArrayEquals(new long[] {0, 1, 3}, x.quantile(none, 0, true).shape());
    assertEquals(DType.FLOAT64, x.quantile(none, 0, true).dtype());
  }

  @Test
  void uniqueEdges() {
    Tensor x = Tensor.fromArray(new double[] {2, NAN, -0.0, 0.0, 2, NAN, 1});
    Unique u = x.unique(true, true);
    bits(new double[] {-0.0, 1, 2, NAN, NAN}, u.values().toDoubleArray(), "values: each NaN its own, -0.0 and 0.0 one");
    assertArrayEquals(new long[] {2, 3, 0, 0, 2, 4, 1}, u.inverse().toLongArray());
    assertArrayEquals(new long[] {2, 1, 2, 1, 1}, u.counts().toLongArray());
    Tensor b = Tensor.fromArray(new boolean[] {true, true, false}, 3, 1);
    Unique ub = b.unique(true, true);
    assertArrayEquals(new boolean[] {false, true}, ub.values().toBooleanArray());
    assertArrayEquals(new long[] {3, 1}, ub.inverse().shape());
    assertArrayEquals(new long[] {1, 1, 0}, ub.inverse().toLongArray());
    Unique e = Tensor.zeros(0, 2).unique(true, true);
    assertArrayEquals(new long[] {0}, e.values().shape());
    assertArrayEquals(new long[] {0, 2}, e.inverse().shape());
    assertArrayEquals(new long[] {0}, e.counts().shape());
    Tensor nc = Tensor.fromArray(new long[] {3, 1, 3, 2}, 2, 2).t();
    assertArrayEquals(new long[] {1, 2, 3}, nc.unique().toLongArray());
    assertArrayEquals(new long[] {2, 2, 0, 1}, nc.unique(true, false).inverse().contiguous().toLongArray());
  }

  // ---- scans ----

  @Test
  void cumsumPromotesIntegersAndWraps() {
    Tensor i32 = Tensor.fromArray(new int[] {Integer.MAX_VALUE, 1, 1});
    Tensor c = i32.cumsum(0);
    assertEquals(DType.INT64, c.dtype());
    assertArrayEquals(new long[] {Integer.MAX_VALUE, 1L + Integer.MAX_VALUE, 2L + Integer.MAX_VALUE}, c.toLongArray());
    Tensor i64 = Tensor.fromArray(new long[] {Long.MAX_VALUE, 1});
    assertArrayEquals(new long[] {Long.MAX_VALUE, Long.MIN_VALUE}, i64.cumsum(0).toLongArray(), "int64 wraps as PyTorch's");
    assertArrayEquals(new long[] {Long.MAX_VALUE, -2}, Tensor.fromArray(new long[] {Long.MAX_VALUE, 2}).cumprod(0).toLongArray());
    Tensor b = Tensor.fromArray(new boolean[] {true, false, true});
    assertEquals(DType.INT64, b.cumsum(0).dtype());
    assertArrayEquals(new long[] {1, 1, 2}, b.cumsum(0).toLongArray());
    Tensor u8 = Tensor.fromArray(new long[] {200, 100}).to(DType.UINT8);
    assertArrayEquals(new long[] {200, 300}, u8.cumsum(0).toLongArray());
    assertArrayEquals(new long[] {200, 20000}, u8.cumprod(0).toLongArray());
    Tensor h = Tensor.fromArray(new double[] {1, 2, NAN, 3}).to(DType.FLOAT16);
    Tensor hc = h.cumsum(0);
    assertEquals(DType.FLOAT16, hc.dtype());
    bits(new double[] {1, 3, NAN, NAN}, hc.to(DType.FLOAT64).toDoubleArray(), "NaN propagates");
  }

  @Test
  void float32ScansAccumulateInDoubleAsPyTorchsCpu() {
    // PyTorch's CPU cumsum/cumprod accumulate in acc_type<float, /*is_cuda=*/false> = double, rounding each output
    float[] ones = new float[9];
    java.util.Arrays.fill(ones, 1f);
    ones[0] = 1e8f;
    float[] c = Tensor.fromArray(ones).cumsum(0).toFloatArray();
    assertEquals(100000008f, c[8], "1e8 plus eight ones, accumulated in double");
    float[] p = Tensor.fromArray(new float[] {1e30f, 1e30f, 1e-30f}).cumprod(0).toFloatArray();
    assertEquals(Float.POSITIVE_INFINITY, p[1]);
    assertEquals(1e30f, p[2], 1e24f, "the double accumulator never overflowed");
  }

  @Test
  void scansOfViews() {
    Tensor e = Tensor.arange(3).expand(2, 3);
    assertArrayEquals(new long[] {0, 1, 2, 0, 2, 4}, e.cumsum(0).toLongArray(), "expanded rows are two elements each");
    assertArrayEquals(new long[] {0, 1, 3, 0, 1, 3}, e.cumsum(1).toLongArray());
    Tensor t = Tensor.fromArray(new double[] {1, 2, 3, 4, 5, 6}, 2, 3).t();  // [[1,4],[2,5],[3,6]]
    assertArrayEquals(new double[] {1, 4, 3, 9, 6, 15}, t.cumsum(0).contiguous().toDoubleArray());
    assertArrayEquals(new double[] {1, 4, 2, 10, 3, 18}, t.cumprod(1).contiguous().toDoubleArray());
    Tensor s = Tensor.full(new long[] {}, 3.0);
    assertEquals(3.0, s.cumsum(0).item());
    assertEquals(3.0, s.cumsum(-1).item());
    message(assertThrows(IllegalArgumentException.class, () -> s.cumsum(1)), "cumsum()");
    assertArrayEquals(new long[] {2, 0}, Tensor.zeros(2, 0).cumprod(1).shape());
  }

  // ---- cat, stack, split, chunk, narrow, tensorSplit ----

  @Test
  void catSkipsLegacyEmptiesAndPromotes() {
    Tensor a = Tensor.fromArray(new int[] {1, 2});
    Tensor legacy = Tensor.zeros(new long[] {0}, DType.FLOAT64);
    Tensor c = Tensor.cat(List.of(legacy, a, legacy));
    assertEquals(DType.FLOAT64, c.dtype(), "the skipped empty still promotes");
    assertArrayEquals(new double[] {1, 2}, c.toDoubleArray());
    Tensor m = Tensor.ones(2, 3);
    Tensor cat2 = Tensor.cat(List.of(m, legacy, Tensor.zeros(0, 3), m), 0);
    assertArrayEquals(new long[] {4, 3}, cat2.shape());
    assertArrayEquals(new long[] {2, 3}, Tensor.cat(List.of(m, legacy), -1).shape());
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.cat(List.of(m, m), 2)), "cat()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.cat(List.of(m, Tensor.ones(2, 4)), 0)), "cat()", "Sizes of tensors must match");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.cat(List.of(m, Tensor.full(new long[] {}, 1.0)), 0)), "cat()",
        "zero-dimensional");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.cat(List.of(), 0)), "cat()");
    Tensor nc = Tensor.fromArray(new double[] {1, 2, 3, 4}, 2, 2).t();
    assertArrayEquals(new double[] {1, 3, 2, 4, 1, 3, 2, 4}, Tensor.cat(List.of(nc, nc), 0).toDoubleArray());
    assertArrayEquals(new double[] {1, 3, 1, 3, 2, 4, 2, 4}, Tensor.cat(List.of(nc, nc), 1).toDoubleArray());
  }

  @Test
  void stackDims() {
    Tensor a = Tensor.fromArray(new double[] {1, 2}), b = Tensor.fromArray(new double[] {3, 4});
    assertArrayEquals(new double[] {1, 3, 2, 4}, Tensor.stack(List.of(a, b), -1).toDoubleArray());
    assertArrayEquals(new long[] {2, 2}, Tensor.stack(List.of(a, b), 1).shape());
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.stack(List.of(a, b), 2)), "stack()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.stack(List.of(a, b), -3)), "stack()");
    Tensor meta = Tensor.zeros(new long[] {2}, DType.FLOAT32, Device.META);
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.stack(List.of(a, meta), 0)), "stack()");
    Tensor e = Tensor.zeros(0);
    assertArrayEquals(new long[] {2, 0}, Tensor.stack(List.of(e, e), 0).shape(), "stacked empties are not skipped");
    assertArrayEquals(new long[] {0, 2}, Tensor.stack(List.of(e, e), 1).shape());
  }

  @Test
  void splitSizesThatOverflowAreRefused() {
    Tensor x = Tensor.arange(5);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> x.split(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 7}, 0));  // sums to 5 in wrapped arithmetic
    message(e, "split()", "sum exactly to 5");
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(0).split(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 2}, 0));
  }

  @Test
  void splitChunkNarrowTensorSplitEdges() {
    Tensor x = Tensor.arange(5);
    List<Tensor> parts = x.split(Long.MAX_VALUE, 0);
    assertEquals(1, parts.size());
    assertArrayEquals(new long[] {0, 1, 2, 3, 4}, parts.get(0).toLongArray());
    assertEquals(1, Tensor.zeros(0).split(3, 0).size());
    message(assertThrows(IllegalArgumentException.class, () -> x.split(0, 0)), "split()");
    message(assertThrows(IllegalArgumentException.class, () -> x.split(-1, 0)), "split()");
    assertEquals(3, Tensor.zeros(0).chunk(3, 0).size());
    List<Tensor> ch = x.chunk(3, 0);
    assertEquals(3, ch.size());
    assertArrayEquals(new long[] {4}, ch.get(2).toLongArray());
    assertEquals(2, Tensor.arange(4).chunk(3, 0).size(), "chunk may give fewer");
    message(assertThrows(IllegalArgumentException.class, () -> x.chunk(0, 0)), "chunk()");
    assertArrayEquals(new long[] {3, 4}, x.narrow(0, -2, 2).toLongArray());
    assertThrows(IndexOutOfBoundsException.class, () -> x.narrow(0, -6, 1));
    message(assertThrows(IllegalArgumentException.class, () -> x.narrow(0, 4, 2)), "narrow()");
    message(assertThrows(IllegalArgumentException.class, () -> x.narrow(0, 0, -1)), "narrow()");
    assertArrayEquals(new long[] {0}, x.narrow(0, 5, 0).shape());
    List<Tensor> ts = x.tensorSplit(new long[] {3, 1, -1}, 0);
    assertEquals(4, ts.size());
    assertArrayEquals(new long[] {0, 1, 2}, ts.get(0).toLongArray());
    assertEquals(0, ts.get(1).numel());
    assertArrayEquals(new long[] {1, 2, 3}, ts.get(2).toLongArray());
    assertArrayEquals(new long[] {4}, ts.get(3).toLongArray());
    List<Tensor> big = x.tensorSplit(new long[] {Long.MAX_VALUE, Long.MIN_VALUE}, 0);
    assertArrayEquals(new long[] {0, 1, 2, 3, 4}, big.get(0).toLongArray());
    assertEquals(0, big.get(1).numel());
    assertArrayEquals(new long[] {0, 1, 2, 3, 4}, big.get(2).toLongArray());
    List<Tensor> sec = x.tensorSplit(7, 0);
    assertEquals(7, sec.size());
    assertEquals(0, sec.get(6).numel());
    message(assertThrows(IllegalArgumentException.class, () -> x.tensorSplit(0, 0)), "tensorSplit()");
  }

  // ---- triu / tril ----

  @Test
  void triangleDiagonalsFarOutOfRange() {
    Tensor x = Tensor.ones(2, 3);
    assertArrayEquals(new double[6], x.triu(Long.MAX_VALUE).toDoubleArray());
    assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1}, x.triu(Long.MIN_VALUE).toDoubleArray());
    assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1}, x.tril(Long.MAX_VALUE).toDoubleArray());
    assertArrayEquals(new double[6], x.tril(Long.MIN_VALUE).toDoubleArray());
    Tensor b = Tensor.arange(1, 13).reshape(2, 2, 3).transpose(1, 2);  // [2, 3, 2], not contiguous
    assertArrayEquals(new long[] {1, 4, 0, 5, 0, 0, 7, 10, 0, 11, 0, 0}, b.triu(0).contiguous().toLongArray());
    assertArrayEquals(new long[] {1, 0, 2, 5, 3, 6, 7, 0, 8, 11, 9, 12}, b.tril(0).contiguous().toLongArray());
    Tensor base = Tensor.arange(1, 7).reshape(2, 3);
    base.t().tril_(-1);  // base.t() = [[1,4],[2,5],[3,6]]: keeps 2, 3, 6
    assertArrayEquals(new long[] {0, 2, 3, 0, 0, 6}, base.toLongArray(), "in place through a transposed view");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.ones(3).triu(0)), "triu()");
    Tensor bools = Tensor.ones(new long[] {2, 2}, DType.BOOL);
    assertArrayEquals(new boolean[] {true, true, false, true}, bools.triu(0).toBooleanArray());
    assertArrayEquals(new long[] {0, 3}, Tensor.zeros(0, 3).triu(1).shape());
  }

  @Test
  void triangleExactPastTwoToThe24Columns() {
    // offsets j - i past 2^24 are not exact in float32: the mask must compare them as integers
    long cols = (1L << 24) + 2;
    Tensor x = Tensor.ones(new long[] {1, cols}, DType.BOOL);
    Tensor lower = x.tril(1L << 24);  // keeps columns 0 .. 2^24
    boolean[] l = lower.narrow(1, cols - 2, 2).contiguous().toBooleanArray();
    assertArrayEquals(new boolean[] {true, false}, l, "tril(2^24) keeps column 2^24, zeroes column 2^24 + 1");
    Tensor upper = x.triu((1L << 24) + 1);  // keeps columns 2^24 + 1 on
    boolean[] u = upper.narrow(1, cols - 2, 2).contiguous().toBooleanArray();
    assertArrayEquals(new boolean[] {false, true}, u, "triu(2^24 + 1) zeroes column 2^24, keeps column 2^24 + 1");
  }

  // ---- repeatInterleave ----

  @Test
  void repeatInterleaveEdges() {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3});
    Tensor r = x.repeatInterleave(Tensor.fromArray(new long[] {2, 0, 1}), 0);
    assertArrayEquals(new double[] {1, 1, 3}, r.toDoubleArray());
    message(assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(Tensor.fromArray(new long[] {1, -1, 1}), 0)),
        "repeatInterleave()", "negative");
    message(assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(Tensor.fromArray(new long[] {1, 1}), 0)),
        "repeatInterleave()");
    message(assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(-2)), "repeatInterleave()", "negative");
    message(assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(Long.MAX_VALUE / 2)), "repeatInterleave()");
    assertArrayEquals(new double[] {1, 1, 2, 2, 3, 3}, x.repeatInterleave(Tensor.fromArray(new int[] {2}), 0).toDoubleArray());
    Tensor t = Tensor.fromArray(new double[] {1, 2, 3, 4}, 2, 2).t();
    assertArrayEquals(new double[] {1, 3, 1, 3, 2, 4}, t.repeatInterleave(Tensor.fromArray(new long[] {2, 1}), 0).toDoubleArray());
    assertEquals(0, x.repeatInterleave(Tensor.fromArray(new long[] {0, 0, 0}), 0).numel());
  }

  @Test
  void repeatInterleaveHugeTotalsFailInTensorMemory() {
    Tensor x = Tensor.fromArray(new double[] {1, 2});
    long limit = org.jtensor.memory.Memory.memoryLimit(Device.CPU);
    org.jtensor.memory.Memory.setMemoryLimit(Device.CPU, 256L << 20);
    try {
      // 2^31 - 1 positions: no Java heap array of that length (an OutOfMemoryError), but the allocator's documented exception
      assertThrows(org.jtensor.memory.TensorOutOfMemoryException.class,
          () -> x.repeatInterleave(Tensor.fromArray(new long[] {(1L << 30) - 1, 1L << 30}), 0));
      assertThrows(org.jtensor.memory.TensorOutOfMemoryException.class,
          () -> x.repeatInterleave(Tensor.fromArray(new long[] {1L << 28, 1L << 28}), 0));  // 2 GiB of Java heap before
    } finally {
      org.jtensor.memory.Memory.setMemoryLimit(Device.CPU, limit);
    }
    message(assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(Tensor.fromArray(new long[] {Long.MAX_VALUE, 1}), 0)),
        "repeatInterleave()");
    Tensor m = Tensor.arange(6).reshape(3, 2);
    assertArrayEquals(new long[] {2, 3, 2, 3, 2, 3, 4, 5}, m.repeatInterleave(Tensor.fromArray(new long[] {0, 3, 1}), 0).toLongArray());
    assertArrayEquals(new long[] {0, 1, 1, 2, 3, 3, 4, 5, 5}, m.repeatInterleave(Tensor.fromArray(new int[] {1, 2}), 1).toLongArray());
  }

  // ---- multinomial ----

  @Test
  void multinomialRefusals() {
    Generator g = new Generator(1);
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[] {0, 0}).multinomial(1, true, g)), "multinomial()",
        "sum of probabilities");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[] {-1, 2}).multinomial(1, true, g)),
        "multinomial()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[] {NAN, 2}).multinomial(1, true, g)),
        "multinomial()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[] {INF, 2}).multinomial(1, true, g)),
        "multinomial()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[] {1, 2}).multinomial(3, false, g)),
        "multinomial()", "without replacement");
    // PyTorch 2.13 samples a zero-weight category last rather than refusing (RandomHostileTest)
    assertEquals(1L, Tensor.fromArray(new double[] {1, 0, 1}).multinomial(3, false, g).toLongArray()[2]);
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[][] {{1, 1}, {0, 0}}).multinomial(1, true, g)),
        "multinomial()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new double[] {1, 1}).multinomial(0, true, g)),
        "multinomial()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new long[] {1, 1}).multinomial(1, true, g)),
        "multinomial()");
  }

  @Test
  void multinomialNeverDrawsZeroWeights() {
    Generator g = new Generator(7);
    Tensor p = Tensor.fromArray(new double[] {0, 1e-300, 0, 3, 0}).to(DType.FLOAT64);
    long[] draws = p.multinomial(2000, true, g).toLongArray();
    for (long d : draws) assertTrue(d == 1 || d == 3, "drew category " + d);
    long[] without = p.multinomial(2, false, g).toLongArray();
    assertEquals(2, without.length);
    assertTrue((without[0] == 1 && without[1] == 3) || (without[0] == 3 && without[1] == 1));
    Tensor h = Tensor.fromArray(new double[][] {{0, 1}, {1, 0}}).to(DType.FLOAT16);
    assertArrayEquals(new long[] {1, 1, 1, 0, 0, 0}, h.multinomial(3, true, g).toLongArray());
    assertArrayEquals(new long[] {0, 4}, Tensor.zeros(0, 3).multinomial(4, true, g).shape());
  }

  @Test
  void multinomialWithReplacementNeedsNoCategoriesTimesSamplesMemory() {
    Generator g = new Generator(13);
    long c = 200_000, n = 5_000;
    Tensor p = Tensor.ones(new long[] {c}, DType.FLOAT32);
    p.narrow(0, 0, c / 2).fill_(0.0);  // only the upper half can be drawn
    org.jtensor.memory.Memory.resetPeakMemoryStats(Device.CPU);
    long before = allocated();
    long[] d = p.multinomial(n, true, g).toLongArray();
    long peak = org.jtensor.memory.Memory.memoryStats(Device.CPU).get("allocated_bytes.all.peak") - before;
    assertTrue(peak < 64L << 20, "peak " + peak + " bytes for " + c + " categories and " + n + " samples (PyTorch's is linear)");
    long[] seen = new long[2];
    for (long x : d) {
      assertTrue(x >= c / 2 && x < c, "drew a zero-weight category " + x);
      seen[x < c * 3 / 4 ? 0 : 1]++;
    }
    assertTrue(Math.abs(seen[0] - seen[1]) < 400, "both quarters drawn alike: " + seen[0] + " / " + seen[1]);
    Tensor two = Tensor.fromArray(new double[][] {{0, 0, 1}, {1, 1, 0}});
    long[] t = two.multinomial(1000, true, g).toLongArray();
    int ones = 0;
    for (int i = 0; i < 1000; i++) assertEquals(2, t[i]);
    for (int i = 1000; i < 2000; i++) {
      assertTrue(t[i] == 0 || t[i] == 1);
      ones += (int) t[i];
    }
    assertTrue(ones > 400 && ones < 600, "row 2 splits evenly: " + ones);
  }

  // ---- einsum ----

  @Test
  void einsumMalformed() {
    Tensor a = Tensor.ones(2, 3), sq = Tensor.ones(3, 3);
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij,jk", a)), "einsum()", "operands");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i.j", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ii", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij->k", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij->ii", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i1", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ijk", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("......", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij,jk->ik", a, a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij->i->j", a)), "einsum()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij", (Tensor) null)), "einsum()");
    assertEquals(3.0, Tensor.einsum("ii", sq).item(), "trace");
    assertArrayEquals(new double[] {1, 1, 1}, Tensor.einsum("ii->i", sq).toDoubleArray());
  }

  @Test
  void einsumValues() {
    Tensor a = Tensor.arange(6).reshape(2, 3).to(DType.FLOAT64), b = Tensor.arange(12).reshape(3, 4).to(DType.FLOAT64);
    assertArrayEquals(a.matmul(b).toDoubleArray(), Tensor.einsum("ij,jk->ik", a, b).toDoubleArray(), 0);
    assertArrayEquals(a.matmul(b).t().contiguous().toDoubleArray(), Tensor.einsum("ij,jk->ki", a, b).contiguous().toDoubleArray(), 0);
    assertArrayEquals(new double[] {15}, new double[] {Tensor.einsum("ij->", a).item()}, 0);
    // broadcasting an ellipsis: [2, 1, 3] with [4, 3] -> [2, 4]
    Tensor x = Tensor.arange(6).reshape(2, 1, 3).to(DType.FLOAT64), y = Tensor.ones(new long[] {4, 3}, DType.FLOAT64);
    Tensor r = Tensor.einsum("...i,...i->...", x, y);
    assertArrayEquals(new long[] {2, 4}, r.shape());
    assertArrayEquals(new double[] {3, 3, 3, 3, 12, 12, 12, 12}, r.toDoubleArray(), 0);
    // a size-1 label broadcast against the other operand's
    Tensor p = Tensor.fromArray(new double[] {2}, 1), q = Tensor.fromArray(new double[] {1, 2, 3});
    assertArrayEquals(new double[] {2, 4, 6}, Tensor.einsum("i,i->i", p, q).toDoubleArray(), 0);
    assertEquals(12.0, Tensor.einsum("i,i->", p, q).item(), 0);
    // a repeated index across three operands, kept in the output
    Tensor c = Tensor.fromArray(new double[] {1, 2});
    assertArrayEquals(new double[] {1, 8}, Tensor.einsum("i,i,i->i", c, c, c).toDoubleArray(), 0);
    assertEquals(9.0, Tensor.einsum("i,i,i->", c, c, c).item(), 0);
    // an empty contraction gives zeros
    Tensor z = Tensor.einsum("ij,jk->ik", Tensor.zeros(2, 0), Tensor.zeros(0, 3));
    assertArrayEquals(new double[6], z.toDoubleArray(), 0);
    // a label summed in one operand only, the other label of the second operand
    Tensor s = Tensor.einsum("ij,k->k", a, Tensor.fromArray(new double[] {1, 2}));
    assertArrayEquals(new double[] {15, 30}, s.toDoubleArray(), 0);
    // a non-contiguous operand with a diagonal
    Tensor m = Tensor.arange(9).reshape(3, 3).to(DType.FLOAT64).t();
    assertArrayEquals(new double[] {0, 4, 8}, Tensor.einsum("ii->i", m).toDoubleArray(), 0);
    assertArrayEquals(new double[] {0, 3, 6, 1, 4, 7, 2, 5, 8}, Tensor.einsum("ij->ij", m).contiguous().toDoubleArray(), 0);
  }

  // ---- baddbmm ----

  @Test
  void baddbmmEdges() {
    Tensor b1 = Tensor.ones(new long[] {2, 2, 3}, DType.FLOAT64), b2 = Tensor.ones(new long[] {2, 3, 2}, DType.FLOAT64);
    Tensor self = Tensor.full(new long[] {2, 1}, NAN, DType.FLOAT64);
    assertArrayEquals(new double[] {6, 6, 6, 6, 6, 6, 6, 6}, self.baddbmm(b1, b2, 0, 2).toDoubleArray(), 0, "beta 0 ignores NaN");
    Tensor one = Tensor.full(new long[] {2, 1}, 1.0, DType.FLOAT64);
    assertArrayEquals(new double[] {4, 4, 5, 5, 4, 4, 5, 5}, Tensor.fromArray(new double[] {1, 2}, 2, 1).baddbmm(b1, b2, 1, 1).toDoubleArray(),
        0);
    message(assertThrows(IllegalArgumentException.class, () -> one.baddbmm(b1, b1, 1, 1)), "baddbmm()");
    message(assertThrows(IllegalArgumentException.class, () -> Tensor.ones(new long[] {3, 2, 2}, DType.FLOAT64).baddbmm(b1, b2, 1, 1)),
        "baddbmm()");
    message(assertThrows(IllegalArgumentException.class, () -> one.baddbmm(b1.to(DType.FLOAT32), b2, 1, 1)), "baddbmm()");
    Tensor e = Tensor.zeros(new long[] {2, 2, 0}, DType.FLOAT64), f = Tensor.zeros(new long[] {2, 0, 2}, DType.FLOAT64);
    assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 1, 1}, one.baddbmm(e, f, 1, 5).toDoubleArray(), 0);
    Tensor i = Tensor.ones(new long[] {1, 1, 1}, DType.INT64);
    // integer inputs take beta and alpha truncated toward zero, as PyTorch 2.13's (it was refused here)
    assertArrayEquals(new long[] {1}, i.baddbmm(i, i, 0.5, 1).toLongArray(), "beta 0.5 is 0: self ignored");
    Tensor seven = Tensor.full(new long[] {1, 1, 1}, 7, DType.INT64);
    assertArrayEquals(new long[] {91}, seven.baddbmm(seven, seven, -1.5, 2.9).toLongArray(), "-1·7 + 2·49");
  }

  // ---- scaled dot-product attention ----

  /** softmax(scale·q·kᵀ + mask)·v by a plain loop over [b, h, l, e] doubles; bool mask true takes part; a fully masked row 0. */
  private static double[] attentionLoop(Tensor q, Tensor k, Tensor v, Tensor mask, double scale, boolean causal) {
    long[] qs = q.shape(), ks = k.shape(), vs = v.shape();
    int b = (int) qs[0], h = (int) qs[1], l = (int) qs[2], e = (int) qs[3], hk = (int) ks[1], s = (int) ks[2], ev = (int) vs[3];
    double[] qd = q.to(DType.FLOAT64).contiguous().toDoubleArray(), kd = k.to(DType.FLOAT64).contiguous().toDoubleArray();
    double[] vd = v.to(DType.FLOAT64).contiguous().toDoubleArray();
    double[] md = null;
    boolean boolMask = mask != null && mask.dtype() == DType.BOOL;
    if (mask != null) md = (boolMask ? mask.to(DType.FLOAT64) : mask.to(DType.FLOAT64)).expand(b, h, l, s).contiguous().toDoubleArray();
    double[] out = new double[b * h * l * ev];
    for (int bi = 0; bi < b; bi++) {
      for (int hi = 0; hi < h; hi++) {
        int kh = hi / (h / hk);
        for (int i = 0; i < l; i++) {
          double[] sc = new double[s];
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < s; j++) {
            double dot = 0;
            for (int d = 0; d < e; d++) dot += qd[((bi * h + hi) * l + i) * e + d] * kd[((bi * hk + kh) * s + j) * e + d];
            double x = dot * scale;
            if (md != null) {
              double mv = md[((bi * h + hi) * l + i) * s + j];
              x = boolMask ? (mv != 0 ? x : Double.NEGATIVE_INFINITY) : x + mv;
            }
            if (causal && j > i) x = Double.NEGATIVE_INFINITY;
            sc[j] = x;
            max = Double.isNaN(x) || Double.isNaN(max) ? Double.NaN : Math.max(max, x);
          }
          double sum = 0;
          for (int j = 0; j < s; j++) {
            sc[j] = max == Double.NEGATIVE_INFINITY ? 0 : Math.exp(sc[j] - max);
            sum += sc[j];
          }
          for (int d = 0; d < ev; d++) {
            double acc = 0;
            for (int j = 0; j < s; j++) acc += sc[j] * vd[((bi * hk + kh) * s + j) * ev + d];
            out[((bi * h + hi) * l + i) * ev + d] = max == Double.NEGATIVE_INFINITY ? 0 : acc / sum;
          }
        }
      }
    }
    return out;
  }

  private static void near(double[] want, double[] got, double tol, String what) {
    assertEquals(want.length, got.length, what + ": length");
    for (int i = 0; i < want.length; i++) {
      assertTrue(Close.within(want[i], got[i], tol), what + " at " + i + ": want " + want[i] + " got " + got[i]);
    }
  }

  @Test
  void attentionMasksFullyMaskedRowsAreZero() {
    Generator g = new Generator(3);
    Tensor q = Tensor.randn(new long[] {2, 2, 5, 4}, DType.FLOAT64, g), k = Tensor.randn(new long[] {2, 2, 70, 4}, DType.FLOAT64, g);
    Tensor v = Tensor.randn(new long[] {2, 2, 70, 3}, DType.FLOAT64, g);
    Tensor bool = Tensor.rand(new long[] {5, 70}, DType.FLOAT64, g).gt(0.5);
    bool.get(Index.at(2)).fill_(false);  // row 2 sees no key
    Tensor out = Functional.scaledDotProductAttention(q, k, v, bool, 0, false);
    near(attentionLoop(q, k, v, bool, 0.5, false), out.toDoubleArray(), 1e-12, "bool mask");
    Tensor additive = Tensor.zeros(new long[] {5, 70}, DType.FLOAT64).maskedFill(bool.logicalNot(), Double.NEGATIVE_INFINITY);
    Tensor out2 = Functional.scaledDotProductAttention(q, k, v, additive, 0, false);
    near(attentionLoop(q, k, v, bool, 0.5, false), out2.toDoubleArray(), 1e-12, "additive -inf mask");
    for (int d = 0; d < 3; d++) assertEquals(0.0, out2.get(Index.at(1), Index.at(1), Index.at(2), Index.at(d)).item(), "a fully masked row is 0");
    Tensor f32 = Functional.scaledDotProductAttention(q.to(DType.FLOAT32), k.to(DType.FLOAT32), v.to(DType.FLOAT32), additive.to(DType.FLOAT32), 0,
        true);
    near(attentionLoop(q, k, v, bool, 0.5, true), f32.to(DType.FLOAT64).toDoubleArray(), 1e-5, "float32, causal and mask");
    Tensor h = Functional.scaledDotProductAttention(q.to(DType.FLOAT16), k.to(DType.FLOAT16), v.to(DType.FLOAT16), bool, 0, true);
    assertEquals(DType.FLOAT16, h.dtype());
    near(attentionLoop(q.to(DType.FLOAT16), k.to(DType.FLOAT16), v.to(DType.FLOAT16), bool, 0.5, true), h.to(DType.FLOAT64).toDoubleArray(), 1e-2,
        "float16");
    Tensor bf = Functional.scaledDotProductAttention(q.to(DType.BFLOAT16), k.to(DType.BFLOAT16), v.to(DType.BFLOAT16), null, 0, false);
    near(attentionLoop(q.to(DType.BFLOAT16), k.to(DType.BFLOAT16), v.to(DType.BFLOAT16), null, 0.5, false), bf.to(DType.FLOAT64).toDoubleArray(),
        3e-2, "bfloat16");
  }

  @Test
  void attentionShapesAndScales() {
    Generator g = new Generator(5);
    Tensor q = Tensor.randn(new long[] {1, 4, 3, 1}, g), k = Tensor.randn(new long[] {1, 2, 6, 1}, g), v = Tensor.randn(new long[] {1, 2, 6, 2}, g);
    Tensor k4 = k.repeatInterleave(2, 1), v4 = v.repeatInterleave(2, 1);
    Tensor gqa = Functional.scaledDotProductAttention(q, k, v, null, 0, false, null, true, g);
    near(attentionLoop(q, k, v, null, 1, false), gqa.to(DType.FLOAT64).toDoubleArray(), 1e-5, "GQA, head dim 1");
    Tensor k3 = Tensor.randn(new long[] {1, 3, 6, 1}, g);
    message(assertThrows(IllegalArgumentException.class,
        () -> Functional.scaledDotProductAttention(q, k3, k3, null, 0, false, null, true, g)), "scaledDotProductAttention()");
    // scale 0: every key weighs the same
    Tensor uniform = Functional.scaledDotProductAttention(q, k4, v4, null, 0, false, 0.0);
    Tensor mean = v4.mean(new int[] {2}, true).expand(1, 4, 3, 2);
    near(mean.contiguous().to(DType.FLOAT64).toDoubleArray(), uniform.to(DType.FLOAT64).toDoubleArray(), 1e-6, "scale 0");
    Tensor nan = Functional.scaledDotProductAttention(q, k4, v4, null, 0, false, Double.NaN);
    for (double x : nan.toDoubleArray()) assertTrue(Double.isNaN(x), "scale NaN gives NaN, got " + x);
    // empty sequences
    Tensor noKeys = Functional.scaledDotProductAttention(q, Tensor.zeros(1, 4, 0, 1), Tensor.zeros(1, 4, 0, 2), null, 0, false);
    assertArrayEquals(new long[] {1, 4, 3, 2}, noKeys.shape());
    assertArrayEquals(new double[24], noKeys.toDoubleArray(), 0);
    assertArrayEquals(new long[] {1, 4, 0, 2}, Functional.scaledDotProductAttention(Tensor.zeros(1, 4, 0, 1), k4,
        v4, null, 0, false).shape());
    // head dim 0: every score 0, the mean of v
    Tensor e0 = Functional.scaledDotProductAttention(Tensor.zeros(1, 4, 3, 0), Tensor.zeros(1, 4, 6, 0), v4, null, 0, false);
    near(mean.contiguous().to(DType.FLOAT64).toDoubleArray(), e0.to(DType.FLOAT64).toDoubleArray(), 1e-6, "head dim 0");
    // a mask that does not broadcast
    message(assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, k4,
        v4, Tensor.ones(new long[] {3, 5}, DType.BOOL), 0, false)), "scaledDotProductAttention()", "size of tensor");
    message(assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, k4,
        v4, Tensor.ones(new long[] {3, 6}, DType.INT64), 0, false)), "scaledDotProductAttention()", "attn_mask");
    message(assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, k4,
        v4, null, 1.5, false)), "scaledDotProductAttention()", "dropout");
    message(assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, k4,
        v4, null, Double.NaN, false)), "scaledDotProductAttention()", "dropout");
  }

  @Test
  void attentionDropoutExtremes() {
    Generator g = new Generator(9);
    Tensor q = Tensor.randn(new long[] {2, 3, 4}, g), k = Tensor.randn(new long[] {2, 5, 4}, g), v = Tensor.randn(new long[] {2, 5, 3}, g);
    Tensor all = Functional.scaledDotProductAttention(q, k, v, null, 1.0, false, null, false, g);
    assertArrayEquals(new double[18], all.toDoubleArray(), 0, "dropout 1 drops every probability");
    Tensor none = Functional.scaledDotProductAttention(q, k, v, null, 0.0, false, null, false, g);
    near(attentionLoop(q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1), null, 0.5, false), none.to(DType.FLOAT64).toDoubleArray(), 1e-5, "dropout 0");
    Tensor qg = q.to(DType.FLOAT64).requiresGrad_(true);
    Tensor y = Functional.scaledDotProductAttention(qg, k.to(DType.FLOAT64), v.to(DType.FLOAT64), null, 1.0, false, null, false, g);
    y.sum().backward();
    assertArrayEquals(new double[24], qg.grad().toDoubleArray(), 0, "dropout 1: no gradient");
  }

  @Test
  void attentionGradientsMatchTheComposition() {
    Generator g = new Generator(11);
    Tensor q0 = Tensor.randn(new long[] {1, 4, 70, 3}, DType.FLOAT64, g), k0 = Tensor.randn(new long[] {1, 2, 70, 3}, DType.FLOAT64, g);
    Tensor v0 = Tensor.randn(new long[] {1, 2, 70, 2}, DType.FLOAT64, g);
    Tensor mask = Tensor.rand(new long[] {70, 70}, DType.FLOAT64, g).gt(0.3);
    mask.get(Index.at(5)).fill_(false);
    Tensor q = q0.clone().requiresGrad_(true), k = k0.clone().requiresGrad_(true), v = v0.clone().requiresGrad_(true);
    Functional.scaledDotProductAttention(q, k, v, mask, 0, true, 0.7, true, g).sum().backward();
    // the same by differentiable ops
    Tensor qr = q0.clone().requiresGrad_(true), kr = k0.clone().requiresGrad_(true), vr = v0.clone().requiresGrad_(true);
    Tensor kx = kr.repeatInterleave(2, 1), vx = vr.repeatInterleave(2, 1);
    Tensor keep = mask.logicalAnd(Tensor.ones(new long[] {70, 70}, DType.BOOL).tril(0));
    Tensor sc = qr.matmul(kx.transpose(-2, -1)).mul(0.7).maskedFill(keep.logicalNot(), Double.NEGATIVE_INFINITY);
    Tensor rowDead = keep.logicalNot().all(-1, true);
    Tensor p = sc.maskedFill(rowDead, 0).softmax(-1).maskedFill(rowDead, 0);
    p.matmul(vx).sum().backward();
    near(qr.grad().toDoubleArray(), q.grad().toDoubleArray(), 1e-10, "dq");
    near(kr.grad().toDoubleArray(), k.grad().toDoubleArray(), 1e-10, "dk");
    near(vr.grad().toDoubleArray(), v.grad().toDoubleArray(), 1e-10, "dv");
  }

  private static long allocated() {
    return org.jtensor.memory.Memory.memoryStats(Device.CPU).get("allocated_bytes.all.current");
  }

  @Test
  void repeatInterleaveWithOneRepeatLeavesNothingBehind() {
    long before = allocated();
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3});
    Tensor reps = Tensor.fromArray(new long[] {2});  // one repeat for every element
    Tensor r = x.repeatInterleave(reps, 0);
    assertArrayEquals(new double[] {1, 1, 2, 2, 3, 3}, r.toDoubleArray());
    r.close();
    reps.close();
    x.close();
    assertEquals(before, allocated(), "every handle closed: no bytes left (an inner reshape of repeats kept its storage)");
  }

  @Test
  void attentionDropoutMasksAgreeBetweenForwardAndBackward() {
    Generator g = new Generator(21);
    long l = 37, s = 70;
    Tensor q = Tensor.randn(new long[] {2, 3, l, 4}, DType.FLOAT64, g), k = Tensor.randn(new long[] {2, 3, s, 4}, DType.FLOAT64, g);
    Tensor eye = Tensor.zeros(new long[] {s, s}, DType.FLOAT64);
    for (long i = 0; i < s; i++) eye.get(Index.at(i), Index.at(i)).fill_(1.0);
    Tensor v = eye.expand(2, 3, s, s).contiguous().requiresGrad_(true);
    Tensor out = Functional.scaledDotProductAttention(q, k, v, null, 0.5, false, null, false, g);  // = dropout(P) with v = I
    double[] o = out.toDoubleArray();
    int zeros = 0;
    for (double x : o) if (x == 0) zeros++;
    assertTrue(zeros > o.length * 0.4 && zeros < o.length * 0.6, "about half the probabilities dropped: " + zeros + " of " + o.length);
    Tensor w = Tensor.randn(new long[] {2, 3, l, s}, DType.FLOAT64, g);
    out.mul(w).sum().backward();
    Tensor want = out.detach().transpose(-2, -1).matmul(w);  // dV = dropout(P)^T · dO
    near(want.contiguous().toDoubleArray(), v.grad().toDoubleArray(), 1e-10, "dV from the forward's dropped probabilities");
  }

  @Test
  void attentionSixteenBitGradientsAndStridedOperands() {
    Generator g = new Generator(23);
    Tensor q0 = Tensor.randn(new long[] {1, 5, 2, 8}, DType.FLOAT64, g).transpose(1, 2);  // [1, 2, 5, 8], not contiguous
    Tensor k0 = Tensor.randn(new long[] {1, 9, 2, 8}, DType.FLOAT64, g).transpose(1, 2), v0 = Tensor.randn(new long[] {1, 9, 2, 3}, DType.FLOAT64, g)
        .transpose(1, 2);
    Tensor mask = Tensor.rand(new long[] {9, 5}, DType.FLOAT64, g).gt(0.3).t();  // [5, 9], not contiguous
    near(attentionLoop(q0, k0, v0, mask, 1 / Math.sqrt(8), false), Functional.scaledDotProductAttention(q0, k0, v0, mask, 0, false)
        .contiguous().toDoubleArray(), 1e-12, "strided operands and mask");
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      Tensor q = q0.to(dt).requiresGrad_(true), k = k0.to(dt).requiresGrad_(true), v = v0.to(dt).requiresGrad_(true);
      Functional.scaledDotProductAttention(q, k, v, mask, 0, true).sum().backward();
      assertEquals(dt, q.grad().dtype());
      Tensor qr = q0.to(dt).to(DType.FLOAT64).requiresGrad_(true), kr = k0.to(dt).to(DType.FLOAT64).requiresGrad_(true);
      Tensor vr = v0.to(dt).to(DType.FLOAT64).requiresGrad_(true);
      Functional.scaledDotProductAttention(qr, kr, vr, mask, 0, true).sum().backward();
      double tol = dt == DType.FLOAT16 ? 2e-2 : 8e-2;
      near(qr.grad().contiguous().toDoubleArray(), q.grad().to(DType.FLOAT64).contiguous().toDoubleArray(), tol, dt + " dq");
      near(kr.grad().contiguous().toDoubleArray(), k.grad().to(DType.FLOAT64).contiguous().toDoubleArray(), tol, dt + " dk");
      near(vr.grad().contiguous().toDoubleArray(), v.grad().to(DType.FLOAT64).contiguous().toDoubleArray(), tol, dt + " dv");
    }
  }

  @Test
  void attentionGqaDropoutGradientsSumTheGroup() {
    Generator g = new Generator(31);
    long l = 33, s = 66;
    Tensor q = Tensor.randn(new long[] {1, 4, l, 3}, DType.FLOAT64, g), k = Tensor.randn(new long[] {1, 2, s, 3}, DType.FLOAT64, g);
    Tensor eye = Tensor.zeros(new long[] {s, s}, DType.FLOAT64);
    for (long i = 0; i < s; i++) eye.get(Index.at(i), Index.at(i)).fill_(1.0);
    Tensor v = eye.expand(1, 2, s, s).contiguous().requiresGrad_(true);
    Tensor out = Functional.scaledDotProductAttention(q, k, v, null, 0.3, true, null, true, g);  // [1, 4, l, s] = dropout(P)
    Tensor w = Tensor.randn(new long[] {1, 4, l, s}, DType.FLOAT64, g);
    out.mul(w).sum().backward();
    Tensor perHead = out.detach().transpose(-2, -1).matmul(w);  // [1, 4, s, s]
    Tensor want = perHead.reshape(1, 2, 2, s, s).sum(2);
    near(want.contiguous().toDoubleArray(), v.grad().toDoubleArray(), 1e-10, "GQA dV: each kv head sums its query heads");
  }

  @Test
  void attentionMaskGradient() {
    Generator g = new Generator(37);
    Tensor q = Tensor.randn(new long[] {2, 6, 4}, DType.FLOAT64, g), k = Tensor.randn(new long[] {2, 7, 4}, DType.FLOAT64, g);
    Tensor v = Tensor.randn(new long[] {2, 7, 3}, DType.FLOAT64, g);
    Tensor m0 = Tensor.randn(new long[] {6, 7}, DType.FLOAT64, g);
    m0.get(Index.at(2)).fill_(Double.NEGATIVE_INFINITY);  // a fully masked row: no gradient through it
    Tensor m = m0.clone().requiresGrad_(true);
    Tensor y = Functional.scaledDotProductAttention(q, k, v, m, 0, false);
    near(attentionLoop(q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1), m0, 0.5, false), y.detach().toDoubleArray(), 1e-12, "additive mask with grad");
    y.sum().backward();
    Tensor mr = m0.clone().requiresGrad_(true);
    Tensor sc = q.matmul(k.transpose(-2, -1)).mul(0.5).add(mr);
    Tensor dead = mr.detach().eq(Double.NEGATIVE_INFINITY).all(-1, true);
    sc.maskedFill(dead, 0).softmax(-1).maskedFill(dead, 0).matmul(v).sum().backward();
    near(mr.grad().toDoubleArray(), m.grad().toDoubleArray(), 1e-10, "d mask (summed over the batch it broadcast to)");
  }

  @Test
  void attentionWithNoHeadsStaysInTheGraph() {
    Tensor q = Tensor.randn(1, 0, 3, 4).requiresGrad_(true), k = Tensor.randn(1, 1, 5, 4).requiresGrad_(true), v = Tensor.randn(1, 1, 5, 2);
    Tensor y = Functional.scaledDotProductAttention(q, k, v, null, 0, false);  // heads broadcast to 0
    assertArrayEquals(new long[] {1, 0, 3, 2}, y.shape());
    assertTrue(y.requiresGrad(), "PyTorch's output requires grad");
    y.sum().backward();
    assertArrayEquals(new long[] {1, 0, 3, 4}, q.grad().shape());
    assertArrayEquals(new double[20], k.grad().toDoubleArray(), 0);
    try (org.jtensor.autograd.GradMode.Scope off = org.jtensor.autograd.GradMode.noGrad()) {
      assertTrue(!Functional.scaledDotProductAttention(q, k, v, null, 0, false).requiresGrad());
    }
  }

  @Test
  void metaUniqueAndMultinomialNameTheirOp() {
    Tensor m = Tensor.zeros(new long[] {3, 4}, DType.FLOAT32, Device.META);
    message(assertThrows(UnsupportedOperationException.class, m::unique), "unique()");
    message(assertThrows(UnsupportedOperationException.class, () -> m.unique(true, true)), "unique()");
    Tensor d = m.multinomial(2, true, new Generator(1));
    assertArrayEquals(new long[] {3, 2}, d.shape());
    assertEquals(DType.INT64, d.dtype());
    assertTrue(d.device().isMeta());
    assertArrayEquals(new long[] {5}, Tensor.zeros(new long[] {4}, DType.FLOAT32, Device.META).multinomial(5, true, new Generator(1)).shape());
    message(assertThrows(IllegalArgumentException.class, () -> m.multinomial(5, false, new Generator(1))), "multinomial()");
  }
}
