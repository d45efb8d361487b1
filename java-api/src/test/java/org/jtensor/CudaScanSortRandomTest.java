package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import java.util.function.BiFunction;
import org.jtensor.dispatch.RandomDraw;
import org.jtensor.ops.Factories;
import org.jtensor.ops.RandomOps;
import org.junit.jupiter.api.Test;

/**
 * cumsum/cumprod/cummax/cummin/logcumsumexp, sort/argsort/topk, searchsorted/bucketize, softmax/log_softmax on long rows, linspace/arange and random
 * draws on cuda:0 against the CPU (tag cuda). Scans of small integers are exact in every dtype;
 * sorts are stable, so indices must be equal even with ties and NaNs; a seeded draw on CUDA must
 * give the CPU's numbers bit for bit (the same Philox counters), in any layout.
 */
class CudaScanSortRandomTest extends CudaParity {
  @Test
  void scansAgreeOverEveryDimLayoutAndLength() {
    Random rnd = new Random(31);
    for (DType dt : DTYPES) {
      for (int layout = 0; layout < 3; layout++) {
        Tensor x = integers(rnd, dt, new long[] {4, 9, 33}, layout, -2, 2);
        for (int dim = 0; dim < 3; dim++) {
          final int d = dim;
          check("cumsum " + dt + " dim " + d + " layout " + layout, t -> t[0].cumsum(d), x);
          check("cumprod " + dt + " dim " + d + " layout " + layout, t -> t[0].cumprod(d), x);
          check("cummax " + dt + " dim " + d + " layout " + layout, t -> t[0].cummax(d).values(), x);  // ties: the last index
          check("cummin indices " + dt + " dim " + d + " layout " + layout, t -> t[0].cummin(d).indices(), x);
          if (dt.isFloatingPoint()) {  // float32 within tolerance: the CPU adds in double, CUDA in float (as PyTorch's)
            check("logcumsumexp " + dt + " dim " + d + " layout " + layout, t -> t[0].logcumsumexp(d), x);
          }
        }
      }
    }
    for (DType dt : new DType[] {DType.FLOAT32, DType.INT64, DType.INT32}) {  // many blocks per row; sums stay exact
      check("cumsum 1M " + dt, t -> t[0].cumsum(0), integers(rnd, dt, new long[] {1 << 20}, 0, -3, 3));
      check("cumsum rows " + dt, t -> t[0].cumsum(1), integers(rnd, dt, new long[] {3, 200_000}, 0, -3, 3));
      check("cumsum columns " + dt, t -> t[0].cumsum(0), integers(rnd, dt, new long[] {200_000, 3}, 1, -3, 3));
    }
    assertMostAgreed();
  }

  @Test
  void sortArgsortAndTopkAgreeWithTiesAndNaNs() {
    Random rnd = new Random(37);
    for (DType dt : DTYPES) {
      for (long[] shape : new long[][] {{7, 1000}, {2, 70_000}, {300, 5}}) {
        Tensor x = integers(rnd, dt, shape, shape[0] == 7 ? 1 : 0, -3, 3);  // ties everywhere
        if (dt.isFloatingPoint()) x = x.maskedFill(integers(rnd, DType.BOOL, shape, 0, -9, 1), Double.NaN);
        for (int dim = 0; dim < 2; dim++) {
          for (boolean desc : new boolean[] {false, true}) {
            final int d = dim;
            String at = dt + " " + java.util.Arrays.toString(shape) + " dim " + d + (desc ? " descending" : "");
            check("sort values " + at, t -> t[0].sort(d, desc).values(), x);
            check("sort indices " + at, t -> t[0].sort(d, desc).indices(), x);
            check("argsort " + at, t -> t[0].argsort(d, desc), x);
          }
        }
      }
      if (dt == DType.BOOL) continue;
      // topk over distinct values (a permutation per row), largest and smallest
      Tensor distinct = Tensor.rand(new long[] {6, 200}, new Generator(rnd.nextLong())).argsort(1, false).to(dt);
      for (int k : new int[] {1, 5, 100}) {
        for (boolean largest : new boolean[] {true, false}) {
          check("topk values " + dt + " k " + k, t -> t[0].topk(k, 1, largest).values(), distinct);
          check("topk indices " + dt + " k " + k, t -> t[0].topk(k, 1, largest).indices(), distinct);
        }
      }
    }
    assertMostAgreed();
  }

  @Test
  void searchsortedAndBucketizeAgree() {  // the CPU's and CUDA's kernels share jt/search.h: positions must be equal
    Random rnd = new Random(43);
    expectRefusal(" bool ", UnsupportedOperationException.class);  // PyTorch has no bool searchsorted
    for (DType dt : DTYPES) {
      Tensor rows = integers(rnd, dt, new long[] {5, 300}, 0, -9, 9), values = integers(rnd, dt, new long[] {5, 7000}, 2, -10, 10);
      if (dt.isFloatingPoint()) {  // NaN boundaries (sorted last) and NaN values
        rows = rows.maskedFill(integers(rnd, DType.BOOL, new long[] {5, 300}, 0, -20, 1), Double.NaN);
        values = values.maskedFill(integers(rnd, DType.BOOL, new long[] {5, 7000}, 0, -20, 1), Double.NaN);
      }
      Tensor sorted = rows.sort(1, false).values(), sorter = rows.argsort(1, false);
      for (boolean right : new boolean[] {false, true}) {
        String at = dt + (right ? " right" : " left");
        check("searchsorted per row " + at, t -> Tensor.searchsorted(t[0], t[1], right), sorted, values);
        check("searchsorted 1-D int32 " + at, t -> Tensor.searchsorted(t[0], t[1], true, right, null, null), sorted.select(0, 2), values);
        check("searchsorted sorter " + at, t -> Tensor.searchsorted(t[0], t[1], false, right, null, t[2]), rows, values, sorter);
        check("bucketize " + at, t -> Tensor.bucketize(t[1], t[0], right), sorted.select(0, 1), values);
      }
    }
    assertMostAgreed();
  }

