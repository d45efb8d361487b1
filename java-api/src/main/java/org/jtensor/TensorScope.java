package org.jtensor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.LeakLevel;

/**
 * Closes every tensor created inside it that was not kept:
 * {@code try (TensorScope s = TensorScope.open()) { Tensor y = ...; return s.keep(y); }}.
 * Scopes nest per thread; a kept tensor moves to the enclosing scope (or to no scope at all, when
 * this was the outermost), so it is still closed by whoever owns that scope.
 */
public final class TensorScope implements AutoCloseable {
  private static final ThreadLocal<ArrayDeque<TensorScope>> STACK = ThreadLocal.withInitial(ArrayDeque::new);
  /** Scopes open in any thread: while none is, creating a tensor skips the thread-local lookup. */
  private static final AtomicInteger OPEN = new AtomicInteger();

  private final ArrayDeque<TensorScope> stack;
  private final Thread owner;  // a scope's lists are its thread's alone: no other thread may touch them
  private final List<Tensor> owned = new ArrayList<>();
  private final Throwable openedAt;  // under leak detection PARANOID: for the error of a tensor used after this scope
  private boolean closed;

  private TensorScope(ArrayDeque<TensorScope> stack) {
    this.stack = stack;
    this.owner = Thread.currentThread();
    this.openedAt = LeakDetector.level() == LeakLevel.PARANOID ? new Throwable("the TensorScope was opened here") : null;
  }

  /** Where this scope was opened, under leak detection PARANOID; null otherwise. */
  Throwable openedAt() {
    return openedAt;
  }

  public static TensorScope open() {
    ArrayDeque<TensorScope> stack = STACK.get();
    TensorScope s = new TensorScope(stack);
    stack.push(s);
    OPEN.incrementAndGet();
    return s;
  }

  /** Called for every new Tensor handle: the innermost open scope of this thread owns it. */
  static void register(Tensor t) {
    if (OPEN.get() == 0) return;  // this thread's own open() happened before, so it is counted
    ArrayDeque<TensorScope> stack = STACK.get();
    TensorScope s = stack.peek();
    if (s != null) s.owned.add(t);
  }

  /** Keeps t alive past this scope and returns it; it then belongs to the enclosing scope, if any. */
  public Tensor keep(Tensor t) {
    requireOwner("keep");
    if (closed) throw new IllegalStateException("keep(): the scope is already closed");
    if (!removeOwned(t)) {
      throw new IllegalArgumentException("keep(): the tensor was not created in this scope");
    }
    TensorScope parent = parent();
    if (parent != null) parent.owned.add(t);
    return t;
  }

  /**
   * Takes t out of whichever open scope of this thread owns it: no scope will close it, and the
   * caller owns it outright (long-lived state made inside a scope: a module's parameters, an
   * optimizer's buffers). Returns t.
   */
  public static Tensor escape(Tensor t) {
    if (OPEN.get() == 0) return t;
    for (TensorScope s : STACK.get()) {
      if (s.removeOwned(t)) return t;
    }
    return t;
  }

  /** Keeps every tensor in the list (e.g. the result of split). */
  public List<Tensor> keepAll(List<Tensor> ts) {
    requireOwner("keepAll");
    for (Tensor t : ts) keep(t);
    return ts;
  }

  /** Number of tensor handles this scope will close. */
  public int size() {
    return owned.size();
  }

  @Override
  public void close() {
    requireOwner("close");
    if (closed) return;
    if (stack.peek() != this) {
      throw new IllegalStateException("TensorScope.close(): scopes must be closed innermost first (use try-with-resources)");
    }
    closed = true;
    stack.pop();
    OPEN.decrementAndGet();
    RuntimeException first = null;
    for (int i = owned.size() - 1; i >= 0; i--) {
      try {
        owned.get(i).closeBy(this);
      } catch (RuntimeException e) {
        if (first == null) first = e;
      }
    }
    owned.clear();
    if (first != null) throw first;
  }

  private void requireOwner(String op) {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException("TensorScope." + op + "(): the scope belongs to thread '" + owner.getName()
          + "'; only the thread that opened a scope may use or close it");
    }
  }

  private TensorScope parent() {
    boolean found = false;
    for (TensorScope s : stack) {  // innermost first
      if (found) return s;
      if (s == this) found = true;
    }
    return null;
  }

  private boolean removeOwned(Tensor t) {
    for (int i = owned.size() - 1; i >= 0; i--) {
      if (owned.get(i) == t) {
        owned.remove(i);
        return true;
      }
    }
    return false;
  }
}
