package org.jtensor;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** Runs a test's body on threads released together at a barrier (the hostile race tests share it). */
public final class Together {
  private Together() {}

  /** body(i) on n threads released at once; waits up to 60 s for each; rethrows the first failure, the others suppressed. */
  public static void run(int n, IntConsumer body) throws Exception {
    CyclicBarrier start = new CyclicBarrier(n);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> ts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int id = i;
      Thread t = new Thread(() -> {
        try {
          start.await(20, TimeUnit.SECONDS);
          body.accept(id);
        } catch (Throwable e) {
          failures.add(e);
        }
      }, "together-" + i);
      ts.add(t);
      t.start();
    }
    for (Thread t : ts) {
      t.join(60_000);
      if (t.isAlive()) fail(t.getName() + " is still running after 60 s");
    }
    if (!failures.isEmpty()) {
      Throwable first = failures.peek();
      AssertionError e = new AssertionError(failures.size() + " thread(s) failed, first: " + first, first);
      failures.forEach(f -> { if (f != first) e.addSuppressed(f); });
      throw e;
    }
  }
}
