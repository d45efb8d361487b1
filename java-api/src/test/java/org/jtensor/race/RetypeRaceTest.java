package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Module;
import org.jtensor.nn.ReLU;
import org.jtensor.nn.Sequential;
import org.junit.jupiter.api.Test;

/**
 * setData of another dtype (Module.to(DType)'s way) on one thread while others read the tensor:
 * the dtype lives in the metadata snapshot with the storage (Note [Metadata snapshot]), so a read
 * sees one whole cast or another, or is refused with IllegalStateException; never a dtype over the
 * other cast's bytes (before the dtype moved into the snapshot, setData of another dtype had to be
 * refused: an op sizing a float64 read from dtype() over the float16 storage read past its end).
 */
class RetypeRaceTest {
  private static final int RUNS = 60_000;

  /** The casts t alternates between: 0..n-1 of each dtype, with a different n so that a torn read cannot pass. */
  private static final Map<DType, Integer> CASTS = Map.of(DType.FLOAT64, 64, DType.FLOAT32, 32, DType.FLOAT16, 16);

  /** 0, 1, ..., n-1 for one of the casts' n. */
  private static boolean whole(double[] v) {
    if (!CASTS.containsValue(v.length)) return false;
    for (int i = 0; i < v.length; i++) if (v[i] != i) return false;
    return true;
  }

  private static boolean sumOfACast(double s, int power) {
    for (int n : CASTS.values()) {
      double want = 0;
      for (int i = 0; i < n; i++) want += Math.pow(i, power);
      if (s == want) return true;
    }
    return false;
  }

  private static Map<String, Function<Tensor, Boolean>> ops() {
    Map<String, Function<Tensor, Boolean>> ops = new LinkedHashMap<>();
    ops.put("sum", t -> sumOfACast(t.sum().item(), 1));
    ops.put("toDoubleArray", t -> whole(t.toDoubleArray()));
    ops.put("clone", t -> whole(t.clone().toDoubleArray()));
    ops.put("add", t -> whole(t.add(1.0).sub(1.0).toDoubleArray()));
    ops.put("mul of itself", t -> sumOfACast(t.mul(t).sum().item(), 2));
    ops.put("to float64", t -> whole(t.to(DType.FLOAT64).toDoubleArray()));
    ops.put("view", t -> whole(t.view(-1).toDoubleArray()));
    ops.put("element 15", t -> t.select(0, 15).item() == 15);
    ops.put("cumsum", t -> {
      double[] v = t.cumsum(0).toDoubleArray();
      return sumOfACast(v[v.length - 1], 1);
    });
    ops.put("dot with itself", t -> sumOfACast(t.dot(t).item(), 2));
    ops.put("sort", t -> whole(t.sort(0, false).values().toDoubleArray()));
    ops.put("cat", t -> whole(Tensor.cat(List.of(t), 0).toDoubleArray()));
    ops.put("indexSelect", t -> {
      double[] v = t.indexSelect(0, Tensor.fromArray(new long[] {15, 0})).toDoubleArray();
      return v[0] == 15 && v[1] == 0;
    });
    return ops;
  }

  /** A thread pointing t at each cast in turn (setData: another dtype and length each time) until stop. */
  private static Thread startRetyping(Tensor t, AtomicBoolean stop, Tensor... casts) {
    Thread caster = new Thread(() -> {
      while (!stop.get()) for (Tensor c : casts) t.setData(c);
    });
    caster.start();
    return caster;
  }

