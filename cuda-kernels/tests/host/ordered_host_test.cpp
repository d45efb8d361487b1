// The CUDA scan (a thread per line; cummax, cummin, logcumsumexp too), sort (gather, every merge pass, scatter) and nonzero (chunk
// counts, host prefix, chunk writes) run element by element on the host, over a grid emulated by
// loops, against the CPU kernels through the C API: the same bytes for every dtype, dim, stride
// and length tried (sort: stable indices too; floats with NaN, -0.0 and ties).
#include <cstring>
#include <random>
#include <vector>

#include "check.h"
#include "jt/jt.h"
#include "jt/nonzero_chunks.h"
#include "scan_logic.cuh"
#include "sort_logic.cuh"

using namespace jt;
using namespace jt::cuda;

namespace {

using V = std::vector<int64_t>;
std::mt19937_64 rng(20261124);

// n elements of T (std::vector<bool> holds no bools).
template <typename T>
struct Buf {
  std::vector<T> v;
  explicit Buf(int64_t n) : v((size_t)n) {}
  T* data() { return v.data(); }
  bool operator==(const Buf& o) const { return std::memcmp(v.data(), o.v.data(), v.size() * sizeof(T)) == 0; }
};
template <>
struct Buf<bool> {
  std::vector<unsigned char> v;
  explicit Buf(int64_t n) : v((size_t)n) {}
  bool* data() { return reinterpret_cast<bool*>(v.data()); }
  bool operator==(const Buf& o) const { return v == o.v; }
};

V cat(std::initializer_list<V> parts) {
  V out;
  for (const V& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// n random elements of T as raw bytes: small integers so that ties occur, a few NaN, -0.0 and 0.
template <typename T>
Buf<T> random_elements(int64_t n) {
  Buf<T> v(n);
  for (int64_t i = 0; i < n; ++i) {
    T& x = v.data()[i];
    const int r = (int)(rng() % 16);
    double d = r < 2 ? 0.0 : r == 2 ? -0.0 : (double)((int64_t)(rng() % 9) - 4) / (r % 2 ? 1 : 4);
    if (r == 3 && std::is_floating_point<opmath_t<T>>::value) d = NAN;
    x = convert<T, double>(d);
  }
  return v;
}

template <typename T>
int64_t code() { return (int64_t)DTypeOf<T>::value; }

V contiguous_strides(const V& sizes) {
  V s(sizes.size());
  int64_t k = 1;
  for (size_t d = sizes.size(); d-- > 0;) s[d] = k, k *= sizes[d];
  return s;
}

// Strides of a tensor with `sizes` stored with its dims reversed (a transposed view).
V reversed_strides(const V& sizes) {
  V s(sizes.size());
  int64_t k = 1;
  for (size_t d = 0; d < sizes.size(); ++d) s[d] = k, k *= sizes[d];
  return s;
}

int64_t numel(const V& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

template <typename T>
void scan_case(const char* op, const V& sizes, int64_t dim, bool transposed) {
  using O = typename ScanTypes<T>::O;
  const int64_t n = numel(sizes);
  Buf<T> in = random_elements<T>(n);
  Buf<O> cpu(n), gpu(n);
  const V is = transposed ? reversed_strides(sizes) : contiguous_strides(sizes), os = contiguous_strides(sizes);
  const int64_t nd = (int64_t)sizes.size();
  V plan = cat({{JT_PLAN_VERSION, jt_scan_op_id(op), code<T>(), code<O>(), nd, dim, (int64_t)cpu.data(), (int64_t)in.data(), 0},
                sizes, os, is, os});
  CHECK_EQ(jt_scan(plan.data()), JT_OK);
  plan[6] = (int64_t)gpu.data();
  ScanArgs a;
  CHECK(prepare_scan(scan_plan(plan.data()), a));
  for (int64_t l = 0; l < a.lines.count; ++l) a.prod ? scan_line<T, true>(a, l) : scan_line<T, false>(a, l);
  CHECK(cpu == gpu);
}

template <typename T>
void sort_case(const V& sizes, int64_t dim, bool descending, bool transposed) {
  const int64_t n = numel(sizes), nd = (int64_t)sizes.size();
  Buf<T> in = random_elements<T>(n), cpu_v(n), gpu_v(n);
  V cpu_i((size_t)n), gpu_i((size_t)n);
  const V is = transposed ? reversed_strides(sizes) : contiguous_strides(sizes), os = contiguous_strides(sizes);
  V plan = cat({{JT_PLAN_VERSION, code<T>(), nd, dim, descending, (int64_t)cpu_v.data(), (int64_t)cpu_i.data(), (int64_t)in.data()},
                sizes, os, os, is});
  CHECK_EQ(jt_sort(plan.data()), JT_OK);
  plan[5] = (int64_t)gpu_v.data();
  plan[6] = (int64_t)gpu_i.data();
  SortArgs a;
  CHECK(prepare_sort(sort_plan(plan.data()), a));
  Buf<T> keys[2] = {Buf<T>(n), Buf<T>(n)};
  V pos[2] = {V((size_t)n), V((size_t)n)};
  for (int64_t e = 0; e < n; ++e) sort_gather<T>(a, e, keys[0].data(), pos[0].data());
  int cur = 0, passes = 0;
  for (int64_t w = 1; w < a.lines.len; w *= 2, cur ^= 1, ++passes)
    for (int64_t e = 0; e < n; ++e)
      sort_merge_step<T>(a.lines.len, w, a.descending, e, keys[cur].data(), pos[cur].data(), keys[cur ^ 1].data(), pos[cur ^ 1].data());
  CHECK_EQ(passes, sort_passes(a.lines.len));
  for (int64_t e = 0; e < n; ++e) sort_scatter<T>(a, e, keys[cur].data(), pos[cur].data());
  CHECK(cpu_v == gpu_v);
  CHECK(cpu_i == gpu_i);
}

template <typename T>
void nonzero_case(const V& sizes, bool transposed) {
  const int64_t n = numel(sizes), nd = (int64_t)sizes.size();
  Buf<T> in = random_elements<T>(n);
  const V is = transposed ? reversed_strides(sizes) : contiguous_strides(sizes);
  V plan = cat({{JT_PLAN_VERSION, code<T>(), nd, (int64_t)in.data(), 0, 0}, sizes, is});
  int64_t count = -1;
  CHECK_EQ(jt_nonzero(plan.data(), &count), JT_OK);
  V cpu((size_t)(count * nd)), gpu((size_t)(count * nd));
  plan[4] = (int64_t)cpu.data();
  plan[5] = count;
  int64_t found = -1;
  CHECK_EQ(jt_nonzero(plan.data(), &found), JT_OK);
  CHECK_EQ(found, count);
  plan[4] = (int64_t)gpu.data();
  NonzeroArgs a;
  CHECK(prepare_nonzero(nonzero_plan(plan.data()), 1024, 65536, a));  // CUDA's chunks
  CHECK((a.n == 0 || a.chunks >= 1) && a.chunks <= 65536 && a.chunk * a.chunks >= a.n);
  V starts((size_t)a.chunks);
  int64_t total = 0;
  for (int64_t c = 0; c < a.chunks; ++c) starts[(size_t)c] = total, total += nonzero_chunk_count<T>(a, c);
  CHECK_EQ(total, count);
  for (int64_t c = 0; c < a.chunks; ++c) nonzero_chunk_write<T>(a, c, starts[(size_t)c]);
  CHECK(cpu == gpu);
}

// cummax/cummin (the values and the int64 positions) and logcumsumexp: the thread-per-line CUDA
// code against the CPU kernel. logcumsumexp only where both accumulate alike (not float32: the CPU
// adds in double, CUDA in float, as PyTorch's two devices).
template <typename T>
void ordered_scan_case(const char* op, const V& sizes, int64_t dim, bool transposed) {
  const bool lcse = std::strcmp(op, "logcumsumexp") == 0;
  if (lcse && (!is_floating<T>::value || std::is_same<T, float>::value)) return;
  const int64_t n = numel(sizes);
  Buf<T> in = random_elements<T>(n), cpu(n), gpu(n);
  Buf<int64_t> cpu_at(n), gpu_at(n);
  const V is = transposed ? reversed_strides(sizes) : contiguous_strides(sizes), os = contiguous_strides(sizes);
  const int64_t nd = (int64_t)sizes.size();
  V plan = cat({{JT_PLAN_VERSION, jt_scan_op_id(op), code<T>(), code<T>(), nd, dim, (int64_t)cpu.data(), (int64_t)in.data(),
                 lcse ? 0 : (int64_t)cpu_at.data()}, sizes, os, is, os});
  CHECK_EQ(jt_scan(plan.data()), JT_OK);
  plan[6] = (int64_t)gpu.data();
  if (!lcse) plan[8] = (int64_t)gpu_at.data();
  OrderedScanArgs a;
  CHECK(prepare_ordered_scan(scan_plan(plan.data()), a));
  for (int64_t l = 0; l < a.lines.count; ++l) ordered_scan_line<T>(a, l);
  CHECK(cpu == gpu);
  CHECK(cpu_at == gpu_at);
}

template <typename T>
void all_cases() {
  for (bool tr : {false, true}) {
    for (int64_t dim = 0; dim < 3; ++dim) {
      scan_case<T>("cumsum", {5, 7, 3}, dim, tr);
      scan_case<T>("cumprod", {4, 6, 2}, dim, tr);
      for (const char* op : {"cummax", "cummin", "logcumsumexp"}) ordered_scan_case<T>(op, {5, 9, 3}, dim, tr);
    }
    for (V sizes : {V{1, 1}, V{3, 2}, V{4, 37}, V{2, 100}, V{65, 3}})
      for (int64_t dim = 0; dim < 2; ++dim)
        for (bool desc : {false, true}) sort_case<T>(sizes, dim, desc, tr);
    for (V sizes : {V{0, 4}, V{7}, V{13, 11}, V{40, 60, 3}}) nonzero_case<T>(sizes, tr);
  }
}

}  // namespace

int main() {
  all_cases<float>();
  all_cases<double>();
  all_cases<Half>();
  all_cases<BFloat16>();
  all_cases<int64_t>();
  all_cases<int32_t>();
  all_cases<int8_t>();
  all_cases<uint8_t>();
  all_cases<bool>();
  nonzero_case<float>({3000, 1000}, false);  // several chunks of more than 1024 elements
  sort_case<float>({1, 5000}, 0, false, false);
  sort_case<float>({1, 5000}, 1, true, true);
  return jt_report("ordered_host_test");
}
