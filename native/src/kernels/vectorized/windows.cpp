// Sliding windows on the CPU (windows.h): im2col (each window's elements as a column, for a GEMM),
// col2im (its adjoint: each image element the sum of the column entries that read it) and max
// pooling with indices. Parallel over (batch, channel) rows or planes; the innermost loop runs along
// the last spatial dim, its in-range span found once per line so the copy has no branch. Compiled
// per CPU capability (the comparisons and copies of the last dim's runs take the widest vectors);
// integer pooling stays the baseline's, as every capability's integer kernels do.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <limits>
#include <vector>

#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/windows.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/vector_types.h"

#if !JT_CPU_CAP_IS_BASELINE
namespace jt::baseline {
int max_pool_run(const max_pool_plan& r);
}
#endif

JT_CPU_CAP_BEGIN
namespace {

// The output positions o in [0, out) whose read o*stride - padding + k*dilation lies in [0, in): [lo, hi).
void in_range(const WindowGeometry& g, int d, int64_t k, int64_t& lo, int64_t& hi) {
  const int64_t base = k * g.dilation[d] - g.padding[d];  // read position of o = 0
  lo = base >= 0 ? 0 : (-base + g.stride[d] - 1) / g.stride[d];
  hi = base >= g.in[d] ? 0 : (g.in[d] - 1 - base) / g.stride[d] + 1;
  lo = std::min(lo, g.out[d]);
  hi = std::max(lo, std::min(hi, g.out[d]));
}

int64_t grain_of(int64_t work_per_item) { return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, work_per_item)); }

// Rows contiguous ([batch, rows, positions] row-major): per row, a run along the last spatial dim at a time.
template <typename T>
void im2col(const WindowGeometry& g, const T* image, T* cols) {
  const int64_t K = g.window_size(), L = g.positions(), rows = g.channels * K;
  parallel_for(0, g.batch * rows, grain_of(L), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t n = r / rows, row = r % rows, c = row / K, k = row % K;
      const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[2] * g.kernel[1]);
      const T* src = image + n * g.image_n + c * g.image_c;
      T* dst = cols + n * g.col_n + row * g.col_row;
      int64_t lo, hi;
      in_range(g, 2, kw, lo, hi);
      const int64_t sw = g.stride[2] * g.image_s[2], w0 = g.at(2, 0, kw) * g.image_s[2];
      for (int64_t od = 0; od < g.out[0]; ++od) {
        const int64_t id = g.at(0, od, kd);
        for (int64_t oh = 0; oh < g.out[1]; ++oh, dst += g.out[2]) {
          const int64_t ih = g.at(1, oh, kh);
          if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1]) {
            std::fill(dst, dst + g.out[2], T(0));
            continue;
          }
          const T* line = src + id * g.image_s[0] + ih * g.image_s[1] + w0;
          std::fill(dst, dst + lo, T(0));
          if (sw == 1) std::copy(line + lo, line + hi, dst + lo);
          else for (int64_t ow = lo; ow < hi; ++ow) dst[ow] = line[ow * sw];
          std::fill(dst + hi, dst + g.out[2], T(0));
        }
      }
    }
  });
}

template <typename T>
void col2im(const WindowGeometry& g, T* image, const T* cols) {
  using A = opmath_t<T>;
  const int64_t K = g.window_size(), L = g.positions(), P = g.plane();
  parallel_for(0, g.batch * g.channels, grain_of(K * L), [&](int64_t b, int64_t e) {
    std::vector<A> acc((size_t)P);
    for (int64_t u = b; u < e; ++u) {
      const int64_t n = u / g.channels, c = u % g.channels;
      std::fill(acc.begin(), acc.end(), A(0));
      const T* col = cols + n * g.col_n + c * K * g.col_row;  // channel c's K rows
      for (int64_t k = 0; k < K; ++k, col += g.col_row) {
        const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[2] * g.kernel[1]);
        int64_t lo, hi;
        in_range(g, 2, kw, lo, hi);
        const int64_t w0 = g.at(2, 0, kw);
        for (int64_t od = 0; od < g.out[0]; ++od) {
          const int64_t id = g.at(0, od, kd);
          if (id < 0 || id >= g.in[0]) continue;
          for (int64_t oh = 0; oh < g.out[1]; ++oh) {
            const int64_t ih = g.at(1, oh, kh);
            if (ih < 0 || ih >= g.in[1]) continue;
            A* line = acc.data() + (id * g.in[1] + ih) * g.in[2] + w0;
            const T* src = col + (od * g.out[1] + oh) * g.out[2] * g.col_pos;
            for (int64_t ow = lo; ow < hi; ++ow) line[ow * g.stride[2]] += (A)src[ow * g.col_pos];
          }
        }
      }
      T* dst = image + n * g.image_n + c * g.image_c;
      const A* a = acc.data();
      for (int64_t i0 = 0; i0 < g.in[0]; ++i0)
        for (int64_t i1 = 0; i1 < g.in[1]; ++i1)
          for (int64_t i2 = 0; i2 < g.in[2]; ++i2) dst[i0 * g.image_s[0] + i1 * g.image_s[1] + i2 * g.image_s[2]] = (T)*a++;
    }
  });
}

