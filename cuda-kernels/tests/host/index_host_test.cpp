// The CUDA indexing kernels' logic without a GPU: index_plans.cuh's entry sequence and
// index_items.cuh's per-item functions, run over a grid emulated by loops (items in a scrambled
// order, since a grid's threads keep none) on host memory, against the CPU's jt_index_along and
// jt_index_advanced on copies of the same bytes: every mode, dtypes of every width (the 1- and
// 2-byte accumulate through the compare-and-swap word), strided, transposed and broadcast
// operands, int32 and int64 indices, negative ones, and the first out-of-range index as the CPU
// reports it with nothing written.
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "index_plans.cuh"
#include "jt/jt.h"

using namespace jt;
using namespace jt::cuda;

namespace {

using V = std::vector<int64_t>;
constexpr int kI32 = (int)DType::Int32, kI64 = (int)DType::Int64;

// Items 0..n-1 in a scrambled order: evens up, then odds down.
template <typename F>
void each_item(int64_t n, F&& f) {
  for (int64_t i = 0; i < n; i += 2) f(i);
  for (int64_t i = (n - 1) | 1; i >= 1; i -= 2)
    if (i < n) f(i);
}

struct HostWord {
  uint64_t word = kNoBad;
  int open() {
    word = kNoBad;
    return JT_OK;
  }
  int first_bad(uint64_t* pos) {
    *pos = word;
    return JT_OK;
  }
  int read_index(const char* base, bool wide, int64_t off, int64_t* v) {
    *v = load_index(base, wide, off);
    return JT_OK;
  }
};

// As index_along.cu's kernels.
struct AlongHostGrid : HostWord {
  int check(const AlongArgs& a) {
    each_item(a.nchecked, [&](int64_t i) {
      if (!along_index_ok(a, i)) note_bad(&word, (uint64_t)i);
    });
    return JT_OK;
  }
  template <typename T, int MODE>
  int write(const AlongArgs& a) {
    each_item(a.n, [&](int64_t i) {
      if (!along_item<T, MODE>(a, i) && MODE == kGather) note_bad(&word, (uint64_t)i);
    });
    return JT_OK;
  }
};

// As index_advanced.cu's kernels.
struct AdvancedHostGrid : HostWord {
  template <int K>
  int check(const AdvancedArgs<K>& a) {
    each_item(a.n, [&](int64_t i) {
      const int j = advanced_item<void, K, true>(a, i);
      if (j >= 0) note_bad(&word, advanced_bad_key(a, i, j));
    });
    return JT_OK;
  }
  template <typename T, bool PUT, int K>
  int write(const AdvancedArgs<K>& a) {
    each_item(a.n, [&](int64_t i) {
      const int j = advanced_item<T, K, PUT>(a, i);
      if (!PUT && j >= 0) note_bad(&word, advanced_bad_key(a, i, j));
    });
    return JT_OK;
  }
};

uint64_t rng = 88172645463325252ull;
int64_t next(int64_t bound) {  // [0, bound)
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)bound);
}

// Bytes of n elements of a dtype, whole 8-byte words (a 1-byte element's CAS word stays inside).
struct Buf {
  std::vector<uint64_t> words;
  int dtype;
  Buf(int dt, int64_t n) : words((size_t)((n * (int64_t)dtype_size((DType)dt) + 7) / 8 + 1)), dtype(dt) {}
  int64_t addr() const { return (int64_t)words.data(); }
  void set(int64_t i, int64_t v) {
    dispatch_dtype((DType)dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      reinterpret_cast<T*>(words.data())[i] = convert<T>(v);
    });
  }
  // small integers: float sums are exact in any order, so the GPU's and the CPU's agree bit for bit
  void random(int64_t n, int64_t lo, int64_t hi) {
    for (int64_t i = 0; i < n; ++i) set(i, lo + next(hi - lo));
  }
};

