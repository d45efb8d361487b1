package org.jtensor.data;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One epoch of a {@link DataLoader}: its batches in order, whatever thread loaded them.
 *
 * <p>With workers, up to prefetchFactor × numWorkers batches load ahead of the one being used (as
 * PyTorch's), each on whichever worker is free; the consumer takes them in batch order. Each batch is
 * lent (see {@link Batch}): closed when the iterator moves on, finishes or closes. {@link #close()}
 * stops the workers, waits for the batches they are loading and closes every batch not yet taken;
 * an epoch run to its end closes itself. A failure to load throws {@link DataLoaderException} and
 * closes the iterator. The methods are for one consumer thread; close() may come from any.
 */
public final class BatchIterator implements Iterator<Batch>, AutoCloseable {
  private final BatchPlan plan;
  private final BatchMaker<?> maker;
  private final Runnable onClose;
  private final ThreadPoolExecutor pool;  // null: batches load on the caller's thread, in next()
  private final int ahead;
  private final long timeoutNanos;  // 0: wait as long as a batch takes
  private final ArrayDeque<CompletableFuture<Batch>> loading = new ArrayDeque<>();  // batches served..dispatched-1
  private volatile boolean closed;  // read by workers: a batch not yet started when it is set is skipped
  private boolean timedOut;  // a batch did not come in time: close() waits no more for the workers
  private long dispatched, served;
  private Batch lent;

  BatchIterator(BatchPlan plan, BatchMaker<?> maker, int workers, int prefetchFactor, double timeoutSeconds, Runnable onClose) {
    this.plan = plan;
    this.timeoutNanos = (long) Math.ceil(timeoutSeconds * 1e9);
    this.maker = maker;
    this.onClose = onClose;
    this.ahead = workers * prefetchFactor;
    if (workers == 0) {
      pool = null;
    } else {
      int[] id = {0};
      pool = new ThreadPoolExecutor(workers, workers, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "jtensor-data-worker-" + id[0]++);
        t.setDaemon(true);  // an iterator never closed does not keep the JVM alive
        return t;
      });
      pool.allowCoreThreadTimeOut(true);  // nor its idle threads around forever
    }
  }

  @Override
  public synchronized boolean hasNext() {
    if (closed) return false;
    if (served < plan.count()) return true;
    close();
    return false;
  }

  /** The next batch, lent until the next call, the end of the epoch or close(). */
  @Override
  public synchronized Batch next() {
    if (!hasNext()) throw new NoSuchElementException("DataLoader: no batch left (" + served + " of " + plan.count() + " served, or closed)");
    closeLent();
    Batch b;
    try {
      b = pool == null ? maker.make(served, plan.indices(served)) : take();
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
    served++;
    lent = b;
    if (pool != null) dispatch();  // keep the workers busy while this batch is used
    return b;
  }

  private Batch take() {
    dispatch();
    CompletableFuture<Batch> f = loading.peek();
    try {
      Batch b = timeoutNanos > 0 ? f.get(timeoutNanos, TimeUnit.NANOSECONDS) : f.get();
      loading.poll();
      // null: a close() from another thread came before a worker started this batch, which it then skipped
      if (b == null) throw new NoSuchElementException("DataLoader: no batch left (closed while batch " + served + " of " + plan.count() + " was loading)");
      return b;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof DataLoaderException d) throw new DataLoaderException(d.getMessage(), d.index(), d.batch(), d.getCause());
      if (c instanceof Error err) throw err;
      throw new DataLoaderException("DataLoader: loading batch " + served + " failed: " + c, -1, served, c);
    } catch (TimeoutException e) {  // the caller's next() closes the iterator; the batch is closed when it comes
      timedOut = true;
      throw new DataLoaderException("DataLoader timed out after " + timeoutNanos / 1e9 + " seconds waiting for batch " + served, -1, served, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("DataLoader: interrupted while waiting for batch " + served, e);
    }
  }

  private void dispatch() {
    while (dispatched < plan.count() && dispatched - served < ahead) {
      long k = dispatched++;
      long[] indices = plan.indices(k);
      loading.add(CompletableFuture.supplyAsync(() -> closed ? null : maker.make(k, indices), pool));
    }
  }

  private void closeLent() {
    if (lent != null) lent.close();
    lent = null;
  }

  @Override
  public void close() {
    closed = true;  // first, without the lock: workers stop starting batches while next() may still wait
    synchronized (this) {
      if (pool != null && !pool.isShutdown()) {
        pool.shutdown();
        boolean interrupted = awaitWorkers();
        for (CompletableFuture<Batch> f : loading) {
          // done: closed now; still loading (past the timeout): closed by its worker when it comes
          f.whenComplete((b, failure) -> {
            if (b != null) b.close();  // a failed batch closed its own tensors
          });
        }
        loading.clear();
        if (interrupted) Thread.currentThread().interrupt();
      }
      closeLent();
    }
    onClose.run();
  }

  /** Waits for the workers (no longer than the timeout, when one is set); true when interrupted. */
  private boolean awaitWorkers() {
    if (timedOut) return false;  // the timeout was just waited out: next() returns after one wait, as PyTorch's
    boolean interrupted = false;
    long deadline = System.nanoTime() + timeoutNanos;
    while (true) {
      try {
        long left = timeoutNanos > 0 ? deadline - System.nanoTime() : TimeUnit.MINUTES.toNanos(1);
        if (left <= 0 || pool.awaitTermination(left, TimeUnit.NANOSECONDS)) return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;  // without a timeout the batches still loading must be waited for: closed here, not later
      }
    }
  }
}
