package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * The module tree as PyTorch 2.13 lists it, for a model M with a non-persistent buffer "np", a
 * buffer "p", a Linear "l" and a Sequential "seq" of (ReLU, the same l): named_modules() is
 * ['', 'l', 'seq', 'seq.0'], state_dict() ['p', 'l.weight', 'l.bias', 'seq.1.weight',
 * 'seq.1.bias'], named_buffers() ['np', 'p'], and load_state_dict of a dict that has 'np' raises
 * Unexpected key(s) in state_dict: "np" (strict=False reports it as unexpected).
 */
class ModuleTreeTest extends ScopedTest {
  static final class M extends Module {
    final Linear l;

    M() {
      registerBuffer("np", Tensor.zeros(2), false);
      registerBuffer("p", Tensor.ones(1));
      l = registerModule("l", new Linear(2, 2, new Generator(0)));
      registerModule("seq", new Sequential(new ReLU(), l));
    }

    @Override
    public Tensor forward(Tensor input) {
      return l.forward(input);
    }
  }

  @Test
  void namedModulesListsEachModuleOnceUnderItsFirstPath() {
    try (M m = new M()) {
      Map<String, Module> named = m.namedModules();
      assertEquals(List.of("", "l", "seq", "seq.0"), new ArrayList<>(named.keySet()));
      assertSame(m, named.get(""));
      assertSame(m.l, named.get("l"));
      assertEquals(4, m.modules().size());
      assertSame(m, m.modules().get(0));
      assertEquals(List.of(m.l, named.get("seq")), m.children());
    }
  }

  /** A container's modules() is Module's (itself first, as nn.ModuleList's); its contents come from iteration or asList()/asMap(). */
  @Test
  void containersIterateTheirContentsAndListTheTreeAsModules() {
    Tanh t = new Tanh();
    try (ModuleList<Module> list = new ModuleList<>(List.of(new Identity(), t));
         ModuleDict<Module> dict = new ModuleDict<>(Map.of("t", new Tanh()))) {
      List<Module> seen = new ArrayList<>();
      for (Module m : list) seen.add(m);
      assertEquals(list.asList(), seen);
      assertEquals(List.of(list, seen.get(0), t), list.modules());
      assertEquals(List.of("t"), new ArrayList<>(dict.asMap().keySet()));
      assertEquals(List.of("", "t"), new ArrayList<>(dict.namedModules().keySet()));
    }
  }

  @Test
  void aNonPersistentBufferStaysOutOfTheStateDictButIsListedAndMoved() {
    try (M m = new M()) {
      assertEquals(List.of("p", "l.weight", "l.bias", "seq.1.weight", "seq.1.bias"), new ArrayList<>(m.stateDict().keySet()));
      assertEquals(List.of("np", "p"), new ArrayList<>(m.namedBuffers().keySet()));
      assertEquals(2, m.buffers().size());
      Map<String, Tensor> state = m.stateDict();
      assertEquals(List.of(), m.loadStateDict(state).missingKeys(), "np is not expected");
      state.put("np", Tensor.zeros(2));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.loadStateDict(state));
      assertTrue(e.getMessage().contains("Unexpected key(s) in state_dict: \"np\""), e.getMessage());
      assertEquals(List.of("np"), m.loadStateDict(state, false).unexpectedKeys());
      m.to(org.jtensor.Device.CPU);  // moved with the rest (a no-op on the CPU; the handle stays)
      assertEquals(2, m.namedBuffers().get("np").numel());
    }
  }

  /** requires_grad_(False) freezes every parameter (a shared one once); a backward then reaches none of them. */
  @Test
  void requiresGradFalseFreezesEveryParameter() {
    try (M m = new M()) {
      assertSame(m, m.requiresGrad_(false));
      for (Tensor p : m.parameters()) assertFalse(p.requiresGrad());
      Tensor y = m.forward(Tensor.ones(1, 2));
      assertFalse(y.requiresGrad(), "no parameter takes part in autograd");
      m.requiresGrad_(true);
      m.forward(Tensor.ones(1, 2)).sum().backward();
      for (Tensor p : m.parameters()) {
        try (Tensor g = p.grad()) {
          assertTrue(g != null && g.numel() == p.numel());
        }
      }
      m.zeroGrad();
      try (Tensor g = m.l.weight().grad()) {
        assertNull(g);
      }
    }
  }
}