V cat(std::initializer_list<V> parts) {
  V out;
  for (const V& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// The plan as the CPU gets it, with self and other swapped for the copies' addresses.
V along_plan(int mode, int dtype, int index_dtype, int dim, int64_t dim_size, const Buf& self, const Buf& index,
             const Buf& other, const V& shape, const V& ss, const V& is, const V& os) {
  return cat({{JT_PLAN_VERSION, mode, dtype, index_dtype, (int64_t)shape.size(), dim, dim_size, self.addr(), index.addr(),
               other.addr()}, shape, ss, is, os});
}

// Runs the plan on the CPU and on the emulated grid, each over its own copy of self and other;
// checks the statuses, bad values and every byte agree; returns the status.
int along_both(int mode, int dtype, int index_dtype, int dim, int64_t dim_size, const Buf& self, const Buf& index,
               const Buf& other, const V& shape, const V& ss, const V& is, const V& os) {
  Buf self_cpu = self, other_cpu = other, self_gpu = self, other_gpu = other;
  int64_t bad_cpu[2] = {-7, -7}, bad_gpu[2] = {-7, -7};
  V pc = along_plan(mode, dtype, index_dtype, dim, dim_size, self_cpu, index, other_cpu, shape, ss, is, os);
  V pg = along_plan(mode, dtype, index_dtype, dim, dim_size, self_gpu, index, other_gpu, shape, ss, is, os);
  const int st = jt_index_along(pc.data(), bad_cpu);
  AlongHostGrid grid;
  CHECK_EQ(run_along(pg.data(), bad_gpu, grid), st);
  if (st == JT_INDEX_OUT_OF_RANGE) {
    CHECK_EQ(bad_gpu[0], bad_cpu[0]);
    CHECK(self_gpu.words == self.words);  // nothing written to self
  } else {
    CHECK(self_gpu.words == self_cpu.words);
    CHECK(other_gpu.words == other_cpu.words);
  }
  return st;
}

// gather from a transposed self along either dim, with an index of its own strides
void gather(int dtype, int index_dtype) {
  const int64_t r = 5, c = 7;
  Buf self(dtype, r * c), index(index_dtype, 6 * 4), other(dtype, 6 * 4);
  self.random(r * c, -50, 50);
  for (int dim = 0; dim < 2; ++dim) {
    const int64_t size = dim == 0 ? r : c;
    for (int64_t i = 0; i < 24; ++i) index.set(i, next(2 * size) - size);  // negatives wrap
    // iteration shape [4, 3]; self read as a [r, c] transpose of a [c, r] buffer; index transposed too
    CHECK_EQ(along_both(kGather, dtype, index_dtype, dim, size, self, index, other, {4, 3}, {1, r}, {1, 4}, {3, 1}), JT_OK);
    // the index is read as [4, 3] by strides (1, 4): element 7 is item (3, 1), element 2 item (2, 0),
    // the first in the CPU's order though the emulated grid meets it later
    index.set(7, size);
    index.set(2, -size - 1);
    CHECK_EQ(along_both(kGather, dtype, index_dtype, dim, size, self, index, other, {4, 3}, {1, r}, {1, 4}, {3, 1}),
             JT_INDEX_OUT_OF_RANGE);
  }
}

// index_select (one index per slice, stride 0 elsewhere) and index_add_ (the same walk, adding)
void select_and_add(int dtype, int index_dtype) {
  const int64_t r = 6, c = 5, n = 9;  // self [r, c], dim 0, index of n with repeats
  Buf self(dtype, r * c), index(index_dtype, n), other(dtype, n * c);
  self.random(r * c, -20, 20);
  other.random(n * c, -20, 20);
  for (int64_t i = 0; i < n; ++i) index.set(i, next(2 * r) - r);
  CHECK_EQ(along_both(kGather, dtype, index_dtype, 0, r, self, index, other, {n, c}, {c, 1}, {1, 0}, {c, 1}), JT_OK);
  CHECK_EQ(along_both(kAccumulate, dtype, index_dtype, 0, r, self, index, other, {n, c}, {c, 1}, {1, 0}, {c, 1}), JT_OK);
  // other broadcast along dim 1 (stride 0) and accumulated along dim 1 of self
  Buf index1(index_dtype, r * c);
  for (int64_t i = 0; i < r * c; ++i) index1.set(i, next(c));
  CHECK_EQ(along_both(kAccumulate, dtype, index_dtype, 1, c, self, index1, other, {r, c}, {c, 1}, {c, 1}, {1, 0}), JT_OK);
  index.set(5, r);
  index.set(8, -r - 3);
  CHECK_EQ(along_both(kAccumulate, dtype, index_dtype, 0, r, self, index, other, {n, c}, {c, 1}, {1, 0}, {c, 1}),
           JT_INDEX_OUT_OF_RANGE);
}

// scatter with distinct positions (the result is then unique), and with a bad index
void scatter(int dtype, int index_dtype) {
  const int64_t r = 4, c = 6;
  Buf self(dtype, r * c), index(index_dtype, r * c), other(dtype, 2 * r * c);
  self.random(r * c, -9, 9);
  other.random(2 * r * c, -9, 9);
  for (int64_t i = 0; i < r; ++i)  // each row of index a permutation of 0..c-1, some written negative
    for (int64_t j = 0; j < c; ++j) index.set(i * c + j, (j * 5 + i) % c - (j % 2 ? c : 0));
  // other read with row stride 2c (a strided view)
  CHECK_EQ(along_both(kScatter, dtype, index_dtype, 1, c, self, index, other, {r, c}, {c, 1}, {c, 1}, {2 * c, 1}), JT_OK);
  index.set(3 * c + 1, c);
  index.set(0 * c + 4, -c - 1);
  CHECK_EQ(along_both(kScatter, dtype, index_dtype, 1, c, self, index, other, {r, c}, {c, 1}, {c, 1}, {2 * c, 1}),
           JT_INDEX_OUT_OF_RANGE);
}

// scatter with repeated positions: each written element holds one of the values aimed at it
void scatter_repeats() {
  Buf self(kI32, 4), index(kI64, 8), other(kI32, 8);
  for (int64_t i = 0; i < 8; ++i) index.set(i, i % 3), other.set(i, 100 + i);
  self.random(4, 0, 5);
  V p = along_plan(kScatter, kI32, kI64, 0, 4, self, index, other, {8}, {1}, {1}, {1});
  int64_t bad[2];
  AlongHostGrid grid;
  CHECK_EQ(run_along(p.data(), bad, grid), JT_OK);
  const int32_t* s = reinterpret_cast<const int32_t*>(self.words.data());
  for (int k = 0; k < 3; ++k) CHECK(s[k] >= 100 && s[k] < 108 && (s[k] - 100) % 3 == k);
}

// the compare-and-swap word: each lane of a word accumulated alone, the others kept
void cas_lanes() {
  uint32_t word = 0x80FF7F01u;
  int8_t* lanes = reinterpret_cast<int8_t*>(&word);
  accumulate_at(lanes + 1, (int8_t)1);   // 0x7F + 1 wraps to 0x80
  accumulate_at(lanes + 3, (int8_t)-1);  // 0x80 - 1 wraps to 0x7F
  CHECK_EQ(word, 0x7FFF8001u);
  uint32_t halves = 0xFFFF0002u;
  int16_t* h = reinterpret_cast<int16_t*>(&halves);
  accumulate_at(h + 1, (int16_t)1);  // -1 + 1
  CHECK_EQ(halves, 0x00000002u);
  uint32_t flags = 0x00BE0000u;  // a bool byte of 190 reads true; true + false is stored as 1
  bool* b = reinterpret_cast<bool*>(&flags);
  accumulate_at(b + 2, false);
  accumulate_at(b + 0, true);
  CHECK_EQ(flags, 0x00010001u);
}

void along_edges() {
  Buf self(kI32, 4), index(kI64, 4), other(kI32, 4);
  CHECK_EQ(along_both(kScatter, kI32, kI64, 0, 4, self, index, other, {0, 3}, {1, 1}, {1, 1}, {1, 1}), JT_OK);
  CHECK_EQ(along_both(kScatter, kI32, (int)DType::Float32, 0, 4, self, index, other, {2}, {1}, {1}, {1}), JT_NO_KERNEL);
  V p = along_plan(7, kI32, kI64, 0, 4, self, index, other, {2}, {1}, {1}, {1});
  int64_t bad[2];
  AlongHostGrid grid;
  CHECK_EQ(run_along(p.data(), bad, grid), JT_INVALID);
}

// ---- advanced: self[i0, .., i(m-1), :, ...] with m index tensors broadcast over shape b ----

struct Advanced {
  V self_shape, b;   // self's shape; the indices' broadcast shape
  int m;             // indexed leading dims of self
  bool transposed;   // self's strides reversed (a transposed view of its buffer)
};

int advanced_both(const Advanced& t, bool put, int dtype, std::vector<Buf>& idx, const std::vector<V>& idx_strides,
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
  V data, dts, sizes, sstr, istr;
  for (int j = 0; j < t.m; ++j) {
    data.push_back(idx[j].addr()), dts.push_back(idx[j].dtype), sizes.push_back(t.self_shape[j]), sstr.push_back(ss[j]);
    V s = idx_strides[j];
    s.resize(shape.size(), 0);
    istr.insert(istr.end(), s.begin(), s.end());
  }
  Buf self_cpu = self, other_cpu = other, self_gpu = self, other_gpu = other;
  auto plan = [&](const Buf& s, const Buf& o) {
    return cat({{JT_PLAN_VERSION, put, dtype, (int64_t)shape.size(), t.m, s.addr(), o.addr()}, shape, self_over, other_strides,
                data, dts, sizes, sstr, istr});
  };
  V pc = plan(self_cpu, other_cpu), pg = plan(self_gpu, other_gpu);
  int64_t bad_cpu[2] = {-7, -7}, bad_gpu[2] = {-7, -7};
  const int st = jt_index_advanced(pc.data(), bad_cpu);
  AdvancedHostGrid grid;
  CHECK_EQ(run_advanced(pg.data(), bad_gpu, grid), st);
  if (st == JT_INDEX_OUT_OF_RANGE) {
    CHECK(bad_gpu[0] == bad_cpu[0] && bad_gpu[1] == bad_cpu[1]);
    CHECK(self_gpu.words == self.words);
  } else {
    CHECK(self_gpu.words == self_cpu.words);
    CHECK(other_gpu.words == other_cpu.words);
  }
  return st;
}

// x[rows, cols] of a [5, 6, 3] self, rows [4, 1] and cols [1, 3] broadcast to [4, 3]: get, then put
// of distinct positions, then each with bad indices
void advanced(int dtype, bool transposed) {
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
void many_indices() {
  Advanced t{{3, 2, 3, 2, 3, 2, 4}, {5}, 6, false};
  const int64_t numel = 3 * 2 * 3 * 2 * 3 * 2 * 4;
  Buf self((int)DType::Float64, numel), other((int)DType::Float64, 5 * 4);
  self.random(numel, -99, 99);
  std::vector<Buf> idx;
  std::vector<V> strides;
  for (int j = 0; j < 6; ++j) {
    idx.emplace_back(j % 2 ? kI32 : kI64, 5);
    const int64_t size = t.self_shape[j];
    for (int i = 0; i < 5; ++i) idx[j].set(i, next(2 * size) - size);
    strides.push_back({1});
  }
  CHECK_EQ(advanced_both(t, false, (int)DType::Float64, idx, strides, self, other), JT_OK);
  idx[4].set(3, 3);
  idx[5].set(3, -3);
  idx[2].set(4, 9);
  CHECK_EQ(advanced_both(t, false, (int)DType::Float64, idx, strides, self, other), JT_INDEX_OUT_OF_RANGE);
}

}  // namespace

int main() {
  for (int dt = 0; dt < kNumDTypes; ++dt) {
    gather(dt, dt % 2 ? kI32 : kI64);
    select_and_add(dt, kI64);
    select_and_add(dt, kI32);
    scatter(dt, dt % 2 ? kI64 : kI32);
    advanced(dt, dt % 2 == 0);
  }
  scatter_repeats();
  cas_lanes();
  along_edges();
  many_indices();
  return jt_report("index_host_test");
}
