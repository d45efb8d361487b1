// The strided copy kernel and fill: layouts, broadcasting, the transpose path, parallel
// chunks, and every dtype conversion's rounding rules.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "allocator/segment_memory.h"
#include "check.h"
#include "jt/dtype.h"
#include "kernels/kernels.h"
#include "parallel.h"

using jt::DType;
using jt::Half;
using jt::BFloat16;

static jt::CopyPlan plan(int nd, void* d, DType dt, const void* s, DType st, const int64_t* sz,
                         const int64_t* ds, const int64_t* ss) {
  return jt::CopyPlan{nd, d, dt, s, st, sz, ds, ss};
}

static void half_rounding() {
  CHECK_EQ(Half(1.0f).x, 0x3c00);
  CHECK_EQ(Half(1.0f + std::ldexp(1.0f, -11)).x, 0x3c00);      // tie -> even
  CHECK_EQ(Half(1.0f + 3 * std::ldexp(1.0f, -11)).x, 0x3c02);  // tie -> even (up)
  CHECK_EQ(Half(65504.0f).x, 0x7bff);
  CHECK_EQ(Half(65519.0f).x, 0x7bff);
  CHECK_EQ(Half(65520.0f).x, 0x7c00);  // rounds to infinity
  CHECK_EQ(Half(std::ldexp(1.0f, -24)).x, 0x0001);
  CHECK_EQ(Half(std::ldexp(1.0f, -25)).x, 0x0000);      // subnormal tie -> even
  CHECK_EQ(Half(3 * std::ldexp(1.0f, -25)).x, 0x0002);  // subnormal tie -> even
  CHECK_EQ(Half(-2.0f).x, 0xc000);
  CHECK(std::isnan((float)Half(NAN)));
  CHECK((float)Half(INFINITY) == INFINITY);
  CHECK((float)Half(std::ldexp(1.0f, -24)) == std::ldexp(1.0f, -24));
  // Every half converts back and forth exactly.
  int mismatches = 0;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    Half v;
    v.x = (uint16_t)h;
    float f = v;
    if (f == f && Half(f).x != h) ++mismatches;
  }
  CHECK_EQ(mismatches, 0);
}

static void bfloat16_rounding() {
  CHECK_EQ(BFloat16(1.0f).x, 0x3f80);
  CHECK_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8)).x, 0x3f80);      // tie -> even
  CHECK_EQ(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).x, 0x3f82);  // tie -> even (up)
  CHECK_EQ(BFloat16(NAN).x, 0x7fc0);
  CHECK((float)BFloat16(3.0f) == 3.0f);
}

static void double_to_half_rounds_once() {
  double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);  // just above a half tie
  CHECK_EQ(jt::convert<Half>(d).x, 0x3c01);
  CHECK_EQ(jt::convert<BFloat16>(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)).x, 0x3f81);
}

static void integer_and_bool_conversions() {
  CHECK_EQ(jt::convert<int32_t>(3.7f), 3);
  CHECK_EQ(jt::convert<int32_t>(-3.7), -3);
  CHECK_EQ(jt::convert<uint8_t>(300.0), 44);  // through int64, then wraps
  CHECK_EQ(jt::convert<int64_t>((double)NAN), 0);
  CHECK_EQ(jt::convert<bool>(0.5), true);
  CHECK_EQ(jt::convert<bool>(Half(0.0f)), false);
  CHECK_EQ(jt::convert<uint8_t>((int64_t)-1), 255);
  CHECK_EQ(jt::convert<int64_t>((int64_t)(1LL << 62) + 1), (1LL << 62) + 1);
}

static void contiguous_and_converting_copy() {
  const int64_t n = 100000;  // above the grain: runs in parallel chunks
  std::vector<int32_t> src(n);
  for (int64_t i = 0; i < n; ++i) src[i] = (int32_t)(i * 7 - 5000);
  std::vector<double> dst(n);
  int64_t sz[] = {n}, one[] = {1};
  jt::copy_strided(plan(1, dst.data(), DType::Float64, src.data(), DType::Int32, sz, one, one));
  int bad = 0;
  for (int64_t i = 0; i < n; ++i) bad += dst[i] != (double)src[i];
  CHECK_EQ(bad, 0);
  std::vector<int32_t> same(n);
  jt::copy_strided(plan(1, same.data(), DType::Int32, src.data(), DType::Int32, sz, one, one));
  CHECK(same == src);
}