// take ? a : b through the values' bits, so the compiler emits a conditional move rather than a
// branch (for floats it branches, and random data mispredicts half the time: max pooling ran at 5.0
// ms on random input against 2.2 ms on zeros).
template <typename A>
inline A select(bool take, A a, A b) {
  if constexpr (std::is_floating_point<A>::value) {
    using Bits = std::conditional_t<sizeof(A) == 4, uint32_t, uint64_t>;
    Bits x, y;
    std::memcpy(&x, &a, sizeof(A));
    std::memcpy(&y, &b, sizeof(A));
    const Bits m = Bits(0) - Bits(take);  // all ones or none: arithmetic, which the compiler keeps branch-free
    const Bits r = (x & m) | (y & ~m);
    A out;
    std::memcpy(&out, &r, sizeof(A));
    return out;
  } else {
    return take ? a : b;
  }
}

// Per output position along dim d, the kernel offsets whose reads fall inside the image: [lo, hi).
struct KernelSpans {
  std::vector<int64_t> lo[3], hi[3];
  explicit KernelSpans(const WindowGeometry& g) {
    for (int d = 0; d < 3; ++d) {
      lo[d].resize((size_t)g.out[d]);
      hi[d].resize((size_t)g.out[d]);
      for (int64_t o = 0; o < g.out[d]; ++o) {
        int64_t l = 0, h = g.kernel[d];
        while (l < h && g.at(d, o, l) < 0) ++l;
        while (h > l && g.at(d, o, h - 1) >= g.in[d]) --h;
        lo[d][(size_t)o] = l;
        hi[d][(size_t)o] = h;
      }
    }
  }
};

// One element of a window in turn, under max pooling's rule: a larger value or a NaN takes over
// (so the first maximum and the last NaN win), as flags and selects rather than branches.
template <typename A>
inline void take_max(A v, A& best, int64_t at, int64_t& where) {
  const bool t = (v > best) | (v != v);  // no short circuit: a flag, not a branch
  best = select(t, v, best);
  const int64_t m = -int64_t(t);
  where = (at & m) | (where & ~m);
}

