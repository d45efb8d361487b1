// Indexing cases shared by the CUDA kernels' tests: each runs a plan on the CPU (jt_index_along,
// jt_index_advanced) and under test, over copies of the same bytes, and checks the statuses, bad
// values and every byte written agree. The test defines under_test: the host test runs the kernels'
// logic over an emulated grid (host/index_host_test.cpp), the GPU test the jtc_ entry points on the
// device (cuda_index_test.cpp). Values are small integers, so float sums are exact in any order and
// accumulations agree bit for bit; scatter and put positions are distinct where results are compared.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

#include "check.h"
#include "jt/dtype.h"
#include "jt/jt.h"
#include "jt/plans.h"

namespace index_cases {

using V = std::vector<int64_t>;
using jt::DType;
constexpr int kI32 = (int)DType::Int32, kI64 = (int)DType::Int64, kF64 = (int)DType::Float64;
inline const int kGather = jt_index_along_mode("gather"), kScatter = jt_index_along_mode("scatter"),
                 kAccumulate = jt_index_along_mode("accumulate");

inline uint64_t rng = 88172645463325252ull;
inline int64_t next(int64_t bound) {  // [0, bound)
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)bound);
}

// Bytes of n elements of a dtype, whole 8-byte words (a 1-byte element's CAS word stays inside).
struct Buf {
  std::vector<uint64_t> words;
  int dtype;
  Buf(int dt, int64_t n) : words((size_t)((n * (int64_t)jt::dtype_size((DType)dt) + 7) / 8 + 1)), dtype(dt) {}
  int64_t bytes() const { return (int64_t)words.size() * 8; }
  int64_t addr() const { return (int64_t)words.data(); }
  void set(int64_t i, int64_t v) {
    jt::dispatch_dtype((DType)dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      reinterpret_cast<T*>(words.data())[i] = jt::convert<T>(v);
    });
  }
  // small integers: float sums are exact in any order, so the GPU's and the CPU's agree bit for bit
  void random(int64_t n, int64_t lo, int64_t hi) {
    for (int64_t i = 0; i < n; ++i) set(i, lo + next(hi - lo));
  }
};