  @Test
  void softmaxAndLogSoftmaxAgreeOnLongRows() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
      Tensor x = Tensor.randn(new long[] {33, 16384}, new Generator(41)).mul(3.0).to(dt);
      for (Tensor in : new Tensor[] {x, x.t().contiguous().t()}) {
        for (int dim = 0; dim < 2; dim++) {
          final int d = dim;
          check("softmax " + dt + " dim " + d, t -> t[0].softmax(d), in);
          check("logSoftmax " + dt + " dim " + d, t -> t[0].logSoftmax(d), in);
        }
      }
    }
    assertMostAgreed();
  }

  @Test
  void linspaceAndArangeAgree() {
    for (DType dt : DTYPES) {
      if (dt == DType.BOOL) continue;
      double start = dt == DType.UINT8 ? 3.5 : -3.5;  // uint8 refuses a negative end, as PyTorch's linspace
      for (long steps : new long[] {0, 1, 2, 7, 1000, 100_001}) {
        GPU.agree("linspace " + dt + " " + steps, Tensor.wrap(Factories.linspace(start, 120.25, steps, dt, Device.CPU)),
            Tensor.wrap(Factories.linspace(start, 120.25, steps, dt, GPU.device())));
      }
      GPU.agree("arange long " + dt, Tensor.wrap(Factories.arange(-7, 100, 3, dt, Device.CPU)),
          Tensor.wrap(Factories.arange(-7, 100, 3, dt, GPU.device())));
      if (dt.isFloatingPoint()) {
        GPU.agree("arange double " + dt, Tensor.wrap(Factories.arange(0.5, 1e5, 0.75, dt, Device.CPU)),
            Tensor.wrap(Factories.arange(0.5, 1e5, 0.75, dt, GPU.device())));
      }
    }
  }

  /** Draws into a CPU tensor and its CUDA twin from two generators of one seed, twice: every value must be equal. */
  private static void sameDraws(String what, Tensor cpu, BiFunction<Tensor, Generator, Tensor> draw) {
    Tensor gpu = GPU.twin(cpu);
    for (long seed : new long[] {0, 2026}) {
      Generator gc = new Generator(seed), gg = new Generator(seed);
      for (int round = 0; round < 2; round++) {
        double[] want = draw.apply(cpu, gc).toDoubleArray(), got = draw.apply(gpu, gg).cpu().toDoubleArray();
        assertArrayEquals(want, got, what + " seed " + seed + " round " + round + " (bit for bit)");
      }
    }
  }

  @Test
  void seededDrawsEqualTheCpusElementForElement() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
      for (long n : new long[] {1, 3, 1000, 100_003}) {
        Tensor t = Tensor.empty(new long[] {n}, dt);
        sameDraws("uniform_ " + dt + " " + n, t, (x, g) -> x.uniform_(-2, 3, g));
        sameDraws("normal_ " + dt + " " + n, t, (x, g) -> x.normal_(0.5, 2, g));
        sameDraws("bernoulli(p) " + dt + " " + n, t, (x, g) -> x.bernoulli(0.3, g));
        sameDraws("dropout " + dt + " " + n, Tensor.onesLike(t), (x, g) -> x.dropout(0.25, true, g));
        sameDraws("rand " + dt + " " + n, t, (x, g) -> {
          RandomOps.draw("rand", x.impl("rand"), dt == DType.FLOAT32 ? RandomDraw.Kind.UNIFORM24 : RandomDraw.Kind.UNIFORM53, g, 0.0, 1.0);
          return x;
        });
      }
      Tensor p = Tensor.rand(new long[] {50_001}, new Generator(5)).to(dt);
      sameDraws("bernoulli(tensor) " + dt, p, (x, g) -> x.bernoulli(g));
      sameDraws("uniform_ transposed " + dt, Tensor.empty(new long[] {300, 200}, dt).t(), (x, g) -> x.uniform_(-1, 1, g));
      sameDraws("normal_ strided " + dt, Tensor.empty(new long[] {20_000}, dt).slice(0, 1, 20_000, 3), (x, g) -> x.normal_(0, 1, g));
    }
    for (DType dt : new DType[] {DType.INT64, DType.INT32, DType.UINT8, DType.FLOAT32}) {
      long low = dt == DType.UINT8 ? 0 : -50;  // randint(low, low + 128)
      sameDraws("randint " + dt, Tensor.empty(new long[] {70_001}, dt), (x, g) -> {
        RandomOps.draw("randint", x.impl("randint"), RandomDraw.Kind.INTEGERS, g, low, 1L << 7, null);
        return x;
      });
    }
  }
}
