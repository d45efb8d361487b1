package org.jtensor.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.CudaAccounting;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.dispatch.StreamRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Streams, events and pinned transfers on a GPU (tag cuda: mvn -Pgpu, scripts/gpu-check.sh): ops
 * and cuBLAS run on the current stream, events order two streams, recordStream keeps a block from
 * early reuse, and non-blocking copies from pinned memory give the blocking copy's bytes while the
 * pinned block waits for them. CUDA's allocator must hold no live bytes after each test.
 *
 * <p>In a dry run (-Djt.cuda.dryRun=true, no GPU) the streams and events are CudaStreamLogicTest's
 * fake runtime and the tensors live on the CPU: the tests' own code runs through the same stream
 * API, and what only a GPU shows (queued work still running, a block kept from reuse, pinned host
 * memory, event timing) is asserted only on one (CudaAccounting.gpuOnly).
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaStreamsTest {
  private static final Device GPU = Device.cuda(0);  // the streams' device, in a dry run the fake's
  private static final Device ON = CudaAccounting.device();  // the tensors' device, the CPU in a dry run
  private static final long BIG = CudaAccounting.dryRun() ? 1L << 12 : 1L << 24;  // 64 MiB of float32 on a GPU: still queued when the host looks
  private FakeStreamRuntime fake;
  private StreamRuntime saved;

  @BeforeEach
  void standIn() {
    if (!CudaAccounting.dryRun()) return;
    fake = new FakeStreamRuntime();
    saved = CurrentStream.useRuntime(fake);
  }

  @AfterEach
  void restore() {
    if (fake == null) return;
    CurrentStream.useRuntime(saved);
    assertTrue(fake.liveStreams.isEmpty(), "streams left undestroyed: " + fake.liveStreams);
    assertTrue(fake.liveEvents.isEmpty(), "events left undestroyed: " + fake.liveEvents);
  }

  /** Waits for the device (every stream of the fake in a dry run). */
  private void synchronizeAll() {
    if (fake == null) Cuda.synchronize();
    else new java.util.ArrayList<>(fake.pendingStreams).forEach(fake::complete);
  }

  /**
   * Queues tens of milliseconds of work on the current stream, reading x: in place on one scratch
   * tensor, so the host only enqueues (no allocation slows it down) and stays well ahead of the GPU.
   */
  private void busy(Tensor x) {
    try (Tensor y = x.clone()) {
      for (int i = 0; i < 200; i++) y.mul_(1.0001).add_(x);
    }
    if (fake != null) fake.busy(Cuda.currentStream(GPU).cudaStream());  // the CPU ran it at once: the fake's stream holds it as queued
  }

  @Test
  void opsAndTheirAllocationsRunOnTheCurrentStream() {
    try (CudaStream s = new CudaStream(GPU); TensorScope ts = TensorScope.open()) {
      Tensor x = Tensor.ones(BIG).to(ON);
      synchronizeAll();
      try (CudaStreamScope scope = Cuda.withStream(s)) {
        assertSame(s, Cuda.currentStream(GPU));
        busy(x);
        assertFalse(s.query(), "the work went to s, which is still running it");
      }
      assertTrue(Cuda.currentStream(GPU).isDefault());
      s.synchronize();
      assertTrue(s.query());
    }
  }

  @Test
  void eventsOrderTwoStreams() {
    try (CudaStream producer = new CudaStream(GPU); CudaStream consumer = new CudaStream(GPU, -1);
         TensorScope ts = TensorScope.open()) {
      Tensor cpu = Tensor.arange(0, BIG, 1, DType.FLOAT32);
      Tensor x = cpu.to(ON);
      Tensor y;
      CudaEvent done;
      try (CudaStreamScope p = Cuda.withStream(producer)) {
        producer.waitStream(Cuda.defaultStream(GPU));  // x was written on the default stream
        busy(x);
        y = x.mul(2.0);
        done = producer.recordEvent();
      }
      Tensor z;
      try (CudaStreamScope c = Cuda.withStream(consumer)) {
        consumer.waitEvent(done);
        CudaAccounting.gpuOnly(() -> y.recordStream(consumer));  // y, made on producer, is read on consumer too
        z = y.add(1.0);
      }
      consumer.synchronize();
      assertTrue(done.query());
      try (Tensor want = cpu.mul(2.0).add(1.0); Tensor got = z.cpu()) {
        assertTrue(want.equal(got));
      }
      done.close();
    }
  }

  @Test
  void cublasRunsOnTheCurrentStream() {
    CudaAccounting.gpuOnly(() -> assertNull(org.jtensor.dispatch.CudaMatmul.cublasUnavailableReason(), "cuBLAS"));
    try (CudaStream s = new CudaStream(GPU); TensorScope ts = TensorScope.open()) {
      Tensor a = Tensor.randn(new long[] {512, 256}, new Generator(1)), b = Tensor.randn(new long[] {256, 384}, new Generator(2));
      Tensor ga = a.to(ON), gb = b.to(ON);
      synchronizeAll();
      Tensor c;
      try (CudaStreamScope scope = Cuda.withStream(s)) {
        c = ga.matmul(gb);
      }
      s.synchronize();
      assertTrue(a.matmul(b).allclose(c.cpu(), 1e-4, 1e-4));
    }
  }

  @Test
  void recordStreamKeepsABlockFromEarlyReuse() {
    try (CudaStream s1 = new CudaStream(GPU); CudaStream s2 = new CudaStream(GPU);
         CudaStreamScope a = Cuda.withStream(s1)) {
      Tensor t = Tensor.empty(new long[] {BIG}, DType.FLOAT32, ON);
      long firstPtr = t.dataPtr();
      t.close();
      try (Tensor again = Tensor.empty(new long[] {BIG}, DType.FLOAT32, ON)) {
        CudaAccounting.gpuOnly(() -> assertEquals(firstPtr, again.dataPtr(), "without recordStream, s1's block is reused by s1 at once"));
        again.fill_(1.0);
        try (CudaStreamScope b = Cuda.withStream(s2)) {
          s2.waitStream(s1);
          busy(again);  // s2 reads it for a while
        }
        CudaAccounting.gpuOnly(() -> again.recordStream(s2));
      }
      try (Tensor next = Tensor.empty(new long[] {BIG}, DType.FLOAT32, ON)) {
        CudaAccounting.gpuOnly(() -> assertNotEquals(firstPtr, next.dataPtr(), "s2 may still be reading the recorded block"));
        assertFalse(s2.query(), "s2 still runs busy()");
        s2.synchronize();
        try (Tensor last = Tensor.empty(new long[] {BIG}, DType.FLOAT32, ON)) {
          CudaAccounting.gpuOnly(() -> assertEquals(firstPtr, last.dataPtr(), "once s2's work has run the block serves s1 again"));
        }
      }
    }
  }

  @Test
  void nonBlockingCopiesFromPinnedMemoryMatchBlockingOnes() {
    if (CudaAccounting.dryRun()) {  // no pinned host memory without CUDA: only the copies' values
      try (TensorScope ts = TensorScope.open()) {
        Tensor src = Tensor.randn(new long[] {BIG / 8, 8}, new Generator(7));
        assertFalse(src.isPinned());
        assertTrue(src.to(ON, true).equal(src));
        assertTrue(src.t().to(ON, true).equal(src.t()));
      }
      return;
    }
    long hostBefore = Cuda.hostMemoryStats().get("allocated_bytes.all.current");
    try (CudaStream s = new CudaStream(GPU); TensorScope ts = TensorScope.open()) {
      Tensor src = Tensor.randn(new long[] {BIG / 8, 8}, new Generator(7));
      Tensor pinned = src.pinMemory();
      assertTrue(pinned.isPinned());
      assertFalse(src.isPinned());
      assertTrue(pinned.equal(src));
      try (Tensor again = pinned.pinMemory()) {
        assertEquals(pinned.dataPtr(), again.dataPtr(), "pinned already: the same storage");
      }
      Tensor blocking = src.cuda(true);  // not pinned: an ordinary copy
      Tensor async;
      long pinnedPtr = pinned.dataPtr();
      try (CudaStreamScope scope = Cuda.withStream(s)) {
        async = pinned.to(GPU, true);
        pinned.close();  // at once: the copy may still be reading it
        try (Tensor other = src.pinMemory()) {
          assertNotEquals(pinnedPtr, other.dataPtr(), "the copy's block is not handed out before it has run");
        }
      }
      s.synchronize();
      assertTrue(async.equal(blocking));
      try (Tensor back = async.cpu()) {
        assertTrue(back.equal(src));
      }
      Tensor transposed = src.t().pinMemory();
      assertArrayEquals(src.t().stride(), transposed.stride(), "dense strides kept, as pin_memory does");
      assertTrue(transposed.to(GPU, true).cpu().equal(src.t()));  // not contiguous: copied blocking
    }
    assertEquals(hostBefore, Cuda.hostMemoryStats().get("allocated_bytes.all.current"), "pinned bytes returned");
    Cuda.synchronize();
    Cuda.hostEmptyCache();
    assertEquals(0L, Cuda.hostMemoryStats().get("reserved_bytes.all.current"));
  }

  @Test
  void elapsedTimeMeasuresTheWorkBetweenTwoEvents() {
    try (CudaStream s = new CudaStream(GPU); CudaEvent start = new CudaEvent(true); CudaEvent end = new CudaEvent(true);
         TensorScope ts = TensorScope.open()) {
      Tensor x = Tensor.ones(BIG).to(ON);
      synchronizeAll();
      try (CudaStreamScope scope = Cuda.withStream(s)) {
        start.record();
        busy(x);
        end.record();
      }
      end.synchronize();
      float ms = start.elapsedTime(end);
      assertTrue(ms > 0 && ms < 10_000, "elapsed " + ms + " ms");
    }
  }
}
