// CUDA kernels on a GPU (CTest label cuda): storages from the registered CUDA caching allocator,
// fill, elementwise (dense, strided, host scalar), copy with conversion, reduce, softmax, and bytes
// back to the host, each against values computed here; random against the CPU's draws, bit for bit.
// Without a GPU it reports why and fails.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "jtc/jtc.h"

namespace {
constexpr int kCuda = JT_DEVICE_CUDA, kF32 = 8, kI64 = 5;

int64_t bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

int64_t device_buffer(int64_t storage) { return jt_storage_data(storage); }

std::vector<float> read_floats(int64_t addr, int n) {
  std::vector<float> v((size_t)n);
  CHECK_EQ(jtc_read_bytes(addr, v.data(), 4 * (int64_t)n), JT_OK);
  return v;
}

// fill dst (n floats, contiguous) with value
void fill(int64_t dst, int64_t n, double value) {
  std::vector<int64_t> p = {JT_PLAN_VERSION, 1, dst, kF32, 0, bits(value), n, 1};
  CHECK_EQ(jtc_fill(p.data()), JT_OK);
}

// out = a + alpha * b over rows x cols; b's strides given (transposed or stride 0), b 0: the scalar s
void add(int64_t out, int64_t a, int64_t b, int64_t rows, int64_t cols, int64_t b_row, int64_t b_col, double s) {
  std::vector<int64_t> p = {JT_PLAN_VERSION, jt_ew_op_id("add"), kF32, kF32, 3, 2, bits(2.0), 0, 0, 0, 2, 0, 0, 0};
  p.insert(p.end(), {out, a, b});
  p.insert(p.end(), {0, 0, 0, 0, bits(s), (int64_t)kF32 << 1});
  p.insert(p.end(), {rows, cols, cols, 1, cols, 1, b == 0 ? 0 : b_row, b == 0 ? 0 : b_col});
  CHECK_EQ(jtc_elementwise(p.data()), JT_OK);
}
// jtc_random against jt_random, byte for byte over dst's whole buffer: sizes and element strides
// (dst and p), the plan's a and b words; probs lives on both sides (p's buffer).
int random_case(int kind, int dtype, int elem, std::vector<int64_t> sizes, std::vector<int64_t> dst_strides,
                std::vector<int64_t> p_strides, int64_t a, int64_t b, const std::vector<double>& probs, double* bad) {
  int64_t extent = 1;
  for (size_t d = 0; d < sizes.size(); ++d) extent += (sizes[d] - 1) * dst_strides[d];
  const int64_t bytes = extent * elem + elem;  // one element of offset: dst not 16-byte aligned
  std::vector<char> cpu((size_t)bytes, (char)0x5a), gpu((size_t)bytes, (char)0x5a);
  const int64_t sd = jt_storage_new(kCuda, bytes), sp = jt_storage_new(kCuda, 8 * (int64_t)probs.size());
  CHECK(sd && sp);
  CHECK_EQ(jtc_write_bytes(device_buffer(sd), cpu.data(), bytes), JT_OK);
  CHECK_EQ(jtc_write_bytes(device_buffer(sp), probs.data(), 8 * (int64_t)probs.size()), JT_OK);
  auto plan = [&](int64_t dst, int64_t p) {
    std::vector<int64_t> w = {JT_PLAN_VERSION, kind, dtype, (int64_t)sizes.size(), dst, 0x5eed, 77, a, b, p};
    for (const auto* v : {&sizes, &dst_strides, &p_strides}) w.insert(w.end(), v->begin(), v->end());
    return w;
  };
  double bad_cpu = 0;
  const int st = jt_random(plan((int64_t)cpu.data() + elem, (int64_t)probs.data()).data(), &bad_cpu);
  CHECK_EQ(jtc_random(plan(device_buffer(sd) + elem, device_buffer(sp)).data(), bad), st);
  CHECK_EQ(jtc_read_bytes(device_buffer(sd), gpu.data(), bytes), JT_OK);
  CHECK(cpu == gpu);
  if (st == JT_VALUE_OUT_OF_RANGE) CHECK(std::memcmp(&bad_cpu, bad, 8) == 0);
  jt_storage_release(sd);
  jt_storage_release(sp);
  return st;
}

// Every kind over the float and integer dtypes, contiguous (the vector stores) and strided.
void random_matches_cpu() {
  std::vector<double> probs(4000);
  for (size_t i = 0; i < probs.size(); ++i) probs[i] = (double)((i * 37) % 101) / 100.0;
  const int kinds[6] = {jt_random_kind("uniform53"), jt_random_kind("uniform24"), jt_random_kind("normal"),
                        jt_random_kind("integers"), jt_random_kind("bernoulli"), jt_random_kind("bernoulli_tensor")};
  struct Type { int code, size; };
  const Type types[] = {{9, 8}, {kF32, 4}, {6, 2}, {7, 2}, {kI64, 8}, {4, 4}, {0, 1}};  // f64 f32 f16 bf16 i64 i32 bool
  double bad = 0;
  for (const Type& t : types) {
    for (int k = 0; k < 6; ++k) {
      const bool ints = k == 3;
      const int64_t a = ints ? -3 : bits(k == 4 ? 0.3 : 0.5), b = ints ? 1000 : bits(2.0);
      CHECK_EQ(random_case(kinds[k], t.code, t.size, {3001}, {1}, {1}, a, b, probs, &bad), JT_OK);
      CHECK_EQ(random_case(kinds[k], t.code, t.size, {37, 29}, {1, 40}, {29, 1}, a, b, probs, &bad), JT_OK);
    }
  }
  probs[100] = 1.5;  // p's element (100 / 29, 100 % 29) = (3, 13): row-major index 100
  probs[29 * 30 + 2] = -1.0;  // (30, 2): later in row-major order
  CHECK_EQ(random_case(kinds[5], kF32, 4, {37, 29}, {1, 40}, {29, 1}, 0, 0, probs, &bad), JT_VALUE_OUT_OF_RANGE);
  CHECK_EQ(bad, 1.5);
}

// softmax/log_softmax of the float32 at in (host copy `host`) over contiguous sizes along dim on the
// GPU into out, against the CPU kernel: each of the kernels (warp, block, thread per line) by shape.
void softmax_vs_cpu(int64_t out, int64_t in, std::vector<float>& host, int64_t rows, int64_t cols, int64_t dim, int64_t log) {
  std::vector<float> cpu(host.size());
  std::vector<int64_t> p = {JT_PLAN_VERSION, log, kF32, 2, dim, (int64_t)cpu.data(), (int64_t)host.data(), rows, cols, cols, 1, cols, 1};
  CHECK_EQ(jt_softmax(p.data()), JT_OK);
  p[5] = out, p[6] = in;
  CHECK_EQ(jtc_softmax(p.data()), JT_OK);
  std::vector<float> got = read_floats(out, (int)(rows * cols));
  bool close = true;
  for (size_t i = 0; i < got.size(); ++i) close &= std::fabs(got[i] - cpu[i]) <= 1e-5f * (1 + std::fabs(cpu[i]));
  CHECK(close);
}
}  // namespace

