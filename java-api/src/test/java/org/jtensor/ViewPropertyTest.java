package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Thousands of seeded random view chains, each step checked element by element against
 * {@link RefView}; plus random (often invalid) arguments that may only raise the documented
 * exceptions. A failure message carries the seed and the chain to replay it.
 */
class ViewPropertyTest {
  private static final int CHAINS = 5000;
  private static final int MAX_NUMEL = 4096;

  @Test
  void randomViewChainsMatchTheReference() {
    long before = Memory.memoryAllocated(Device.CPU);
    int steps = 0;
    for (int chain = 0; chain < CHAINS; chain++) {
      Random rnd = new Random(1_000_003L * chain);
      List<String> log = new ArrayList<>();
      try (TensorScope scope = TensorScope.open()) {
        long[] shape = randomShape(rnd);
        Tensor base = Tensor.arange(0, RefView.arange(shape).numel(), 1, DType.INT64).reshape(shape);
        log.add("arange.reshape" + java.util.Arrays.toString(shape));
        Tensor cur = base;
        RefView ref = RefView.arange(shape);
        int length = 1 + rnd.nextInt(6);
        for (int s = 0; s < length; s++) {
          Step next = randomStep(rnd, cur, ref, log);
          if (next == null) continue;
          cur = next.tensor;
          ref = next.ref;
          verify(cur, base, ref, log, chain);
          steps++;
        }
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("chain " + chain + " (seed " + (1_000_003L * chain) + "): " + log, e);
      }
    }
    assertTrue(steps > 10_000, "steps checked: " + steps);
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "every chain released its memory");
  }

  @Test
  void randomBadArgumentsRaiseOnlyDocumentedExceptions() {
    Random rnd = new Random(42);
    int thrown = 0;
    for (int i = 0; i < 20_000; i++) {
      try (TensorScope scope = TensorScope.open()) {
        long[] shape = randomShape(rnd);
        Tensor x = Tensor.arange(0, RefView.arange(shape).numel(), 1, DType.INT64).reshape(shape);
        int a = rnd.nextInt(13) - 6, b = rnd.nextInt(13) - 6;
        long c = rnd.nextInt(15) - 7, d = rnd.nextInt(15) - 7;
        Tensor r;
        switch (rnd.nextInt(16)) {
          case 0: r = x.transpose(a, b); break;
          case 1: r = x.select(a, c); break;
          case 2: r = x.narrow(a, c, d); break;
          case 3: r = x.slice(a, c, d, rnd.nextInt(5) - 1); break;
          case 4: r = x.unsqueeze(a); break;
          case 5: r = x.squeeze(a); break;
          case 6: r = x.expand(c, d); break;
          case 7: r = x.diagonal(c, a, b); break;
          case 8: r = x.unfold(a, c, d); break;
          case 9: r = x.view(c, d); break;
          case 10: r = x.flatten(a, b); break;
          case 11: r = x.movedim(a, b); break;
          case 12: r = x.asStrided(new long[] {c, d}, new long[] {a, b}, rnd.nextInt(30) - 5); break;
          case 13: r = x.permute(a, b); break;
          case 14: r = x.get(Index.at(c), Index.slice(d, null, (long) a)); break;
          default: r = x.chunk(a, b).get(0); break;
        }
        // a success must be a readable tensor whose two read paths agree
        long[] viaCopy = r.toLongArray();
        for (int k = 0; k < viaCopy.length; k++) {
          assertEquals(viaCopy[k], r.getLong(RefView.unflat(k, r.shape())));
        }
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
        thrown++;
      }
    }
    assertTrue(thrown > 1000, "bad arguments seen: " + thrown);
  }

  private static long[] randomShape(Random rnd) {
    int n = rnd.nextInt(5);
    long[] s = new long[n];
    for (int d = 0; d < n; d++) s[d] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(5);
    return s;
  }

  private record Step(Tensor tensor, RefView ref) {}

  private static Step randomStep(Random rnd, Tensor x, RefView ref, List<String> log) {
    int n = x.dim();
    long[] sh = x.shape();
    switch (rnd.nextInt(15)) {
      case 0: {
        if (n < 1) return null;
        int a = rnd.nextInt(n), b = rnd.nextInt(n);
        log.add("transpose(" + a + "," + b + ")");
        return new Step(x.transpose(a - (rnd.nextBoolean() ? n : 0), b), ref.transpose(a, b));
      }
      case 1: {
        int[] perm = randomPerm(rnd, n);
        log.add("permute" + java.util.Arrays.toString(perm));
        return new Step(x.permute(perm), ref.permute(perm));
      }
      case 2: {
        if (n < 1 || sh[0] == 0) return null;
        int d = rnd.nextInt(n);
        if (sh[d] == 0) return null;
        long i = rnd.nextInt((int) sh[d]);
        log.add("select(" + d + "," + i + ")");
        return new Step(x.select(d, rnd.nextBoolean() ? i : i - sh[d]), ref.select(d, i));
      }
      case 3: {
        if (n < 1) return null;
        int d = rnd.nextInt(n);
        long start = rnd.nextInt((int) sh[d] + 1), len = rnd.nextInt((int) (sh[d] - start) + 1);
        log.add("narrow(" + d + "," + start + "," + len + ")");
        return new Step(x.narrow(d, start, len), ref.range(d, start, start + len, 1));
      }
      case 4: {
        if (n < 1) return null;
        int d = rnd.nextInt(n);
        long start = rnd.nextInt(9) - 4, end = rnd.nextInt(9) - 2, step = 1 + rnd.nextInt(3);
        long size = sh[d];
        long s0 = clamp(start < 0 ? start + size : start, size), e0 = clamp(end < 0 ? end + size : end, size);
        log.add("slice(" + d + "," + start + "," + end + "," + step + ")");
        return new Step(x.slice(d, start, end, step), ref.range(d, s0, Math.max(s0, e0), step));
      }
      case 5: {
        int d = rnd.nextInt(n + 1);
        log.add("unsqueeze(" + d + ")");
        return new Step(x.unsqueeze(d), ref.unsqueeze(d));
      }
      case 6: {
        boolean[] drop = new boolean[n];
        for (int d = 0; d < n; d++) drop[d] = sh[d] == 1;
        log.add("squeeze()");
        return new Step(x.squeeze(), ref.squeezeDims(drop));
      }
      case 7: {
        int lead = rnd.nextInt(2);
        long[] target = new long[n + lead];
        long numel = 1;
        for (int d = 0; d < target.length; d++) {
          long have = d < lead ? 1 : sh[d - lead];
          target[d] = have == 1 ? 1 + rnd.nextInt(3) : have;
          numel *= target[d];
        }
        if (numel > MAX_NUMEL) return null;
        log.add("expand" + java.util.Arrays.toString(target));
        return new Step(x.expand(target), ref.expand(target));
      }
      case 8: {
        if (n < 2) return null;
        int a = rnd.nextInt(n), b = rnd.nextInt(n);
        if (a == b) return null;
        long off = rnd.nextInt(5) - 2;
        log.add("diagonal(" + off + "," + a + "," + b + ")");
        return new Step(x.diagonal(off, a, b), ref.diagonal(off, a, b));
      }
      case 9: {
        if (n < 1) return null;
        int d = rnd.nextInt(n);
        long size = rnd.nextInt((int) sh[d] + 1), step = 1 + rnd.nextInt(3);
        long numel = (long) ref.numel() / Math.max(sh[d], 1) * ((sh[d] - size) / step + 1) * size;
        if (numel > MAX_NUMEL) return null;
        log.add("unfold(" + d + "," + size + "," + step + ")");
        return new Step(x.unfold(d, size, step), ref.unfold(d, size, step));
      }
      case 10: {
        long[] target = randomReshape(rnd, ref.numel());
        log.add("reshape" + java.util.Arrays.toString(target));
        Tensor r;
        try {
          r = x.view(target);
        } catch (IllegalArgumentException notViewable) {
          r = x.reshape(target);
          assertTrue(!x.isContiguous(), "a contiguous tensor must always view");
        }
        return new Step(r, ref.reshape(target));
      }
      case 11: {
        if (n < 1) return null;
        int s = rnd.nextInt(n), e = s + rnd.nextInt(n - s);
        long[] target = new long[n - (e - s)];
        for (int d = 0, j = 0; d < n; d++) {
          if (d < s || d > e) target[j++] = sh[d];
          else if (d == s) {
            long m = 1;
            for (int k = s; k <= e; k++) m *= sh[k];
            target[j++] = m;
          }
        }
        log.add("flatten(" + s + "," + e + ")");
        return new Step(x.flatten(s, e), ref.reshape(target));
      }
      case 12: {
        if (n < 1) return null;
        int src = rnd.nextInt(n), dst = rnd.nextInt(n);
        int[] order = new int[n];
        List<Integer> rest = new ArrayList<>();
        for (int d = 0; d < n; d++) if (d != src) rest.add(d);
        for (int d = 0, j = 0; d < n; d++) order[d] = d == dst ? src : rest.get(j++);
        log.add("movedim(" + src + "," + dst + ")");
        return new Step(x.movedim(src, dst), ref.permute(order));
      }
      case 13: {
        log.add(rnd.nextBoolean() ? "contiguous()" : "clone()");
        return new Step(log.get(log.size() - 1).startsWith("c") && log.get(log.size() - 1).charAt(1) == 'o'
            ? x.contiguous() : x.clone(), ref);
      }
      default: {
        if (n < 1) return null;
        int d = rnd.nextInt(n);
        if (sh[d] == 0) return null;
        long i = rnd.nextInt((int) sh[d]);
        Index[] idx = new Index[d + 2];
        for (int k = 0; k < d; k++) idx[k] = Index.all();
        idx[d] = Index.at(i);
        idx[d + 1] = Index.none();
        log.add("get(:" + d + "x, " + i + ", None)");
        return new Step(x.get(idx), ref.select(d, i).unsqueeze(d));
      }
    }
  }

  private static long clamp(long v, long size) {
    return Math.max(0, Math.min(v, size));
  }

  private static int[] randomPerm(Random rnd, int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1), t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  private static long[] randomReshape(Random rnd, long numel) {
    List<Long> dims = new ArrayList<>();
    long rest = numel;
    if (numel == 0) {
      dims.add(0L);
      if (rnd.nextBoolean()) dims.add((long) 1 + rnd.nextInt(3));
    } else {
      for (long f = 2; f <= rest; f++) {
        while (rest % f == 0 && rnd.nextInt(3) > 0) {
          dims.add(f);
          rest /= f;
        }
      }
      dims.add(rest);
      if (rnd.nextBoolean()) dims.add(rnd.nextInt(dims.size() + 1), 1L);
    }
    long[] out = new long[dims.size()];
    for (int i = 0; i < out.length; i++) out[i] = dims.get(i);
    return out;
  }

  private static void verify(Tensor t, Tensor base, RefView ref, List<String> log, int chain) {
    assertArrayEquals(ref.shape, t.shape(), "shape");
    long[] viaCopy = t.toLongArray();
    boolean alias = t.isAliasOf(base);
    long[] st = t.stride();
    for (int k = 0; k < ref.numel(); k++) {
      long[] idx = RefView.unflat(k, ref.shape);
      long want = ref.map[k];
      if (viaCopy[k] != want) fail("toLongArray element " + k + ": " + viaCopy[k] + " != " + want);
      long got = t.getLong(idx);
      if (got != want) fail("getLong" + java.util.Arrays.toString(idx) + ": " + got + " != " + want);
      if (alias) {  // base is arange: its storage index equals its value
        long off = t.storageOffset();
        for (int d = 0; d < idx.length; d++) off += idx[d] * st[d];
        if (off != want) fail("offset + Σ index·stride at " + java.util.Arrays.toString(idx) + " is " + off + ", want " + want);
      }
    }
  }
}
