package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.nn.GradClipping;
import org.junit.jupiter.api.Test;

/**
 * The optimizers' and training utilities' arithmetic against PyTorch 2.13's, value for value: the same initial
 * parameters and gradients (exact in every dtype), 20 steps over shapes [37], [3, 5] and [], the second parameter
 * without a gradient every third step, the rate halved at step 10. Expected values printed by PyTorch 2.13 (CPU).
 */
class OptimizerMathHostileTest extends ScopedTest {
  private static final long[][] SHAPES = {{37}, {3, 5}, {}};

  private static int numel(long[] s) {
    int n = 1;
    for (long x : s) n *= (int) x;
    return n;
  }

  private static Tensor initial(long[] s, int j) {
    double[] d = new double[numel(s)];
    for (int k = 0; k < d.length; k++) d[k] = (((k * 37 + 11 + j * 5) % 101) - 50) / 32.0;
    return Tensor.fromArray(d, s);
  }

  private static Tensor gradient(long[] s, int j, int t) {
    double[] d = new double[numel(s)];
    for (int k = 0; k < d.length; k++) d[k] = (((k * 13 + t * 7 + 3 + j) % 29) - 14) / 64.0;
    return Tensor.fromArray(d, s);
  }

  /** PyTorch's loop: p.grad set (None for the second parameter when t % 3 == 1), the group's lr halved at t = 10, opt.step(). */
  private static double[] run(DType dtype, Function<List<Tensor>, Optimizer> make) {
    List<Tensor> ps = new ArrayList<>();
    for (int j = 0; j < SHAPES.length; j++) ps.add(initial(SHAPES[j], j).to(dtype).requiresGrad_());
    try (Optimizer opt = make.apply(ps)) {
      for (int t = 0; t < 20; t++) {
        if (t == 10) opt.setLr(opt.lr() * 0.5);
        for (int j = 0; j < SHAPES.length; j++) ps.get(j).setGrad(j == 1 && t % 3 == 1 ? null : gradient(SHAPES[j], j, t).to(dtype));
        opt.step();
      }
    }
    double[] out = new double[53];
    int i = 0;
    for (Tensor p : ps) for (double v : p.detach().toDoubleArray()) out[i++] = v;
    return out;
  }

