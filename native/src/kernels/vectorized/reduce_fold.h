// The folds the CPU reductions are made of (reduce.cpp): the reduction ops, the kept and reduced
// dims of a plan, and the cascaded and fixed-lane folds that give a float sum PyTorch's accuracy
// whatever the CPU capability. Compiled into each capability's namespace.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/reduce.h"
#include "kernels/strided.h"
#include "kernels/vectorized/capability_namespace.h"

JT_CPU_CAP_BEGIN
namespace fold {


template <typename A>
struct SumOp {
  static A init() { return A(0); }
  static A combine(A a, A b) { return a + b; }
};
template <typename A>
struct ProdOp {
  static A init() { return A(1); }
  static A combine(A a, A b) { return a * b; }
};
template <typename A>
struct MaxOp {
  static A init() { return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::lowest(); }
  static A combine(A a, A b) {
    if constexpr (std::is_floating_point<A>::value) if (a != a || b != b) return a != a ? a : b;
    return a > b ? a : b;
  }
};
template <typename A>
struct MinOp {
  static A init() { return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity() : std::numeric_limits<A>::max(); }
  static A combine(A a, A b) {
    if constexpr (std::is_floating_point<A>::value) if (a != a || b != b) return a != a ? a : b;
    return a < b ? a : b;
  }
};
struct AnyOp {
  static bool init() { return false; }
  static bool combine(bool a, bool b) { return a || b; }
};
struct AllOp {
  static bool init() { return true; }
  static bool combine(bool a, bool b) { return a && b; }
};

struct Dims {
  int n = 0;
  int64_t size[kMaxDims], in[kMaxDims], out[kMaxDims];
  int64_t numel() const {
    int64_t r = 1;
    for (int d = 0; d < n; ++d) r *= size[d];
    return r;
  }
  // innermost first by input stride, then merge neighbours contiguous in both strides
  void sort_and_merge(bool merge_out) {
    for (int a = 1; a < n; ++a)
      for (int b = a; b > 0 && in[b - 1] > in[b]; --b) {
        std::swap(size[b - 1], size[b]);
        std::swap(in[b - 1], in[b]);
        std::swap(out[b - 1], out[b]);
      }
    int k = 0;
    for (int d = 1; d < n; ++d) {
      if (in[d] == in[k] * size[k] && (!merge_out || out[d] == out[k] * size[k])) {
        size[k] *= size[d];
      } else {
        ++k;
        size[k] = size[d], in[k] = in[d], out[k] = out[d];
      }
    }
    if (n > 0) n = k + 1;
  }
  // element offsets (in elements) of flat index i, innermost-first order
  void offsets(int64_t i, int64_t& in_off, int64_t& out_off) const {
    in_off = out_off = 0;
    for (int d = 0; d < n; ++d) {
      int64_t x = i % size[d];
      i /= size[d];
      in_off += x * in[d];
      out_off += x * out[d];
    }
  }
};

// Note [Cascade]
// A float sum that adds one term at a time to one total drifts by about n roundings (1e6 float32
// 0.1s gave 100958 where PyTorch gives 99999.95). Partial sums meet in levels of 16, as PyTorch's
// cascade_sum: strided runs, run after run, and row after row when a kept dim is innermost.
template <typename Op, typename A>
constexpr bool kCascade = std::is_floating_point<A>::value && std::is_same<Op, SumOp<A>>::value;

template <typename Op, typename A>
struct Cascade {
  static constexpr int kLevels = 8;
  A lvl[kLevels];
  int64_t n = 0;
  Cascade() {
    for (auto& l : lvl) l = Op::init();
  }
  void add(A v) {
    lvl[0] = Op::combine(lvl[0], v);
    ++n;
    for (int k = 0; k + 1 < kLevels && (n & ((int64_t(1) << (4 * (k + 1))) - 1)) == 0; ++k) {
      lvl[k + 1] = Op::combine(lvl[k + 1], lvl[k]);
      lvl[k] = Op::init();
    }
  }
  A total() const {
    A t = lvl[0];
    for (int k = 1; k < kLevels; ++k) t = Op::combine(t, lvl[k]);
    return t;
  }
};

// The same across rows: m accumulators (acc) take each row through up to three levels of m.
template <typename Op, typename A>
struct RowCascade {
  A* acc;
  int64_t m, rows = 0;
  int levels = 0;
  std::unique_ptr<A[]> buf;  // not vector<A>: A may be bool
  RowCascade(A* acc_, int64_t m_, int64_t nrows) : acc(acc_), m(m_) {
    if constexpr (kCascade<Op, A>)
      for (int64_t span = 16; span < nrows && levels < 3; span *= 16) ++levels;
    if (levels) {
      buf.reset(new A[(size_t)(m * levels)]);
      std::fill(buf.get(), buf.get() + m * levels, Op::init());
    }
  }
  A* target() { return levels ? buf.get() : acc; }
  void fold(int k) {
    A* from = buf.get() + k * m;
    A* to = k + 1 < levels ? from + m : acc;
    for (int64_t i = 0; i < m; ++i) to[i] = Op::combine(to[i], from[i]), from[i] = Op::init();
  }
  void end_row() {
    if (!levels) return;
    ++rows;
    for (int k = 0, shift = 4; k < levels && (rows & ((int64_t(1) << shift) - 1)) == 0; ++k, shift += 4) fold(k);
  }
  void finish() {
    for (int k = 0; k < levels; ++k) fold(k);
  }
};

// Note [Fixed lanes]
// A contiguous run folds into kLanes independent accumulators, element i into lane i % kLanes,
// blocks of kBlock elements at a time whose lane results then fold into a second set (a two-level
// cascade: each lane adds 64 numbers before they meet the running total, which keeps a float
// sum's error near PyTorch's cascade). The count is fixed, not the vector width: every CPU
// capability adds the same numbers in the same order and gets the same bits, and 64 lanes fill
// AVX-512's vectors four times over, so the adds of one block do not wait on each other.
template <typename Op, typename T, typename A>
A fold_run(const T* x, int64_t stride, int64_t n, A acc) {
  if (stride == 1) {
    constexpr int kLanes = 64;
    constexpr int64_t kBlock = 64 * kLanes;
    // Note [Cascade]: a float sum's block totals meet lane by lane in two more levels (16 blocks,
    // then 256) before the running total; other ops fold each block straight into total.
    A total[kLanes], lanes[kLanes], mid[kLanes], high[kLanes];
    for (int k = 0; k < kLanes; ++k) total[k] = mid[k] = high[k] = Op::init();
    int64_t i = 0, blocks = 0;
    for (; i + kBlock <= n; i += kBlock) {
      for (auto& l : lanes) l = Op::init();
      for (int64_t j = i; j < i + kBlock; j += kLanes)
        for (int k = 0; k < kLanes; ++k) lanes[k] = Op::combine(lanes[k], (A)load_elem(x + j + k));
      if constexpr (kCascade<Op, A>) {
        for (int k = 0; k < kLanes; ++k) mid[k] = Op::combine(mid[k], lanes[k]);
        if ((++blocks & 15) == 0) {
          for (int k = 0; k < kLanes; ++k) high[k] = Op::combine(high[k], mid[k]), mid[k] = Op::init();
          if ((blocks & 255) == 0)
            for (int k = 0; k < kLanes; ++k) total[k] = Op::combine(total[k], high[k]), high[k] = Op::init();
        }
      } else {
        for (int k = 0; k < kLanes; ++k) total[k] = Op::combine(total[k], lanes[k]);
      }
    }
    if constexpr (kCascade<Op, A>)
      for (int k = 0; k < kLanes; ++k) total[k] = Op::combine(total[k], Op::combine(high[k], mid[k]));
    for (; i + kLanes <= n; i += kLanes)
      for (int k = 0; k < kLanes; ++k) total[k] = Op::combine(total[k], (A)load_elem(x + i + k));
    for (; i < n; ++i) acc = Op::combine(acc, (A)load_elem(x + i));
    for (int w = kLanes / 2; w > 0; w /= 2)  // the lanes meet pairwise, in a fixed tree
      for (int k = 0; k < w; ++k) total[k] = Op::combine(total[k], total[k + w]);
    return Op::combine(acc, total[0]);
  }
  if constexpr (kCascade<Op, A>) {
    Cascade<Op, A> c;
    for (int64_t i = 0; i < n; ++i) c.add((A)load_elem(x + i * stride));
    return Op::combine(acc, c.total());
  }
  for (int64_t i = 0; i < n; ++i) acc = Op::combine(acc, (A)load_elem(x + i * stride));
  return acc;
}

// Folds every element of the reduced space R (starting at x) into acc, for flat R range [b, e).
template <typename Op, typename T, typename A>
A fold_space(const T* x, const Dims& R, int64_t b, int64_t e, A acc) {
  if (R.n == 0) return Op::combine(acc, (A)load_elem(x));
  const int64_t inner = R.size[0];
  Cascade<Op, A> runs;  // Note [Cascade]: the runs' sums meet in levels
  for (int64_t i = b; i < e;) {
    int64_t off, unused;
    R.offsets(i, off, unused);
    int64_t n = std::min(inner - i % inner, e - i);
    if constexpr (kCascade<Op, A>) runs.add(fold_run<Op, T, A>(x + off, R.in[0], n, Op::init()));
    else acc = fold_run<Op, T, A>(x + off, R.in[0], n, acc);
    i += n;
  }
  if constexpr (kCascade<Op, A>) acc = Op::combine(acc, runs.total());
  return acc;
}

}  // namespace fold
JT_CPU_CAP_END