int main() {
  const int err = jtc_init();
  if (err != 0) {
    std::fprintf(stderr, "cuda_kernels_test: no usable GPU (cudaError %d)\n", err);
    return 1;
  }
  CHECK_EQ(jt_device_has_allocator(kCuda), 1);
  const int64_t rows = 300, cols = 257, n = rows * cols;
  int64_t sa = jt_storage_new(kCuda, 4 * n), sb = jt_storage_new(kCuda, 4 * n), so = jt_storage_new(kCuda, 4 * n);
  int64_t si = jt_storage_new(kCuda, 8 * n), sr = jt_storage_new(kCuda, 4 * rows);
  CHECK(sa && sb && so && si && sr);
  const int64_t a = device_buffer(sa), b = device_buffer(sb), o = device_buffer(so);
  fill(a, n, 1.5);
  std::vector<float> host((size_t)n);
  for (int64_t i = 0; i < n; ++i) host[(size_t)i] = (float)(i % 97) - 40.0f;
  CHECK_EQ(jtc_write_bytes(b, host.data(), 4 * n), JT_OK);

  add(o, a, b, rows, cols, cols, 1, 0);  // dense: the vector path
  std::vector<float> got = read_floats(o, (int)n);
  for (int64_t i = 0; i < n; ++i) CHECK(got[(size_t)i] == 1.5f + 2.0f * host[(size_t)i]);
  add(o, a, b, rows, cols, 1, rows, 0);  // b read transposed: the strided path (b is cols x rows)
  got = read_floats(o, (int)n);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) CHECK(got[(size_t)(r * cols + c)] == 1.5f + 2.0f * host[(size_t)(c * rows + r)]);
  add(o, a, 0, rows, cols, 0, 0, 4.0);  // a host scalar
  got = read_floats(o, 4);
  CHECK(got[0] == 9.5f && got[3] == 9.5f);

  // copy float32 -> int64, then sum each row of b (reduce over dim 1)
  std::vector<int64_t> cp = {JT_PLAN_VERSION, 1, device_buffer(si), kI64, b, kF32, n, 1, 1};
  CHECK_EQ(jtc_copy(cp.data()), JT_OK);
  int64_t ints[4];
  CHECK_EQ(jtc_read_bytes(device_buffer(si), ints, sizeof ints), JT_OK);
  CHECK(ints[0] == -40 && ints[3] == -37);
  std::vector<int64_t> rp = {JT_PLAN_VERSION, jt_reduce_op_id("sum"), kF32, kF32, 2, device_buffer(sr), b, 0, bits(1.0),
                             rows, cols, 1, 0, cols, 1, 0, 1};
  CHECK_EQ(jtc_reduce(rp.data()), JT_OK);
  std::vector<float> sums = read_floats(device_buffer(sr), (int)rows);
  for (int64_t r = 0; r < rows; ++r) {
    double want = 0;
    for (int64_t c = 0; c < cols; ++c) want += host[(size_t)(r * cols + c)];
    CHECK(sums[(size_t)r] == (float)want);
  }
  random_matches_cpu();
  // softmax: 300 rows of 257 (a warp per row), 257 lines down 300 (a warp per strided line),
  // 30 rows of 2570 (a block per row), 7710 lines down 10 (a thread per line)
  for (int64_t log = 0; log < 2; ++log) {
    softmax_vs_cpu(o, b, host, rows, cols, 1, log);
    softmax_vs_cpu(o, b, host, rows, cols, 0, log);
    softmax_vs_cpu(o, b, host, 30, 2570, 1, log);
    softmax_vs_cpu(o, b, host, 10, 7710, 0, log);
  }
  CHECK_EQ(jtc_synchronize(), JT_OK);
  for (int64_t s : {sa, sb, so, si, sr}) jt_storage_release(s);
  int64_t stats[256] = {0};
  jt_memory_stats(kCuda, stats);
  for (int i = 0; i < jt_stat_count(); ++i)
    if (std::strcmp(jt_stat_name(i), "allocated_bytes.all.current") == 0) CHECK_EQ(stats[i], 0);
  return jt_report("cuda_kernels_test");
}