  private static final double[][] PYTORCH = {
    // S1 F32
    {
        -0.9017223119735718, -0.02408340573310852, 1.0290316343307495, -0.9714076519012451, 0.2522231638431549, 1.4091603755950928, -0.5112467408180237, 0.36860358715057373,
        -1.4859274625778198, -0.07502691447734833, 0.8643624186515808, -0.886913537979126, -0.21475259959697723, 1.0088781118392944, -0.6787735819816589, 0.40404483675956726,
        1.393945574760437, -0.7292724251747131, 0.6816279888153076, -1.211635708808899, 0.05239631235599518, 0.8223657011985779, -1.1623998880386353, 0.0982719287276268,
        1.2666786909103394, -0.5732255578041077, 0.3181925117969513, -1.4896501302719116, -0.4162479341030121, 0.924612283706665, -1.1256822347640991, -0.07256723195314407,
        0.8549269437789917, -0.8493754267692566, 0.3075616657733917, 1.3150877952575684, -0.7329949736595154, -0.9462680220603943, 0.16247542202472687, 1.2214100360870361,
        -0.8829715251922607, 0.3108687698841095, 1.5219777822494507, -0.3563053607940674, 0.7430328726768494, -1.311856985092163, -0.10608293116092682, 1.072701096534729,
        -0.817868173122406, 0.19548307359218597, 1.15105402469635, -0.6712273359298706, -0.7678439617156982
    },
    // S2 F32
    {
        -0.8217552304267883, -0.03779466822743416, 0.7877002954483032, -0.6990347504615784, 0.21020029485225677, 1.0570226907730103, -0.428066611289978, 0.351082980632782,
        -1.0912587642669678, -0.14028994739055634, 0.6550031900405884, -0.7909275889396667, -0.05518229678273201, 0.8540529608726501, -0.5669459700584412, 0.28380870819091797,
        1.0820093154907227, -0.44740620255470276, 0.5035625100135803, -0.966327965259552, -0.07258018851280212, 0.6758552193641663, -0.810961902141571, 0.09729719907045364,
        0.9733399748802185, -0.5037311315536499, 0.28328391909599304, -1.1614519357681274, -0.2949266731739044, 0.6184293031692505, -0.9064774513244629, -0.08098247647285461,
        0.7411496043205261, -0.6584824323654175, 0.18833979964256287, 1.0121179819107056, -0.5175996422767639, -0.8502289652824402, 0.0959356352686882, 1.034818172454834,
        -0.6927216053009033, 0.32419225573539734, 1.3065471649169922, -0.3241285979747772, 0.6088994741439819, -1.0936447381973267, -0.09854389727115631, 0.8852332830429077,
        -0.7603620886802673, 0.14765360951423645, 1.07587730884552, -0.5618087649345398, -0.6394408941268921
    },
    // A2 BF16
    {
        -1.109375, -0.0625, 1.0390625, -0.82421875, 0.2255859375, 1.296875, -0.5546875, 0.50390625,
        -1.3125, -0.21875, 0.78515625, -1.0546875, -0.0220947265625, 1.109375, -0.7109375, 0.3203125,
        1.375, -0.5078125, 0.6171875, -1.2265625, -0.1318359375, 0.85546875, -0.953125, 0.1103515625,
        1.1953125, -0.62890625, 0.384765625, -1.4453125, -0.388671875, 0.70703125, -1.171875, -0.07421875,
        0.9453125, -0.85546875, 0.2119140625, 1.265625, -0.56640625, -1.0078125, 0.0966796875, 1.1875,
        -0.71875, 0.36328125, 1.5078125, -0.408203125, 0.6875, -1.2109375, -0.111328125, 0.984375,
        -0.8984375, 0.17578125, 1.28125, -0.609375, -0.80078125
    },
    // A3 BF16
    {
        -1.1953125, -0.068359375, 1.1171875, -0.921875, 0.2431640625, 1.40625, -0.58203125, 0.56640625,
        -1.4609375, -0.244140625, 0.86328125, -1.078125, -0.0162353515625, 1.171875, -0.8125, 0.3515625,
        1.53125, -0.55078125, 0.671875, -1.359375, -0.13671875, 0.95703125, -1.0546875, 0.1201171875,
        1.2734375, -0.68359375, 0.4296875, -1.5546875, -0.431640625, 0.79296875, -1.265625, -0.07373046875,
        1.046875, -0.953125, 0.240234375, 1.3828125, -0.62109375, -1.0546875, 0.10498046875, 1.265625,
        -0.7734375, 0.3828125, 1.5625, -0.435546875, 0.74609375, -1.2890625, -0.11865234375, 1.0390625,
        -0.9453125, 0.189453125, 1.3203125, -0.6640625, -0.890625
    },
  };

  @Test
  void sgdAddsWithAlphaRoundedOnceAsPyTorchsFusedMultiplyAdd() {
    // PyTorch's add_(x, alpha) is fma(x, (float) alpha, self) for float32; jtensor's rounded alpha·x, then the sum (or read
    // alpha as a double): 18 of 53 float32 parameters ended 1 ulp off after 20 steps with momentum, dampening, weight decay
    assertArrayEquals(PYTORCH[0], run(DType.FLOAT32, ps -> new SGD(ps, 0.1, 0.9, 0.1, 0.01, false)), "SGD(momentum=0.9, dampening=0.1)");
    assertArrayEquals(PYTORCH[1], run(DType.FLOAT32, ps -> new SGD(ps, 0.05, 0.8, 0, 0.1, true)), "SGD(nesterov=True)");
  }