  @Test
  void everyReadOfARetypedTensorSeesOneWholeCast() throws InterruptedException {
    try (Tensor f64 = Tensor.arange(0, 64, 1, DType.FLOAT64); Tensor f32 = Tensor.arange(0, 32, 1, DType.FLOAT32);
         Tensor f16 = Tensor.arange(0, 16, 1, DType.FLOAT16); Tensor t = f32.clone()) {
      AtomicBoolean stop = new AtomicBoolean();
      Thread caster = startRetyping(t, stop, f64, f16, f32);
      Set<DType> seen = ConcurrentHashMap.newKeySet();
      Map<String, Function<Tensor, Boolean>> ops = ops();
      ops.replaceAll((name, op) -> x -> {
        boolean whole = op.apply(x);
        seen.add(x.dtype());  // the dtypes the reads met
        return whole;
      });
      OpRuns r;
      try {
        r = OpRuns.run(ops, t, RUNS);
      } finally {
        stop.set(true);
        caster.join();
      }
      System.out.println("RetypeRaceTest:" + r.report);
      assertEquals(0, r.wrong, "wrong values:" + r.report);
      assertEquals(EnumSet.of(DType.FLOAT64, DType.FLOAT32, DType.FLOAT16), seen, "the reads did not meet every cast");
    }
  }

  /** Every element of each cast in [0, 1]: a write of one dtype's bytes into another's storage reads back outside (1.0 as float16 halves: 0 and 1.98). */
  private static boolean inUnitRange(Tensor... casts) {
    for (Tensor c : casts) for (double v : c.toDoubleArray()) if (!(v >= 0 && v <= 1)) return false;
    return true;
  }

  /**
   * In-place writers (fill_, mul_, clamp_, uniform_, scatter_, copy_) on a tensor re-typed
   * float64/float32/float16 on another thread: each write lands in one whole cast, written as that
   * cast's dtype, or is refused naming the op; every value of every cast stays in [0, 1] (a write sized or encoded
   * with another cast's dtype would leave values outside, or bytes past the storage).
   */
  @Test
  void everyWriteToARetypedTensorLandsInOneWholeCast() throws InterruptedException {
    try (Tensor f64 = Tensor.zeros(new long[] {64}, DType.FLOAT64); Tensor f32 = Tensor.zeros(new long[] {32}, DType.FLOAT32);
         Tensor f16 = Tensor.zeros(new long[] {16}, DType.FLOAT16); Tensor t = f32.clone();
         Tensor index = Tensor.fromArray(new long[] {15, 0, 7}); Tensor g = Tensor.fromArray(new float[] {0.25f, 0.5f, 1f})) {
      org.jtensor.Generator gen = new org.jtensor.Generator(63);
      AtomicBoolean stop = new AtomicBoolean();
      Thread caster = startRetyping(t, stop, f64, f16, f32);
      Map<String, Function<Tensor, Boolean>> ops = new LinkedHashMap<>();
      ops.put("fill_", x -> x.fill_(1.0) == x);
      ops.put("mul_", x -> x.mul_(0.5) == x);
      ops.put("clamp_", x -> x.clamp_(0.0, 0.75) == x);
      ops.put("uniform_", x -> x.uniform_(0.0, 1.0, gen) == x);
      ops.put("scatter_", x -> x.scatter_(0, index, 1.0) == x);
      ops.put("copy_", x -> x.narrow(0, 0, 3).copy_(g) != null);
      // an op that read the dtype twice (scatter_'s value tensor, made in self's dtype, then compared) may refuse naming itself
      ops.replaceAll((name, op) -> x -> {
        try {
          return op.apply(x);
        } catch (IllegalArgumentException refused) {
          return refused.getMessage().startsWith(name + "(): ");
        }
      });
      ops.put("the casts stay in [0, 1]", x -> inUnitRange(f64, f32, f16));
      OpRuns r;
      try {
        r = OpRuns.run(ops, t, RUNS / 2);
      } finally {
        stop.set(true);
        caster.join();
      }
      System.out.println("RetypeRaceTest (writes):" + r.report);
      assertEquals(0, r.wrong, "wrong values:" + r.report);
      assertTrue(inUnitRange(f64, f32, f16));
    }
  }

