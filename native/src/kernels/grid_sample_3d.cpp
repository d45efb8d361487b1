// 3-D grid_sample on the CPU (plans.h's grid_sample plan with nsp 3: trilinear and nearest), after
// ATen's scalar 3-D CPU kernel (GridSampler.h), whose coordinate math differs from its vectorized
// 2-D one: fmod-based reflection, std::min/max clipping (a NaN clips to the far edge in the
// forward only), and any coordinate outside int range or not finite moved to -100 (outside the
// input: no value, no gradient). Called by grid_sample_run, which checked the plan.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include "jt/jt.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

// One spatial dim: grid coordinate to source coordinate (and its derivative), as ATen's
// grid_sampler_compute_source_index(_set_grad).
template <typename T>
struct Axis3 {
  int64_t size;
  int padding;  // 0 zeros, 1 border, 2 reflection
  bool align;

  T unnormalize(T x, T* g) const {
    if (align) {
      *g = T(size - 1) / 2;
      return (x + 1) / 2 * T(size - 1);
    }
    *g = T(size) / 2;
    return ((x + 1) * T(size) - 1) / 2;
  }

  // clip_coordinates_set_grad: borders count as outside for the gradient; a NaN passes with grad 1.
  T clip(T x, T* g) const {
    const T hi = T(size - 1);
    if (x <= T(0)) {
      *g = T(0);
      return T(0);
    }
    if (x >= hi) {
      *g = T(0);
      return hi;
    }
    *g = T(1);
    return x;
  }

  // reflect_coordinates_set_grad over [twice_low / 2, twice_high / 2]; ATen's int flip count is
  // even when it overflows (INT_MIN), as it is for NaN.
  T reflect(T x, T* g) const {
    const T twice_low = align ? T(0) : T(-1), twice_high = align ? T(2 * (size - 1)) : T(2 * size - 1);
    if (twice_low == twice_high) {
      *g = T(0);
      return T(0);
    }
    const T lo = twice_low / 2, span = (twice_high - twice_low) / 2;
    T in = x - lo, sign = T(1);
    if (in < T(0)) {
      sign = T(-1);
      in = -in;
    }
    const T extra = std::fmod(in, span), flips = std::floor(in / span);
    const bool even = !(flips >= T(INT_MIN) && flips <= T(INT_MAX)) || std::fmod(flips, T(2)) == T(0);
    *g = even ? sign : -sign;
    return even ? extra + lo : span - extra + lo;
  }

  // The source coordinate and d(coordinate)/d(grid). ATen's forward clips with std::min/max, which
  // takes a NaN to the far edge; its backward clips with clip_coordinates_set_grad, which keeps the
  // NaN (then -100: no gradient). Both are copied: PyTorch's forward value, PyTorch's gradients.
  T source(T x, T* grad, bool backward) const {
    T gu, gc, gr;
    T c = unnormalize(x, &gu);
    if (padding == 2) {
      c = reflect(c, &gr);
      gu *= gr;
    }
    if (padding != 0) {
      c = backward ? clip(c, &gc) : std::min(T(size - 1), std::max(c, T(0)));
      gu *= backward ? gc : T(1);
    }
    *grad = gu;
    // safe_downgrade_to_int_range
    return c > T(INT_MAX - 1) || c < T(INT_MIN) || !std::isfinite(c) ? T(-100) : c;
  }

  bool inside(T i) const { return i >= T(0) && i < T(size); }
};

template <typename T>
struct Sampler3 {
  const grid_sample_plan& p;
  Axis3<T> ax, ay, az;
  int64_t volume, out_volume;

  explicit Sampler3(const grid_sample_plan& r)
      : p(r), ax{r.in_w, (int)r.padding, r.align_corners != 0}, ay{r.in_h, (int)r.padding, r.align_corners != 0},
        az{r.in_d, (int)r.padding, r.align_corners != 0}, volume(r.in_d * r.in_h * r.in_w), out_volume(r.out_d * r.out_h * r.out_w) {}

  bool inside(T x, T y, T z) const { return ax.inside(x) && ay.inside(y) && az.inside(z); }
  int64_t at(T x, T y, T z) const { return ((int64_t)z * p.in_h + (int64_t)y) * p.in_w + (int64_t)x; }