// Note [Pooling rows by vectors] One output row of MaxPool2d(2), N outputs at a time: each vector
// reads 2N elements of both input rows, splits them into even and odd columns by shuffles and runs
// take_max's rule over the four in (kh, kw) order, lane by lane, keeping which of the four won. A
// row's last vector ends at its last output, overlapping the one before (it writes the same values
// again), so rows as short as N (a 14- or 7-wide output) run in vectors too, where a loop over the
// row would run them one element at a time. Reads stay within the two rows' first 2n elements.
template <typename T, int N>
void pool_row_2x2(const T* r0, const T* r1, T* o, int64_t* ix, int64_t at0, int64_t at1, int64_t n) {
  using V = typename Lanes<T, N>::type;
  using M = decltype(V{} < V{});  // a lane's flag: an integer of T's width
  using I = typename Lanes<int64_t, N>::type;
  M even, odd;
  const M winner_1 = M{} + 1;
  I lane;
  for (int i = 0; i < N; ++i) even[i] = 2 * i, odd[i] = 2 * i + 1, lane[i] = i;
  auto take = [](const V& v, V& best, M& won, const M& code) {
    const M t = (v > best) | (v != v);
    best = t ? v : best;
    won = t ? code : won;
  };
  for (int64_t s = 0;; s += N) {
    if (s + N > n) s = n - N;
    V a0, a1, b0, b1;
    std::memcpy(&a0, r0 + 2 * s, sizeof a0);
    std::memcpy(&a1, r0 + 2 * s + N, sizeof a1);
    std::memcpy(&b0, r1 + 2 * s, sizeof b0);
    std::memcpy(&b1, r1 + 2 * s + N, sizeof b1);
    V best = __builtin_shuffle(a0, a1, even);
    M won = M{};  // 0..3: (kh, kw) = (won >> 1, won & 1)
    take(__builtin_shuffle(a0, a1, odd), best, won, winner_1);
    take(__builtin_shuffle(b0, b1, even), best, won, winner_1 * 2);
    take(__builtin_shuffle(b0, b1, odd), best, won, winner_1 * 3);
    std::memcpy(o + s, &best, sizeof best);
    const I w = __builtin_convertvector(won, I);
    const I where = at0 + 2 * (s + lane) + (w & 1) + (w >> 1) * (at1 - at0);
    std::memcpy(ix + s, &where, sizeof where);
    if (s + N >= n) break;
  }
}

// MaxPool2d(2), the common case: 2 x 2 windows at stride 2 without padding or dilation, rows
// contiguous, every window whole. Each output's four elements in (kh, kw) order, in registers: no
// row buffers and no per-window spans (the general loop below spent more on those than on the
// comparisons). False where the geometry is any other.
template <typename T>
bool max_pool_2x2(const WindowGeometry& g, const T* image, T* out, int64_t* indices) {
  const bool fits = g.kernel[0] == 1 && g.stride[0] == 1 && g.padding[0] == 0 && g.out[0] == g.in[0] && g.kernel[1] == 2 &&
                    g.kernel[2] == 2 && g.stride[1] == 2 && g.stride[2] == 2 && g.padding[1] == 0 && g.padding[2] == 0 &&
                    g.dilation[1] == 1 && g.dilation[2] == 1 && g.image_s[2] == 1 && 2 * g.out[1] <= g.in[1] && 2 * g.out[2] <= g.in[2];
  if (!fits) return false;
  using A = opmath_t<T>;
  const int64_t OW = g.out[2], L = g.positions(), W = g.in[2];
  parallel_for(0, g.batch * g.channels, grain_of(4 * L), [&](int64_t b, int64_t e) {
    for (int64_t u = b; u < e; ++u) {
      const T* src = image + (u / g.channels) * g.image_n + (u % g.channels) * g.image_c;
      T* o = out + u * L;
      int64_t* ix = indices + u * L;
      for (int64_t od = 0; od < g.out[0]; ++od)
        for (int64_t oh = 0; oh < g.out[1]; ++oh, o += OW, ix += OW) {
          const T* r0 = src + od * g.image_s[0] + 2 * oh * g.image_s[1];
          const T* r1 = r0 + g.image_s[1];
          const int64_t at0 = (od * g.in[1] + 2 * oh) * W, at1 = at0 + W, n = OW;  // n: a bound no store can alias
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
            if (n >= 16) { pool_row_2x2<T, 16>(r0, r1, o, ix, at0, at1, n); continue; }
            if (n >= 8) { pool_row_2x2<T, 8>(r0, r1, o, ix, at0, at1, n); continue; }
            if (n >= 4) { pool_row_2x2<T, 4>(r0, r1, o, ix, at0, at1, n); continue; }
          }
          for (int64_t ow = 0; ow < n; ++ow) {  // take_max's bit masks keep the scalar loop branch-free
            A best = (A)r0[2 * ow];
            int64_t where = at0 + 2 * ow;
            take_max((A)r0[2 * ow + 1], best, at0 + 2 * ow + 1, where);
            take_max((A)r1[2 * ow], best, at1 + 2 * ow, where);
            take_max((A)r1[2 * ow + 1], best, at1 + 2 * ow + 1, where);
            o[ow] = (T)best;
            ix[ow] = where;
          }
        }
    }
  });
  return true;
}

