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
#include "kernels/vectorized/reduce_fold.h"

#include "kernels/vectorized/capability_namespace.h"

#if !JT_CPU_CAP_IS_BASELINE
namespace jt::baseline {
int reduce_run(const RedPlan& p);
}
#endif

JT_CPU_CAP_BEGIN
namespace {

using namespace fold;  // the ops and folds (reduce_fold.h)

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
