// 2-D grid_sample on the CPU (plans.h's grid_sample plan), after ATen's 2-D CPU kernel
// (GridSamplerKernel.cpp): the same unnormalization, padding and weights, in the input's type.
// Forward in parallel over batch × output rows; backward over the batch (grad_input is summed into).
#include <cmath>
#include <cstring>

#include "jt/jt.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

enum Mode { kBilinear, kNearest, kBicubic };
enum Padding { kZeros, kBorder, kReflection };

// One spatial dim: grid coordinate to source coordinate, and the derivative of that mapping.
template <typename T>
struct Axis {
  int64_t size;
  int padding;
  bool align;
  T max_val, scale, low, twice_span;

  Axis(int64_t n, int pad, bool align_corners)
      : size(n), padding(pad), align(align_corners), max_val(T(n - 1)),
        scale(align_corners ? T(n - 1) / 2 : T(n) / 2), low(align_corners ? T(0) : T(-0.5)),
        twice_span(align_corners ? T(n - 1) * 2 : T(n) * 2) {}

  // (x + 1) * scale - 0.5 in one rounding: ATen's vectorized kernel as PyTorch ships it for AVX2 and
  // AVX-512 contracts it into an FMA (this file is built with contraction off), and the rounding
  // decides a floor or a round where the grid falls on a pixel's edge or centre (nearest's pixel,
  // a one-sided gradient): -1/3 on a side of 3 is 0.5000000000000001 there, not 0.5.
  T unnormalize(T x) const { return align ? (x + T(1)) * scale : std::fma(x + T(1), scale, T(-0.5)); }

  // ATen clamps with the NaN-dropping operand order: a NaN coordinate becomes 0.
  T clip(T x) const {
    T lo = x > T(0) ? x : T(0);
    return lo < max_val ? lo : max_val;
  }

  // |x - low| folded into [0, twice_span / 2] by reflections at low and low + twice_span / 2. The
  // remainder in one rounding, as PyTorch's contracted kernel (see unnormalize): past about 1e4 in
  // float32 the product's rounding moves the folded coordinate by pixels.
  T reflect(T x, T* sign) const {
    if (twice_span <= T(0)) {
      *sign = T(0);
      return T(0);
    }
    T d = x - low;
    T a = std::fabs(d);
    T extra = std::fma(-std::trunc(a / twice_span), twice_span, a);
    T flipped = twice_span - extra;
    bool more = extra > flipped;
    *sign = (more != (d < T(0))) ? T(-1) : T(1);
    return (more ? flipped : extra) + low;
  }

  // The padded source coordinate of an unnormalized one; *grad its derivative (0 at and past the
  // clip borders, as ATen: borders count as outside for the gradient). A NaN clips to 0 with grad 0:
  // ATen's forward clips it so, its bilinear backward crashes on it (docs/reliability.md).
  T pad(T x, T* grad) const {
    T g = T(1);
    if (padding == kZeros) {
      *grad = g;
      return x;
    }
    if (padding == kReflection) x = reflect(x, &g);
    T c = clip(x);
    if (!(x > T(0) && x < max_val)) g = T(0);
    *grad = g;
    return c;
  }

  bool inside(T i) const { return i > T(-1) && i < T(size); }
};

template <typename T>
void cubic_coefficients(T t, T c[4]) {
  const T A = T(-0.75);
  T x = t + T(1);
  c[0] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
  c[1] = ((A + T(2)) * t - (A + T(3))) * t * t + T(1);
  x = T(1) - t;
  c[2] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(2) - t;
  c[3] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
}

// d c[k] / dt.
template <typename T>
void cubic_derivatives(T t, T d[4]) {
  const T A = T(-0.75);
  T x = t + T(1);
  d[0] = (T(3) * A * x - T(10) * A) * x + T(8) * A;
  d[1] = (T(3) * (A + T(2)) * t - T(2) * (A + T(3))) * t;
  x = T(1) - t;
  d[2] = -(T(3) * (A + T(2)) * x - T(2) * (A + T(3))) * x;
  x = T(2) - t;
  d[3] = -((T(3) * A * x - T(10) * A) * x + T(8) * A);
}

template <typename T>
struct Sampler {
  const grid_sample_plan& p;
  Axis<T> ax, ay;  // width (grid's x), height (grid's y)
  int64_t plane, out_plane;

  explicit Sampler(const grid_sample_plan& r)
      : p(r), ax(r.in_w, (int)r.padding, r.align_corners != 0), ay(r.in_h, (int)r.padding, r.align_corners != 0),
        plane(r.in_h * r.in_w), out_plane(r.out_h * r.out_w) {}