  @Test
  void adamAndAdamWRoundAsPyTorchsLerpAddcmulAndAddcdiv() {
    // m·β1 + g·(1-β1), g·g·(1-β2) and p - (m/d)·step rounded two or three times each where PyTorch's lerp_, addcmul_ and
    // addcdiv_ round once (in float32 for bfloat16): 8 of 53 bfloat16 parameters ended 1 ulp (up to 0.0078) off PyTorch's
    assertArrayEquals(PYTORCH[2], run(DType.BFLOAT16, ps -> new Adam(ps, 0.01, 0.8, 0.99, 1e-6, 0.1)), "Adam, coupled weight decay");
    assertArrayEquals(PYTORCH[3], run(DType.BFLOAT16, ps -> new AdamW(ps, 0.01, 0.1)), "AdamW");
  }

  @Test
  void gradScalerMultipliesItsFloat32ScaleByDoubleFactors() {
    // PyTorch's _amp_update_scale_ computes float32 scale × double factor, then rounds; jtensor kept the factors as float32
    // (1.1 became 1.100000023841858): 3 grew to 3.3000001907348633, PyTorch's 3.299999952316284, and state_dict() gave
    // growth_factor 1.100000023841858 where PyTorch's gives the 1.1 it was made with
    double[] expected = {3.299999952316284, 3.629999876022339, 1.0889999866485596, 1.1978999376296997, 1.3176898956298828, 0.3953069746494293};
    GradScaler scaler = new GradScaler(3.0, 1.1, 0.3, 1, true);
    Tensor w = Tensor.ones(2).requiresGrad_();
    try (SGD opt = new SGD(List.of(w), 0.1)) {
      for (int i = 0; i < expected.length; i++) {
        w.setGrad(Tensor.fromArray(new float[] {i % 3 == 2 ? Float.POSITIVE_INFINITY : 1f, 1f}));
        scaler.step(opt);
        scaler.update();
        assertEquals(expected[i], scaler.getScale(), "update " + i);
      }
    }
    Map<String, Object> state = scaler.stateDict();
    assertEquals(1.1, state.get("growth_factor"));
    assertEquals(0.3, state.get("backoff_factor"));
  }

  @Test
  void clipGradNormScalesA16BitGradientByTheUnroundedCoefficient() {
    // a float32 gradient beside a float16 one gives a float32 total norm and coefficient; PyTorch's g.mul_(coef) reads the
    // 0-dim coefficient as float32 for a float16 gradient and rounds the product once; jtensor cast the coefficient to
    // float16 first: 7 of 16 float16 gradients (5 of 16 bfloat16) ended 1 ulp off
    double[][] expected = {
        {-0.10284423828125, -0.00527191162109375, 0.09228515625, -0.07647705078125, 0.021087646484375, 0.11865234375,
            -0.05010986328125, 0.047454833984375, -0.12127685546875, -0.0237274169921875, 0.0738525390625, -0.09490966796875,
            0.002635955810546875, 0.1002197265625, -0.06854248046875, 0.0290069580078125},
        {-0.10302734375, -0.005279541015625, 0.09228515625, -0.07666015625, 0.0211181640625, 0.11865234375, -0.050048828125,
            0.04736328125, -0.12109375, -0.023681640625, 0.07373046875, -0.0947265625, 0.0026397705078125, 0.10009765625,
            -0.068359375, 0.029052734375}};
    DType[] dtypes = {DType.FLOAT16, DType.BFLOAT16};
    for (int d = 0; d < 2; d++) {
      double[] vals = new double[16];
      for (int k = 0; k < 16; k++) vals[k] = ((k * 37 + 11) % 101 - 50) / 8.0;
      Tensor q = Tensor.zeros(1).requiresGrad_(), p = Tensor.zeros(new long[] {16}, dtypes[d]).requiresGrad_();
      q.setGrad(Tensor.ones(1));
      p.setGrad(Tensor.fromArray(vals).to(dtypes[d]));
      Tensor total = GradClipping.clipGradNorm_(List.of(q, p), 0.3);
      assertEquals(DType.FLOAT32, total.dtype());
      assertEquals(14.222698211669922, total.item(), dtypes[d].toString());
      assertEquals(0.02109304443001747, q.grad().item());
      assertArrayEquals(expected[d], p.grad().toDoubleArray(), dtypes[d].toString());
    }
  }