// dst_shift floats past a 64-byte boundary: 0 takes the AVX2 streaming path (when the CPU has
// AVX2), 4 the SSE2 streaming path (16-byte aligned only).
static void transposed_copy(int64_t rows, int64_t cols, int dst_shift = 0) {
  // src is a (cols x rows) row-major matrix viewed transposed as (rows x cols).
  std::vector<float> src(rows * cols);
  const size_t bytes = (size_t)(rows * cols + 16) * sizeof(float);
  float* storage = static_cast<float*>(jt::segment_memory(64, bytes, false));  // 64-byte aligned on every platform
  float* dst = storage + dst_shift;
  for (size_t i = 0; i < src.size(); ++i) src[i] = (float)i;
  int64_t sz[] = {rows, cols}, ds[] = {cols, 1}, ss[] = {1, rows};
  jt::copy_strided(plan(2, dst, DType::Float32, src.data(), DType::Float32, sz, ds, ss));
  int bad = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) bad += dst[r * cols + c] != src[c * rows + r];
  CHECK_EQ(bad, 0);
  jt::release_segment_memory(storage);
}

static void batched_transpose_and_broadcast() {
  // dst (2, 40, 30) contiguous <- src (2, 30, 40) permuted (0, 2, 1)
  const int64_t B = 2, R = 40, C = 30;
  std::vector<int16_t> src(B * R * C), dst(B * R * C);
  for (size_t i = 0; i < src.size(); ++i) src[i] = (int16_t)i;
  int64_t sz[] = {B, R, C}, ds[] = {R * C, C, 1}, ss[] = {R * C, 1, R};
  jt::copy_strided(plan(3, dst.data(), DType::Int16, src.data(), DType::Int16, sz, ds, ss));
  int bad = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t r = 0; r < R; ++r)
      for (int64_t c = 0; c < C; ++c) bad += dst[(b * R + r) * C + c] != src[b * R * C + c * R + r];
  CHECK_EQ(bad, 0);
  // broadcast a row of 3 into (4, 3), converting float -> bfloat16
  float row[3] = {1.5f, -2.f, 3.25f};
  BFloat16 out[12];
  int64_t bsz[] = {4, 3}, bds[] = {3, 1}, bss[] = {0, 1};
  jt::copy_strided(plan(2, out, DType::BFloat16, row, DType::Float32, bsz, bds, bss));
  bad = 0;
  for (int i = 0; i < 12; ++i) bad += (float)out[i] != row[i % 3];
  CHECK_EQ(bad, 0);
}

static void fill_arange_linspace_and_elements() {
  std::vector<int64_t> buf(20, 0);
  int64_t sz[] = {2, 5}, st[] = {10, 2};  // every other element of two rows
  jt::fill_strided(2, buf.data(), DType::Int64, sz, st, jt::Scalar{true, (1LL << 60) + 3, 0});
  int bad = 0;
  for (int i = 0; i < 20; ++i) bad += buf[i] != (i % 2 == 0 ? (1LL << 60) + 3 : 0);
  CHECK_EQ(bad, 0);
  std::vector<float> ar(50);
  jt::arange(ar.data(), DType::Float32, 50, jt::Scalar{false, 0, 1.0}, jt::Scalar{false, 0, 0.5});
  CHECK(ar[49] == 25.5f);
  std::vector<double> ls(5);
  jt::linspace(ls.data(), DType::Float64, 5, -1.0, 1.0);
  CHECK(ls[0] == -1.0 && ls[2] == 0.0 && ls[4] == 1.0);
  Half h;
  jt::store_f64(&h, DType::Float16, 0.1);
  CHECK(std::fabs(jt::load_f64(&h, DType::Float16) - 0.1) < 1e-4);
  int8_t i8;
  jt::store_i64(&i8, DType::Int8, 130);
  CHECK_EQ(jt::load_i64(&i8, DType::Int8), -126);
}