  // in[y][x] of one plane, 0 outside (x and y integral-valued).
  T at(const T* in, T x, T y) const {
    return ax.inside(x) && ay.inside(y) ? in[(int64_t)y * p.in_w + (int64_t)x] : T(0);
  }
  void add(T* gin, T x, T y, T v) const {
    if (ax.inside(x) && ay.inside(y)) gin[(int64_t)y * p.in_w + (int64_t)x] += v;
  }
  // A bicubic tap, padded per tap as ATen's get_value_bounded.
  T tap(const T* in, T x, T y) const {
    T unused;
    return at(in, ax.pad(x, &unused), ay.pad(y, &unused));
  }
  void add_tap(T* gin, T x, T y, T v) const {
    T unused;
    add(gin, ax.pad(x, &unused), ay.pad(y, &unused), v);
  }

  // Every output point of row (n, h): all channels.
  void forward_row(int64_t n, int64_t h) const {
    const T* grid = reinterpret_cast<const T*>(p.grid) + (n * out_plane + h * p.out_w) * 2;
    const T* input = reinterpret_cast<const T*>(p.input) + n * p.c * plane;
    T* out = reinterpret_cast<T*>(p.out) + n * p.c * out_plane + h * p.out_w;
    for (int64_t w = 0; w < p.out_w; ++w) {
      T gx = grid[2 * w], gy = grid[2 * w + 1], unused;
      if (p.mode == kBicubic) {
        T x = ax.unnormalize(gx), y = ay.unnormalize(gy);
        T x0 = std::floor(x), y0 = std::floor(y), cx[4], cy[4];
        cubic_coefficients(x - x0, cx);
        cubic_coefficients(y - y0, cy);
        for (int64_t ch = 0; ch < p.c; ++ch) {
          const T* in = input + ch * plane;
          T rows[4];
          for (int i = 0; i < 4; ++i) {
            T yy = y0 + T(i - 1);  // one rounding, as ATen's iy + (i - 1): past 2^24 in float32 two would move the tap
            rows[i] = cx[0] * tap(in, x0 - T(1), yy) + cx[1] * tap(in, x0, yy) + cx[2] * tap(in, x0 + T(1), yy) +
                      cx[3] * tap(in, x0 + T(2), yy);
          }
          out[ch * out_plane + w] = cy[0] * rows[0] + cy[1] * rows[1] + cy[2] * rows[2] + cy[3] * rows[3];
        }
        continue;
      }
      T x = ax.pad(ax.unnormalize(gx), &unused), y = ay.pad(ay.unnormalize(gy), &unused);
      if (p.mode == kNearest) {
        T xn = std::nearbyint(x), yn = std::nearbyint(y);
        for (int64_t ch = 0; ch < p.c; ++ch) out[ch * out_plane + w] = at(input + ch * plane, xn, yn);
        continue;
      }
      T x0 = std::floor(x), y0 = std::floor(y);
      T we = x - x0, ww = T(1) - we, ws = y - y0, wn = T(1) - ws;
      T nw = wn * ww, ne = wn * we, sw = ws * ww, se = ws * we;
      for (int64_t ch = 0; ch < p.c; ++ch) {
        const T* in = input + ch * plane;
        out[ch * out_plane + w] = at(in, x0, y0) * nw + at(in, x0 + T(1), y0) * ne + at(in, x0, y0 + T(1)) * sw +
                                  at(in, x0 + T(1), y0 + T(1)) * se;
      }
    }
  }

