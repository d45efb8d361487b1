package org.jtensor.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.dispatch.StreamRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Java logic of streams, events and withStream scopes, over a fake runtime so it runs
 * without a GPU: which stream is current on which thread, what the kernels' per-thread stream is
 * set to and when, nesting and restoring, lifetimes (a stream closed inside a scope lives until
 * the scope ends), and PyTorch's rules for events. The GPU side is CudaStreamsTest (tag cuda).
 */
class CudaStreamLogicTest {
  private static final Device GPU = Device.cuda(0);
  private FakeStreamRuntime fake;
  private StreamRuntime saved;

  @BeforeEach
  void useFake() {
    fake = new FakeStreamRuntime();
    saved = CurrentStream.useRuntime(fake);
  }

  @AfterEach
  void restore() {
    CurrentStream.useRuntime(saved);
    assertEquals(0, CurrentStream.state().depth, "a scope left open");
    assertTrue(fake.liveStreams.isEmpty(), "streams left undestroyed: " + fake.liveStreams);
    assertTrue(fake.liveEvents.isEmpty(), "events left undestroyed: " + fake.liveEvents);
  }

  private String current(long handle) {
    return "current " + Thread.currentThread().getName() + " " + FakeStreamRuntime.hex(handle);
  }

  @Test
  void scopesNestAndRestoreTheKernelsStream() {
    try (CudaStream a = new CudaStream(GPU); CudaStream b = new CudaStream(GPU, -2)) {
      CudaStream def = Cuda.currentStream(GPU);
      assertTrue(def.isDefault());
      assertEquals(Cuda.defaultStream(GPU), def);
      assertEquals(0, def.cudaStream());
      try (CudaStreamScope sa = Cuda.withStream(a)) {
        assertSame(a, Cuda.currentStream());
        assertSame(a, sa.stream());
        try (CudaStreamScope sb = Cuda.withStream(b)) {
          assertSame(b, Cuda.currentStream(GPU));
          try (CudaStreamScope again = Cuda.withStream(a)) {  // re-entering a stream already current further out
            assertSame(a, Cuda.currentStream());
          }
          assertSame(b, Cuda.currentStream());
        }
        assertSame(a, Cuda.currentStream());
        assertTrue(Cuda.currentStream(Device.cuda(1)).isDefault(), "a stream is current on its own device only");
      }
      assertEquals(def, Cuda.currentStream());
      assertEquals(List.of(current(a.cudaStream()), current(b.cudaStream()), current(a.cudaStream()), current(b.cudaStream()),
          current(a.cudaStream()), current(0)), fake.lines("current"));
      assertEquals(-2, b.priority());
    }
  }

  @Test
  void eachThreadHasItsOwnCurrentStream() throws Exception {
    try (CudaStream s = new CudaStream(GPU); CudaStreamScope scope = Cuda.withStream(s)) {
      AtomicReference<CudaStream> seen = new AtomicReference<>();
      AtomicReference<Throwable> closeFromOther = new AtomicReference<>();
      Thread t = new Thread(() -> {
        seen.set(Cuda.currentStream());
        try {
          scope.close();
        } catch (Throwable e) {
          closeFromOther.set(e);
        }
      }, "other");
      t.start();
      t.join();
      assertTrue(seen.get().isDefault());
      assertTrue(closeFromOther.get() instanceof IllegalStateException, String.valueOf(closeFromOther.get()));
      assertTrue(closeFromOther.get().getMessage().contains("must be closed by the thread that opened it"));
      assertSame(s, Cuda.currentStream(), "the refused close changed nothing");
    }
  }

  @Test
  void scopesCloseInnermostFirst() {
    try (CudaStream a = new CudaStream(GPU); CudaStream b = new CudaStream(GPU)) {
      CudaStreamScope outer = Cuda.withStream(a);
      CudaStreamScope inner = Cuda.withStream(b);
      IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
      assertEquals("close(): withStream scopes must close innermost first: this one is at depth 1 of 2", e.getMessage());
      assertSame(b, Cuda.currentStream());
      inner.close();
      inner.close();  // idempotent
      assertSame(a, Cuda.currentStream());
      outer.close();
      assertTrue(Cuda.currentStream().isDefault());
    }
  }

