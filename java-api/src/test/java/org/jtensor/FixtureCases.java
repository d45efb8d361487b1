package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a fixture's cases as resources/shapes/make_fixtures.py writes them: case i's inputs "<i>.x<k>", outputs "<i>.out<j>" and, when the inputs are floating,
 * the upstream "<i>.up<j>" and the inputs' gradients "<i>.grad<k>" of sum_j (out_j * up_j).sum();
 * "cases" lists [op, args]. Each output's shape, dtype and values must equal PyTorch's exactly
 * (these ops move values; trace sums at most a few), each gradient to 1e-12.
 */
final class FixtureCases {
  /** One op of the fixture applied: its args (the case's list of ints) and inputs. */
  interface Op {
    List<Tensor> apply(String op, long[] args, List<Tensor> xs);
  }

  private FixtureCases() {}

  /** Every case of f through op; returns how many ran. */
  static int run(PtFixture f, Op op) {
    List<?> cases = (List<?>) f.get("cases");
    for (int i = 0; i < cases.size(); i++) {
      List<?> c = (List<?>) cases.get(i);
      String name = (String) c.get(0);
      long[] args = ((List<?>) c.get(1)).stream().mapToLong(v -> ((Number) v).longValue()).toArray();
      String what = i + ": " + name + java.util.Arrays.toString(args);
      List<Tensor> xs = new ArrayList<>();
      for (int k = 0; f.has(i + ".x" + k); k++) {
        Tensor x = f.tensor(i + ".x" + k);
        xs.add(f.has(i + ".grad" + k) ? x.clone().requiresGrad_(true) : x);
      }
      List<Tensor> ys = op.apply(name, args, xs);
      int j = 0;
      Tensor loss = null;
      for (; f.has(i + ".out" + j); j++) {
        Tensor want = f.tensor(i + ".out" + j), y = ys.get(j);
        assertArrayEquals(want.shape(), y.shape(), what + ": shape of output " + j);
        assertEquals(want.dtype(), y.dtype(), what + ": dtype of output " + j);
        assertArrayEquals(want.toDoubleArray(), y.toDoubleArray(), 0, what + ": values of output " + j);
        if (f.has(i + ".up" + j)) {
          Tensor term = y.mul(f.tensor(i + ".up" + j)).sum();
          loss = loss == null ? term : loss.add(term);
        }
      }
      assertEquals(j, ys.size(), what + ": number of outputs");
      if (loss == null) continue;
      loss.backward();
      for (int k = 0; k < xs.size(); k++) {
        if (!f.has(i + ".grad" + k)) continue;
        Tensor g = xs.get(k).grad(), want = f.tensor(i + ".grad" + k);
        double[] got = g == null ? new double[(int) want.numel()] : g.toDoubleArray();
        assertArrayEquals(want.toDoubleArray(), got, 1e-12, what + ": gradient of input " + k);
      }
    }
    return cases.size();
  }
}
