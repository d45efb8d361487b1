// Sliding windows on the CPU (windows.h): im2col (each window's elements as a column, for a GEMM),
// col2im (its adjoint: each image element the sum of the column entries that read it) and max
// pooling with indices. Parallel over (batch, channel) rows or planes; the innermost loop runs along
// the last spatial dim, its in-range span found once per line so the copy has no branch.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/windows.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
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

template <typename T>
void im2col(const WindowGeometry& g, const T* image, T* cols) {
  const int64_t K = g.window_size(), L = g.positions(), rows = g.channels * K;
  parallel_for(0, g.batch * rows, grain_of(L), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t n = r / rows, row = r % rows, c = row / K, k = row % K;
      const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[2] * g.kernel[1]);
      const T* src = image + n * g.image_n + c * g.image_c;
      T* dst = cols + r * L;
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
      const T* col = cols + u * K * L;  // rows of channel c follow each other: (n, c) is row block u
      for (int64_t k = 0; k < K; ++k, col += L) {
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
            const T* src = col + (od * g.out[1] + oh) * g.out[2];
            for (int64_t ow = lo; ow < hi; ++ow) line[ow * g.stride[2]] += (A)src[ow];
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

template <typename T>
void max_pool(const WindowGeometry& g, const T* image, T* out, int64_t* indices) {
  using A = opmath_t<T>;
  const int64_t K = g.window_size(), L = g.positions();
  parallel_for(0, g.batch * g.channels, grain_of(K * L), [&](int64_t b, int64_t e) {
    for (int64_t u = b; u < e; ++u) {
      const int64_t n = u / g.channels, c = u % g.channels;
      const T* src = image + n * g.image_n + c * g.image_c;
      T* o = out + u * L;
      int64_t* ix = indices + u * L;
      for (int64_t od = 0; od < g.out[0]; ++od)
        for (int64_t oh = 0; oh < g.out[1]; ++oh)
          for (int64_t ow = 0; ow < g.out[2]; ++ow) {
            A best{};  // the window's first element replaces it (where < 0)
            int64_t where = -1;
            for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
              const int64_t id = g.at(0, od, kd);
              if (id < 0 || id >= g.in[0]) continue;
              for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
                const int64_t ih = g.at(1, oh, kh);
                if (ih < 0 || ih >= g.in[1]) continue;
                for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
                  const int64_t iw = g.at(2, ow, kw);
                  if (iw < 0 || iw >= g.in[2]) continue;
                  const A v = (A)src[id * g.image_s[0] + ih * g.image_s[1] + iw * g.image_s[2]];
                  const int64_t at = (id * g.in[1] + ih) * g.in[2] + iw;
                  if (where < 0 || v > best || v != v) {  // PyTorch's rule: NaN wins (the last), else the first maximum
                    best = v;
                    where = at;
                  }
                }
              }
            }
            *o++ = (T)best;
            *ix++ = where;
          }
    }
  });
}

}  // namespace

int windows_run(const windows_plan& r) {
  WindowGeometry g;
  if (!g.read(r) || (r.fold != 0 && r.fold != 1)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value) {
      if (r.fold) col2im<T>(g, static_cast<T*>(reinterpret_cast<void*>(r.image)), reinterpret_cast<const T*>(r.columns));
      else im2col<T>(g, reinterpret_cast<const T*>(r.image), static_cast<T*>(reinterpret_cast<void*>(r.columns)));
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
    if constexpr (is_floating<T>::value || kInt<T>) {
      max_pool<T>(g, reinterpret_cast<const T*>(r.image), reinterpret_cast<T*>(r.out), reinterpret_cast<int64_t*>(r.indices));
      st = JT_OK;
    }
  });
  return st;
}

}  // namespace jt