  @Test
  void anOptimizerTakesAFrozenParameterAsPyTorchs() {
    // torch.optim.SGD([frozen, w]) with frozen.requires_grad False is taken (only a non-leaf is refused); jtensor refused
    // it, so an optimizer over a model with frozen layers could not be made from Module.parameters()
    Tensor frozen = Tensor.ones(2), w = Tensor.ones(2).requiresGrad_();
    try (SGD sgd = new SGD(List.of(frozen, w), 0.5); Adam adam = new Adam(List.of(frozen), 0.1)) {
      w.setGrad(Tensor.ones(2));
      sgd.step();
      assertArrayEquals(new double[] {1, 1}, frozen.toDoubleArray(), "no gradient: skipped");
      assertArrayEquals(new double[] {0.5, 0.5}, w.toDoubleArray());
      adam.step();
    }
    Tensor nonLeaf = w.mul(2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SGD(List.of(nonLeaf), 0.1));
    assertEquals("SGD(): can't optimize a non-leaf Tensor", e.getMessage());
    // ...unless it keeps its gradient: PyTorch checks `param.is_leaf or param.retains_grad`, and SGD([b]) with
    // b = a * 2; b.retain_grad() is taken and stepped (jtensor refused it)
    Tensor kept = w.mul(2);
    kept.retainGrad();
    kept.mul(kept).sum().backward();  // kept.grad = 2 * kept = [2, 2]
    try (SGD sgd = new SGD(List.of(kept), 0.25)) {
      sgd.step();
      assertArrayEquals(new double[] {0.5, 0.5}, kept.toDoubleArray(), "1 - 0.25 * 2");
    }
  }

  @Test
  void clipGradNormTakesNegativeNormTypesAsPyTorchs() {
    // PyTorch's clip_grad_norm_ takes any vector_norm order: -2 and -inf (the smallest magnitude) clip by that norm;
    // jtensor refused every negative norm_type ("must be non-negative"), and printed inf as Infinity in its refusal
    double[][] expected = {{1.536442518234253, 1.9525612592697144, 2.603415012359619, 1.3017075061798096},
        {2.0, 1.4999992847442627, 1.9999990463256836, 0.9999995231628418}};
    double[] orders = {-2.0, Double.NEGATIVE_INFINITY};
    for (int i = 0; i < 2; i++) {
      Tensor p = Tensor.zeros(2).requiresGrad_(), q = Tensor.zeros(1).requiresGrad_();
      p.setGrad(Tensor.fromArray(new float[] {3, 4}));
      q.setGrad(Tensor.fromArray(new float[] {2}));
      Tensor total = GradClipping.clipGradNorm_(List.of(p, q), 1.0, orders[i], false);
      double[] got = {total.item(), p.grad().toDoubleArray()[0], p.grad().toDoubleArray()[1], q.grad().item()};
      assertArrayEquals(expected[i], got, 1e-6, "norm_type " + orders[i]);
    }
    Tensor n = Tensor.zeros(1).requiresGrad_();
    n.setGrad(Tensor.fromArray(new float[] {Float.NaN}));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> GradClipping.clipGradNorm_(List.of(n), 1.0,
        Double.POSITIVE_INFINITY, true));
    assertTrue(e.getMessage().contains("The total norm of order inf for gradients from `parameters` is non-finite"), e.getMessage());
  }
}
