package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Index;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, point 1: one thread re-points t between a storage of 16 ones and one of 8 twos with
 * set_ while this thread runs ops on t. Each op must see one whole set_ or the other: a result of
 * 16 ones or of 8 twos (a sum of 16 either way), never B's shape over A's bytes. An op may refuse
 * with IllegalStateException (the README's promise); none may give a wrong value.
 */
class TornReadTest {
  private static final int RUNS = 300_000;

  /** True for a whole A (16 ones) or a whole B (8 twos). */
  private static boolean whole(float[] v) {
    float want = v.length == 16 ? 1f : v.length == 8 ? 2f : Float.NaN;
    for (float x : v) if (x != want) return false;
    return true;
  }

  private static Map<String, Function<Tensor, Boolean>> ops() {
    Map<String, Function<Tensor, Boolean>> ops = new LinkedHashMap<>();
    ops.put("sum", t -> t.sum().item() == 16.0);
    ops.put("mean", t -> {
      double m = t.mean().item();
      return m == 1.0 || m == 2.0;
    });
    ops.put("mul", t -> whole(t.mul(1.0).toFloatArray()));
    ops.put("add of itself", t -> whole(t.add(t).mul(0.5).toFloatArray()));
    ops.put("clone", t -> whole(t.clone().toFloatArray()));
    ops.put("toFloatArray", t -> whole(t.toFloatArray()));
    ops.put("to float64", t -> {
      double[] v = t.to(DType.FLOAT64).toDoubleArray();
      return v.length == 16 && v[15] == 1 || v.length == 8 && v[7] == 2;
    });
    ops.put("view", t -> whole(t.view(-1).toFloatArray()));
    ops.put("reshape", t -> whole(t.reshape(-1).toFloatArray()));
    ops.put("softmax", t -> {
      float[] v = t.softmax(0).toFloatArray();
      return (v.length == 16 || v.length == 8) && v[0] == v[v.length - 1];
    });
    ops.put("cumsum", t -> {
      float[] v = t.cumsum(0).toFloatArray();
      return v[v.length - 1] == 16f;
    });
    ops.put("sort", t -> whole(t.sort(0, false).values().toFloatArray()));
    ops.put("dot with itself", t -> {
      double r = t.dot(t).item();
      return r == 16.0 || r == 32.0;
    });
    ops.put("cat", t -> whole(Tensor.cat(List.of(t), 0).toFloatArray()));
    ops.put("argmax", t -> t.argmax().itemLong() == 0);
    ops.put("indexSelect", t -> {
      float[] v = t.indexSelect(0, Tensor.fromArray(new long[] {0, 7})).toFloatArray();
      return v[0] == v[1];
    });
    ops.put("scatterAdd", t -> {
      float[] v = t.scatterAdd(0, Tensor.zeros(new long[] {1}, DType.INT64), Tensor.full(new long[] {1}, 5.0, DType.FLOAT32))
          .toFloatArray();
      return v.length == 16 && v[0] == 6 && v[15] == 1 || v.length == 8 && v[0] == 7 && v[7] == 2;
    });
    ops.put("nonzero", t -> {
      long n = t.nonzero().size(0);
      return n == 16 || n == 8;
    });
    ops.put("advanced get", t -> {
      float[] v = t.get(Index.of(Tensor.fromArray(new long[] {0, 7}))).toFloatArray();
      return v[0] == v[1];
    });
    ops.put("gather", t -> {
      float[] v = t.gather(0, Tensor.fromArray(new long[] {7, 0})).toFloatArray();
      return v[0] == v[1];
    });
    return ops;
  }

  @Test
  void everyOpSeesAWholeSetOrNone() throws InterruptedException {
    try (Tensor ones = Tensor.ones(16); Tensor twos = Tensor.full(new long[] {8}, 2.0, DType.FLOAT32);
         Storage a = ones.untypedStorage(); Storage b = twos.untypedStorage();
         Tensor t = Tensor.empty(new long[] {0}, DType.FLOAT32, Device.CPU)) {
      t.set_(a, 0, new long[] {16}, new long[] {1});
      AtomicBoolean stop = new AtomicBoolean();
      Thread setter = new Thread(() -> {
        while (!stop.get()) {
          t.set_(a, 0, new long[] {16}, new long[] {1});
          t.set_(b, 0, new long[] {8}, new long[] {1});
        }
      });
      setter.start();
      OpRuns r;
      try {
        r = OpRuns.run(ops(), t, RUNS);
      } finally {
        stop.set(true);
        setter.join();
      }
      System.out.println("TornReadTest:" + r.report);
      assertEquals(0, r.wrong, "wrong values:" + r.report);
      assertTrue(t.numel() == 16 || t.numel() == 8);
    }
  }
}