  @Test
  void aStreamClosedInsideItsScopeLivesUntilTheScopeEnds() {
    CudaStream s = new CudaStream(GPU);
    long h = s.cudaStream();
    try (CudaStreamScope scope = Cuda.withStream(s)) {
      s.close();
      s.close();  // idempotent
      assertTrue(fake.liveStreams.contains(h), "destroyed under the scope");
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> Cuda.withStream(s));
      assertEquals("withStream(): " + s + " was closed", e.getMessage());
      assertThrows(IllegalStateException.class, s::query);
    }
    assertFalse(fake.liveStreams.contains(h));
    List<String> end = fake.log.subList(fake.log.size() - 2, fake.log.size());
    assertEquals(List.of("sync " + FakeStreamRuntime.hex(h), "destroy " + FakeStreamRuntime.hex(h)), end,
        "its queued work is waited for before the handle can be reused");
  }

  @Test
  void prioritiesAreClampedToTheDevicesRange() {
    try (CudaStream low = new CudaStream(GPU, 7); CudaStream high = new CudaStream(GPU, -100)) {
      assertEquals(0, low.priority());
      assertEquals(-5, high.priority());
    }
  }

  @Test
  void queryAndSynchronizeFollowTheWork() {
    try (CudaStream s = new CudaStream(GPU)) {
      assertTrue(s.query());
      fake.busy(s.cudaStream());
      assertFalse(s.query());
      s.synchronize();
      assertTrue(s.query());
    }
  }

  @Test
  void waitStreamWaitsForAnEventRecordedOnTheOther() {
    try (CudaStream a = new CudaStream(GPU); CudaStream b = new CudaStream(GPU)) {
      b.waitStream(a);
      List<String> events = fake.lines("event");
      assertEquals(1, events.size());
      String e = events.get(0).split(" ")[1];
      assertEquals(List.of("record " + e + " on " + FakeStreamRuntime.hex(a.cudaStream())), fake.lines("record"));
      assertEquals(List.of("wait " + FakeStreamRuntime.hex(b.cudaStream()) + " for " + e), fake.lines("wait"));
      assertEquals(List.of("destroy event " + e), fake.lines("destroy event"));
      a.waitStream(a);  // its own work is in order already
      assertEquals(1, fake.lines("wait").size());
    }
  }

  @Test
  void eventsFollowPyTorchsRules() {
    try (CudaStream s = new CudaStream(GPU); CudaEvent e = new CudaEvent(); CudaEvent t0 = new CudaEvent(true);
         CudaEvent t1 = new CudaEvent(true)) {
      assertTrue(e.query(), "an event never recorded is done");
      e.synchronize();
      s.waitEvent(e);  // nothing to wait for
      assertTrue(fake.lines("wait").isEmpty());
      assertFalse(e.isRecorded());
      assertTrue(fake.liveEvents.isEmpty(), "made lazily, at the first record");

      fake.busy(s.cudaStream());
      assertSame(e, e.record(s));
      assertFalse(e.query());
      s.waitEvent(e);
      e.synchronize();
      assertTrue(e.query());
      try (CudaStreamScope scope = Cuda.withStream(s)) {
        e.record();  // on the current stream
      }
      assertEquals(1, fake.lines("event").size(), "one CUDA event, recorded twice");
      assertEquals(List.of("record", "record"), fake.lines("record").stream().map(l -> l.split(" ")[0]).toList());
      assertTrue(fake.lines("record").get(1).endsWith(FakeStreamRuntime.hex(s.cudaStream())));

      try (CudaStream other = new CudaStream(Device.cuda(1))) {
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> e.record(other));
        assertEquals("record(): Event device cuda:0 does not match recording stream's device cuda:1.", wrong.getMessage());
      }

      IllegalArgumentException noTiming = assertThrows(IllegalArgumentException.class, () -> e.elapsedTime(t1));
      assertTrue(noTiming.getMessage().startsWith("elapsedTime(): Both events must be created with enableTiming = true"));
      IllegalStateException unrecorded = assertThrows(IllegalStateException.class, () -> t0.elapsedTime(t1));
      assertEquals("elapsedTime(): Both events must be recorded before calculating elapsed time.", unrecorded.getMessage());
      t0.record(s);
      fake.busy(s.cudaStream());
      s.recordEvent(t1);
      IllegalStateException running = assertThrows(IllegalStateException.class, () -> t0.elapsedTime(t1));
      assertEquals("elapsedTime(): Both events must be completed before calculating elapsed time.", running.getMessage());
      t1.synchronize();
      assertEquals(1.5f, t0.elapsedTime(t1));
    }
  }

  @Test
  void closedEventsAndStreamsRefuseUseAndAreDestroyedOnce() {
    CudaStream s = new CudaStream(GPU);
    CudaEvent recorded = s.recordEvent();
    assertTrue(recorded.isRecorded());
    recorded.close();
    recorded.close();
    assertEquals(1, fake.lines("destroy event").size());
    assertEquals("query(): the CudaEvent was closed", assertThrows(IllegalStateException.class, recorded::query).getMessage());
    assertThrows(IllegalStateException.class, () -> recorded.record(s));
    CudaEvent never = new CudaEvent();
    never.close();
    assertThrows(IllegalStateException.class, () -> never.record(s));
    s.close();
    assertThrows(IllegalStateException.class, s::recordEvent);
    assertTrue(fake.liveEvents.isEmpty(), "recordEvent() closes the event it made when the record fails");
    assertThrows(IllegalStateException.class, () -> new CudaEvent().record(s));
    Cuda.defaultStream(GPU).close();  // the device's: nothing to destroy
    assertTrue(Cuda.defaultStream(GPU).query());
  }

  /** Makes a stream and an event recorded on it, closing neither. */
  private static void forget() {
    CudaStream s = new CudaStream(GPU);
    new CudaEvent().record(s);
  }

  @Test
  void streamsAndEventsCollectedUnclosedAreDestroyed() throws InterruptedException {
    forget();
    assertEquals(1, fake.liveStreams.size());
    for (int i = 0; i < 100 && !(fake.liveStreams.isEmpty() && fake.liveEvents.isEmpty()); i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertTrue(fake.liveStreams.isEmpty() && fake.liveEvents.isEmpty(), fake.log.toString());
  }

  @Test
  void argumentsAreCheckedNamingTheOp() {
    assertEquals("CudaStream(): expected a CUDA device, got cpu",
        assertThrows(IllegalArgumentException.class, () -> new CudaStream(Device.CPU)).getMessage());
    assertEquals("currentStream(): expected a CUDA device, got meta",
        assertThrows(IllegalArgumentException.class, () -> Cuda.currentStream(Device.META)).getMessage());
    assertEquals("defaultStream(): device must not be null",
        assertThrows(IllegalArgumentException.class, () -> Cuda.defaultStream(null)).getMessage());
    assertEquals("CudaStream(): cuda:2: invalid device ordinal (2 devices)",
        assertThrows(IllegalArgumentException.class, () -> new CudaStream(Device.cuda(2))).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Cuda.withStream(null));
    try (CudaStream s = new CudaStream(GPU); CudaEvent e = new CudaEvent(true)) {
      assertThrows(IllegalArgumentException.class, () -> s.waitEvent(null));
      assertThrows(IllegalArgumentException.class, () -> s.waitStream(null));
      assertThrows(IllegalArgumentException.class, () -> s.recordEvent(null));
      assertThrows(IllegalArgumentException.class, () -> e.record(null));
      assertThrows(IllegalArgumentException.class, () -> e.elapsedTime(null));
      try (Tensor cpu = Tensor.ones(3)) {
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class, () -> cpu.recordStream(s));
        assertEquals("recordStream(): expected a tensor on the stream's device cuda:0 or in pinned host memory, got a "
            + "non-pinned cpu tensor", r.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cpu.recordStream(null));
      }
      assertNotEquals(s, Cuda.defaultStream(GPU));
      assertTrue(s.toString().startsWith("CudaStream(device=cuda:0, cudaStream=0x"), s.toString());
    }
  }
}
