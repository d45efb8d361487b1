// The benchmarks' clock: the best of reps runs, per op.
#pragma once
#include <chrono>
#include <cstdint>

namespace bench {

template <typename F>
double best_ns_per_op(int64_t ops, int reps, F&& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f(ops);
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / (double)ops;
    if (ns < best) best = ns;
  }
  return best;
}

}  // namespace bench
