// Reductions over any set of dims. Dims are split into kept and reduced, each sorted innermost
// first by input stride. When a reduced dim is innermost, every output folds contiguous runs (64
// independent accumulators, so the loop vectorizes: Note [Fixed lanes]); when a kept dim is innermost, blocks of
// outputs accumulate row by row. A single output is split across threads in partials.
#include "kernels/reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/strided.h"

#include "kernels/vectorized/capability_namespace.h"

#if !JT_CPU_CAP_IS_BASELINE
namespace jt::baseline {
int reduce_run(const RedPlan& p);
}
#endif

JT_CPU_CAP_BEGIN
namespace {

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

template <typename Op, typename T, typename O, typename A>
void reduce_typed(const RedPlan& p) {
  Dims K, R;
  for (int d = 0; d < p.ndim; ++d) {
    Dims& D = p.out_strides[d] == 0 && p.reduced[d] ? R : K;
    D.size[D.n] = p.sizes[d], D.in[D.n] = p.in_strides[d], D.out[D.n] = p.out_strides[d];
    D.n++;
  }
  K.sort_and_merge(true);
  R.sort_and_merge(false);
  const T* in = static_cast<const T*>(p.in);
  O* out = static_cast<O*>(p.out);
  const int64_t nout = K.numel(), nred = R.numel();
  const double divisor = p.divisor;
  auto finish = [divisor](A a) -> O {
    // mean: the sum divided by the count, as PyTorch's sum_out(...).div_(n) (times 1/n rounds otherwise)
    if constexpr (std::is_floating_point<A>::value) return (O)(divisor == 1.0 ? a : (A)(a / (A)divisor));
    else return (O)a;
  };
  if (nout == 0) return;
  if (nred == 0 || R.n == 0 || K.n == 0 || R.in[0] < K.in[0]) {
    if (nout == 1) {  // one output: partial folds per thread, combined in order
      int nt = get_num_threads();
      int64_t chunk = std::max<int64_t>(kGrainSize, (nred + nt - 1) / nt);
      int64_t nchunks = (nred + chunk - 1) / chunk;
      std::vector<A> partials((size_t)std::max<int64_t>(nchunks, 1), Op::init());
      parallel_for(0, nchunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) partials[c] = fold_space<Op, T, A>(in, R, c * chunk, std::min(nred, (c + 1) * chunk), Op::init());
      });
      A acc = Op::init();
      for (A v : partials) acc = Op::combine(acc, v);
      out[0] = finish(acc);
      return;
    }
    parallel_for(0, nout, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(nred, 1)), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        int64_t ioff, ooff;
        K.offsets(o, ioff, ooff);
        out[ooff] = finish(fold_space<Op, T, A>(in + ioff, R, 0, nred, Op::init()));
      }
    });
    return;
  }
  // A kept dim is innermost (e.g. sum over dim 0). Each thread takes a share of the reduced
  // space and streams whole rows into its own accumulators over every output, so memory is read
  // front to back; the partials are combined at the end. Outputs too many to give each thread a
  // copy fall back to blocks of outputs walked row by row.
  const int64_t n0 = K.size[0], rest = nout / n0;
  Dims Krest = K;  // the kept dims after the innermost
  Krest.n = K.n - 1;
  for (int d = 0; d < Krest.n; ++d) Krest.size[d] = K.size[d + 1], Krest.in[d] = K.in[d + 1], Krest.out[d] = K.out[d + 1];
  auto accumulate_rows = [&](A* acc, int64_t r0, int64_t r1, int64_t k0, int64_t k1) {
    RowCascade<Op, A> rc(acc, (k1 - k0) * n0, r1 - r0);  // Note [Cascade]
    A* const level0 = rc.target();
    for (int64_t r = r0; r < r1; ++r, rc.end_row()) {
      int64_t roff, unused;
      R.offsets(r, roff, unused);
      for (int64_t kr = k0; kr < k1; ++kr) {
        int64_t ioff, ooff;
        Krest.offsets(kr, ioff, ooff);
        const T* row = in + ioff + roff;
        A* a = level0 + (kr - k0) * n0;
        if (K.in[0] == 1) {
          for (int64_t j = 0; j < n0; ++j) a[j] = Op::combine(a[j], (A)load_elem(row + j));
        } else {
          for (int64_t j = 0; j < n0; ++j) a[j] = Op::combine(a[j], (A)load_elem(row + j * K.in[0]));
        }
      }
    }
    rc.finish();
  };
  auto write_out = [&](const A* acc, int64_t k0, int64_t k1) {
    for (int64_t kr = k0; kr < k1; ++kr) {
      int64_t ioff, ooff;
      Krest.offsets(kr, ioff, ooff);
      for (int64_t j = 0; j < n0; ++j) out[ooff + j * K.out[0]] = finish(acc[(kr - k0) * n0 + j]);
    }
  };
  const int nt = get_num_threads();
  if (nout <= (int64_t)(1 << 20) && nred >= 2 * nt && nout * nred > kGrainSize) {
    const int64_t parts = std::min<int64_t>(nt, nred);
    std::unique_ptr<A[]> partial(new A[(size_t)(parts * nout)]);  // not vector<A>: A may be bool
    std::fill(partial.get(), partial.get() + parts * nout, Op::init());
    parallel_for(0, parts, 1, [&](int64_t b, int64_t e) {
      for (int64_t q = b; q < e; ++q)
        accumulate_rows(partial.get() + q * nout, q * nred / parts, (q + 1) * nred / parts, 0, rest);
    });
    for (int64_t q = 1; q < parts; ++q)
      for (int64_t i = 0; i < nout; ++i) partial[i] = Op::combine(partial[i], partial[q * nout + i]);
    write_out(partial.get(), 0, rest);
    return;
  }
  // One block of kept rows per task, each over the whole reduced space.
  parallel_for(0, rest, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n0 * nred, 1)), [&](int64_t b, int64_t e) {
    std::unique_ptr<A[]> acc(new A[(size_t)((e - b) * n0)]);
    std::fill(acc.get(), acc.get() + (e - b) * n0, Op::init());
    accumulate_rows(acc.get(), 0, nred, b, e);
    write_out(acc.get(), b, e);
  });
}