// Max pooling one output row at a time (Note [Max pooling by rows]): the windows wholly inside the
// image along the last dim take every kernel offset in turn across the whole row, so the innermost
// loop is a run of independent compare-and-selects instead of one short window after another; the
// row's edge windows, clipped by padding, go one by one.
// Each output still sees its window's elements in (kd, kh, kw) order and PyTorch's rule, without
// branches (random data would mispredict them): a larger value or a NaN takes over, so the first
// maximum and the last NaN win.
template <typename T>
void max_pool(const WindowGeometry& g, const T* image, T* out, int64_t* indices) {
  if (max_pool_2x2(g, image, out, indices)) return;
  using A = opmath_t<T>;
  const int64_t K = g.window_size(), L = g.positions(), OW = g.out[2], KW = g.kernel[2];
  const KernelSpans sp(g);
  int64_t inner_lo = 0, inner_hi = 0;  // the outputs [inner_lo, inner_hi) whose window is whole along the last dim
  while (inner_lo < OW && (sp.lo[2][inner_lo] != 0 || sp.hi[2][inner_lo] != KW)) ++inner_lo;
  inner_hi = inner_lo;
  while (inner_hi < OW && sp.lo[2][inner_hi] == 0 && sp.hi[2][inner_hi] == KW) ++inner_hi;
  parallel_for(0, g.batch * g.channels, grain_of(K * L), [&](int64_t b, int64_t e) {
    std::vector<A> best((size_t)OW);
    std::vector<int64_t> where((size_t)OW);
    for (int64_t u = b; u < e; ++u) {
      const int64_t n = u / g.channels, c = u % g.channels;
      const T* src = image + n * g.image_n + c * g.image_c;
      T* o = out + u * L;
      int64_t* ix = indices + u * L;
      for (int64_t od = 0; od < g.out[0]; ++od)
        for (int64_t oh = 0; oh < g.out[1]; ++oh, o += OW, ix += OW) {
          const int64_t d_lo = sp.lo[0][od], d_hi = sp.hi[0][od], h_lo = sp.lo[1][oh], h_hi = sp.hi[1][oh];
          if (d_lo == d_hi || h_lo == h_hi) {  // windows wholly in the padding (empty_window_max)
            for (int64_t ow = 0; ow < OW; ++ow) o[ow] = empty_window_max<T, A>(), ix[ow] = -1;
            continue;
          }
          const int64_t d0 = g.at(0, od, d_lo), h0 = g.at(1, oh, h_lo);
          for (int64_t ow = 0; ow < OW; ++ow) {  // each window starts from its first element
            if (sp.lo[2][ow] == sp.hi[2][ow]) continue;
            const int64_t w0 = g.at(2, ow, sp.lo[2][ow]);
            best[(size_t)ow] = (A)src[d0 * g.image_s[0] + h0 * g.image_s[1] + w0 * g.image_s[2]];
            where[(size_t)ow] = (d0 * g.in[1] + h0) * g.in[2] + w0;
          }
          for (int64_t kd = d_lo; kd < d_hi; ++kd) {
            const int64_t id = g.at(0, od, kd);
            for (int64_t kh = h_lo; kh < h_hi; ++kh) {
              const int64_t ih = g.at(1, oh, kh);
              const T* line = src + id * g.image_s[0] + ih * g.image_s[1];
              const int64_t row = (id * g.in[1] + ih) * g.in[2];
              auto clipped = [&](int64_t ow0, int64_t ow1) {  // edge windows, each over its own span
                for (int64_t ow = ow0; ow < ow1; ++ow)
                  for (int64_t kw = sp.lo[2][ow]; kw < sp.hi[2][ow]; ++kw) {
                    const int64_t iw = g.at(2, ow, kw);
                    take_max((A)line[iw * g.image_s[2]], best[(size_t)ow], row + iw, where[(size_t)ow]);
                  }
              };
              clipped(0, inner_lo);
              for (int64_t kw = 0; kw < KW; ++kw) {  // whole windows: one kernel offset across the row
                const int64_t first = g.at(2, inner_lo, kw), step = g.stride[2];
                const T* at = line + first * g.image_s[2];
                const int64_t s = step * g.image_s[2];
                A* bst = best.data();
                int64_t* wh = where.data();
                const int64_t from = inner_lo, to = inner_hi;  // locals: bounds no store can alias, so the loop vectorizes
                for (int64_t ow = from; ow < to; ++ow) take_max((A)at[(ow - from) * s], bst[ow], row + first + (ow - from) * step, wh[ow]);
              }
              clipped(inner_hi, OW);
            }
          }
          for (int64_t ow = 0; ow < OW; ++ow) {
            const bool empty = sp.lo[2][ow] == sp.hi[2][ow];
            o[ow] = empty ? empty_window_max<T, A>() : (T)best[(size_t)ow];
            ix[ow] = empty ? -1 : where[(size_t)ow];
          }
        }
    }
  });
}

