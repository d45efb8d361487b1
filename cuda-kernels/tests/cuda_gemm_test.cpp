// jtc_gemm on a GPU (CTest label cuda) against the CPU's jt_gemm, byte for byte: every dtype;
// sizes that leave partial tiles, multiples of 8 (the tensor-core path for float16/bfloat16) and a
// vector; each operand row-major or transposed; no batch, and a [2, 3] batch with A broadcast over
// its last dim; beta 0 and beta 0.5. Values are small integers, so every sum is exact in each
// accumulator and both sides round once: the bytes must agree.
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "jt/dtype.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "jtc/jtc_gemm.h"

namespace {
using jt::DType;

int64_t bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// n elements of dtype t holding small integers from seed (0/1 for bool).
std::vector<char> values(DType t, int64_t n, int seed) {
  std::vector<char> out((size_t)(n * (int64_t)jt::dtype_size(t)));
  jt::dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = reinterpret_cast<T*>(out.data());
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = ((i * 7919 + seed * 104729) % 7) - 3;
      if (t == DType::UInt8 || t == DType::Bool) v = v < 0 ? -v : v;
      if (t == DType::Bool) v = v > 1;
      p[i] = jt::convert<T, int64_t>(v);
    }
  });
  return out;
}

struct Case {
  int64_t m, n, k;
  bool a_t, b_t, batched;
  double beta;
};

// Runs one case on both devices; the plan's addresses are host pointers for jt_gemm, device ones for jtc_gemm.
void run(DType t, const Case& c) {
  const int64_t es = (int64_t)jt::dtype_size(t), sa = c.m * c.k, sb = c.k * c.n, sc = c.m * c.n;
  const int64_t na = c.batched ? 2 * sa : sa, nb = c.batched ? 6 * sb : sb, nc = c.batched ? 6 * sc : sc;
  std::vector<char> a = values(t, na, 1), b = values(t, nb, 2), cc = values(t, nc, 3), want = cc;
  const int64_t a_row = c.a_t ? 1 : c.k, a_col = c.a_t ? c.m : 1, b_row = c.b_t ? 1 : c.n, b_col = c.b_t ? c.k : 1;
  auto plan = [&](int64_t pa, int64_t pb, int64_t pc) {
    std::vector<int64_t> p = {JT_PLAN_VERSION, (int64_t)t, (int64_t)t, c.m, c.n, c.k, pa, pb, pc, a_row, a_col,
                              b_row, b_col, c.n, 1, bits(2.0), bits(c.beta), c.batched ? 2 : 0};
    if (c.batched) p.insert(p.end(), {2, 3, sa, 0, 3 * sb, sb, 3 * sc, sc});
    return p;
  };
  std::vector<int64_t> cpu = plan((int64_t)a.data(), (int64_t)b.data(), (int64_t)want.data());
  CHECK_EQ(jt_gemm(cpu.data()), JT_OK);

  int64_t da = jt_storage_new(JT_DEVICE_CUDA, na * es + 16), db = jt_storage_new(JT_DEVICE_CUDA, nb * es + 16);
  int64_t dc = jt_storage_new(JT_DEVICE_CUDA, nc * es + 16);
  CHECK(da && db && dc);
  const int64_t pa = jt_storage_data(da), pb = jt_storage_data(db), pc = jt_storage_data(dc);
  CHECK_EQ(jtc_write_bytes(pa, a.data(), na * es), JT_OK);
  CHECK_EQ(jtc_write_bytes(pb, b.data(), nb * es), JT_OK);
  CHECK_EQ(jtc_write_bytes(pc, cc.data(), nc * es), JT_OK);
  std::vector<int64_t> gpu = plan(pa, pb, pc);
  CHECK_EQ(jtc_gemm(gpu.data()), JT_OK);
  std::vector<char> got(want.size());
  CHECK_EQ(jtc_read_bytes(pc, got.data(), nc * es), JT_OK);
  const bool same = std::memcmp(got.data(), want.data(), want.size()) == 0;
  CHECK(same);
  if (!same)
    std::fprintf(stderr, "  dtype %d m=%lld n=%lld k=%lld a_t=%d b_t=%d batched=%d beta=%g\n", (int)t, (long long)c.m,
                 (long long)c.n, (long long)c.k, c.a_t, c.b_t, c.batched, c.beta);
  for (int64_t s : {da, db, dc}) jt_storage_release(s);
}
}  // namespace

int main() {
  const int err = jtc_init();
  if (err != 0) {
    std::fprintf(stderr, "cuda_gemm_test: no usable GPU (cudaError %d)\n", err);
    return 1;
  }
  const int64_t sizes[][3] = {{37, 53, 29}, {136, 264, 72}, {128, 128, 32}, {1, 40, 16}, {24, 16, 0}};
  for (int dt = 0; dt < jt::kNumDTypes; ++dt)
    for (const auto& s : sizes)
      for (int layout = 0; layout < 4; ++layout)
        for (int batched = 0; batched < 2; ++batched)
          for (double beta : {0.0, 0.5})
            run((DType)dt, Case{s[0], s[1], s[2], (layout & 1) != 0, (layout & 2) != 0, batched != 0, beta});
  // a plan of another version, and out_dtype != dtype, are refused
  std::vector<int64_t> bad = {JT_PLAN_VERSION + 1, 8, 8, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0};
  CHECK_EQ(jtc_gemm(bad.data()), JT_INVALID);
  bad[0] = JT_PLAN_VERSION;
  bad[2] = 9;
  CHECK_EQ(jtc_gemm(bad.data()), JT_INVALID);
  CHECK_EQ(jtc_synchronize(), JT_OK);
  return jt_report("cuda_gemm_test");
}
