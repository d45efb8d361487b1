// jtensor's own CUDA GEMM (jtc_gemm) in TFLOP/s on a GPU: C = A @ B, square, row-major, for
// bfloat16 and float16 (tensor cores) and float32 (the tiled kernel); the target is 40%
// of cuBLAS at bfloat16 8192^2 (cuBLAS's figure comes from the Java benchmark over CudaBlas).
// Usage: cuda_gemm_bench [n ...] (default 4096 8192).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "jt/dtype.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "jtc/jtc_gemm.h"

namespace {
int64_t bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// Fills n elements of dtype at dst with value (a fill plan over one dense dim).
int fill(int64_t dst, int dtype, int64_t n, double value) {
  std::vector<int64_t> p = {JT_PLAN_VERSION, 1, dst, dtype, 0, bits(value), n, 1};
  return jtc_fill(p.data());
}

double tflops(jt::DType t, int64_t n) {
  const int64_t bytes = n * n * (int64_t)jt::dtype_size(t);
  int64_t s[3];
  int64_t p[3];
  for (int i = 0; i < 3; ++i) {
    s[i] = jt_storage_new(JT_DEVICE_CUDA, bytes);
    if (!s[i]) return -1;
    p[i] = jt_storage_data(s[i]);
    if (fill(p[i], (int)t, n * n, i == 2 ? 0.0 : 0.01) != JT_OK) return -1;
  }
  std::vector<int64_t> plan = {JT_PLAN_VERSION, (int64_t)t, (int64_t)t, n, n, n, p[0], p[1], p[2], n, 1, n, 1, n, 1,
                               bits(1.0), bits(0.0), 0};
  for (int w = 0; w < 2; ++w) jtc_gemm(plan.data());
  jtc_synchronize();
  const int reps = 10;
  auto t0 = std::chrono::steady_clock::now();
  int st = JT_OK;
  for (int r = 0; r < reps && st == JT_OK; ++r) st = jtc_gemm(plan.data());
  if (st == JT_OK) st = jtc_synchronize();
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  for (int64_t x : s) jt_storage_release(x);
  return st == JT_OK ? 2.0 * n * n * n / sec / 1e12 : -1;
}
}  // namespace

int main(int argc, char** argv) {
  if (int err = jtc_init()) {
    std::fprintf(stderr, "cuda_gemm_bench: no usable GPU (cudaError %d)\n", err);
    return 1;
  }
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes = {4096, 8192};
  const struct { jt::DType t; const char* name; } types[] = {
      {jt::DType::BFloat16, "bfloat16"}, {jt::DType::Float16, "float16"}, {jt::DType::Float32, "float32"}};
  int failed = 0;  // a GEMM that could not run fails the benchmark, not just its line
  for (int64_t n : sizes)
    for (const auto& ty : types) {
      const double rate = tflops(ty.t, n);
      if (rate < 0) {
        std::printf("jtc_gemm %-8s %5lld^2: FAILED (allocation or kernel error)\n", ty.name, (long long)n);
        ++failed;
        continue;
      }
      std::printf("jtc_gemm %-8s %5lld^2: %7.1f TFLOP/s%s\n", ty.name, (long long)n, rate,
                  ty.t == jt::DType::Float32 ? " (tiled kernel)" : " (tensor cores)");
    }
  return failed ? 1 : 0;
}