// The input's gradient: each plane zeroed, then every window's gradient added at its index.
template <typename T>
bool max_pool_backward(const WindowGeometry& g, T* grad_in, const T* grad_out, const int64_t* indices) {
  using A = opmath_t<T>;
  const int64_t L = g.positions(), P = g.plane();
  std::atomic<bool> bad{false};
  parallel_for(0, g.batch * g.channels, grain_of(P + L), [&](int64_t b, int64_t e) {
    std::vector<A> acc((size_t)P);
    for (int64_t u = b; u < e; ++u) {
      std::fill(acc.begin(), acc.end(), A(0));
      const T* go = grad_out + u * L;
      const int64_t* ix = indices + u * L;
      for (int64_t i = 0; i < L; ++i) {  // the forward kernel's indices, in [0, P) or -1 (an empty window): anything else is refused
        if ((uint64_t)ix[i] < (uint64_t)P) acc[(size_t)ix[i]] += (A)go[i];
        else if (ix[i] != -1) bad = true;
      }
      T* dst = grad_in + (u / g.channels) * g.image_n + (u % g.channels) * g.image_c;
      const A* a = acc.data();
      for (int64_t i0 = 0; i0 < g.in[0]; ++i0)
        for (int64_t i1 = 0; i1 < g.in[1]; ++i1)
          for (int64_t i2 = 0; i2 < g.in[2]; ++i2) dst[i0 * g.image_s[0] + i1 * g.image_s[1] + i2 * g.image_s[2]] = (T)*a++;
    }
  });
  return !bad;
}

}  // namespace

int windows_run(const windows_plan& r) {
  WindowGeometry g;
  if (!g.read(r) || !g.read_columns(r) || (r.fold != 0 && r.fold != 1)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value) {
      if (r.fold) {
        col2im<T>(g, static_cast<T*>(reinterpret_cast<void*>(r.image)), reinterpret_cast<const T*>(r.columns));
      } else if (g.batch * g.channels * g.window_size() * g.positions() == 0 ||
                 (g.col_pos == 1 && g.col_row == g.positions() && g.col_n == g.col_row * g.channels * g.window_size())) {
        im2col<T>(g, reinterpret_cast<const T*>(r.image), static_cast<T*>(reinterpret_cast<void*>(r.columns)));
      } else {  // Java writes im2col's columns row-major only (Backend.windows); any other layout is refused, not guessed at
        st = JT_INVALID;
        return;
      }
      st = JT_OK;
    }
  });
  return st;
}

int max_pool_run(const max_pool_plan& r) {
  WindowGeometry g;
  if (!g.read(r)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((is_floating<T>::value || kInt<T>) && !compiled_in_this_capability<T>) {
#if !JT_CPU_CAP_IS_BASELINE
      st = baseline::max_pool_run(r);  // a dtype this capability leaves to the baseline
#endif
    } else if constexpr (is_floating<T>::value || kInt<T>) {
      if (r.backward) {
        if (!max_pool_backward<T>(g, reinterpret_cast<T*>(r.image), reinterpret_cast<const T*>(r.out),
                                  reinterpret_cast<const int64_t*>(r.indices))) {
          st = JT_INDEX_OUT_OF_RANGE;
          return;
        }
      } else {
        max_pool<T>(g, reinterpret_cast<const T*>(r.image), reinterpret_cast<T*>(r.out), reinterpret_cast<int64_t*>(r.indices));
      }
      st = JT_OK;
    }
  });
  return st;
}

JT_CPU_CAP_END