  /** A weight whose values every cast holds exactly (multiples of 1/16 below 4), so each dtype's forward has one answer. */
  private static Sequential exactModel() {
    Sequential m = new Sequential(new Linear(8, 16, new Generator(1)), new ReLU(), new Linear(16, 4, new Generator(2)));
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      for (Tensor p : m.parameters()) p.copy_(p.mul(16.0).round().div(16.0));
    }
    return m;
  }

  private static Tensor input() {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(Tensor.arange(0, 24, 1, DType.FLOAT32).div(8.0).sub(1.0).reshape(3, 8));
    }
  }

  /**
   * One thread casts a module float32 -> float64 -> float16 -> float32 while two
   * others run forward passes (in the dtype they read from the first weight) and sum every parameter.
   * A forward over a half-cast module is refused (its layers' dtypes differ); every result that comes
   * back equals that dtype's whole-module answer; the readers meet every cast and some cross one; nothing is left.
   */
  @Test
  void forwardPassesAndParameterSumsBesideACastingThreadSeeWholeCasts() throws Exception {
    DType[] order = {DType.FLOAT64, DType.FLOAT16, DType.FLOAT32};
    try (Sequential m = exactModel(); Sequential ref = exactModel(); Tensor x = input()) {
      Map<DType, double[]> outs = new ConcurrentHashMap<>();
      Map<DType, double[]> sums = new ConcurrentHashMap<>();
      for (DType d : order) {  // each cast's answers, from a module no other thread touches
        ref.to(d);
        try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
          outs.put(d, ref.forward(x.to(d)).toDoubleArray());
          sums.put(d, ref.parameters().stream().mapToDouble(p -> p.sum().item()).toArray());
        }
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger wrong = new AtomicInteger(), refused = new AtomicInteger(), forwards = new AtomicInteger();
      Set<DType> seen = ConcurrentHashMap.newKeySet();
      List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
      CountDownLatch ready = new CountDownLatch(3);
      Runnable forward = () -> {
        ready.countDown();
        while (!stop.get()) {
          try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
            DType d = m.parameters().get(0).dtype();
            Tensor y = m.forward(x.to(d));
            if (!java.util.Arrays.equals(outs.get(y.dtype()), y.toDoubleArray())) wrong.incrementAndGet();
            seen.add(y.dtype());
            forwards.incrementAndGet();
          } catch (IllegalStateException | IllegalArgumentException refusedMidCast) {
            refused.incrementAndGet();
          } catch (Throwable e) {
            failures.add(e);
          }
        }
      };
      Runnable sum = () -> {
        ready.countDown();
        while (!stop.get()) {
          try (TensorScope s = TensorScope.open()) {
            List<Tensor> ps = m.parameters();
            for (int i = 0; i < ps.size(); i++) {
              Tensor r = ps.get(i).sum();
              if (sums.get(r.dtype())[i] != r.item()) wrong.incrementAndGet();
            }
          } catch (IllegalStateException refusedMidCast) {
            refused.incrementAndGet();
          } catch (Throwable e) {
            failures.add(e);
          }
        }
      };
      Thread[] readers = {new Thread(forward), new Thread(forward), new Thread(sum)};
      for (Thread r : readers) r.start();
      ready.await();
      try {
        for (int i = 0; i < 200; i++) {
          for (DType d : order) {
            m.to(d);
            int before = forwards.get();  // let a forward finish on the whole cast now and then (both outcomes must happen)
            long until = System.nanoTime() + 20_000_000L;
            while (i % 10 == 0 && forwards.get() == before && System.nanoTime() < until) Thread.onSpinWait();
          }
        }
      } finally {
        stop.set(true);
        for (Thread r : readers) r.join();
      }
      System.out.printf("RetypeRaceTest: %d forwards, %d refused mid-cast, dtypes %s%n", forwards.get(), refused.get(), seen);
      assertTrue(failures.isEmpty(), () -> failures.size() + " failures, the first: " + failures.get(0));
      assertEquals(0, wrong.get(), "results that match no whole cast");
      assertEquals(Set.of(order), seen, "the forwards did not meet every cast");
      assertTrue(refused.get() > 0, "no forward or sum ran across a cast");
      for (Module c : m.children()) for (Tensor p : c.parameters()) assertEquals(DType.FLOAT32, p.dtype());
    }
  }
}
