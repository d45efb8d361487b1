package org.jtensor.data;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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
  private final ArrayDeque<Future<Batch>> loading = new ArrayDeque<>();  // batches served..dispatched-1
  private volatile boolean closed;  // read by workers: a batch not yet started when it is set is skipped
  private long dispatched, served;
  private Batch lent;

  BatchIterator(BatchPlan plan, BatchMaker<?> maker, int workers, int prefetchFactor, Runnable onClose) {
    this.plan = plan;
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
    Future<Batch> f = loading.poll();
    try {
      Batch b = f.get();
      // null: a close() from another thread came before a worker started this batch, which it then skipped
      if (b == null) throw new NoSuchElementException("DataLoader: no batch left (closed while batch " + served + " of " + plan.count() + " was loading)");
      return b;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof DataLoaderException d) throw new DataLoaderException(d.getMessage(), d.index(), d.batch(), d.getCause());
      if (c instanceof Error err) throw err;
      throw new DataLoaderException("DataLoader: loading batch " + served + " failed: " + c, -1, served, c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("DataLoader: interrupted while waiting for batch " + served, e);
    }
  }

  private void dispatch() {
    while (dispatched < plan.count() && dispatched - served < ahead) {
      long k = dispatched++;
      long[] indices = plan.indices(k);
      loading.add(pool.submit(() -> closed ? null : maker.make(k, indices)));
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
        boolean interrupted = false;
        while (true) {
          try {
            if (pool.awaitTermination(1, TimeUnit.MINUTES)) break;
          } catch (InterruptedException e) {
            interrupted = true;  // the batches still loading must be waited for, or they leak
          }
        }
        for (Future<Batch> f : loading) {
          try {
            Batch b = f.get();
            if (b != null) b.close();
          } catch (ExecutionException | InterruptedException ignored) {
            // a failed batch closed its own tensors; the pool has terminated, so get() does not wait
          }
        }
        loading.clear();
        if (interrupted) Thread.currentThread().interrupt();
      }
      closeLent();
    }
    onClose.run();
  }
}
