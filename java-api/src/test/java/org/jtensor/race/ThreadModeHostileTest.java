package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.jtensor.data.Batch;
import org.jtensor.data.DataLoader;
import org.jtensor.data.DataLoaderException;
import org.jtensor.data.TensorDataset;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.LeakLevel;
import org.junit.jupiter.api.Test;

/**
 * Thread-wide modes (grad mode scopes on pooled threads, the leak detector's level changed at run
 * time) and a tensor closed on one thread while another reads it (printing, item, element reads,
 * a DataLoader's workers collating it): a clear IllegalStateException or the right values, never
 * another tensor's bytes.
 */
class ThreadModeHostileTest extends ScopedTest {
  /** Whether an op on a leaf that requires grad records a graph, on the calling thread. */
  private static boolean records() {
    try (Tensor p = Tensor.ones(new long[] {2}, DType.FLOAT32).requiresGrad_(); Tensor y = p.mul(2.0)) {
      return y.requiresGrad();
    }
  }

  @Test
  void gradModeScopesClosedOutOfOrderAreRefusedAndLeaveAPooledThreadRecordingForItsNextTask() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      pool.submit(() -> {
        GradMode.Scope outer = GradMode.noGrad();
        GradMode.Scope inner = GradMode.enableGrad();
        // out of order: refused, as Autocast and TensorScope refuse it (else the inner close restored the outer's off for good)
        IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
        assertTrue(e.getMessage().contains("innermost first"), e.getMessage());
        inner.close();
        outer.close();
      }).get(20, TimeUnit.SECONDS);
      // the pool's next task runs on the same thread, every scope of the last one closed
      assertTrue(pool.submit(GradMode::isEnabled).get(20, TimeUnit.SECONDS), "grad mode after every scope closed");
      assertTrue(pool.submit(ThreadModeHostileTest::records).get(20, TimeUnit.SECONDS), "the next task's ops record");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aGradModeScopeClosedOnAnotherThreadIsRefusedAndChangesNeitherThread() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (GradMode.Scope mine = GradMode.noGrad()) {
      Future<Boolean> other = pool.submit(() -> {
        assertThrows(IllegalStateException.class, mine::close);
        return GradMode.isEnabled();
      });
      assertTrue(other.get(20, TimeUnit.SECONDS), "the other thread's mode is its own");
      assertFalse(GradMode.isEnabled(), "the scope is still open on its own thread");
    } finally {
      pool.shutdownNow();
    }
    assertTrue(GradMode.isEnabled());
  }

  @Test
  void theLeakLevelChangedWhileThreadsCreateAndCloseTensorsLeavesNothingAndReportsNothing() throws Exception {
    LeakLevel was = LeakDetector.level();
    LeakLevel[] levels = LeakLevel.values();
    AtomicBoolean changing = new AtomicBoolean(true);
    Tensor keptAcross = Tensor.full(new long[] {8}, 3.0);
    try {
      SharedStateHostileTest.together(3, i -> {
        if (i == 2) {
          for (int r = 0; r < 300; r++) LeakDetector.setLevel(levels[r % levels.length]);
          changing.set(false);
          return;
        }
        for (int r = 0; changing.get() || r < 20; r++) {
          try (Tensor t = Tensor.full(new long[] {64 + r % 7, 16}, 2.0); Tensor v = t.narrow(0, 1, 8); Tensor s = v.sum()) {
            assertEquals(256.0, s.item(), "sum of a view");
            Tensor closed = t.clone();
            closed.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, closed::sum);
            assertTrue(e.getMessage().startsWith("sum(): tensor is closed"), e.getMessage());
          }
        }
      });
    } finally {
      LeakDetector.setLevel(was);
    }
    assertEquals(24.0, keptAcross.sum().item(), "a tensor made before the changes");
    LeakDetector.collect();
  }

  private static final java.util.regex.Pattern NAMES_AN_OP =
      // a view op racing the close names itself too ("select(): tensor is closed (by another thread, as the op began)"); an op
      // another runs inside it may name itself rather than the caller's (to() copies through expand(): "expand(): tensor is closed ...")
      java.util.regex.Pattern.compile("^(toString|getDouble|select|item|to|toDoubleArray|expand)\\(\\): ");

  /** Reads r of a tensor of 7s that another thread closes meanwhile, then reuses its bytes for 9s. */
  private static void closeWhileReading(String what, Function<Tensor, double[]> r) throws Exception {
    for (int round = 0; round < 150; round++) {
      Tensor t = Tensor.full(new long[] {12, 12}, 7.0);
      Tensor v = t.narrow(1, 2, 8);
      double[][] got = new double[1][];
      SharedStateHostileTest.together(2, i -> {
        if (i == 0) {
          v.close();
          t.close();
          try (Tensor reuse = Tensor.full(new long[] {12, 12}, 9.0)) {
            reuse.sum().close();
          }
        } else {
          try {
            got[0] = r.apply(v);
          } catch (IllegalStateException closed) {
            // a clear exception naming the op the reader called (DESIGN §7)
            if (!NAMES_AN_OP.matcher(String.valueOf(closed.getMessage())).find()) {
              throw new AssertionError(what + ": the exception names no op: " + closed.getMessage(), closed);
            }
          }
        }
      });
      if (got[0] != null) {
        for (double x : got[0]) assertEquals(7.0, x, what + " read another tensor's bytes (round " + round + ")");
      }
    }
  }

  @Test
  void printingATensorClosedMeanwhileShowsItsValuesOrRefuses() throws Exception {
    closeWhileReading("toString", t -> {
      String s = t.toString();
      if (s.contains("closed")) return null;
      java.util.List<Double> vals = new java.util.ArrayList<>();
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?\\d+\\.\\d*").matcher(s.substring(0, s.indexOf(')')));
      while (m.find()) vals.add(Double.parseDouble(m.group()));
      assertEquals(96, vals.size(), s);
      return vals.stream().mapToDouble(Double::doubleValue).toArray();
    });
  }

  @Test
  void elementReadsOfATensorClosedMeanwhileGiveItsValuesOrRefuse() throws Exception {
    closeWhileReading("item/getDouble/toDoubleArray", t -> {
      double a = t.getDouble(3, 5), b;
      try (Tensor row = t.select(0, 11); Tensor e = row.select(0, 7)) {
        b = e.item();
      }
      try (Tensor d = t.to(DType.FLOAT64)) {
        double[] all = d.toDoubleArray();
        double[] out = java.util.Arrays.copyOf(all, all.length + 2);
        out[all.length] = a;
        out[all.length + 1] = b;
        return out;
      }
    });
  }

  @Test
  void aDataLoadersWorkersCollatingATensorClosedMeanwhileGiveWholeBatchesOrReportIt() throws Exception {
    for (int round = 0; round < 6; round++) {
      Tensor data = Tensor.full(new long[] {256, 32}, 7.0);
      AtomicBoolean closedIt = new AtomicBoolean();
      try (DataLoader<java.util.List<Tensor>> loader = DataLoader.builder(new TensorDataset(data)).batchSize(8).numWorkers(2).build()) {
        int batches = 0;
        try {
          for (Batch b : loader) {
            try (Tensor s = b.get(0).sum()) {
              assertEquals(8 * 32 * 7.0, s.item(), "a whole batch of the data");
            }
            if (++batches == 2 + round) {
              data.close();
              closedIt.set(true);
            }
          }
        } catch (DataLoaderException e) {
          assertTrue(e.getCause() instanceof IllegalStateException, "the cause: " + e.getCause());
        }
        assertTrue(closedIt.get());
      }
    }
  }
}
