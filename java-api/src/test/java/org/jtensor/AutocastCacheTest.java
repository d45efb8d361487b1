package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jtensor.autograd.GradMode;
import org.jtensor.nn.Functional;
import org.jtensor.ops.Autocasting;
import org.junit.jupiter.api.Test;

/**
 * The autocast cast cache (Note [Autocast cast cache]): a float32 parameter is cast once per
 * outermost scope and the cast reused, with the gradients of one explicit cast used twice; the
 * cache is emptied when the outermost scope closes, not an inner one (ScopedTest checks that its
 * bytes come back); a
 * parameter updated in place inside the scope is cast again; inputs that are not parameters, and
 * casts made with grad mode off, are not cached.
 */
class AutocastCacheTest extends ScopedTest {
  private static final DType BF16 = DType.BFLOAT16;

  @Test
  void aParameterIsCastOnceAndItsGradientIsOneCastsUsedTwice() {
    Generator g = new Generator(3);
    Tensor x = Tensor.randn(new long[] {4, 8}, g), w = Tensor.randn(new long[] {8, 8}, g).requiresGrad_(true);
    Tensor y;
    try (Autocast ac = Autocast.enable(Device.CPU, BF16)) {
      Tensor h = Functional.linear(x, w, null);
      assertEquals(1, Autocasting.cachedCasts(), "w's cast is kept; x requires no grad, so its cast is not");
      y = Functional.linear(h, w, null);
      assertEquals(1, Autocasting.cachedCasts(), "the second linear reuses w's cast");
    }
    assertEquals(0, Autocasting.cachedCasts(), "the outermost scope empties the cache");
    y.to(DType.FLOAT32).sum().backward();
    double[] cached = w.grad().toDoubleArray();
    w.setGrad(null);
    Tensor wb = w.to(BF16);  // the same graph written out: one cast, used twice
    Functional.linear(Functional.linear(x.to(BF16), wb, null), wb, null).to(DType.FLOAT32).sum().backward();
    assertArrayEquals(w.grad().toDoubleArray(), cached, 0);
  }

  @Test
  void anInnerScopeKeepsTheCacheAndAnInPlaceUpdateCastsAgain() {
    Generator g = new Generator(4);
    Tensor x = Tensor.randn(new long[] {3, 6}, g), w = Tensor.randn(new long[] {5, 6}, g).requiresGrad_(true);
    try (Autocast outer = Autocast.enable(Device.CPU, BF16)) {
      Functional.linear(x, w, null);
      try (Autocast inner = Autocast.enable(Device.CPU, BF16)) {
        Functional.linear(x, w, null);
      }
      assertEquals(1, Autocasting.cachedCasts(), "an inner scope's close leaves the cache");
      try (GradMode.Scope off = GradMode.noGrad()) {
        w.mul_(2);  // a new version: the cached cast is stale
      }
      Tensor y = Functional.linear(x, w, null);
      Tensor want = Functional.linear(x.to(BF16), w.detach().to(BF16), null);
      assertArrayEquals(want.toDoubleArray(), y.toDoubleArray(), 0, "the update is seen");
      try (GradMode.Scope off = GradMode.noGrad()) {
        Functional.linear(x, w.detach().requiresGrad_(true), null);
      }
      assertEquals(1, Autocasting.cachedCasts(), "no cast cached with grad mode off");
    }
    assertEquals(0, Autocasting.cachedCasts());
  }
}