inline V cat(std::initializer_list<V> parts) {
  V out;
  for (const V& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// How the kernels under test run a plan: made by plan_of from the addresses (where the test runs
// it) of bufs, whose bytes it leaves in bufs. advanced: an index_advanced plan, else index_along.
using PlanOf = std::function<V(const V& addresses)>;
int under_test(bool advanced, const PlanOf& plan_of, const std::vector<Buf*>& bufs, int64_t* bad);

inline PlanOf along_plan(int mode, int dtype, int index_dtype, int dim, int64_t dim_size, const V& shape, const V& ss,
                         const V& is, const V& os) {
  return [=](const V& a) {  // a: self, index, other
    return cat({{JT_PLAN_VERSION, mode, dtype, index_dtype, (int64_t)shape.size(), dim, dim_size, a[0], a[1], a[2]}, shape,
                ss, is, os});
  };
}

// Runs an along plan on the CPU and under test; returns the CPU's status.
inline int along_both(int mode, int dtype, int index_dtype, int dim, int64_t dim_size, const Buf& self, const Buf& index,
                      const Buf& other, const V& shape, const V& ss, const V& is, const V& os) {
  const PlanOf plan_of = along_plan(mode, dtype, index_dtype, dim, dim_size, shape, ss, is, os);
  Buf self_cpu = self, other_cpu = other, self_test = self, index_test = index, other_test = other;
  int64_t bad_cpu[2] = {-7, -7}, bad_test[2] = {-7, -7};
  V pc = plan_of({self_cpu.addr(), index.addr(), other_cpu.addr()});
  const int st = jt_index_along(pc.data(), bad_cpu);
  CHECK_EQ(under_test(false, plan_of, {&self_test, &index_test, &other_test}, bad_test), st);
  if (st == JT_INDEX_OUT_OF_RANGE) {
    CHECK_EQ(bad_test[0], bad_cpu[0]);
    CHECK(self_test.words == self.words);  // nothing written to self
  } else {
    CHECK(self_test.words == self_cpu.words);
    CHECK(other_test.words == other_cpu.words);
  }
  return st;
}

// gather from a transposed self along either dim, with an index of its own strides
inline void gather(int dtype, int index_dtype) {
  const int64_t r = 5, c = 7;
  Buf self(dtype, r * c), index(index_dtype, 6 * 4), other(dtype, 6 * 4);
  self.random(r * c, -50, 50);
  for (int dim = 0; dim < 2; ++dim) {
    const int64_t size = dim == 0 ? r : c;
    for (int64_t i = 0; i < 24; ++i) index.set(i, next(size));
    // iteration shape [4, 3]; self read as a [r, c] transpose of a [c, r] buffer; index transposed too
    CHECK_EQ(along_both(kGather, dtype, index_dtype, dim, size, self, index, other, {4, 3}, {1, r}, {1, 4}, {3, 1}), JT_OK);
    // the index is read as [4, 3] by strides (1, 4): element 7 is item (3, 1), element 2 item (2, 0),
    // the first in the CPU's order though the emulated grid meets it later
    index.set(7, size);
    index.set(2, -1);  // negative: refused, as PyTorch's gather refuses it
    CHECK_EQ(along_both(kGather, dtype, index_dtype, dim, size, self, index, other, {4, 3}, {1, r}, {1, 4}, {3, 1}),
             JT_INDEX_OUT_OF_RANGE);
  }
}

// index_select (one index per slice, stride 0 elsewhere) and index_add_ (the same walk, adding)
inline void select_and_add(int dtype, int index_dtype) {
  const int64_t r = 6, c = 5, n = 9;  // self [r, c], dim 0, index of n with repeats
  Buf self(dtype, r * c), index(index_dtype, n), other(dtype, n * c);
  self.random(r * c, -20, 20);
  other.random(n * c, -20, 20);
  for (int64_t i = 0; i < n; ++i) index.set(i, next(r));
  CHECK_EQ(along_both(kGather, dtype, index_dtype, 0, r, self, index, other, {n, c}, {c, 1}, {1, 0}, {c, 1}), JT_OK);
  CHECK_EQ(along_both(kAccumulate, dtype, index_dtype, 0, r, self, index, other, {n, c}, {c, 1}, {1, 0}, {c, 1}), JT_OK);
  // other broadcast along dim 1 (stride 0) and accumulated along dim 1 of self
  Buf index1(index_dtype, r * c);
  for (int64_t i = 0; i < r * c; ++i) index1.set(i, next(c));
  CHECK_EQ(along_both(kAccumulate, dtype, index_dtype, 1, c, self, index1, other, {r, c}, {c, 1}, {c, 1}, {1, 0}), JT_OK);
  index.set(5, r);
  index.set(8, -1);
  CHECK_EQ(along_both(kAccumulate, dtype, index_dtype, 0, r, self, index, other, {n, c}, {c, 1}, {1, 0}, {c, 1}),
           JT_INDEX_OUT_OF_RANGE);
}

// scatter with distinct positions (the result is then unique), and with a bad index
inline void scatter(int dtype, int index_dtype) {
  const int64_t r = 4, c = 6;
  Buf self(dtype, r * c), index(index_dtype, r * c), other(dtype, 2 * r * c);
  self.random(r * c, -9, 9);
  other.random(2 * r * c, -9, 9);
  for (int64_t i = 0; i < r; ++i)  // each row of index a permutation of 0..c-1
    for (int64_t j = 0; j < c; ++j) index.set(i * c + j, (j * 5 + i) % c);
  // other read with row stride 2c (a strided view)
  CHECK_EQ(along_both(kScatter, dtype, index_dtype, 1, c, self, index, other, {r, c}, {c, 1}, {c, 1}, {2 * c, 1}), JT_OK);
  index.set(3 * c + 1, c);
  index.set(0 * c + 4, -1);
  CHECK_EQ(along_both(kScatter, dtype, index_dtype, 1, c, self, index, other, {r, c}, {c, 1}, {c, 1}, {2 * c, 1}),
           JT_INDEX_OUT_OF_RANGE);
}

// scatter with repeated positions: each written element holds one of the values aimed at it
inline void scatter_repeats() {
  Buf self(kI32, 4), index(kI64, 8), other(kI32, 8);
  for (int64_t i = 0; i < 8; ++i) index.set(i, i % 3), other.set(i, 100 + i);
  self.random(4, 0, 5);
  int64_t bad[2];
  CHECK_EQ(under_test(false, along_plan(kScatter, kI32, kI64, 0, 4, {8}, {1}, {1}, {1}), {&self, &index, &other}, bad), JT_OK);
  const int32_t* s = reinterpret_cast<const int32_t*>(self.words.data());
  for (int k = 0; k < 3; ++k) CHECK(s[k] >= 100 && s[k] < 108 && (s[k] - 100) % 3 == k);
}

inline void along_edges() {
  Buf self(kI32, 4), index(kI64, 4), other(kI32, 4);
  CHECK_EQ(along_both(kScatter, kI32, kI64, 0, 4, self, index, other, {0, 3}, {1, 1}, {1, 1}, {1, 1}), JT_OK);
  CHECK_EQ(along_both(kScatter, kI32, (int)DType::Float32, 0, 4, self, index, other, {2}, {1}, {1}, {1}), JT_NO_KERNEL);
  int64_t bad[2];
  CHECK_EQ(under_test(false, along_plan(7, kI32, kI64, 0, 4, {2}, {1}, {1}, {1}), {&self, &index, &other}, bad), JT_INVALID);
}

// ---- advanced: self[i0, .., i(m-1), :, ...] with m index tensors broadcast over shape b ----

struct Advanced {
  V self_shape, b;   // self's shape; the indices' broadcast shape
  int m;             // indexed leading dims of self
  bool transposed;   // self's strides reversed (a transposed view of its buffer)
};

inline int advanced_both(const Advanced& t, bool put, int dtype, std::vector<Buf>& idx, const std::vector<V>& idx_strides,
                  const Buf& self, const Buf& other) {
  const int nb = (int)t.b.size(), ns = (int)t.self_shape.size();
  V shape = t.b, ss(ns), self_over(nb, 0), other_strides;
  int64_t stride = 1;
  for (int d = t.transposed ? 0 : ns - 1; t.transposed ? d < ns : d >= 0; d += t.transposed ? 1 : -1)
    ss[d] = stride, stride *= t.self_shape[d];
  for (int d = t.m; d < ns; ++d) shape.push_back(t.self_shape[d]), self_over.push_back(ss[d]);
  other_strides.resize(shape.size());
  stride = 1;
  for (int d = (int)shape.size() - 1; d >= 0; --d) other_strides[d] = stride, stride *= shape[d];
  V dts, sizes, sstr, istr;
  for (int j = 0; j < t.m; ++j) {
    dts.push_back(idx[j].dtype), sizes.push_back(t.self_shape[j]), sstr.push_back(ss[j]);
    V s = idx_strides[j];
    s.resize(shape.size(), 0);
    istr.insert(istr.end(), s.begin(), s.end());
  }
  const PlanOf plan_of = [=](const V& a) {  // a: self, other, the index tensors
    return cat({{JT_PLAN_VERSION, put, dtype, (int64_t)shape.size(), t.m, a[0], a[1]}, shape, self_over, other_strides,
                V(a.begin() + 2, a.end()), dts, sizes, sstr, istr});
  };
  Buf self_cpu = self, other_cpu = other, self_test = self, other_test = other;
  std::vector<Buf> idx_test = idx;
  V cpu_addresses = {self_cpu.addr(), other_cpu.addr()};
  std::vector<Buf*> bufs = {&self_test, &other_test};
  for (int j = 0; j < t.m; ++j) cpu_addresses.push_back(idx[j].addr()), bufs.push_back(&idx_test[j]);
  V pc = plan_of(cpu_addresses);
  int64_t bad_cpu[2] = {-7, -7}, bad_test[2] = {-7, -7};
  const int st = jt_index_advanced(pc.data(), bad_cpu);
  CHECK_EQ(under_test(true, plan_of, bufs, bad_test), st);
  if (st == JT_INDEX_OUT_OF_RANGE) {
    CHECK(bad_test[0] == bad_cpu[0] && bad_test[1] == bad_cpu[1]);
    CHECK(self_test.words == self.words);
  } else {
    CHECK(self_test.words == self_cpu.words);
    CHECK(other_test.words == other_cpu.words);
  }
  return st;
}

// x[rows, cols] of a [5, 6, 3] self, rows [4, 1] and cols [1, 3] broadcast to [4, 3]: get, then put
// of distinct positions, then each with bad indices
inline void advanced(int dtype, bool transposed) {
  Advanced t{{5, 6, 3}, {4, 3}, 2, transposed};
  Buf self(dtype, 90), other(dtype, 36);
  self.random(90, -30, 30);
  other.random(36, -30, 30);
  std::vector<Buf> idx = {Buf(kI64, 4), Buf(kI32, 3)};
  for (int i = 0; i < 4; ++i) idx[0].set(i, i - 5 * (i % 2));  // 0, -4, 2, -2: distinct rows
  for (int i = 0; i < 3; ++i) idx[1].set(i, 2 * i - 6 * (i == 2));  // 0, 2, -2
  std::vector<V> strides = {{1, 0}, {0, 1}};
  CHECK_EQ(advanced_both(t, false, dtype, idx, strides, self, other), JT_OK);
  CHECK_EQ(advanced_both(t, true, dtype, idx, strides, self, other), JT_OK);
  idx[1].set(2, 6);   // item (r, 2) for every r: bad in tensor 1
  idx[0].set(3, -6);  // item (3, c): bad in tensor 0, later
  CHECK_EQ(advanced_both(t, false, dtype, idx, strides, self, other), JT_INDEX_OUT_OF_RANGE);
  CHECK_EQ(advanced_both(t, true, dtype, idx, strides, self, other), JT_INDEX_OUT_OF_RANGE);
  idx[1].set(2, 1);
  CHECK_EQ(advanced_both(t, true, dtype, idx, strides, self, other), JT_INDEX_OUT_OF_RANGE);
}

// six index tensors (the large args) over a [3, 2, 3, 2, 3, 2, 4] self, each of its own shape
inline void many_indices() {
  Advanced t{{3, 2, 3, 2, 3, 2, 4}, {5}, 6, false};
  const int64_t numel = 3 * 2 * 3 * 2 * 3 * 2 * 4;
  Buf self(kF64, numel), other(kF64, 5 * 4);
  self.random(numel, -99, 99);
  std::vector<Buf> idx;
  std::vector<V> strides;
  for (int j = 0; j < 6; ++j) {
    idx.emplace_back(j % 2 ? kI32 : kI64, 5);
    const int64_t size = t.self_shape[j];
    for (int i = 0; i < 5; ++i) idx[j].set(i, next(2 * size) - size);
    strides.push_back({1});
  }
  CHECK_EQ(advanced_both(t, false, kF64, idx, strides, self, other), JT_OK);
  idx[4].set(3, 3);
  idx[5].set(3, -3);
  idx[2].set(4, 9);
  CHECK_EQ(advanced_both(t, false, kF64, idx, strides, self, other), JT_INDEX_OUT_OF_RANGE);
}

// Every case, for every dtype.
inline void run_all() {
  for (int dt = 0; dt < jt::kNumDTypes; ++dt) {
    gather(dt, dt % 2 ? kI32 : kI64);
    select_and_add(dt, kI64);
    select_and_add(dt, kI32);
    scatter(dt, dt % 2 ? kI64 : kI32);
    advanced(dt, dt % 2 == 0);
  }
  scatter_repeats();
  along_edges();
  many_indices();
}

}  // namespace index_cases