  // Point k of sample n: every channel's output (forward), or its gradients (backward).
  void point(int64_t n, int64_t k) const {
    const T* grid = reinterpret_cast<const T*>(p.grid) + (n * out_volume + k) * 3;
    const T* input = reinterpret_cast<const T*>(p.input) + n * p.c * volume;
    T mx, my, mz;
    const bool bw = p.backward != 0;
    const T x = ax.source(grid[0], &mx, bw), y = ay.source(grid[1], &my, bw), z = az.source(grid[2], &mz, bw);
    if (p.mode == 1) {  // nearest: no gradient to the grid
      const T xn = std::nearbyint(x), yn = std::nearbyint(y), zn = std::nearbyint(z);
      const bool in = inside(xn, yn, zn);
      for (int64_t ch = 0; ch < p.c; ++ch) {
        if (!p.backward) {
          reinterpret_cast<T*>(p.out)[(n * p.c + ch) * out_volume + k] = in ? input[ch * volume + at(xn, yn, zn)] : T(0);
        } else if (p.grad_input && in) {
          reinterpret_cast<T*>(p.grad_input)[(n * p.c + ch) * volume + at(xn, yn, zn)] +=
              reinterpret_cast<const T*>(p.grad_out)[(n * p.c + ch) * out_volume + k];
        }
      }
      if (p.backward && p.grad_grid) {
        T* gg = reinterpret_cast<T*>(p.grad_grid) + (n * out_volume + k) * 3;
        gg[0] = gg[1] = gg[2] = T(0);
      }
      return;
    }
    const T x0 = std::floor(x), y0 = std::floor(y), z0 = std::floor(z);
    const T wx[2] = {x0 + 1 - x, x - x0}, wy[2] = {y0 + 1 - y, y - y0}, wz[2] = {z0 + 1 - z, z - z0};
    T gx = T(0), gy = T(0), gz = T(0);
    for (int64_t ch = 0; ch < p.c; ++ch) {
      const T* in = input + ch * volume;
      T sum = T(0);
      const T g = p.backward ? reinterpret_cast<const T*>(p.grad_out)[(n * p.c + ch) * out_volume + k] : T(0);
      for (int corner = 0; corner < 8; ++corner) {  // ATen's order: tnw, tne, tsw, tse, bnw, bne, bsw, bse
        const int a = corner & 1, b = (corner >> 1) & 1, c = corner >> 2;
        const T cx = x0 + T(a), cy = y0 + T(b), cz = z0 + T(c);
        if (!inside(cx, cy, cz)) continue;
        const int64_t i = at(cx, cy, cz);
        if (!p.backward) {
          sum += in[i] * (wx[a] * wy[b] * wz[c]);
          continue;
        }
        if (p.grad_input) reinterpret_cast<T*>(p.grad_input)[(n * p.c + ch) * volume + i] += wx[a] * wy[b] * wz[c] * g;
        const T v = in[i] * g;
        gx += (a ? v : -v) * wy[b] * wz[c];
        gy += (b ? v : -v) * wx[a] * wz[c];
        gz += (c ? v : -v) * wx[a] * wy[b];
      }
      if (!p.backward) reinterpret_cast<T*>(p.out)[(n * p.c + ch) * out_volume + k] = sum;
    }
    if (p.backward && p.grad_grid) {
      T* gg = reinterpret_cast<T*>(p.grad_grid) + (n * out_volume + k) * 3;
      gg[0] = mx * gx;
      gg[1] = my * gy;
      gg[2] = mz * gz;
    }
  }

  void run() const {
    if (p.backward) {  // grad_input is summed into: one sample per thread
      parallel_for(0, p.n, 1, [&](int64_t b, int64_t e) {
        for (int64_t n = b; n < e; ++n) {
          if (p.grad_input) std::memset(reinterpret_cast<T*>(p.grad_input) + n * p.c * volume, 0, sizeof(T) * p.c * volume);
          for (int64_t k = 0; k < out_volume; ++k) point(n, k);
        }
      });
      return;
    }
    const int64_t per_point = p.c > 0 ? p.c : 1, grain = per_point >= kGrainSize ? 1 : kGrainSize / per_point;
    parallel_for(0, p.n * out_volume, grain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) point(i / out_volume, i % out_volume);
    });
  }
};

}  // namespace

int grid_sample_3d_run(const grid_sample_plan& r) {
  switch ((DType)r.dtype) {
    case DType::Float32: Sampler3<float>(r).run(); return JT_OK;
    case DType::Float64: Sampler3<double>(r).run(); return JT_OK;
    default: return JT_NO_KERNEL;
  }
}

}  // namespace jt
