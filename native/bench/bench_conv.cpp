// The direct convolution's two kernel layouts (flat padded planes, channels in lanes) at the main
// job's ResNet layers and the BasicBlock's, each mode's best of 10, the two interleaved so that both
// see the same state of a shared machine. JT_CONV_LANES (read per call) forces one layout at stride 1;
// a strided convolution has only the lanes. JT_CONV_WINOGRAD (read per call) forces Winograd on or off
// where it applies (3 × 3, stride 1, forward and input gradient).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "jt/dtype.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "test_env.h"
#include "timing.h"

// The channels-in-lanes forward's two ways (Note [Few positions]): the whole weight packed first
// and positions split between tasks, or a block of channels a task packed a run at a time; 3 × 3,
// stride 1, padding 1, C → C, at an inference server's batches. The input's gradient the same two
// ways (Note [Few positions, the input's gradient]). Best of 15, interleaved. Then the weight's
// gradient the library picks at the same layers (its sums' layout change: sums_to_weight).
void bench_conv_few_positions() {
  struct Case {
    int64_t n, c, hw;
  };
  const Case cases[] = {{1, 512, 7}, {1, 256, 14}, {1, 128, 28}, {1, 64, 56}, {8, 512, 7}, {4, 256, 14}, {32, 512, 7}};
  std::printf("conv2d float32, 3 x 3, channels in lanes; ms, best of 15: forward, then input grad, packed whole / a block a task (JT_CONV_FEW); weight grad\n");
  jt_test::set_env("JT_CONV_LANES", "1");
  jt_test::set_env("JT_CONV_WINOGRAD", "0");
  for (const Case& k : cases) {
    std::vector<float> x((size_t)(k.n * k.c * k.hw * k.hw)), w((size_t)(k.c * k.c * 9)), b((size_t)k.c), y(x.size()), gw(w.size()), gx(x.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = (float)(i * 7919 % 13) / 13;
    for (size_t i = 0; i < w.size(); ++i) w[i] = (float)(i * 104729 % 11) / 11 - 0.5f;
    std::vector<int64_t> plan = {JT_PLAN_VERSION, 0, (int64_t)jt::DType::Float32, 2, k.n, k.c, k.c, 1, (int64_t)x.data(), (int64_t)w.data(),
                                 (int64_t)b.data(), (int64_t)y.data(), k.hw, k.hw, k.hw, k.hw, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    std::vector<int64_t> grad = plan, input_grad = plan;
    grad[1] = 2, grad[9] = (int64_t)gw.data(), grad[10] = 0;
    input_grad[1] = 1, input_grad[8] = (int64_t)gx.data(), input_grad[10] = 0;
    double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
    for (int r = 0; r < 15; ++r)
      for (int way = 0; way < 5; ++way) {
        jt_test::set_env("JT_CONV_FEW", way % 2 == 1 ? "1" : "0");
        const int64_t* p = way == 4 ? grad.data() : way >= 2 ? input_grad.data() : plan.data();
        best[way] = std::min(best[way], bench::best_ns_per_op(1, 1, [&](int64_t) { jt_conv(p); }));
      }
    std::printf("%3lld x %3lld @ %2lld x %-2lld  %6.3f / %6.3f; %6.3f / %6.3f; %6.3f\n", (long long)k.n, (long long)k.c, (long long)k.hw,
                (long long)k.hw, best[0] / 1e6, best[1] / 1e6, best[2] / 1e6, best[3] / 1e6, best[4] / 1e6);
  }
  jt_test::unset_env("JT_CONV_FEW");
}

void bench_conv() {
  struct Case {
    const char* name;
    int64_t n, c, o, hw, k, s;
  };
  const Case cases[] = {{"1->16 28x28", 128, 1, 16, 28, 3, 1}, {"16->16 28x28", 128, 16, 16, 28, 3, 1}, {"16->32 28x28 /2", 128, 16, 32, 28, 3, 2},
                        {"1x1 16->32 /2", 128, 16, 32, 28, 1, 2}, {"32->32 14x14", 128, 32, 32, 14, 3, 1},
                        {"32->64 14x14 /2", 128, 32, 64, 14, 3, 2}, {"1x1 32->64 /2", 128, 32, 64, 14, 1, 2},
                        {"64->64 7x7", 128, 64, 64, 7, 3, 1}, {"64->64 32x32 b32", 32, 64, 64, 32, 3, 1},
                        {"64->64 56x56 b32", 32, 64, 64, 56, 3, 1}};
  std::printf("conv2d float32, batch 128 unless said, padding k/2; ms, best of 10: flat planes / channels in lanes (/ Winograd F(2x2, 3x3) for 3 x 3 forwards and input grads)\n");
  for (const Case& k : cases) {
    const int64_t p = k.k / 2, oh = (k.hw + 2 * p - k.k) / k.s + 1;
    std::vector<float> x((size_t)(k.n * k.c * k.hw * k.hw)), w((size_t)(k.o * k.c * k.k * k.k)), y((size_t)(k.n * k.o * oh * oh));
    std::vector<float> gx(x.size()), gw(w.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = (float)(i * 7919 % 13) / 13;
    for (size_t i = 0; i < w.size(); ++i) w[i] = (float)(i * 104729 % 11) / 11 - 0.5f;
    for (size_t i = 0; i < y.size(); ++i) y[i] = (float)(i * 31 % 7) / 7;
    std::printf("%-18s", k.name);
    for (int64_t mode = 0; mode < 3; ++mode) {
      const int64_t xa = (int64_t)(mode == 1 ? gx.data() : x.data()), wa = (int64_t)(mode == 2 ? gw.data() : w.data());
      std::vector<int64_t> plan = {JT_PLAN_VERSION, mode, (int64_t)jt::DType::Float32, 2, k.n, k.c, k.o, 1, xa, wa, 0, (int64_t)y.data(),
                                   k.hw, k.hw, oh, oh, k.k, k.k, p, p, p, p, 1, 1, k.s, k.s};
      const bool winograd = k.s == 1 && k.k == 3 && mode < 2;
      double best[3] = {1e30, 1e30, 1e30};
      for (int r = 0; r < 10; ++r)
        for (int layout = k.s == 1 ? 0 : 1; layout < (winograd ? 3 : 2); ++layout) {
          jt_test::set_env("JT_CONV_LANES", layout == 1 ? "1" : "0");
          jt_test::set_env("JT_CONV_WINOGRAD", layout == 2 ? "1" : "0");
          best[layout] = std::min(best[layout], bench::best_ns_per_op(1, 1, [&](int64_t) { jt_conv(plan.data()); }));
        }
      const char* what = mode == 0 ? "forward" : mode == 1 ? "input grad" : "weight grad";
      if (k.s == 1) std::printf("  %s %6.2f / %6.2f", what, best[0] / 1e6, best[1] / 1e6);
      else std::printf("  %s      - / %6.2f", what, best[1] / 1e6);
      if (winograd) std::printf(" / %6.2f", best[2] / 1e6);
    }
    std::printf("\n");
  }
  jt_test::unset_env("JT_CONV_LANES");
  jt_test::unset_env("JT_CONV_WINOGRAD");
  bench_conv_few_positions();
}