// Bool bytes other than 0/1 (a uint8 tensor viewed as bool) read as true, as PyTorch reads them:
// converting copies (contiguous, strided, broadcast) and single-element loads.
static void bool_bytes_read_as_true() {
  const uint8_t bytes[] = {0, 1, 191, 2, 128, 0};
  const void* src = bytes;
  int64_t got[6], sz[] = {6}, one[] = {1};
  jt::copy_strided(plan(1, got, DType::Int64, src, DType::Bool, sz, one, one));
  CHECK(got[0] == 0 && got[1] == 1 && got[2] == 1 && got[3] == 1 && got[4] == 1 && got[5] == 0);
  double f[3];
  int64_t sz3[] = {3}, two[] = {2}, zero[] = {0};
  jt::copy_strided(plan(1, f, DType::Float64, bytes + 1, DType::Bool, sz3, one, two));  // 1, 2, 0
  CHECK(f[0] == 1.0 && f[1] == 1.0 && f[2] == 0.0);
  jt::copy_strided(plan(1, f, DType::Float64, bytes + 2, DType::Bool, sz3, one, zero));  // 191 broadcast
  CHECK(f[0] == 1.0 && f[2] == 1.0);
  uint8_t normalised[6];
  jt::copy_strided(plan(1, normalised, DType::UInt8, src, DType::Bool, sz, one, one));
  CHECK(normalised[2] == 1 && normalised[3] == 1 && normalised[5] == 0);
  CHECK_EQ(jt::load_i64(bytes + 2, DType::Bool), 1);
  CHECK(jt::load_f64(bytes + 3, DType::Bool) == 1.0);
  CHECK_EQ(jt::load_i64(bytes + 5, DType::Bool), 0);
}

// Resizing the pool after jobs have run must not replay an old job on the new workers.
static void thread_pool_resize() {
  const int64_t n = 200000;
  std::vector<float> src(n, 2.f), dst(n);
  int64_t sz[] = {n}, one[] = {1};
  for (int threads : {2, 1, 3, 2}) {
    jt::set_num_threads(threads);
    CHECK_EQ(jt::get_num_threads(), threads);
    std::fill(dst.begin(), dst.end(), 0.f);
    jt::copy_strided(plan(1, dst.data(), DType::Float32, src.data(), DType::Float32, sz, one, one));
    CHECK(dst[0] == 2.f && dst[n - 1] == 2.f);
  }
}

// An exception in a worker's chunk reaches the caller of parallel_for; the pool keeps working.
static void parallel_for_rethrows_on_the_caller() {
  jt::set_num_threads(2);
  bool caught = false;
  try {
    jt::parallel_for(0, 1 << 20, 1, [](int64_t b, int64_t) {
      if (b > 0) throw std::bad_alloc();  // only the worker's chunk starts past 0
    });
  } catch (const std::bad_alloc&) {
    caught = true;
  }
  CHECK(caught);
  std::atomic<int64_t> sum{0};
  jt::parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) { sum += e - b; });
  CHECK_EQ(sum.load(), 1000);
}

int main() {
  half_rounding();
  bfloat16_rounding();
  double_to_half_rounds_once();
  integer_and_bool_conversions();
  contiguous_and_converting_copy();
  transposed_copy(300, 200);
  transposed_copy(17, 1000);
  transposed_copy(1200, 1104);     // past 4 MiB, rows 32-byte aligned: AVX2 streaming stores
  transposed_copy(1200, 1100, 4);  // rows only 16-byte aligned: SSE2 streaming stores
  batched_transpose_and_broadcast();
  fill_arange_linspace_and_elements();
  bool_bytes_read_as_true();
  thread_pool_resize();
  parallel_for_rethrows_on_the_caller();
  return jt_report("copy_test");
}
