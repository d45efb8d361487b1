package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * set_ on one thread while another reads the tensor (issue 18, point 2): every read that takes a
 * reference (untypedStorage, a view, detach) must retain exactly the storage it wraps, so no count
 * is torn and nothing is left once every handle is closed. A storage of 16 ones and one of 8 twos
 * alternate under the tensor; no read may throw, since nothing is ever closed under it.
 */
class SetRaceTest {
  private static final int ROUNDS = 100_000;

  /** Runs reader against a thread re-pointing t between a and b ROUNDS times; returns the readers' errors. */
  static List<Throwable> race(Tensor t, Storage a, Storage b, Consumer<Tensor> reader) throws InterruptedException {
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    AtomicBoolean done = new AtomicBoolean();
    Thread setter = new Thread(() -> {
      try {
        for (int i = 0; i < ROUNDS; i++) {
          t.set_(a, 0, new long[] {16}, new long[] {1});
          t.set_(b, 0, new long[] {8}, new long[] {1});
        }
      } catch (Throwable e) {
        errors.add(e);
      } finally {
        done.set(true);
      }
    });
    setter.start();
    while (!done.get()) {
      try {
        reader.accept(t);
      } catch (Throwable e) {
        errors.add(e);
        if (errors.size() > 20) break;
      }
    }
    setter.join();
    return errors;
  }

  private static void check(Consumer<Tensor> reader) throws InterruptedException {
    try (Tensor ones = Tensor.ones(16); Tensor twos = Tensor.full(new long[] {8}, 2.0, DType.FLOAT32);
         Storage a = ones.untypedStorage(); Storage b = twos.untypedStorage();
         Tensor t = Tensor.empty(new long[] {0}, DType.FLOAT32, Device.CPU)) {
      t.set_(a, 0, new long[] {16}, new long[] {1});  // from here on only a and b, which stay alive, are under t
      List<Throwable> errors = race(t, a, b, reader);
      assertTrue(errors.isEmpty(), () -> errors.size() + " errors, the first: " + errors.get(0));
    }
  }

  @Test
  void untypedStorageRetainsTheStorageItWraps() throws InterruptedException {
    check(t -> t.untypedStorage().close());
  }

  @Test
  void aViewRetainsTheStorageItViews() throws InterruptedException {
    check(t -> t.view(-1).close());
  }

  @Test
  void detachRetainsTheStorageItShares() throws InterruptedException {
    check(t -> t.detach().close());
  }
}