  // Sample n's gradients: grad_input's plane summed into (zeroed first), grad_grid's points written.
  void backward_sample(int64_t n) const {
    const T* grid = reinterpret_cast<const T*>(p.grid) + n * out_plane * 2;
    const T* input = reinterpret_cast<const T*>(p.input) + n * p.c * plane;
    const T* gout = reinterpret_cast<const T*>(p.grad_out) + n * p.c * out_plane;
    T* gin = p.grad_input ? reinterpret_cast<T*>(p.grad_input) + n * p.c * plane : nullptr;
    T* ggrid = p.grad_grid ? reinterpret_cast<T*>(p.grad_grid) + n * out_plane * 2 : nullptr;
    if (gin) std::memset(static_cast<void*>(gin), 0, sizeof(T) * p.c * plane);
    for (int64_t k = 0; k < out_plane; ++k) {
      T gx_in = grid[2 * k], gy_in = grid[2 * k + 1];
      T sx = T(0), sy = T(0);  // d loss / d source coordinate
      T mx, my;                // d source coordinate / d grid coordinate
      if (p.mode == kBicubic) {
        T x = ax.unnormalize(gx_in), y = ay.unnormalize(gy_in);
        mx = ax.scale;
        my = ay.scale;
        T x0 = std::floor(x), y0 = std::floor(y), cx[4], cy[4], dx[4], dy[4];
        cubic_coefficients(x - x0, cx);
        cubic_coefficients(y - y0, cy);
        cubic_derivatives(x - x0, dx);
        cubic_derivatives(y - y0, dy);
        for (int64_t ch = 0; ch < p.c; ++ch) {
          const T* in = input + ch * plane;
          T g = gout[ch * out_plane + k];
          for (int i = 0; i < 4; ++i) {
            T yy = y0 + T(i - 1);
            for (int j = 0; j < 4; ++j) {
              T xx = x0 + T(j - 1);
              if (gin) add_tap(gin + ch * plane, xx, yy, g * cx[j] * cy[i]);
              if (ggrid) {
                T v = tap(in, xx, yy) * g;
                sx += v * dx[j] * cy[i];
                sy += v * dy[i] * cx[j];
              }
            }
          }
        }
      } else {
        T x = ax.pad(ax.unnormalize(gx_in), &mx), y = ay.pad(ay.unnormalize(gy_in), &my);
        mx *= ax.scale;
        my *= ay.scale;
        if (p.mode == kNearest) {
          T xn = std::nearbyint(x), yn = std::nearbyint(y);
          if (gin)
            for (int64_t ch = 0; ch < p.c; ++ch) add(gin + ch * plane, xn, yn, gout[ch * out_plane + k]);
        } else {
          T x0 = std::floor(x), y0 = std::floor(y), x1 = x0 + T(1), y1 = y0 + T(1);
          T we = x - x0, ww = T(1) - we, ws = y - y0, wn = T(1) - ws;
          for (int64_t ch = 0; ch < p.c; ++ch) {
            const T* in = input + ch * plane;
            T g = gout[ch * out_plane + k];
            if (gin) {
              T* gi = gin + ch * plane;
              add(gi, x0, y0, wn * ww * g);
              add(gi, x1, y0, wn * we * g);
              add(gi, x0, y1, ws * ww * g);
              add(gi, x1, y1, ws * we * g);
            }
            if (ggrid) {
              T v_nw = at(in, x0, y0), v_ne = at(in, x1, y0), v_sw = at(in, x0, y1), v_se = at(in, x1, y1);
              sx += ((v_ne - v_nw) * wn + (v_se - v_sw) * ws) * g;
              sy += ((v_sw - v_nw) * ww + (v_se - v_ne) * we) * g;
            }
          }
        }
      }
      if (ggrid) {
        ggrid[2 * k] = p.mode == kNearest ? T(0) : sx * mx;
        ggrid[2 * k + 1] = p.mode == kNearest ? T(0) : sy * my;
      }
    }
  }

  void run() const {
    if (p.backward) {
      parallel_for(0, p.n, 1, [&](int64_t b, int64_t e) {
        for (int64_t n = b; n < e; ++n) backward_sample(n);
      });
      return;
    }
    // a row is out_w points of c channels each: aim for ~kGrainSize outputs per chunk
    int64_t per_row = p.out_w * (p.c > 0 ? p.c : 1), grain = per_row >= kGrainSize ? 1 : kGrainSize / (per_row > 0 ? per_row : 1);
    parallel_for(0, p.n * p.out_h, grain, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) forward_row(r / p.out_h, r % p.out_h);
    });
  }
};

}  // namespace

int grid_sample_run(const grid_sample_plan& r) {
  if (r.mode < kBilinear || r.mode > kBicubic || r.padding < kZeros || r.padding > kReflection) return JT_INVALID;
  if (r.nsp != 2 && (r.nsp != 3 || r.mode == kBicubic)) return JT_INVALID;
  if (r.n < 0 || r.c < 0 || r.in_d < 1 || r.in_h < 1 || r.in_w < 1 || r.out_d < 0 || r.out_h < 0 || r.out_w < 0) return JT_INVALID;
  if (r.nsp == 2 && (r.in_d != 1 || r.out_d != 1)) return JT_INVALID;
  const int64_t points = r.n * r.out_d * r.out_h * r.out_w;
  if (r.input == 0 && r.n * r.c > 0) return JT_INVALID;
  if ((r.backward ? r.grad_out : r.out) == 0 && points * r.c > 0) return JT_INVALID;
  if (points > 0 && r.grid == 0) return JT_INVALID;
  if (r.nsp == 3) return grid_sample_3d_run(r);
  switch ((DType)r.dtype) {
    case DType::Float32: Sampler<float>(r).run(); return JT_OK;
    case DType::Float64: Sampler<double>(r).run(); return JT_OK;
    default: return JT_NO_KERNEL;
  }
}

}  // namespace jt
