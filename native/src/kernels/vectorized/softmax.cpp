// softmax/log_softmax along one dim: per line the max, the sum of exp(x - max), then the outputs
// (softmax_math.h), accumulating in opmath (float for float16/bfloat16/float32, double for
// float64), float's exp vectorized (fast_exp.h). Lines run in parallel. A dim that is not the
// innermost is walked a block of adjacent lines at a time (a thread's share of the lanes), so
// each pass reads rows of the block contiguously instead of one element per cache line.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/softmax_math.h"
#include "kernels/fast_exp.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"

JT_CPU_CAP_BEGIN
namespace {

// A block of adjacent lines spans at most this many lanes. Measured on 4096x4096 float32 over dim 0
// (2 cores): streaming long row segments (a thread's share of the lanes) beat blocks small enough
// to stay in L2 (16 lanes: 59 ms, 256: 85 ms, 1024: 27 ms, 2048: 25 ms), the prefetcher and TLB
// favouring long contiguous runs over reuse.
constexpr int64_t kMaxLanes = 2048;

// exp(x - max) (never above 0): the vectorizable exp for float, std::exp for double.
struct ShiftedExp {
  float operator()(float x) const { return exp_nonpositive(x); }
  double operator()(double x) const { return std::exp(x); }
};

// Contiguous lines keep kLanes partial maxima and sums, so the loops vectorize (a single running
// float sum or max could not be reordered by the compiler).
constexpr int kLanes = 32;

template <typename T, bool Log>
struct SoftmaxLines {
  using A = opmath_t<T>;

  // One line of n elements at in/out with element strides is/os (Unit: both 1, so loops vectorize).
  template <bool Unit>
  static void line(const T* in, T* out, int64_t n, int64_t is, int64_t os) {
    const int64_t si = Unit ? 1 : is, so = Unit ? 1 : os;
    const ShiftedExp ex;
    A mk[kLanes], sk[kLanes];
    for (int k = 0; k < kLanes; ++k) mk[k] = -std::numeric_limits<A>::infinity(), sk[k] = 0;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) mk[k] = softmax_max(mk[k], (A)in[(i + k) * si]);
    }
    for (; i < n; ++i) mk[0] = softmax_max(mk[0], (A)in[i * si]);
    A m = mk[0];
    for (int k = 1; k < kLanes; ++k) m = softmax_max(m, mk[k]);
    constexpr bool keep = !Log && std::is_same<T, A>::value;  // keep each exp in out, then scale it
    for (i = 0; i + kLanes <= n; i += kLanes) {
      const T* row = in + i * si;
      T* o = out + i * so;
      for (int k = 0; k < kLanes; ++k) {
        const A e = ex((A)row[k * si] - m);
        if constexpr (keep) o[k * so] = (T)e;
        sk[k] += e;
      }
    }
    for (; i < n; ++i) {
      const A e = ex((A)in[i * si] - m);
      if constexpr (keep) out[i * so] = (T)e;
      sk[0] += e;
    }
    A s = 0;
    for (int k = 0; k < kLanes; ++k) s += sk[k];
    const A k = softmax_scale<Log>(s);
    if constexpr (keep) {
      for (i = 0; i < n; ++i) out[i * so] = (T)((A)out[i * so] * k);
    } else {
      for (i = 0; i < n; ++i) out[i * so] = (T)softmax_value<Log>((A)in[i * si], m, k, ex);
    }
  }

  // b adjacent lines (lane stride 1 in the input, ol in the output) of n elements each.
  // Each lane's sum runs down the whole line, one term at a time: in float it would lose about
  // n·eps (2e-5 relative at n = 16384, seen against the GPU's tree sums), so it is kept in double.
  using Sum = std::conditional_t<std::is_same<A, float>::value, double, A>;

  static void block(const T* in, T* out, int64_t n, int64_t b, int64_t is, int64_t os, int64_t ol) {
    const ShiftedExp ex;
    A m[kMaxLanes], s[kMaxLanes];
    Sum sum[kMaxLanes];
    for (int64_t j = 0; j < b; ++j) {
      m[j] = -std::numeric_limits<A>::infinity();
      sum[j] = 0;
    }
    for (int64_t i = 0; i < n; ++i) {
      const T* row = in + i * is;
      for (int64_t j = 0; j < b; ++j) m[j] = softmax_max(m[j], (A)row[j]);
    }
    for (int64_t i = 0; i < n; ++i) {
      const T* row = in + i * is;
      for (int64_t j = 0; j < b; ++j) sum[j] += (Sum)ex((A)row[j] - m[j]);
    }
    for (int64_t j = 0; j < b; ++j) s[j] = softmax_scale<Log>((A)sum[j]);
    for (int64_t i = 0; i < n; ++i) {
      const T* row = in + i * is;
      T* o = out + i * os;
      if (ol == 1) {
        for (int64_t j = 0; j < b; ++j) o[j] = (T)softmax_value<Log>((A)row[j], m[j], s[j], ex);
      } else {
        for (int64_t j = 0; j < b; ++j) o[j * ol] = (T)softmax_value<Log>((A)row[j], m[j], s[j], ex);
      }
    }
  }
};

