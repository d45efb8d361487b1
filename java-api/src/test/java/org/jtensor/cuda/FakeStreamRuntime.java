package org.jtensor.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtensor.Device;
import org.jtensor.dispatch.StreamRuntime;

/**
 * A StreamRuntime without a GPU, for the Java logic of streams, events and scopes: devices cuda:0
 * and cuda:1, handles counted up, a stream's work "pending" until the test or a synchronize says
 * it ran, and a log of every call in order ("create 0x1100 prio -2", "current main 0x1100", ...).
 */
final class FakeStreamRuntime implements StreamRuntime {
  final List<String> log = Collections.synchronizedList(new ArrayList<>());
  final Set<Long> liveStreams = new HashSet<>(), liveEvents = new HashSet<>(), pendingStreams = new HashSet<>();
  private final Map<Long, Long> recordedOn = new HashMap<>();  // event -> stream, while its work is pending
  private final Map<Long, Boolean> timing = new HashMap<>();
  private final Map<Long, Set<Long>> waitsFor = new HashMap<>();  // stream -> the streams whose pending work it waits for
  private long next = 0x1000;

  @Override
  public void requireDevice(String op, Device device) {
    if (device.index() > 1) throw new IllegalArgumentException(op + "(): " + device + ": invalid device ordinal (2 devices)");
  }

  @Override
  public int[] priorityRange(int device) {
    return new int[] {0, -5};
  }

  @Override
  public synchronized int createStream(int device, int priority, long[] out) {
    out[0] = next += 0x100;
    liveStreams.add(out[0]);
    log.add("create " + hex(out[0]) + " prio " + priority);
    return 0;
  }

  @Override
  public synchronized int destroyStream(long stream) {
    log.add("destroy " + hex(stream));
    return liveStreams.remove(stream) ? 0 : 400;  // cudaErrorInvalidResourceHandle
  }

  @Override
  public synchronized int synchronizeStream(long stream) {
    log.add("sync " + hex(stream));
    complete(stream);
    return 0;
  }

  @Override
  public synchronized int queryStream(long stream) {
    return pendingStreams.contains(stream) ? NOT_READY : 0;
  }

  @Override
  public synchronized int createEvent(int device, boolean timed, boolean blocking, long[] out) {
    out[0] = next += 0x10;
    liveEvents.add(out[0]);
    timing.put(out[0], timed);
    log.add("event " + hex(out[0]) + " on cuda:" + device + (timed ? " timing" : ""));
    return 0;
  }

  @Override
  public synchronized int destroyEvent(long event) {
    log.add("destroy event " + hex(event));
    return liveEvents.remove(event) ? 0 : 400;
  }

  @Override
  public synchronized int recordEvent(long event, long stream) {
    log.add("record " + hex(event) + " on " + hex(stream));
    if (pendingStreams.contains(stream)) recordedOn.put(event, stream);
    else recordedOn.remove(event);
    return 0;
  }

  @Override
  public synchronized int streamWaitEvent(long stream, long event) {
    log.add("wait " + hex(stream) + " for " + hex(event));
    Long producer = recordedOn.get(event);
    if (producer != null) waitsFor.computeIfAbsent(stream, k -> new HashSet<>()).add(producer);
    return 0;
  }

  @Override
  public synchronized int queryEvent(long event) {
    return recordedOn.containsKey(event) ? NOT_READY : 0;
  }

  @Override
  public synchronized int synchronizeEvent(long event) {
    Long s = recordedOn.get(event);
    if (s != null) complete(s);
    return 0;
  }

  @Override
  public synchronized int elapsedTime(long start, long end, float[] out) {
    if (!timing.get(start) || !timing.get(end)) return 600;  // CUDA's answer; the Java checks come first
    out[0] = 1.5f;
    return 0;
  }

  @Override
  public String errorName(int error) {
    return "cudaErrorFake" + error + ": a fake failure";
  }

  @Override
  public void setCurrentStream(long stream) {
    log.add("current " + Thread.currentThread().getName() + " " + hex(stream));
  }

  /** Work queued on stream now stays pending until completed. */
  synchronized void busy(long stream) {
    pendingStreams.add(stream);
  }

  /** Completes stream's work and, first, the work of the streams it was made to wait for, as a device would. */
  synchronized void complete(long stream) {
    Set<Long> before = waitsFor.remove(stream);
    if (before != null) before.forEach(this::complete);
    pendingStreams.remove(stream);
    recordedOn.values().removeIf(s -> s == stream);
  }

  /** The log's lines starting with prefix, in order. */
  List<String> lines(String prefix) {
    synchronized (log) {
      return log.stream().filter(l -> l.startsWith(prefix)).toList();
    }
  }

  static String hex(long h) {
    return "0x" + Long.toHexString(h);
  }
}
