package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, point 6: a call that allocates while another thread closes its operand leaves no
 * byte behind (setGrad attaching a grad to a tensor being freed, Storage.clone copying from a
 * storage being closed). Each round either succeeds or throws IllegalStateException; once every
 * handle is closed the allocator is where it started.
 */
class CloseRaceTest {
  private static final int ROUNDS = 5_000;

  /** Runs a then b on two threads started together, ROUNDS times over fresh state from setUp; counts b's IllegalStateExceptions. */
  private static int race(Runnable setUp, Runnable a, Runnable b, Runnable tearDown) throws Exception {
    AtomicInteger refused = new AtomicInteger();
    CyclicBarrier start = new CyclicBarrier(2);
    for (int i = 0; i < ROUNDS; i++) {
      setUp.run();
      Thread other = new Thread(() -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        a.run();
      });
      other.start();
      start.await();
      try {
        b.run();
      } catch (IllegalStateException closedMeanwhile) {
        refused.incrementAndGet();
      }
      other.join();
      tearDown.run();
    }
    return refused.get();
  }

  @Test
  void setGradOnATensorBeingClosedLeavesNothing() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    Tensor[] t = new Tensor[1], g = new Tensor[1];
    int refused = race(() -> {
      t[0] = Tensor.zeros(64).requiresGrad_(true);
      g[0] = Tensor.ones(64);
    }, () -> t[0].close(), () -> t[0].setGrad(g[0]), () -> g[0].close());
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left after " + ROUNDS + " rounds (" + refused + " refused)");
  }

  @Test
  void closingTheLossDuringBackwardNamesBackward() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    Tensor[] x = new Tensor[1], loss = new Tensor[1];
    java.util.List<String> misnamed = new java.util.concurrent.CopyOnWriteArrayList<>();
    int refused = race(() -> {
      x[0] = Tensor.ones(4).requiresGrad_(true);
      try (Tensor doubled = x[0].mul(2.0)) {
        loss[0] = doubled.sum();
      }
    }, () -> loss[0].close(), () -> {
      try {
        loss[0].backward();
      } catch (IllegalStateException e) {
        if (!e.getMessage().startsWith("backward(): ")) misnamed.add(e.getMessage());
        throw e;
      }
    }, () -> {
      loss[0].close();
      x[0].close();
    });
    assertTrue(misnamed.isEmpty(), misnamed.size() + " refusals named another op, the first: " + (misnamed.isEmpty() ? "" : misnamed.get(0)));
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left after " + ROUNDS + " rounds (" + refused + " refused)");
  }

  @Test
  void storageCloneOfAStorageBeingClosedLeavesNothing() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    Storage[] s = new Storage[1];
    Storage[] copy = new Storage[1];
    int refused = race(() -> {
      try (Tensor x = Tensor.ones(256)) {
        s[0] = x.untypedStorage();
      }
      copy[0] = null;
    }, () -> s[0].close(), () -> copy[0] = s[0].clone(), () -> {
      if (copy[0] != null) copy[0].close();
    });
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left after " + ROUNDS + " rounds (" + refused + " refused)");
    assertTrue(refused < ROUNDS, "every clone was refused: the race never let one run");
  }
}