// The dims other than dim (and lane, when >= 0), outermost first: unit u's start in in and out.
struct Outer {
  int n = 0;
  int64_t size[64], is[64], os[64];
  int64_t count = 1;

  Outer(const SoftmaxPlan& p, int lane) {
    for (int d = 0; d < p.ndim; ++d) {
      if (d == p.dim || d == lane || p.sizes[d] == 1) continue;
      size[n] = p.sizes[d];
      is[n] = p.in_strides[d];
      os[n] = p.out_strides[d];
      count *= p.sizes[d];
      ++n;
    }
  }

  void start(int64_t u, int64_t& io, int64_t& oo) const {
    io = oo = 0;
    for (int d = n - 1; d >= 0; --d) {
      const int64_t x = u % size[d];
      u /= size[d];
      io += x * is[d];
      oo += x * os[d];
    }
  }
};

template <typename T, bool Log>
void softmax_typed(const SoftmaxPlan& p) {
  using L = SoftmaxLines<T, Log>;
  const T* in = static_cast<const T*>(p.in);
  T* out = static_cast<T*>(p.out);
  const int64_t len = p.sizes[p.dim], is = p.in_strides[p.dim], os = p.out_strides[p.dim];
  // A lane dim: another dim along which the input is contiguous, when the dim itself is not.
  int lane = -1;
  if (is != 1) {
    for (int d = p.ndim - 1; d >= 0; --d)
      if (d != p.dim && p.in_strides[d] == 1 && p.sizes[d] > 1) {
        lane = d;
        break;
      }
  }
  const Outer outer(p, lane);
  if (lane < 0) {
    const bool unit = is == 1 && os == 1;
    parallel_for(0, outer.count, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(len, 1)), [&](int64_t b, int64_t e) {
      for (int64_t u = b; u < e; ++u) {
        int64_t io, oo;
        outer.start(u, io, oo);
        if (unit) L::template line<true>(in + io, out + oo, len, 1, 1);
        else L::template line<false>(in + io, out + oo, len, is, os);
      }
    });
    return;
  }
  const int64_t lanes = p.sizes[lane], ol = p.out_strides[lane];
  const int64_t share = (lanes + get_num_threads() - 1) / get_num_threads();
  const int64_t width = std::min(kMaxLanes, std::max<int64_t>(16, (share + 15) / 16 * 16));
  const int64_t chunks = (lanes + width - 1) / width;
  parallel_for(0, outer.count * chunks, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(len * width, 1)),
               [&](int64_t b, int64_t e) {
    for (int64_t u = b; u < e; ++u) {
      int64_t io, oo;
      outer.start(u / chunks, io, oo);
      const int64_t j0 = (u % chunks) * width, w = std::min(width, lanes - j0);
      L::block(in + io + j0, out + oo + j0 * ol, len, w, is, os, ol);
    }
  });
}

}  // namespace

int softmax_run(const SoftmaxPlan& p) {
  if (!valid_dtype((int)p.dtype)) return JT_NO_KERNEL;
  bool empty = false;
  for (int d = 0; d < p.ndim; ++d) empty |= p.sizes[d] == 0;
  return dispatch_dtype(p.dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    if constexpr (!is_floating<T>::value) {
      return (int)JT_NO_KERNEL;
    } else {
      if (empty) return (int)JT_OK;
      if (p.log) softmax_typed<T, true>(p);
      else softmax_typed<T, false>(p);
      return (int)JT_OK;
    }
  });
}

JT_CPU_CAP_END