// argmax/argmin (and the values of max/min): reduced dims keep their order so the index is the
// flat row-major position within them; ties keep the first, a NaN wins and the first NaN stays.
template <typename T, bool IsMax>
void arg_reduce(const RedPlan& p) {
  using A = opmath_t<T>;
  Dims K, R;
  for (int d = 0; d < p.ndim; ++d) {
    Dims& D = p.reduced[d] ? R : K;
    D.size[D.n] = p.sizes[d], D.in[D.n] = p.in_strides[d], D.out[D.n] = p.out_strides[d];
    D.n++;
  }
  std::reverse(R.size, R.size + R.n);  // row-major flat index = innermost-first walk of the reverse
  std::reverse(R.in, R.in + R.n);
  const T* in = static_cast<const T*>(p.in);
  const int64_t nout = K.numel(), nred = R.numel();
  parallel_for(0, nout, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(nred, 1)), [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      int64_t ioff = 0, ooff = 0;
      for (int64_t rem = o, d = K.n - 1; d >= 0; --d) {  // row-major over kept dims
        int64_t x = rem % K.size[d];
        rem /= K.size[d];
        ioff += x * K.in[d];
        ooff += x * K.out[d];
      }
      A best = (A)load_elem(in + ioff);
      int64_t best_i = 0;
      bool nan = best != best;
      for (int64_t r = 1; r < nred && !nan; ++r) {
        int64_t roff, unused;
        R.offsets(r, roff, unused);
        A v = (A)load_elem(in + ioff + roff);
        if (v != v) {
          best = v, best_i = r, nan = true;
        } else if (IsMax ? v > best : v < best) {
          best = v, best_i = r;
        }
      }
      static_cast<int64_t*>(p.out)[ooff] = best_i;
      if (p.values) static_cast<T*>(p.values)[ooff] = (T)best;
    }
  });
}

// The accumulator and output types of each reduction of T: the kernels below and reduce_out_dtype
// read them from here, so what Java is told is what the kernels write.
template <typename T>
struct RedTypes {
  using A = opmath_t<T>;
  static constexpr bool integral = std::is_integral<T>::value;
  using SumAcc = typename std::conditional<integral, int64_t, A>::type;  // integers and bool sum in int64
  using SumOut = typename std::conditional<integral, int64_t, T>::type;
};

template <typename T>
int out_dtype_typed(int op) {
  switch (op) {
    case kReduceSum: case kReduceProd: return (int)DTypeOf<typename RedTypes<T>::SumOut>::value;
    case kReduceAmax: case kReduceAmin: return (int)DTypeOf<T>::value;
    case kReduceAny: case kReduceAll: return (int)DType::Bool;
    case kReduceArgmax: case kReduceArgmin: return (int)DType::Int64;
  }
  return -1;
}

template <typename T>
int dispatch_float_or_int(const RedPlan& p) {
  using A = typename RedTypes<T>::A;
  using SumAcc = typename RedTypes<T>::SumAcc;
  using SumOut = typename RedTypes<T>::SumOut;
  switch (p.op) {
    case kReduceSum: reduce_typed<SumOp<SumAcc>, T, SumOut, SumAcc>(p); return 0;
    case kReduceProd: reduce_typed<ProdOp<SumAcc>, T, SumOut, SumAcc>(p); return 0;
    case kReduceAmax: reduce_typed<MaxOp<A>, T, T, A>(p); return 0;
    case kReduceAmin: reduce_typed<MinOp<A>, T, T, A>(p); return 0;
    case kReduceAny: reduce_typed<AnyOp, T, bool, bool>(p); return 0;
    case kReduceAll: reduce_typed<AllOp, T, bool, bool>(p); return 0;
    case kReduceArgmax: arg_reduce<T, true>(p); return 0;
    case kReduceArgmin: arg_reduce<T, false>(p); return 0;
  }
  return -1;
}

}  // namespace

int reduce_op_id(const char* name) {
  for (int i = 0; i < kNumReduceOps; ++i)
    if (std::strcmp(kReduceNames[i], name) == 0) return i;
  return -1;
}

int reduce_out_dtype(int op, int dtype) {
  if (!valid_dtype(dtype)) return -1;
  return dispatch_dtype((DType)dtype, [&](auto t) { return out_dtype_typed<typename decltype(t)::type>(op); });
}

int reduce_run(const RedPlan& p) {
  if (!valid_dtype((int)p.dtype)) return -1;
  return dispatch_dtype(p.dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    if constexpr (compiled_in_this_capability<T>) return dispatch_float_or_int<T>(p);
#if !JT_CPU_CAP_IS_BASELINE
    else return baseline::reduce_run(p);  // a dtype this capability leaves to the baseline
#endif
  });
}

JT_CPU_CAP_END
